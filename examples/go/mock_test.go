// A go test suite run against the mock by examples/ci-step.sh, which exports MOCK_URL:
//
//	cd go && MOCK_CMD=../messaging-api-mock-linux-x64 sh ../ci-step.sh go test ./...
package mocktest

import (
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"
)

func call(t *testing.T, method, path, body, token string) map[string]any {
	t.Helper()
	req, err := http.NewRequest(method, os.Getenv("MOCK_URL")+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("%s %s: %d", method, path, res.StatusCode)
	}
	out := map[string]any{}
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestListsTheAdmins(t *testing.T) {
	if got := call(t, "GET", "/admins", "", "demo-token")["type"]; got != "admin.list" {
		t.Fatalf("type %v", got)
	}
}

func TestCreatesAUserInAnAppOfItsOwn(t *testing.T) {
	// A test_ token gets a fresh app: nothing another test did is in it.
	call(t, "POST", "/users", `{"user_id":"go-1","email":"go@example.com"}`, "test_gotest")
	if got := call(t, "GET", "/users?user_id=go-1", "", "test_gotest")["email"]; got != "go@example.com" {
		t.Fatalf("email %v", got)
	}
}
