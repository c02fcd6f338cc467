"""Issue 14: huge integers, whole-number floats and size settings, each at its one root."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from webtap.errors import ConfigError
from webtap.protocol import MAX_INT_DIGITS, RequestError, loads_json, parse_request, whole_integers
from webtap.settings import env_int
from webtap.text import escape_c1, strip_controls

HUGE = "1" * 5000  # past Python's 4,300-digit limit for int(): a plain ValueError before


@pytest.mark.parametrize("text", [f'{{"a": {HUGE}}}', f"[-{HUGE}]".encode(), f"[{'9' * 1001}]"])
def test_loads_json_makes_a_huge_integer_malformed_json(text: str | bytes) -> None:
    with pytest.raises(json.JSONDecodeError, match=f"digits is too long .at most {MAX_INT_DIGITS}"):
        loads_json(text)


def test_integers_up_to_the_cap_and_long_floats_still_read() -> None:
    assert loads_json(f"[{'9' * MAX_INT_DIGITS}]") == [int("9" * MAX_INT_DIGITS)]
    assert loads_json("[1." + "1" * 5000 + "]") == [pytest.approx(1.111111)]


def test_a_huge_integer_on_stdin_is_one_line_not_a_traceback() -> None:
    with pytest.raises(RequestError, match="stdin is not valid JSON: an integer of 5000 digits"):
        parse_request(f'{{"url": "http://x/", "offset": {HUGE}}}'.encode())


@pytest.mark.parametrize(
    "exe", ["web-fetch-tool", "web-search-brave-tool", "web-search-google-tool"]
)
def test_every_executable_refuses_a_huge_integer_cleanly(run_exe, exe: str) -> None:
    run = run_exe(exe, stdin=f'{{"url": "http://x/", "query": "q", "offset": {HUGE}}}')
    assert (run.returncode, run.stdout) == (1, "")
    assert run.stderr.startswith(f"{exe}: stdin is not valid JSON: an integer of 5000 digits")
    assert "Traceback" not in run.stderr and run.stderr.count("\n") == 1


def test_whole_integers_follows_the_schema_only() -> None:
    schema = {
        "type": "object",
        "properties": {
            "limit": {"type": "integer"},
            "either": {"type": ["integer", "null"]},
            "ratio": {"type": "number"},
            "pages": {"type": "array", "items": {"type": "integer"}},
        },
    }
    request = {"limit": 2.0, "either": 3.0, "ratio": 2.0, "pages": [1.0, 2.5], "other": 4.0}
    out = whole_integers(schema, request)
    assert out == {"limit": 2, "either": 3, "ratio": 2.0, "pages": [1, 2.5], "other": 4.0}
    assert [type(out[k]) for k in ("limit", "either", "ratio", "other")] == [int, int, float, float]
    assert type(out["pages"][0]) is int and request["limit"] == 2.0  # a copy, not in place


@pytest.mark.parametrize("raw", ["0.5", "0", "-1", "10MB", "1e6", "nan", "١٢", "9" * 30])
def test_a_size_setting_is_a_positive_whole_number_or_a_config_error(monkeypatch, raw) -> None:
    monkeypatch.setenv("WEBTAP_MAX_BYTES", raw)
    with pytest.raises(
        ConfigError, match=r"WEBTAP_MAX_BYTES must be a number above 0 .* a whole number of bytes"
    ):
        env_int("WEBTAP_MAX_BYTES", 1024, "bytes")


@pytest.mark.parametrize(("raw", "value"), [("", 1024), (" 2048 ", 2048), ("1_000_000", 10**6)])
def test_a_size_setting_reads_whole_numbers(monkeypatch, raw: str, value: int) -> None:
    monkeypatch.setenv("WEBTAP_MAX_BYTES", raw)
    assert env_int("WEBTAP_MAX_BYTES", 1024, "bytes") == value


def test_a_fractional_max_bytes_is_config_error_from_the_tool(run_exe) -> None:
    run = run_exe("web-fetch-tool", stdin={"url": "http://x/"}, env={"WEBTAP_MAX_BYTES": "0.5"})
    answer = run.json
    assert (run.returncode, answer["success"], answer["error_code"]) == (0, False, "CONFIG_ERROR")
    assert "WEBTAP_MAX_BYTES" in answer["error"]


def test_controls_are_stripped_and_c1_escaped_in_json() -> None:
    hostile = "a\x1b]52;c;cHduZWQ=\x07b\x9b2Jc\x7fd\te\n"
    assert strip_controls(hostile) == "a]52;c;cHduZWQ=b2Jcd\te\n"
    text = escape_c1(json.dumps(hostile, ensure_ascii=False))
    assert json.loads(text) == hostile and "\x9b" not in text and "\x7f" not in text


@pytest.mark.parametrize(
    ("case", "error"),
    [
        ("search", "Brave Search sent more than 5 MB (decoded); that is not a search response"),
        ("anthropic", "The Anthropic API sent a reply larger than 32 MB"),
        ("fetch", "The response is larger than the 50 MB limit"),
    ],
)
def test_a_brotli_bomb_is_refused_within_100_mb(case: str, error: str) -> None:
    """1.6 KB of brotli that expands to 1 GiB: refused at the cap, decoded 64 KiB at a time
    (before: 2 GB for a search, 2.1 GB for an Anthropic reply)."""
    probe = Path(__file__).parent / "bomb_probe.py"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC", "BRAVE"))}
    run = subprocess.run(
        [sys.executable, str(probe), case], capture_output=True, text=True, env=env, timeout=120
    )
    assert run.returncode == 0, run.stderr
    outcome = json.loads(run.stdout)
    assert outcome["error"].startswith(error)
    assert outcome["growth_mb"] < 100
    assert outcome["requests"] == 1  # a reply too large is not retried


def test_a_huge_integer_handed_over_in_process_is_invalid_input() -> None:
    """An MCP client's JSON is read by the SDK, not loads_json: still no INTERNAL_ERROR."""
    from webtap.tools import call

    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        huge = 10**5000
    finally:
        sys.set_int_max_str_digits(limit)
    out = call("web_search_brave", {"query": "a", "count": huge}).response()
    assert out["error_code"] == "INVALID_INPUT"
    assert out["error"] == f"Invalid input: an integer has more than {MAX_INT_DIGITS} digits"


