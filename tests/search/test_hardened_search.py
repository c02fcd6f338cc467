"""Issue 14 for the search tools: whole-number floats, huge integers, capped and redacted bodies."""

from __future__ import annotations

from webtap.tools import call

HUGE = "1" * 5000


def test_whole_number_floats_are_sent_as_integers(brave, google, kit) -> None:
    brave.expect_request(kit.BRAVE_PATH).respond_with_response(
        kit.recorded("brave/web_search_physics")
    )
    out = call("web_search_brave", {"query": "Physics", "count": 3.0, "offset": 1.0})
    assert out["success"] and out["count"] == 3
    google.expect_request(kit.GOOGLE_PATH).respond_with_json({"items": []})
    out = call("web_search_google", {"query": "Physics", "num": 3.0, "start": 1.0})
    assert out["success"], out
    sent = [request.args.to_dict() for request, _ in brave.log]
    assert sent[0]["count"] == "3" and sent[0]["offset"] == "1"
    assert sent[1]["num"] == "3" and sent[1]["start"] == "1"


def test_a_huge_integer_in_the_credentials_file_is_config_error(write_credentials) -> None:
    write_credentials(f'{{"web_search": {{"brave": {{"api_key": {HUGE}}}}}}}')
    out = call("web_search_brave", {"query": "Physics"})
    assert out["error_code"] == "CONFIG_ERROR"
    assert "an integer of 5000 digits is too long" in out["error"]
