"""web-search-google-tool end to end: the real executable against a fake Google on 127.0.0.1."""

from __future__ import annotations

import threading

import pytest
from werkzeug import Request, Response

EXE = "web-search-google-tool"
QUOTA_MESSAGE = "Rate limit exceeded. You've used your free search quota (100/day)."


def args_of(server) -> list[dict[str, str]]:
    return [request.args.to_dict() for request, _ in server.log]


def items(*urls: str) -> dict:
    return {
        "kind": "customsearch#search",
        "items": [{"title": f"T {u}", "link": u, "snippet": f"S {u}"} for u in urls],
    }


def test_search_sends_the_exact_request_and_maps_the_results(google, kit, run_exe) -> None:
    google.expect_request(kit.GOOGLE_PATH).respond_with_response(
        kit.recorded("google/customsearch_javascript")
    )
    run = run_exe(EXE, stdin={"query": "javascript", "num": 10, "start": 11})
    assert run.returncode == 0, run.stderr
    ((request, _),) = google.log
    assert request.path == kit.GOOGLE_PATH
    assert request.args.to_dict(flat=False) == {
        "key": [kit.GOOGLE_KEY],
        "cx": [kit.ENGINE_ID],
        "q": ["javascript"],
        "num": ["10"],
        "start": ["11"],
    }
    assert request.headers["Accept"] == "application/json"
    body = kit.json_of("google/customsearch_javascript")
    assert run.json["count"] == len(body["items"]) == 10
    first = run.json["results"][0]
    assert first == {
        "title": "JavaScript.com",
        "url": "https://www.javascript.com/",
        "snippet": body["items"][0]["snippet"].replace("\u00a0", " "),
    }


def test_no_items_is_success_with_no_results(google, kit, run_exe) -> None:
    google.expect_request(kit.GOOGLE_PATH).respond_with_json(
        {"kind": "customsearch#search", "searchInformation": {"totalResults": "0"}}
    )
    assert run_exe(EXE, stdin={"query": "zzqx"}).json == {
        "success": True,
        "results": [],
        "count": 0,
    }


def test_one_allowed_domain_uses_site_search(google, kit, run_exe) -> None:
    google.expect_request(kit.GOOGLE_PATH).respond_with_json(
        items("https://docs.python.org/3/", "https://evil.example/python.org")
    )
    run = run_exe(EXE, stdin={"query": "asyncio", "num": 5, "allowed_domains": ["Python.org"]})
    (args,) = args_of(google)
    assert (args["siteSearch"], args["siteSearchFilter"], args["num"]) == ("python.org", "i", "5")
    # Whatever Google sends back is still held to the allowed domain.
    assert [r["url"] for r in run.json["results"]] == ["https://docs.python.org/3/"]


def test_one_blocked_domain_uses_site_search_exclude(google, kit, run_exe) -> None:
    google.expect_request(kit.GOOGLE_PATH).respond_with_json(items("https://a.org/"))
    run_exe(EXE, stdin={"query": "asyncio", "blocked_domains": ["pinterest.com"]})
    (args,) = args_of(google)
    assert (args["siteSearch"], args["siteSearchFilter"]) == ("pinterest.com", "e")


def test_several_blocked_domains_are_filtered_afterwards(google, kit, run_exe) -> None:
    google.expect_request(kit.GOOGLE_PATH).respond_with_json(
        items("https://a.org/", "https://www.b.org/", "https://c.org/", "https://m.c.org/x")
    )
    run = run_exe(EXE, stdin={"query": "q q", "blocked_domains": ["b.org", "c.org"]})
    assert "siteSearch" not in args_of(google)[0]
    assert [r["url"] for r in run.json["results"]] == ["https://a.org/"]


