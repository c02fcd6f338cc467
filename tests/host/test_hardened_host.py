"""Issue 14 on the host side: huge integers from tools and files, terminal escapes."""

from __future__ import annotations

import json

import pytest

from webtap.cli import main
from webtap.errors import ConfigError
from webtap.host import discover, run_tool
from webtap.host.event_store import record_event

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


def test_install_never_writes_through_a_planted_link(folders, tmp_path, capsys) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    notes.chmod(0o600)
    folders.project.mkdir(parents=True)
    for name in ("web-fetch-tool", "web-search-brave-tool"):
        (folders.project / f".{name}.tmp").symlink_to(notes)
    assert main(["install", "--project"]) == 0
    capsys.readouterr()
    assert notes.read_text() == "my notes\n" and notes.stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in folders.project.iterdir() if not p.is_symlink()) == [
        "web-fetch-tool",
        "web-search-brave-tool",
        "web-search-google-tool",
        "web-search-searxng-tool",
    ]
    assert (folders.project / "web-fetch-tool").stat().st_mode & 0o777 == 0o755


def test_write_atomic_replaces_a_link_and_leaves_its_target(tmp_path) -> None:
    from webtap.files import write_atomic

    target, link = tmp_path / "target", tmp_path / "cache.json"
    target.write_text("keep")
    link.symlink_to(target)
    write_atomic(link, "{}", 0o600)
    assert target.read_text() == "keep" and not link.is_symlink() and link.read_text() == "{}"
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_the_events_store_refuses_a_planted_link(tmp_path, monkeypatch, capsys) -> None:
    victim = tmp_path / "victim"
    victim.write_text("precious")
    store = tmp_path / "events.db"
    store.symlink_to(victim)
    monkeypatch.setenv("WEBTAP_DB", str(store))
    assert main(["events"]) == 1
    assert "is a symbolic link; webtap will not write through it" in capsys.readouterr().err
    with pytest.raises(ConfigError, match="symbolic link"):
        record_event({"kind": "k", "content": "c"})
    assert victim.read_text() == "precious"
