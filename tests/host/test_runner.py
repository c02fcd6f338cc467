"""Running tools: arguments checked first, one bounded process, a result the model may see."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from webtap.host import Tool, ToolResult, discover, run_tool, split_event


def _only_tool(folders, body: str, name: str = "probe", **kwargs) -> Tool:
    folders.tool("project", f"{name}-tool", body=body, **kwargs)
    found = discover()
    assert found.rejected == []
    return found.get(name)


def test_success_is_wrapped_for_the_model(folders) -> None:
    tool = _only_tool(folders, 'input=$(cat)\nprintf \'{"success": true, "got": %s}\' "$input"')
    result = run_tool(tool, {"text": "héllo"})
    assert isinstance(result, ToolResult)
    assert result.success is True
    assert result.for_model() == {
        "tool_success": True,
        "result": {"success": True, "got": {"text": "héllo"}},
    }


def test_tool_gets_no_arguments_and_the_environment(folders, monkeypatch) -> None:
    monkeypatch.setenv("WEBTAP_TEST_SECRET_NAME", "visible")
    tool = _only_tool(
        folders,
        'cat >/dev/null\nprintf \'{"argc": %s, "env": "%s"}\' $# "$WEBTAP_TEST_SECRET_NAME"',
    )
    assert run_tool(tool, {"text": "x"}).result == {"argc": 0, "env": "visible"}


def test_invalid_arguments_never_start_a_process(folders) -> None:
    marker = folders.cwd / "started"
    tool = _only_tool(folders, f"touch {marker}\necho '{{}}'")
    result = run_tool(tool, {"text": 5, "extra": True})
    assert result.for_model() == {
        "tool_success": False,
        "error": "Invalid input: field 'text' must be of type string (got 5)",
        "error_code": "INVALID_INPUT",
    }
    assert run_tool(tool, {}).error == "Invalid input: missing required field 'text'"
    assert run_tool(tool, ["text"]).error_code == "INVALID_INPUT"  # type: ignore[arg-type]
    assert not marker.exists()
    assert run_tool(tool, {"text": "ok"}).success
    assert marker.exists()


def test_timeout_kills_the_tool_and_its_children(
    folders, pid_gone, wait_until, past_its_start
) -> None:
    pidfile = folders.cwd / "child.pid"
    tool = _only_tool(folders, f"cat >/dev/null\nsleep 30 &\necho $! > {pidfile}\nwait\n")
    seconds, result = past_its_start(
        lambda s: run_tool(tool, {"text": "x"}, timeout=s), pidfile.exists
    )
    assert result.for_model() == {
        "tool_success": False,
        "error": f"Tool timed out after {seconds:g} s",
        "error_code": "TIMEOUT",
    }
    child = int(pidfile.read_text())
    assert wait_until(lambda: pid_gone(child)), f"child {child} outlived the timeout"


def test_schema_timeout_is_the_default(folders, schema_for) -> None:
    tool = _only_tool(folders, "exec sleep 10", schema=schema_for("probe", timeout=1000))
    assert tool.timeout == 1.0
    result = run_tool(tool, {"text": "x"})
    assert result.error == "Tool timed out after 1 s"


def test_non_zero_exit_reports_the_last_stderr_line(folders) -> None:
    tool = _only_tool(folders, "echo 'starting' >&2\necho 'config file is missing' >&2\nexit 4")
    result = run_tool(tool, {"text": "x"})
    assert result.for_model() == {
        "tool_success": False,
        "error": "Tool exited with status 4: config file is missing",
        "error_code": "TOOL_FAILED",
    }
    assert "starting" in result.stderr


def test_crash_is_reported(folders) -> None:
    tool = _only_tool(folders, "kill -SEGV $$")
    result = run_tool(tool, {"text": "x"})
    assert result.error == "Tool crashed (SIGSEGV)"
    assert result.error_code == "TOOL_FAILED"


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ("cat >/dev/null", "Tool returned no output"),
        ("cat >/dev/null; echo 'nothing to see' >&2", "Tool returned no output: nothing to see"),
        ("cat >/dev/null; echo 'Hello there'", "Tool returned invalid JSON"),
        ("cat >/dev/null; echo '[1, 2]'", "Tool returned JSON that is not an object"),
        (
            "cat >/dev/null; head -c 200000 /dev/zero | tr '\\0' '['",
            "Tool returned invalid JSON",
        ),
    ],
)
def test_bad_output_is_invalid_output(folders, body: str, error: str) -> None:
    result = run_tool(_only_tool(folders, body), {"text": "x"})
    assert result.for_model() == {
        "tool_success": False,
        "error": error,
        "error_code": "INVALID_OUTPUT",
    }


def test_output_is_capped(folders) -> None:
    tool = _only_tool(folders, "cat >/dev/null; head -c 3000000 /dev/zero | tr '\\0' x")
    result = run_tool(tool, {"text": "x"}, limit=1_000_000)
    assert result.error_code == "OUTPUT_TOO_LARGE"
    assert result.error == "Tool output exceeded 1000000 bytes"


def test_large_input_and_output_pass_whole(folders) -> None:
    tool = _only_tool(folders, 'input=$(cat)\nprintf \'{"echo": %s}\' "$input"')
    text = "abcdefghij" * 300_000  # 3 MB each way: more than any pipe buffer
    result = run_tool(tool, {"text": text})
    assert result.result == {"echo": {"text": text}}


def test_tool_that_ignores_stdin_still_answers(folders) -> None:
    tool = _only_tool(folders, "echo '{\"ok\": true}'")
    assert run_tool(tool, {"text": "y" * 2_000_000}).result == {"ok": True}


def test_missing_executable_is_tool_failed(folders) -> None:
    tool = _only_tool(folders, "cat")
    tool.path.unlink()
    result = run_tool(tool, {"text": "x"})
    assert result.error_code == "TOOL_FAILED"
    assert result.error.startswith("Tool could not be started: No such file or directory")


def test_python_tool_with_event(folders, tmp_path: Path) -> None:
    script = (
        "import json, sys\n"
        "request = json.load(sys.stdin)\n"
        "print(json.dumps({'success': False, 'error': 'no key', 'error_code': 'AUTH_MISSING',\n"
        "  '_event': {'kind': 'config_required', 'content': 'Set KEY',\n"
        "             'data': {'tool': 'probe', 'got': request['text']}}}))\n"
    )
    (tmp_path / "probe.py").write_text(script)
    tool = _only_tool(folders, f"exec {sys.executable} {tmp_path / 'probe.py'}")
    result = run_tool(tool, {"text": "q"})
    assert result.success
    assert result.event == {
        "kind": "config_required",
        "content": "Set KEY",
        "data": {"tool": "probe", "got": "q"},
    }
    model = result.for_model()
    assert "_event" not in json.dumps(model)
    assert model["result"] == {"success": False, "error": "no key", "error_code": "AUTH_MISSING"}


def test_split_event() -> None:
    response = {"success": False, "error": "x", "_event": {"kind": "k", "content": "c"}}
    clean, event = split_event(response)
    assert clean == {"success": False, "error": "x"}
    assert event == {"kind": "k", "content": "c"}
    assert "_event" in response, "the input is not modified"
    assert split_event({"a": 1}) == ({"a": 1}, None)
    assert split_event({"a": 1, "_event": None}) == ({"a": 1}, None)
    assert split_event({"_event": "plain words"}) == (
        {},
        {"kind": "event", "content": "plain words", "data": {}},
    )


def test_argument_patterns_end_at_the_end_of_the_string(tmp_path: Path) -> None:
    # A JSON Schema "$" is the end of the string (ECMA-262), not "before a final newline".
    schema = {
        "type": "object",
        "properties": {"cell": {"type": "string", "pattern": "^[A-Z]+[0-9]+$"}},
        "required": ["cell"],
    }
    tool = Tool("cells", tmp_path / "absent-tool", {}, "A tool that is never started", schema)
    result = run_tool(tool, {"cell": "B5\n"})
    assert result.for_model() == {
        "tool_success": False,
        "error": (
            "Invalid input: field 'cell' must match the pattern ^[A-Z]+[0-9]+$ (got \"B5\\n\")"
        ),
        "error_code": "INVALID_INPUT",
    }


def test_an_event_in_spec_000s_spelling_gets_its_data_as_an_object() -> None:
    # Spec 000's config_required event carries "data_json", a JSON string; webtap's carries
    # "data" (decision: Events).
    event = {
        "kind": "config_required",
        "content": "⚠ Configuration Required",
        "data_json": '{"tool": "web_search_brave", "credential": "api_key"}',
    }
    clean, found = split_event({"success": False, "error": "x", "_event": event})
    assert clean == {"success": False, "error": "x"}
    assert found == {
        "kind": "config_required",
        "content": "⚠ Configuration Required",
        "data": {"tool": "web_search_brave", "credential": "api_key"},
    }
    _, kept = split_event({"_event": {**event, "data_json": "not json"}})
    assert kept["data"] == "not json" and "data_json" not in kept
    _, both = split_event({"_event": {**event, "data": {"a": 1}}})
    assert both == {**event, "data": {"a": 1}}  # "data" given: left as the tool wrote it