def test_several_allowed_domains_fan_out_concurrently_and_merge_round_robin(
    google, kit, run_exe
) -> None:
    # Every call waits at the barrier for the other two: calls made one after another fail.
    barrier = threading.Barrier(3, timeout=10)
    pages = {
        "a.com": items("https://a.com/1", "https://a.com/2", "https://a.com/3", "https://a.com/4"),
        "b.com": items("https://b.com/1", "https://a.com/2", "https://b.com/3"),
        "c.com": items("https://c.com/1"),
    }

    def handler(request: Request) -> Response:
        barrier.wait()
        return kit.json_response(pages[request.args["siteSearch"]])

    google.expect_request(kit.GOOGLE_PATH).respond_with_handler(handler)
    run = run_exe(
        EXE, stdin={"query": "merge", "num": 10, "allowed_domains": ["a.com", "b.com", "c.com"]}
    )
    sent = {a["siteSearch"]: (a["num"], a["siteSearchFilter"]) for a in args_of(google)}
    assert sent == {"a.com": ("4", "i"), "b.com": ("3", "i"), "c.com": ("3", "i")}
    assert [r["url"] for r in run.json["results"]] == [
        "https://a.com/1",
        "https://b.com/1",
        "https://c.com/1",
        "https://a.com/2",
        "https://a.com/3",
        "https://b.com/3",
        "https://a.com/4",
    ]


def test_a_failed_domain_call_leaves_the_others_standing(google, kit, run_exe) -> None:
    def handler(request: Request) -> Response:
        if request.args["siteSearch"] == "b.com":
            return kit.json_response({"error": {"code": 400, "message": "bad"}}, status=400)
        return kit.json_response(items("https://a.com/1"))

    google.expect_request(kit.GOOGLE_PATH).respond_with_handler(handler)
    run = run_exe(EXE, stdin={"query": "merge", "num": 4, "allowed_domains": ["a.com", "b.com"]})
    assert run.json["results"][0]["url"] == "https://a.com/1"


def test_when_every_domain_call_fails_the_error_is_reported(google, kit, run_exe) -> None:
    google.expect_request(kit.GOOGLE_PATH).respond_with_response(
        kit.recorded("google/error_400_api_key_invalid")
    )
    run = run_exe(EXE, stdin={"query": "merge", "allowed_domains": ["a.com", "b.com"]})
    assert run.json["error_code"] == "AUTH_INVALID"
    assert len(google.log) == 2


@pytest.mark.parametrize(
    ("name", "code", "fragment"),
    [
        ("google/error_400_api_key_invalid", "AUTH_INVALID", "API key not valid"),
        ("google/error_403_access_not_configured", "AUTH_INVALID", "does not have the access"),
    ],
)
def test_rejected_credentials_are_auth_invalid(google, kit, run_exe, name, code, fragment) -> None:
    google.expect_request(kit.GOOGLE_PATH).respond_with_response(kit.recorded(name))
    run = run_exe(EXE, stdin={"query": "test"})
    assert (run.json["error_code"], run.returncode) == (code, 0)
    assert fragment in run.json["error"]


@pytest.mark.parametrize("name", ["google/error_403_daily_limit", "google/error_429_quota"])
@pytest.mark.parametrize("brave_ready", [False, True])
def test_the_daily_quota_is_the_spec_message_and_an_event(
    google, kit, run_exe, monkeypatch, name, brave_ready
) -> None:
    if brave_ready:
        monkeypatch.setenv("BRAVE_API_KEY", kit.BRAVE_KEY)
    google.expect_request(kit.GOOGLE_PATH).respond_with_response(kit.recorded(name))
    out = run_exe(EXE, stdin={"query": "test"}).json
    assert (out["success"], out["error"], out["error_code"]) == (False, QUOTA_MESSAGE, "RATE_LIMIT")
    event = out["_event"]
    assert event["kind"] == "rate_limited"
    assert event["data"]["alternative_tool"] == "web_search_brave"
    assert event["data"]["alternative_configured"] is brave_ready
    assert 0 < event["data"]["resets_in_seconds"] <= 25 * 3600
    assert event["data"]["resets_at"].endswith(("07:00:00Z", "08:00:00Z"))  # Pacific midnight
    assert len(google.log) == 1


