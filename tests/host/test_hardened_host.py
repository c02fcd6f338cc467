"""Issue 14 on the host side: huge integers from tools and files, terminal escapes."""

from __future__ import annotations

import json

from webtap.cli import main
from webtap.host import discover, run_tool
from webtap.store import record_event

HUGE = "1" * 5000
ESCAPES = "\x1b]52;c;cHduZWQ=\x07\x1b[2J\x9b1m"


def test_a_schema_with_a_huge_integer_is_left_out_and_the_others_still_list(
    folders, capsys
) -> None:
    folders.tool("project", "huge-tool", schema='{"name": "huge", "x": ' + HUGE + "}")
    folders.tool("user", "echo-tool")
    found = discover()
    assert found.names() == ["echo"]
    assert "an integer of 5000 digits is too long" in found.rejected[0][1]
    for argv in (["tools", "list", "--json"], ["tools", "export", "--format", "mcp"]):
        assert main(argv) == 0
    assert main(["tools", "run", "echo", '{"text": "hi"}']) == 0
    capsys.readouterr()


def test_tool_output_with_a_huge_integer_is_invalid_output(folders) -> None:
    folders.tool("user", "echo-tool", body=f"cat >/dev/null; printf '{{\"n\": {HUGE}}}'\n")
    result = run_tool(discover().get("echo"), {"text": "hi"})
    assert (result.success, result.error_code) == (False, "INVALID_OUTPUT")


def test_tools_run_and_validate_refuse_a_huge_integer_in_one_line(folders, tmp_path, capsys):
    folders.tool("user", "echo-tool")
    assert main(["tools", "run", "echo", f'{{"text": {HUGE}}}']) == 1
    assert capsys.readouterr().err.startswith(
        "webtap: JSON arguments are not valid JSON: an integer of 5000 digits is too long"
    )
    document = tmp_path / "tools.json"
    document.write_text(f'{{"name": "x", "n": {HUGE}}}')
    assert main(["tools", "validate", str(document)]) == 1
    assert "an integer of 5000 digits is too long" in capsys.readouterr().err


def test_whole_number_floats_reach_a_discovered_tool_as_integers(folders, schema_for) -> None:
    schema = schema_for("count")
    schema["parameters"]["properties"]["n"] = {"type": "integer"}
    folders.tool("user", "count-tool", schema=schema, body='printf \'{"got": %s}\' "$(cat)"\n')
    result = run_tool(discover().get("count"), {"text": "x", "n": 2.0})
    assert result.success and result.result == {"got": {"text": "x", "n": 2}}


def test_stderr_quoted_for_the_model_has_no_control_characters(folders) -> None:
    folders.tool("user", "echo-tool", body=f"printf 'bad{ESCAPES}thing\\n' >&2; exit 3\n")
    result = run_tool(discover().get("echo"), {"text": "hi"})
    assert result.error == "Tool exited with status 3: bad]52;c;cHduZWQ=[2J1mthing"


def test_tools_list_all_strips_escapes_from_stderr_and_file_names(folders, capsys) -> None:
    folders.tool("project", f"bad{ESCAPES}-tool", schema_script=f"printf '{ESCAPES}' >&2; exit 2")
    for argv in (["tools", "list", "--all"], ["tools", "list", "--all", "--json"]):
        assert main(argv) == 0
        out = capsys.readouterr()
        assert "\x1b" not in out.out + out.err and "\x9b" not in out.out + out.err
        assert "\x07" not in out.out + out.err


def test_events_table_strips_escapes_from_kind_and_content(capsys, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "400")
    record_event({"kind": f"k{ESCAPES}", "content": f"c{ESCAPES}", "data": {}}, f"s{ESCAPES}")
    assert main(["events"]) == 0
    out = capsys.readouterr().out
    assert "k]52;c;cHduZWQ=[2J1m" in out and "\x1b" not in out and "\x9b" not in out
    assert main(["events", "--json"]) == 0
    text = capsys.readouterr().out
    assert "\x1b" not in text and "\x9b" not in text
    assert json.loads(text)[0]["kind"] == f"k{ESCAPES}"  # machines still get the stored value
