# A minitest suite run against the mock by examples/ci-step.sh, which exports MOCK_URL:
#   MOCK_CMD=./messaging-api-mock-linux-x64 sh ci-step.sh ruby ruby/test_mock.rb
require "json"
require "minitest/autorun"
require "net/http"

class MockTest < Minitest::Test
  def call(method, path, body = nil, token: "demo-token")
    uri = URI(ENV.fetch("MOCK_URL") + path)
    request = Net::HTTP.const_get(method.capitalize).new(uri)
    request["Authorization"] = "Bearer #{token}"
    request["Accept"] = "application/json"
    request["Content-Type"] = "application/json"
    request.body = JSON.generate(body) if body
    response = Net::HTTP.start(uri.hostname, uri.port, use_ssl: uri.scheme == "https") { |http| http.request(request) }
    assert_equal "200", response.code
    JSON.parse(response.body)
  end

  def test_lists_the_admins
    assert_equal "admin.list", call("GET", "/admins")["type"]
  end

  def test_creates_a_user_in_an_app_of_its_own
    # A test_ token gets a fresh app: nothing another test did is in it.
    call("POST", "/users", { user_id: "rb-1", email: "rb@example.com" }, token: "test_minitest")
    assert_equal "rb@example.com", call("GET", "/users?user_id=rb-1", token: "test_minitest")["email"]
  end
end
