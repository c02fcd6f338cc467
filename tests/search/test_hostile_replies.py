"""Provider replies a real provider would never send still end as clear errors, not bugs."""

from __future__ import annotations

import pytest
from werkzeug import Response

from webtap.tools import call


@pytest.mark.parametrize("reset", ["inf, inf", "1, 1e300", "nan, nan", "1, " + "9" * 400])
def test_a_monthly_reset_that_is_no_time_still_gives_the_quota_message(
    brave, kit, reset: str
) -> None:
    limited = kit.recorded("brave/error_429_quota_limited")
    limited.headers["X-RateLimit-Reset"] = reset
    brave.expect_request(kit.BRAVE_PATH).respond_with_response(limited)
    out = call("web_search_brave", {"query": "test"}).response()
    assert out["error_code"] == "RATE_LIMIT"
    assert out["_event"]["data"]["resets_in_seconds"] is None  # unknown, not a crash


@pytest.mark.parametrize("tool", ["web_search_brave", "web_search_google"])
def test_a_body_that_is_not_gzip_is_a_network_error(brave, google, kit, tool: str) -> None:
    garbage = Response(
        b"\x1f\x8b\x08\x00garbage" * 10,
        headers={"Content-Type": "application/json", "Content-Encoding": "gzip"},
    )
    brave.expect_request(kit.BRAVE_PATH).respond_with_response(garbage)
    google.expect_request(kit.GOOGLE_PATH).respond_with_response(garbage)
    out = call(tool, {"query": "test"}).response()
    assert out["error_code"] == "NETWORK_ERROR"
    assert "the response could not be decompressed" in out["error"]
    assert "Unexpected error" not in out["error"]


@pytest.mark.parametrize("literal", [b"NaN", b"Infinity", b"1e999"])
def test_a_body_with_non_finite_numbers_is_not_json(brave, kit, literal: bytes) -> None:
    body = b'{"type":"search","web":{"results":[{"url":"https://a.example","title":%s}]}}'
    brave.expect_request(kit.BRAVE_PATH).respond_with_response(
        Response(body % literal, headers={"Content-Type": "application/json"})
    )
    out = call("web_search_brave", {"query": "test"}).response()
    assert out["error_code"] == "API_ERROR"
    assert "not JSON" in out["error"]


@pytest.mark.parametrize("tool", ["web_search_brave", "web_search_google"])
def test_a_query_too_long_for_a_url_is_invalid_input(brave, google, tool: str) -> None:
    out = call(tool, {"query": "x" * 70_000}).response()
    assert out["error_code"] == "INVALID_INPUT"
    assert "the request is too long to send to" in out["error"]
    assert "shorten the query" in out["error"]
    assert brave.log == [] and google.log == []  # refused before sending