def test_an_internal_error_never_carries_a_known_key(monkeypatch) -> None:
    from webtap import tools
    from webtap.redact import remember

    key = "BSA-internal-error-key-0123"
    remember([key])

    def broken(request: dict) -> dict:
        raise RuntimeError(f"GET https://x/?key={key.replace('-', '%2D')} failed")

    monkeypatch.setattr(tools.ToolSpec, "resolve", lambda self: broken)
    out = tools.call("web_fetch", {"url": "http://x/"}).response()
    assert out["error_code"] == "INTERNAL_ERROR" and out["error"].endswith("?key=*** failed")


@pytest.mark.parametrize(
    ("name", "raw"),
    [
        ("WEBTAP_PDF_MAX_PAGES", "2.5"),
        ("WEBTAP_PDF_MAX_EXPANDED", "0.5"),
        ("WEBTAP_GOOGLE_MAX_CALLS", "0.9"),
        ("WEBTAP_FETCH_CACHE_MAX_BYTES", "100MB"),
    ],
)
def test_every_count_setting_is_a_whole_number(monkeypatch, name: str, raw: str) -> None:
    """Counts and sizes share one reader: none truncates a fraction into another number."""
    from webtap.fetch.page_cache import page_cache
    from webtap.pdf import to_markdown as pdf_to_markdown
    from webtap.search.google import max_calls

    monkeypatch.setenv(name, raw)
    with pytest.raises(ConfigError, match=rf"{name} must be a number above 0 .* a whole number"):
        {
            "WEBTAP_PDF_MAX_PAGES": lambda: pdf_to_markdown(b"%PDF-1.4\n", None),
            "WEBTAP_PDF_MAX_EXPANDED": lambda: pdf_to_markdown(b"%PDF-1.4\n", None),
            "WEBTAP_GOOGLE_MAX_CALLS": max_calls,
            "WEBTAP_FETCH_CACHE_MAX_BYTES": page_cache,
        }[name]()


@pytest.mark.parametrize("pad", [" ", "\n", " \t"])
def test_a_key_cut_at_the_end_of_the_look_is_not_quoted_in_part(pad: str) -> None:
    """A body padded with whitespace collapses to a short quote: the key its look cut in two
    must not come out in part (found by reading quote's callers, which cut before it)."""
    from webtap.redact import LOOK, quote

    key = "sk-ant-api03-SECRETSECRETSECRET"
    for start in range(LOOK - len(key), LOOK):
        body = pad * (start // len(pad)) + " " * (start % len(pad)) + key + " tail"
        quoted = quote(body, 200, [key])
        assert "sk-ant" not in quoted and "SECRET" not in quoted, (start, quoted)
    assert quote(" " * 100 + key + " tail", 200, [key]) == "*** tail"
