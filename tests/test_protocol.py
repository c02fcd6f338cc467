"""The tool protocol shared by all three executables, through the real processes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from webtap.tools import TOOLS

SPEC = Path(__file__).parents[1] / "src" / "webtap" / "schemas"
EXECUTABLES = [spec.executable for spec in TOOLS.values()]


@pytest.mark.parametrize("spec", TOOLS.values(), ids=lambda s: s.executable)
def test_schema_is_the_spec_schema(spec, run_exe) -> None:
    run = run_exe(spec.executable, "--schema")
    assert run.returncode == 0
    assert run.stderr == ""
    assert json.loads(run.stdout) == json.loads((SPEC / f"{spec.name}.json").read_text())
    assert run.json["name"] == spec.name


@pytest.mark.parametrize("exe", EXECUTABLES)
@pytest.mark.parametrize(
    ("stdin", "fragment"),
    [
        (b"", "empty stdin"),
        (b"   \n", "empty stdin"),
        (b"{not json", "not valid JSON"),
        (b"[1, 2]", "must be a JSON object, got an array"),
        (b'"a string"', "must be a JSON object, got a string"),
        (b"\xff\xfe\x00", "not UTF-8"),
        (b"[" * 200_000 + b"]" * 200_000, "nested too deeply"),
        (b'{"url": ' + b"[" * 200_000 + b"]" * 200_000 + b"}", "nested too deeply"),
    ],
)
def test_unreadable_stdin_exits_1_with_one_line(exe, stdin, fragment, run_exe) -> None:
    run = run_exe(exe, stdin=stdin)
    assert run.returncode == 1
    assert run.stdout == ""
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1
    assert fragment in lines[0]
    assert "Traceback" not in run.stderr


@pytest.mark.parametrize("exe", EXECUTABLES)
def test_help_and_version(exe, run_exe) -> None:
    assert exe in run_exe(exe, "--help").stdout
    version = run_exe(exe, "--version")
    assert version.returncode == 0
    assert "webtap" in version.stdout


@pytest.mark.parametrize("exe", EXECUTABLES)
def test_unknown_flag_is_a_usage_error(exe, run_exe) -> None:
    run = run_exe(exe, "--frobnicate")
    assert run.returncode == 2
    assert "--frobnicate" in run.stderr


@pytest.mark.parametrize(
    ("request_", "fragment"),
    [
        ({}, "missing required field 'url'"),
        ({"url": 42}, "field 'url' must be of type string"),
        ({"url": "https://example.com", "offset": 0}, "field 'offset' must be >= 1"),
        ({"url": "https://example.com", "limit": "x"}, "field 'limit' must be of type integer"),
        ({"url": "https://example.com", "limit": True}, "field 'limit' must be of type integer"),
        ({"url": "https://example.com", "colour": "red"}, "unknown field 'colour'"),
    ],
)
def test_fetch_schema_violations_are_invalid_input(request_, fragment, run_exe) -> None:
    run = run_exe("web-fetch-tool", stdin=request_)
    assert run.returncode == 0
    body = run.json
    assert body["success"] is False
    assert body["error_code"] == "INVALID_INPUT"
    assert fragment in body["error"]


@pytest.mark.parametrize("exe", ["web-search-brave-tool", "web-search-google-tool"])
@pytest.mark.parametrize(
    ("request_", "fragment"),
    [
        ({}, "missing required field 'query'"),
        ({"query": "a"}, "field 'query' must be at least 2 characters long"),
        (
            {"query": "ok", "allowed_domains": "example.com"},
            "'allowed_domains' must be of type array",
        ),
        (
            {"query": "ok", "blocked_domains": [1]},
            "field 'blocked_domains[0]' must be of type string (got 1)",
        ),
    ],
)
def test_search_schema_violations_are_invalid_input(exe, request_, fragment, run_exe) -> None:
    run = run_exe(exe, stdin=request_)
    assert run.returncode == 0
    assert run.json["error_code"] == "INVALID_INPUT"
    assert fragment in run.json["error"]


@pytest.mark.parametrize(
    ("exe", "request_", "fragment"),
    [
        ("web-search-brave-tool", {"query": "ok", "count": 50}, "field 'count' must be <= 20"),
        ("web-search-google-tool", {"query": "ok", "num": 11}, "field 'num' must be <= 10"),
        ("web-search-google-tool", {"query": "ok", "start": 92}, "field 'start' must be <= 91"),
    ],
)
def test_search_bounds(exe, request_, fragment, run_exe) -> None:
    assert fragment in run_exe(exe, stdin=request_).json["error"]


def test_schema_path_imports_nothing_heavy() -> None:
    import subprocess
    import sys

    code = (
        "import sys; sys.argv[1:] = ['--schema']; from webtap.entry import fetch_main;"
        "fetch_main();"
        "heavy = ('httpx', 'lxml', 'jsonschema', 'rich', 'webtap.tools');"
        "bad = [m for m in heavy if m in sys.modules];"
        "sys.stderr.write(repr(bad))"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.stderr == "[]"


@pytest.mark.parametrize(
    ("stdin", "fragment"),
    [
        (b'{"url": "https://example.com", "zz\\ud800": 1}', "unknown field 'zz\ufffd'"),
        (b'{"url": ["\\udfff"]}', "field 'url' must be of type string"),
    ],
)
def test_lone_surrogates_in_a_request_are_no_traceback(stdin, fragment, run_exe) -> None:
    run = run_exe("web-fetch-tool", stdin=stdin)
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr
    assert run.json["error_code"] == "INVALID_INPUT"
    assert fragment in run.json["error"]


def test_loads_json_keeps_pairs_and_replaces_lone_surrogates() -> None:
    from webtap.protocol import loads_json

    text = '{"k\\ud800": ["\\ud83d\\ude00", {"deep": "a\\udc00b"}], "n": 1}'
    assert loads_json(text) == {"k\ufffd": ["\U0001f600", {"deep": "a\ufffdb"}], "n": 1}
    assert loads_json(text.encode()) == loads_json(text)
