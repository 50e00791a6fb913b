module example.com/mocktest

go 1.19
