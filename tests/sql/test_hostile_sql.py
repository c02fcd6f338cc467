"""Arguments no one means still come back as one ERROR: text, never a Python exception."""

from __future__ import annotations

from typing import Any


def test_a_cache_path_with_a_nul_is_a_clear_error(con: Any) -> None:
    answer = con.one("SELECT stps_set_cache('a' || chr(0) || 'b')")
    assert answer.startswith("ERROR: Cannot use ")
    assert "the path contains a NUL character" in answer


def test_a_model_name_with_control_characters_is_refused(con: Any, anthropic_api: Any) -> None:
    answer = con.one("SELECT stps_ask_ai('c', 'p', 'claude' || chr(10) || 'x')")
    assert answer.startswith("ERROR: The model name") and "control characters" in answer
    assert anthropic_api.requests == []  # refused before any call


def test_keys_that_cannot_be_sent_are_refused_when_set(con: Any) -> None:
    answer = con.one("SELECT stps_set_api_key('sk-ant' || chr(10) || 'X-Evil: 1')")
    assert answer.startswith("ERROR: The Anthropic API key given is not usable")
    assert "X-Evil" not in answer


def test_settings_out_of_range_are_errors(con: Any, anthropic_api: Any) -> None:
    assert con.one("SELECT stps_set_concurrency(-1)").startswith("ERROR: concurrency must be")
    assert con.one("SELECT stps_set_concurrency(1000000000)").startswith("ERROR: concurrency")
    assert con.one("SELECT stps_ask_ai('c', 'p', 'm', 9223372036854775807)").startswith(
        "ERROR: max_tokens must be between 1 and 128000"
    )
