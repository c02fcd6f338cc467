"""Retry advice on the one error tree: added envelope fields, the spec's three unchanged."""

from __future__ import annotations

import pytest

from webtap.errors import (
    RETRY_WITH,
    Advice,
    Blocked,
    HTTPError,
    NetworkError,
    NoContent,
    RobotsDisallowed,
    WebtapError,
    explain,
)
from webtap.verdict import retry_after, status_advice


def test_an_error_without_advice_is_the_specs_envelope_exactly() -> None:
    assert NetworkError("Failed to fetch URL: Connection timeout").to_response() == {
        "success": False,
        "error": "Failed to fetch URL: Connection timeout",
        "error_code": "NETWORK_ERROR",
    }


def test_advice_is_a_field_of_its_own_and_the_message_stays_exact() -> None:
    # The spec compares "HTTP 404: Not Found" exactly (DESIGN decision 19, issue 32).
    advice = Advice(True, "later", "Try again later.", retry_after=30.0)
    error = HTTPError("HTTP 503: Service Unavailable", advice=advice)
    assert error.message == str(error) == "HTTP 503: Service Unavailable"
    assert error.to_response() == {
        "success": False,
        "error": "HTTP 503: Service Unavailable",
        "error_code": "HTTP_ERROR",
        "retryable": True,
        "retry_with": "later",
        "advice": "Try again later.",
        "retry_after": 30.0,
    }


def test_webtaps_own_texts_say_the_message_then_the_advice_once() -> None:
    advice = Advice(True, "later", "Try again later.")
    error = HTTPError("HTTP 503: Service Unavailable", advice=advice)
    assert error.explained == "HTTP 503: Service Unavailable. Try again later."
    assert HTTPError(error.explained, advice=advice).explained == error.explained
    said = NoContent("The page is empty.", advice=Advice(False, None, "Nothing helps."))
    assert said.explained == "The page is empty. Nothing helps."
    assert NoContent("no", advice=Advice(False, None)).explained == "no"
    assert "advice" not in NoContent("no", advice=Advice(False, None)).to_response()
    assert explain("HTTP 404: Not Found", None) == "HTTP 404: Not Found"


def test_nothing_would_help_is_said_as_null() -> None:
    response = WebtapError("x", advice=Advice(False, None)).to_response()
    assert response["retryable"] is False and response["retry_with"] is None
    assert "retry_after" not in response


def test_details_never_replace_the_specs_fields() -> None:
    details = {"success": True, "error_code": "OK", "error": "", "verdict": "login"}
    response = NoContent("no", details=details).to_response()
    assert response["success"] is False and response["error_code"] == "NO_CONTENT"
    assert response["error"] == "no" and response["verdict"] == "login"


def test_the_event_stays_with_advice() -> None:
    event = {"kind": "rate_limited", "content": "wait", "data": {}}
    response = WebtapError("x", event=event, advice=Advice(True, "later")).to_response()
    assert response["_event"] == event and response["retry_with"] == "later"


def test_retry_with_is_one_of_the_named_changes() -> None:
    assert RETRY_WITH == ("later", "render", "credentials", "another_url")
    with pytest.raises(ValueError, match="retry_with"):
        WebtapError("x", advice=Advice(False, "pray"))


def test_the_new_codes() -> None:
    assert (Blocked.code, NoContent.code, RobotsDisallowed.code) == (
        "BLOCKED",
        "NO_CONTENT",
        "ROBOTS_DISALLOWED",
    )


@pytest.mark.parametrize(
    ("status", "retryable", "retry_with"),
    [
        (404, False, "another_url"),
        (410, False, "another_url"),
        (401, False, "credentials"),
        (403, False, "another_url"),
        (429, True, "later"),
        (503, True, "later"),
        (522, True, "later"),
        (400, False, "another_url"),
        (501, False, "another_url"),
    ],
)
def test_advice_by_status(status, retryable, retry_with) -> None:
    advice = status_advice(status)
    assert (advice.retryable, advice.retry_with) == (retryable, retry_with)
    assert advice.hint


def test_retry_after_in_seconds_or_as_a_date() -> None:
    assert retry_after({"retry-after": "120"}) == 120.0
    assert retry_after({"retry-after": "999999"}) == 86400.0
    assert retry_after({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}) == 0.0  # past
    assert retry_after({"retry-after": "soon"}) is None
    assert retry_after({}) is None
    advice = status_advice(429, 120.0)
    assert advice.retry_after == 120.0 and "wait 120 s" in advice.hint
