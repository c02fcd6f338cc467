"""``webtap ask`` as a person runs it: the real command against the fake API and fake Brave."""

from __future__ import annotations

from typing import Any

from tests.fakes.anthropic import FakeAnthropic, message, text, tool_use
from tests.fakes.brave import FakeBrave


def test_the_answer_goes_to_stdout_and_the_tool_call_to_stderr(
    run_exe: Any, anthropic_api: FakeAnthropic, brave: Any
) -> None:
    anthropic_api.queue(
        message(tool_use("web_search", {"query": "brave search"}), stop_reason="tool_use"),
        message(text("Brave Search is private.")),
    )

    run = run_exe("webtap", "ask", "What is Brave Search?", "--context", "search engines")

    assert run.returncode == 0, run.stderr
    assert run.stdout == "Brave Search is private.\n"
    assert '→ web_search {"query": "brave search"}' in run.stderr
    assert "← web_search: 5 results" in run.stderr
    assert FakeBrave.KEY not in run.stdout + run.stderr
    first = anthropic_api.bodies[0]["messages"][0]["content"]
    assert first == "Context: search engines\n\nQuestion: What is Brave Search?"


def test_json_output_and_options(run_exe: Any, anthropic_api: FakeAnthropic) -> None:
    run = run_exe(
        "webtap",
        "ask",
        "q",
        "--model",
        "claude-x",
        "--max-tokens",
        "7",
        "--max-tool-calls",
        "0",
        "--json",
    )

    assert run.returncode == 0, run.stderr
    out = run.json
    assert out["answer"] == "[claude-x|7] Context: \n\nQuestion: q"
    assert out["stop_reason"] == "end_turn"
    assert out["tool_calls"] == []
    assert "tools" not in anthropic_api.bodies[0]


def test_a_rate_limit_event_is_shown_in_the_terminal(
    run_exe: Any, anthropic_api: FakeAnthropic, brave: Any
) -> None:
    brave.answer("error_429_quota_limited", 429)
    anthropic_api.queue(
        message(tool_use("web_search", {"query": "x"}), stop_reason="tool_use"),
        message(text("from memory")),
    )

    run = run_exe("webtap", "ask", "q")

    assert run.returncode == 0, run.stderr
    assert run.stdout == "from memory\n"
    assert "✗ web_search:" in run.stderr
    events = run_exe("webtap", "events", "--json")
    assert [e["kind"] for e in events.json] == ["rate_limited"]


def test_errors_are_one_clear_line(run_exe: Any) -> None:
    run = run_exe("webtap", "ask", "q")

    assert run.returncode == 1
    assert run.stdout == ""
    assert run.stderr.startswith("webtap: No Anthropic API key found.")
    assert "Traceback" not in run.stderr


def test_a_blank_question_is_refused_before_any_call(
    run_exe: Any, anthropic_api: FakeAnthropic
) -> None:
    run = run_exe("webtap", "ask", "  ", "--context", "c")

    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == (
        'webtap: the question is empty: ask something, e.g. webtap ask "What is DuckDB?"\n'
    )
    assert anthropic_api.requests == []
