"""The ask loop runs its tools as every front end does: an unusable events store costs no answer
(the person hears why on stderr), and a model's mistake in a call comes back to it."""

from __future__ import annotations

from typing import Any

from tests.fakes.anthropic import FakeAnthropic, message, text, tool_use

from webtap.agent import SEARCH_UNAVAILABLE, AskSettings, ask


def test_an_event_the_store_cannot_take_costs_no_answer(
    anthropic_api: FakeAnthropic, brave: Any, tmp_path, monkeypatch, capsys
) -> None:
    monkeypatch.setenv("WEBTAP_DB", str(tmp_path))  # a folder: SQLite cannot open it
    brave.answer("error_429_quota_limited", 429)
    anthropic_api.queue(
        message(tool_use("web_search", {"query": "x"}), stop_reason="tool_use"),
        message(text("from what I know")),
    )

    answer = ask("q", settings=AskSettings(max_retries=2), session_id="ask-test")

    assert answer.text == "from what I know"
    (event,) = answer.events
    assert event["kind"] == "rate_limited"  # still the person's, in the answer
    assert answer.tool_results[0].content == SEARCH_UNAVAILABLE
    err = capsys.readouterr().err
    assert f"webtap: could not store the tool's event: Cannot use {tmp_path}" in err


def test_a_search_the_model_asked_for_wrongly_tells_it_what_to_fix(
    anthropic_api: FakeAnthropic, brave: Any
) -> None:
    """Search and fetch run the same way, and the model's own mistake comes back to it."""
    anthropic_api.queue(
        message(tool_use("web_search", {"q": "x"}), stop_reason="tool_use"),
        message(text("ok")),
    )

    answer = ask("q", settings=AskSettings(max_retries=2, store_events=False))

    (reply,) = answer.tool_results
    assert reply.is_error and reply.content.startswith("Missing required parameter 'query'")
    (block,) = [b for b in anthropic_api.bodies[1]["messages"][-1]["content"]]
    assert block["is_error"] is True and block["content"] == reply.content
    assert brave.log == []  # nothing was sent to the provider
