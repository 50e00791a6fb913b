# A pytest suite run against the mock by examples/ci-step.sh, which exports MOCK_URL:
#   MOCK_CMD=./messaging-api-mock-linux-x64 sh ci-step.sh python3 -m pytest -q python
import json
import os
import urllib.request

MOCK_URL = os.environ["MOCK_URL"]


def call(method, path, body=None, token="demo-token"):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(MOCK_URL + path, data=data, method=method, headers={
        "Authorization": "Bearer " + token,
        "Accept": "application/json",
        "Content-Type": "application/json",
    })
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def test_lists_the_admins():
    assert call("GET", "/admins")["type"] == "admin.list"


def test_creates_a_user_in_an_app_of_its_own():
    # A test_ token gets a fresh app: nothing another test did is in it.
    user = call("POST", "/users", {"user_id": "py-1", "email": "py@example.com"}, token="test_pytest")
    assert user["user_id"] == "py-1"
    assert call("GET", "/users?user_id=py-1", token="test_pytest")["email"] == "py@example.com"
