"""Issue 12, break 4: every error text that reaches SQL is scrubbed of keys, whatever path it
took (an exception in the ask loop, a webtap error, a setting function, the API's own body)."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest
from tests.fakes.anthropic import API_KEY, FakeAnthropic, error


def fresh_key() -> str:
    """A key no earlier test has shown to webtap (redaction remembers keys process-wide)."""
    return f"BSA-never-seen-{uuid.uuid4().hex}"


def raising(exc: BaseException) -> Any:
    def ask(*args: Any, **kwargs: Any) -> Any:
        raise exc

    return ask


@pytest.mark.parametrize("kind", ["a bug", "a webtap error"])
def test_an_exception_in_the_ask_loop_carrying_a_key_is_scrubbed(
    con: Any, anthropic_api: FakeAnthropic, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    from webtap.errors import NetworkError

    key = fresh_key()  # only in the environment: redacted because it is a key in effect
    monkeypatch.setenv("BRAVE_API_KEY", key)
    said = f"upstream said: bad key {key} (sent as {key.replace('-', '%2D')})"
    monkeypatch.setattr(
        "webtap.agent.ask", raising(RuntimeError(said) if kind == "a bug" else NetworkError(said))
    )

    answer = con.one("SELECT stps_ask_ai('c', 'q')")

    prefix = "ERROR: RuntimeError: " if kind == "a bug" else "ERROR: "
    assert answer == f"{prefix}upstream said: bad key *** (sent as ***)"


def test_a_setting_function_error_carrying_a_key_is_scrubbed(con: Any, tmp_path: Path) -> None:
    key = fresh_key()
    (tmp_path / "file").write_text("not a folder")
    con.execute(f"SELECT stps_set_brave_api_key('{key}')")

    # The path names the key: the error about it must not.
    answer = con.one(f"SELECT stps_set_cache('{tmp_path}/file/{key}/answers.sqlite')")

    assert answer.startswith(f"ERROR: Cannot use {tmp_path}/file/***/answers.sqlite as the answer")
    assert key not in answer


def test_the_api_echoing_the_key_in_an_error_body_is_scrubbed(
    con: Any, anthropic_api: FakeAnthropic
) -> None:
    anthropic_api.queue(error(400, "invalid_request_error", f"key {API_KEY} is not allowed"))

    answer = con.one("SELECT stps_ask_ai('c', 'q')")

    assert answer.startswith("ERROR: ") and "is not allowed" in answer
    assert API_KEY not in answer


def test_every_error_value_goes_through_one_redaction() -> None:
    from webtap.errors import ConfigError
    from webtap.sql import error_value

    key = fresh_key()
    assert error_value(RuntimeError(f"x {key}"), [key]) == "ERROR: RuntimeError: x ***"
    assert error_value(ConfigError(f"y {key}"), [key]) == "ERROR: y ***"
    assert error_value(f"z {key}", [key]) == "ERROR: z ***"
    assert error_value(f"z {key}") == f"ERROR: z {key}"  # neither given nor known: not a key
