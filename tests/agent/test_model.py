"""The default model answers: current, not deprecated by the installed SDK, settable for every
front end, and a model the API does not serve is one clear line (CLI) or an ERROR: value (SQL)."""

from __future__ import annotations

import typing
from typing import Any

import pytest
from tests.fakes.anthropic import FakeAnthropic, error

from webtap import agent

GONE = "claude-gone-20240101"


def test_the_default_is_a_current_model_the_sdk_does_not_deprecate() -> None:
    from anthropic._data.deprecated_models import DEPRECATED_MODELS
    from anthropic.resources.messages import messages
    from anthropic.types import Model

    assert agent.DEFAULT_MODEL not in DEPRECATED_MODELS
    assert agent.DEFAULT_MODEL not in messages.DEPRECATED_MODELS
    known = typing.get_args(typing.get_args(Model)[0])
    assert agent.DEFAULT_MODEL in known


def test_webtap_model_sets_the_default_and_an_explicit_model_wins(
    anthropic_api: FakeAnthropic, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WEBTAP_MODEL", "claude-haiku-4-5")
    assert agent.ask("q").model == "claude-haiku-4-5"
    assert agent.ask("q", model="claude-opus-4-7").model == "claude-opus-4-7"
    assert [r.body["model"] for r in anthropic_api.requests] == [
        "claude-haiku-4-5",
        "claude-opus-4-7",
    ]


def test_webtap_model_in_the_cli(
    run_exe: Any, anthropic_api: FakeAnthropic, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = run_exe("webtap", "ask", "q", env={"WEBTAP_MODEL": "claude-haiku-4-5"})
    assert run.returncode == 0, run.stderr
    run = run_exe("webtap", "ask", "q", "--model", "claude-opus-4-7", env={"WEBTAP_MODEL": "x-y"})
    assert run.returncode == 0, run.stderr
    assert [r.body["model"] for r in anthropic_api.requests] == [
        "claude-haiku-4-5",
        "claude-opus-4-7",
    ]


def test_webtap_model_in_sql_and_stps_set_model_wins(
    anthropic_api: FakeAnthropic, monkeypatch: pytest.MonkeyPatch
) -> None:
    import duckdb

    import webtap.sql

    monkeypatch.setenv("WEBTAP_MODEL", "claude-haiku-4-5")
    connection = duckdb.connect()
    functions = webtap.sql.register(connection, progress=False)
    try:
        assert connection.execute("SELECT stps_get_model()").fetchone()[0] == "claude-haiku-4-5"
        connection.execute("SELECT stps_ask_ai('c', 'first')").fetchall()
        connection.execute("SELECT stps_set_model('claude-opus-4-7')").fetchall()
        connection.execute("SELECT stps_ask_ai('c', 'second')").fetchall()
        connection.execute("SELECT stps_set_model(NULL)").fetchall()
        assert connection.execute("SELECT stps_get_model()").fetchone()[0] == "claude-haiku-4-5"
    finally:
        functions.close()
        connection.close()
    assert [r.body["model"] for r in anthropic_api.requests] == [
        "claude-haiku-4-5",
        "claude-opus-4-7",
    ]


def gone(api: FakeAnthropic) -> None:
    api.responder = lambda body: error(404, "not_found_error", f"model: {body['model']}")


def test_a_model_the_api_does_not_serve_is_one_clear_line_in_the_cli(
    run_exe: Any, anthropic_api: FakeAnthropic
) -> None:
    gone(anthropic_api)
    run = run_exe("webtap", "ask", "q", "--model", GONE)
    assert run.returncode != 0
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    assert GONE in lines[0] and "404" in lines[0]
    assert "--model" in lines[0] and "WEBTAP_MODEL" in lines[0]
    assert "Traceback" not in run.stderr
    assert len(anthropic_api.requests) == 1  # never retried


def test_a_model_the_api_does_not_serve_is_an_error_value_in_sql(
    anthropic_api: FakeAnthropic,
) -> None:
    import duckdb

    import webtap.sql

    gone(anthropic_api)
    connection = duckdb.connect()
    functions = webtap.sql.register(connection, progress=False)
    try:
        (value,) = connection.execute(f"SELECT stps_ask_ai('c', 'q', '{GONE}')").fetchone()
    finally:
        functions.close()
        connection.close()
    assert value.startswith("ERROR: ")
    assert GONE in value and "stps_set_model" in value
    assert len(anthropic_api.requests) == 1