def test_a_per_minute_limit_is_rate_limit_without_the_daily_text(google, kit, run_exe) -> None:
    body = {
        "error": {
            "code": 429,
            "message": "Quota exceeded for quota metric 'Queries' and limit 'Queries per minute'",
            "status": "RESOURCE_EXHAUSTED",
        }
    }
    google.expect_request(kit.GOOGLE_PATH).respond_with_json(body, status=429)
    out = run_exe(EXE, stdin={"query": "test"}).json
    assert out["error_code"] == "RATE_LIMIT"
    assert out["error"] != QUOTA_MESSAGE and "per minute" in out["error"]


def test_a_server_error_is_retried_once_then_reported(google, kit, run_exe) -> None:
    down = kit.json_response({"error": {"code": 500, "message": "Backend Error"}}, status=500)
    google.expect_request(kit.GOOGLE_PATH).respond_with_response(down)
    out = run_exe(EXE, stdin={"query": "test"}).json
    assert out["error_code"] == "API_ERROR" and "Backend Error" in out["error"]
    assert len(google.log) == 2


def test_a_server_error_then_success_succeeds(google, kit, run_exe) -> None:
    down = kit.json_response({"error": {"code": 503, "message": "Unavailable"}}, status=503)
    ok = kit.recorded("google/customsearch_testing")
    google.expect_request(kit.GOOGLE_PATH).respond_with_handler(kit.sequence(down, ok))
    assert run_exe(EXE, stdin={"query": "testing"}).json["count"] == 6


def test_another_client_error_is_an_api_error_with_googles_message(google, kit, run_exe) -> None:
    body = {"error": {"code": 400, "message": "Invalid Value", "status": "INVALID_ARGUMENT"}}
    google.expect_request(kit.GOOGLE_PATH).respond_with_json(body, status=400)
    out = run_exe(EXE, stdin={"query": "test"}).json
    assert out["error_code"] == "API_ERROR"
    assert out["error"].endswith("(HTTP 400 INVALID_ARGUMENT): Invalid Value")


@pytest.mark.parametrize(
    "body",
    [b'{"kind": "customsearch#search", "items": [', b"<html>Error 404</html>", b'"items"'],
)
def test_a_malformed_response_is_an_api_error(google, kit, run_exe, body) -> None:
    google.expect_request(kit.GOOGLE_PATH).respond_with_data(body)
    run = run_exe(EXE, stdin={"query": "test"})
    assert run.returncode == 0 and run.json["error_code"] == "API_ERROR"


def test_credentials_from_the_file(server, kit, run_exe, monkeypatch, write_credentials) -> None:
    monkeypatch.setenv("GOOGLE_SEARCH_URL", server.url_for(kit.GOOGLE_PATH))
    write_credentials({"web_search": {"google": {"api_key": "fk", "engine_id": "fcx"}}})
    server.expect_request(kit.GOOGLE_PATH).respond_with_response(
        kit.recorded("google/customsearch_test")
    )
    assert run_exe(EXE, stdin={"query": "test"}).json["count"] == 10
    (args,) = args_of(server)
    assert (args["key"], args["cx"]) == ("fk", "fcx")


def test_connection_refused_is_a_network_error(kit, run_exe, monkeypatch, unused_port) -> None:
    monkeypatch.setenv("GOOGLE_SEARCH_API_KEY", kit.GOOGLE_KEY)
    monkeypatch.setenv("GOOGLE_SEARCH_ENGINE_ID", kit.ENGINE_ID)
    monkeypatch.setenv("GOOGLE_SEARCH_URL", f"http://127.0.0.1:{unused_port}/customsearch/v1")
    out = run_exe(EXE, stdin={"query": "test"}).json
    assert out["error_code"] == "NETWORK_ERROR" and kit.GOOGLE_KEY not in out["error"]
