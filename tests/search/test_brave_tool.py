"""web-search-brave-tool end to end: the real executable against a fake Brave on 127.0.0.1."""

from __future__ import annotations

import json

import pytest
from werkzeug import Response

from webtap.search.results import clean_text

EXE = "web-search-brave-tool"
QUOTA_MESSAGE = "Rate limit exceeded. You've used your free search quota (2,000/month)."


def only_request(server):
    assert len(server.log) == 1, [r.url for r, _ in server.log]
    return server.log[0][0]


def test_search_sends_the_exact_request_and_maps_the_results(brave, kit, run_exe) -> None:
    brave.expect_request(kit.BRAVE_PATH).respond_with_response(
        kit.recorded("brave/web_search_brave_search")
    )
    run = run_exe(EXE, stdin={"query": "brave search", "count": 20, "offset": 1})
    assert run.returncode == 0, run.stderr
    request = only_request(brave)
    assert request.method == "GET"
    assert request.path == kit.BRAVE_PATH
    assert request.args.to_dict(flat=False) == {
        "q": ["brave search"],
        "count": ["20"],
        "offset": ["1"],
    }
    assert request.headers["X-Subscription-Token"] == kit.BRAVE_KEY
    assert request.headers["Accept"] == "application/json"
    items = kit.json_of("brave/web_search_brave_search")["web"]["results"]
    assert run.json == {
        "success": True,
        "results": [
            {
                "title": clean_text(i["title"]),
                "url": i["url"],
                "snippet": clean_text(i["description"]),
            }
            for i in items
        ],
        "count": len(items),
    }
    assert run.json["results"][0]["snippet"].startswith("Brave Search doesn’t track you")
    assert run.stderr == ""


def test_defaults_are_sent_and_count_caps_the_results(brave, kit, run_exe) -> None:
    brave.expect_request(kit.BRAVE_PATH).respond_with_response(
        kit.recorded("brave/web_search_physics")
    )
    run = run_exe(EXE, stdin={"query": "Physics", "count": 3})
    assert only_request(brave).args.to_dict() == {"q": "Physics", "count": "3", "offset": "0"}
    assert run.json["count"] == 3 and len(run.json["results"]) == 3


def test_domains_are_filtered_after_the_search(brave, kit, run_exe) -> None:
    brave.expect_request(kit.BRAVE_PATH).respond_with_response(
        kit.recorded("brave/web_search_brave_search")
    )
    run = run_exe(
        EXE,
        stdin={
            "query": "brave search",
            "count": 20,
            "allowed_domains": ["BRAVE.com"],
            "blocked_domains": ["search.brave.com."],
        },
    )
    urls = [r["url"] for r in run.json["results"]]
    assert urls and all("brave.com/" in u for u in urls)
    assert not any(u.startswith("https://search.brave.com") for u in urls)
    assert "allowed" not in json.dumps(only_request(brave).args.to_dict())


def test_no_web_section_is_success_with_no_results(brave, kit, run_exe) -> None:
    brave.expect_request(kit.BRAVE_PATH).respond_with_json({"type": "search", "query": {}})
    assert run_exe(EXE, stdin={"query": "nothing at all"}).json == {
        "success": True,
        "results": [],
        "count": 0,
    }


def test_a_result_without_url_is_dropped(brave, kit, run_exe) -> None:
    body = {
        "type": "search",
        "web": {"results": [{"title": "x"}, {"title": "y", "url": "https://y.org/"}]},
    }
    brave.expect_request(kit.BRAVE_PATH).respond_with_json(body)
    run = run_exe(EXE, stdin={"query": "two"})
    assert run.json["results"] == [{"title": "y", "url": "https://y.org/", "snippet": ""}]


@pytest.mark.parametrize(
    ("response", "fragment"),
    [
        ("brave/error_422_token_invalid", "SUBSCRIPTION_TOKEN_INVALID"),
        (Response('{"message": "Unauthorized"}', status=401), "HTTP 401"),
        (Response("Forbidden", status=403), "HTTP 403"),
    ],
)
def test_rejected_keys_are_auth_invalid(brave, kit, run_exe, response, fragment) -> None:
    answer = kit.recorded(response) if isinstance(response, str) else response
    brave.expect_request(kit.BRAVE_PATH).respond_with_response(answer)
    run = run_exe(EXE, stdin={"query": "test"})
    assert run.returncode == 0
    assert run.json["error_code"] == "AUTH_INVALID"
    assert fragment in run.json["error"] and "BRAVE_API_KEY" in run.json["error"]


