"""JSON from outside: whatever arrives, loads_json gives plain JSON or a JSONDecodeError."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from webtap.protocol import MAX_DEPTH, RequestError, loads_json, parse_request
from webtap.tools import call


@pytest.mark.parametrize(
    ("text", "literal"),
    [
        ('{"query": "ab", "count": NaN}', "NaN"),
        ('{"query": "ab", "count": Infinity}', "Infinity"),
        ('{"query": "ab", "count": -Infinity}', "-Infinity"),
        ('{"query": "ab", "count": 1e999}', "1e999"),
        ('{"query": "ab", "count": -1e400}', "-1e400"),
    ],
)
def test_non_finite_numbers_are_not_json(text: str, literal: str) -> None:
    with pytest.raises(RequestError) as caught:
        parse_request(text.encode())
    assert str(caught.value) == (
        f"stdin is not valid JSON: {literal} is not a JSON number (numbers must be finite) "
        f"at line 1 column {text.index(literal) + 1}"
    )


def test_nesting_is_capped_below_every_recursive_step() -> None:
    assert loads_json("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    with pytest.raises(json.JSONDecodeError, match=f"nested too deeply .* at most {MAX_DEPTH}"):
        loads_json(b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1))
    with pytest.raises(json.JSONDecodeError, match="nested too deeply"):
        loads_json("[" * 100_000)


def test_an_executable_refuses_nan_on_stdin_with_one_line(run_exe) -> None:
    run = run_exe("web-search-brave-tool", stdin='{"query": "physics", "count": NaN}')
    assert (run.returncode, run.stdout) == (1, "")
    assert run.stderr == (
        "web-search-brave-tool: stdin is not valid JSON: NaN is not a JSON number "
        "(numbers must be finite) at line 1 column 31\n"
    )


@pytest.mark.parametrize("number", [2**80, -0, 2**63 + 1, 10**400])
def test_huge_integers_are_range_errors(number: int) -> None:
    out = call("web_search_brave", {"query": "ab", "count": number}).response()
    assert out["error_code"] == "INVALID_INPUT" and "field 'count' must be" in out["error"]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet='[]{}":,0123456789.eE+-NaIfinty \\u', max_size=80) | st.binary(max_size=80))
def test_any_text_is_a_value_or_a_decode_error(text: str | bytes) -> None:
    try:
        loads_json(text)
    except json.JSONDecodeError:
        pass
    except UnicodeDecodeError:
        assert isinstance(text, bytes)


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=25,
)


@settings(max_examples=150, deadline=None)
@given(JSON)
def test_plain_json_round_trips(value: Any) -> None:
    text = json.dumps(value)
    assert loads_json(text) == json.loads(text)


@settings(max_examples=150, deadline=None)
@given(
    request=st.dictionaries(
        st.sampled_from(
            ["query", "count", "offset", "num", "start", "allowed_domains", "blocked_domains", "x"]
        ),
        JSON,
        max_size=5,
    )
)
def test_a_search_tool_always_answers_with_an_envelope(request: dict[str, Any]) -> None:
    # No key is configured (conftest), so nothing here reaches a network.
    for name in ("web_search_brave", "web_search_google"):
        out = call(name, request).response()
        assert isinstance(out, dict) and isinstance(out.get("success"), bool)
        assert out.get("error_code") != "INTERNAL_ERROR", out
        json.dumps(out, allow_nan=False).encode()
