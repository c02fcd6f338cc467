"""Issue 14 for the search tools: whole-number floats, huge integers, capped and redacted bodies."""

from __future__ import annotations

import html
import json
import urllib.parse

import pytest

from webtap.tools import call

HUGE = "1" * 5000


def test_whole_number_floats_are_sent_as_integers(brave, google, kit) -> None:
    brave.expect_request(kit.BRAVE_PATH).respond_with_response(
        kit.recorded("brave/web_search_physics")
    )
    out = call("web_search_brave", {"query": "Physics", "count": 3.0, "offset": 1.0}).response()
    assert out["success"] and out["count"] == 3
    google.expect_request(kit.GOOGLE_PATH).respond_with_json({"items": []})
    out = call("web_search_google", {"query": "Physics", "num": 3.0, "start": 1.0}).response()
    assert out["success"], out
    sent = [request.args.to_dict() for request, _ in brave.log]
    assert sent[0]["count"] == "3" and sent[0]["offset"] == "1"
    assert sent[1]["num"] == "3" and sent[1]["start"] == "1"


def test_a_huge_integer_in_the_credentials_file_is_config_error(write_credentials) -> None:
    write_credentials(f'{{"web_search": {{"brave": {{"api_key": {HUGE}}}}}}}')
    out = call("web_search_brave", {"query": "Physics"}).response()
    assert out["error_code"] == "CONFIG_ERROR"
    assert "an integer of 5000 digits is too long" in out["error"]


ODD_KEY = "AIza+key/with=odd&chars%41-0123456789"


@pytest.mark.parametrize(
    "encode",
    [
        lambda key: key,
        lambda key: urllib.parse.quote(key, safe=""),
        lambda key: urllib.parse.quote_plus(key),
        lambda key: urllib.parse.quote(key, safe="").lower(),  # lower-case hex
        lambda key: json.dumps(key).strip('"').replace("/", "\\/"),
        lambda key: html.escape(key),
    ],
)
@pytest.mark.parametrize("pad", [0, 40, 70, 75, 190, 195])
def test_a_key_echoed_in_any_encoding_at_any_cut_never_leaks(
    google, kit, monkeypatch, encode, pad: int
) -> None:
    monkeypatch.setenv("GOOGLE_SEARCH_API_KEY", ODD_KEY)
    body = "x" * pad + f" bad key={encode(ODD_KEY)} rest of the page"
    for content_type in ("text/html", "application/json"):
        google.clear()
        google.expect_request(kit.GOOGLE_PATH).respond_with_data(
            body if content_type == "text/html" else json.dumps({"oops": body}),
            status=400,
            content_type=content_type,
        )
        out = call("web_search_google", {"query": "Physics"}).response()
        assert out["success"] is False
        text = json.dumps(out)
        for fragment in (ODD_KEY[:12], "key%2Fwith", "key/with", "key\\\\/with", "odd&amp;"):
            assert fragment not in text, (fragment, text)


def test_a_non_json_200_is_quoted_redacted(brave, kit) -> None:
    brave.expect_request(kit.BRAVE_PATH).respond_with_data(
        "y" * 70 + kit.BRAVE_KEY + " and more", status=200, content_type="text/plain"
    )
    out = call("web_search_brave", {"query": "Physics"}).response()
    assert out["error_code"] == "API_ERROR" and kit.BRAVE_KEY[:6] not in json.dumps(out)