def test_an_offset_brave_rejects_is_a_clear_invalid_input(brave, kit, run_exe) -> None:
    brave.expect_request(kit.BRAVE_PATH).respond_with_response(
        kit.recorded("brave/error_422_validation")
    )
    run = run_exe(EXE, stdin={"query": "test", "offset": 12})
    assert run.json["error_code"] == "INVALID_INPUT"
    assert "'offset' must be between 0 and 9" in run.json["error"]
    assert "page number" in run.json["error"] and "got 12" in run.json["error"]


def test_a_short_rate_limit_is_waited_out_once(brave, kit, run_exe) -> None:
    limited = kit.recorded("brave/error_429_rate_limited")
    ok = kit.recorded("brave/web_search_physics")
    brave.expect_request(kit.BRAVE_PATH).respond_with_handler(kit.sequence(limited, ok))
    run = run_exe(EXE, stdin={"query": "Physics"})
    assert run.json["success"] is True
    assert len(brave.log) == 2


def test_a_rate_limit_that_persists_is_rate_limit_without_event(brave, kit, run_exe) -> None:
    brave.expect_request(kit.BRAVE_PATH).respond_with_response(
        kit.recorded("brave/error_429_rate_limited")
    )
    run = run_exe(EXE, stdin={"query": "Physics"})
    assert run.json["error_code"] == "RATE_LIMIT"
    assert "allows 1 request(s) per second" in run.json["error"]
    assert "_event" not in run.json
    assert len(brave.log) == 2


def test_a_long_rate_limit_wait_is_not_waited(brave, kit, run_exe) -> None:
    limited = kit.recorded("brave/error_429_rate_limited")
    limited.headers["X-RateLimit-Reset"] = "30, 1419704"
    brave.expect_request(kit.BRAVE_PATH).respond_with_response(limited)
    run = run_exe(EXE, stdin={"query": "Physics"})
    assert run.json["error_code"] == "RATE_LIMIT" and "30 s" in run.json["error"]
    assert len(brave.log) == 1


@pytest.mark.parametrize("google_ready", [False, True])
def test_the_monthly_quota_is_the_spec_message_and_an_event(
    brave, kit, run_exe, monkeypatch, google_ready
) -> None:
    if google_ready:
        monkeypatch.setenv("GOOGLE_SEARCH_API_KEY", kit.GOOGLE_KEY)
        monkeypatch.setenv("GOOGLE_SEARCH_ENGINE_ID", kit.ENGINE_ID)
    brave.expect_request(kit.BRAVE_PATH).respond_with_response(
        kit.recorded("brave/error_429_quota_limited")
    )
    run = run_exe(EXE, stdin={"query": "test"})
    assert len(brave.log) == 1  # a used-up quota is not retried
    out = run.json
    assert (out["success"], out["error"], out["error_code"]) == (False, QUOTA_MESSAGE, "RATE_LIMIT")
    event = out["_event"]
    assert event["kind"] == "rate_limited"
    # Nothing set up: SearXNG is suggested first (no key, no quota; Google closes in 2027).
    expected = "web_search_google" if google_ready else "web_search_searxng"
    assert event["data"]["alternative_tool"] == expected
    assert event["data"]["alternative_configured"] is google_ready
    assert event["data"]["resets_in_seconds"] == 1419704
    assert "resets in 16 d 10 h" in event["content"]
    assert ("is configured" in event["content"]) is google_ready


def test_a_server_error_is_retried_once(brave, kit, run_exe) -> None:
    flaky = kit.json_response({"type": "ErrorResponse", "error": {"detail": "x"}}, status=502)
    brave.expect_request(kit.BRAVE_PATH).respond_with_handler(
        kit.sequence(flaky, kit.recorded("brave/web_search_physics"))
    )
    assert run_exe(EXE, stdin={"query": "Physics"}).json["success"] is True
    assert len(brave.log) == 2


@pytest.mark.parametrize(
    ("response", "requests", "fragment"),
    [
        (
            Response(
                '{"type":"ErrorResponse","error":{"code":"INTERNAL","detail":"Backend down"}}',
                status=503,
            ),
            2,
            "HTTP 503 INTERNAL): Backend down",
        ),
        (
            Response('{"type":"ErrorResponse","error":{"detail":"No such plan"}}', status=400),
            1,
            "HTTP 400): No such plan",
        ),
        (
            Response("<html><body>Bad gateway</body></html>", status=502, content_type="text/html"),
            2,
            "not JSON (text/html",
        ),
    ],
)
def test_other_errors_are_api_errors_with_the_providers_words(
    brave, kit, run_exe, response, requests, fragment
) -> None:
    brave.expect_request(kit.BRAVE_PATH).respond_with_response(response)
    run = run_exe(EXE, stdin={"query": "test"})
    assert run.json["error_code"] == "API_ERROR"
    assert fragment in run.json["error"]
    assert len(brave.log) == requests


@pytest.mark.parametrize(
    "body",
    [
        b'{"type": "search", "web": {"results": [{"url": "https://a',  # truncated
        b"<!doctype html><title>Maintenance</title>",
        b'{"type": "search", "web": {"results": {"url": "https://a.b/"}}}',
        b"[]",
        b"",
    ],
)
def test_a_malformed_response_is_an_api_error_not_a_crash(brave, kit, run_exe, body) -> None:
    brave.expect_request(kit.BRAVE_PATH).respond_with_data(body, content_type="application/json")
    run = run_exe(EXE, stdin={"query": "test"})
    assert run.returncode == 0 and "Traceback" not in run.stderr
    assert run.json["success"] is False and run.json["error_code"] == "API_ERROR"


def test_connection_refused_is_a_network_error(kit, run_exe, monkeypatch, unused_port) -> None:
    monkeypatch.setenv("BRAVE_API_KEY", kit.BRAVE_KEY)
    monkeypatch.setenv("BRAVE_SEARCH_URL", f"http://127.0.0.1:{unused_port}/res/v1/web/search")
    run = run_exe(EXE, stdin={"query": "test"})
    assert run.json["error_code"] == "NETWORK_ERROR"
    # The endpoint's host is named: it may be BRAVE_SEARCH_URL's rather than Brave's own.
    assert run.json["error"] == "Brave Search at 127.0.0.1: connection refused"


def test_a_slow_provider_hits_the_call_deadline(brave, kit, run_exe, monkeypatch) -> None:
    def slow(request):
        import time

        time.sleep(0.8)
        return kit.recorded("brave/web_search_physics")

    brave.expect_request(kit.BRAVE_PATH).respond_with_handler(slow)
    monkeypatch.setenv("WEBTAP_SEARCH_TIMEOUT", "0.3")
    run = run_exe(EXE, stdin={"query": "test"})
    assert run.json["error_code"] == "NETWORK_ERROR"
    assert "timed out" in run.json["error"]


def test_the_key_can_come_from_the_credentials_file(
    server, kit, run_exe, monkeypatch, write_credentials
) -> None:
    monkeypatch.setenv("BRAVE_SEARCH_URL", server.url_for(kit.BRAVE_PATH))
    write_credentials({"web_search": {"brave": {"api_key": "file-key-42"}}})
    server.expect_request(kit.BRAVE_PATH).respond_with_response(
        kit.recorded("brave/web_search_physics")
    )
    assert run_exe(EXE, stdin={"query": "Physics"}).json["success"] is True
    assert only_request(server).headers["X-Subscription-Token"] == "file-key-42"


def test_a_malformed_credentials_file_is_a_config_error(kit, run_exe, write_credentials) -> None:
    path = write_credentials('{"web_search": ')
    run = run_exe(EXE, stdin={"query": "test"})
    assert run.returncode == 0
    assert run.json["error_code"] == "CONFIG_ERROR"
    assert str(path) in run.json["error"]


def test_a_bad_endpoint_variable_is_a_config_error(kit, run_exe, monkeypatch) -> None:
    monkeypatch.setenv("BRAVE_API_KEY", kit.BRAVE_KEY)
    monkeypatch.setenv("BRAVE_SEARCH_URL", "ftp://example.com/")
    run = run_exe(EXE, stdin={"query": "test"})
    assert run.json["error_code"] == "CONFIG_ERROR" and "BRAVE_SEARCH_URL" in run.json["error"]
