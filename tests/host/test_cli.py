"""``webtap tools`` and ``webtap events`` for people and machines."""

from __future__ import annotations

import json

import pytest

from webtap.cli import main
from webtap.host.event_store import EventStore

EVENT_BODY = (
    "cat >/dev/null\n"
    'printf \'{"success": false, "error": "no key", "error_code": "AUTH_MISSING", '
    '"_event": {"kind": "config_required", "content": "Set the PROBE key\\\\nsecond line", '
    '"data": {"env_var": "PROBE_KEY"}}}\'\n'
)


@pytest.fixture
def some_tools(folders):
    folders.tool("project", "probe-tool", body=EVENT_BODY)
    folders.tool("user", "echo-tool")
    folders.tool("project", "broken-tool", schema_script="echo oops >&2; exit 2")
    return folders


def test_list_json(some_tools, capsys) -> None:
    assert main(["tools", "list", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [t["name"] for t in listed["tools"]] == ["echo", "probe"]
    assert listed["tools"][0]["source"] == "user"
    assert listed["tools"][0]["input_schema"]["required"] == ["text"]
    assert "rejected" not in listed

    assert main(["tools", "list", "--json", "--all"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert listed["rejected"] == [
        {
            "path": str(some_tools.project / "broken-tool"),
            "reason": "--schema exited with status 2: oops",
        }
    ]


def test_list_table(some_tools, capsys, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "400")  # long temporary paths stay on one line
    assert main(["tools", "list"]) == 0
    out = capsys.readouterr()
    assert "probe" in out.out and "echo" in out.out and "project" in out.out
    assert "broken" not in out.out
    assert "1 tool(s) left out: webtap tools list --all" in out.err
    assert main(["tools", "list", "--all"]) == 0
    out = capsys.readouterr().out
    assert "broken-tool" in out and "exited with status 2" in out


def test_list_when_there_is_nothing(folders, capsys) -> None:
    assert main(["tools", "list"]) == 0
    assert "No tools found in" in capsys.readouterr().err


def test_schema(some_tools, capsys) -> None:
    assert main(["tools", "schema", "echo"]) == 0
    assert json.loads(capsys.readouterr().out)["name"] == "echo"
    assert main(["tools", "schema", "broken"]) == 1
    assert "tool 'broken' was left out: --schema exited with status 2" in capsys.readouterr().err
    assert main(["tools", "schema", "nope"]) == 1
    assert "no tool named 'nope' (found: echo, probe)" in capsys.readouterr().err


def test_run_strips_shows_and_stores_the_event(some_tools, capsys) -> None:
    assert main(["tools", "run", "probe", '{"text": "x"}', "--session", "s1"]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out) == {
        "tool_success": True,
        "result": {"success": False, "error": "no key", "error_code": "AUTH_MISSING"},
    }
    assert "Set the PROBE key" in out.err
    (row,) = EventStore().list("s1")
    assert row["kind"] == "config_required"
    assert row["content"] == "Set the PROBE key\nsecond line"
    assert row["data"] == {"env_var": "PROBE_KEY"}

    assert main(["events", "--json", "--session", "s1"]) == 0
    assert json.loads(capsys.readouterr().out) == [row]
    assert main(["events"]) == 0
    table = capsys.readouterr().out
    assert "config_required" in table and "Set the PROBE key …" in table
    assert main(["events", "--session", "other"]) == 0
    assert "no events stored for session 'other'" in capsys.readouterr().err


def test_run_failures_exit_1(some_tools, capsys, monkeypatch) -> None:
    assert main(["tools", "run", "echo", '{"text": 1}']) == 1
    assert json.loads(capsys.readouterr().out)["error_code"] == "INVALID_INPUT"
    assert main(["tools", "run", "echo", "{oops"]) == 1
    assert "JSON arguments are not valid JSON" in capsys.readouterr().err
    assert main(["tools", "run", "echo", "[1]"]) == 1
    assert "must be an object" in capsys.readouterr().err
    assert main(["tools", "run", "nope", "{}"]) == 1
    assert "no tool named 'nope'" in capsys.readouterr().err
    for timeout in ("0", "nan", "inf"):  # nan and inf once reached select() and crashed
        assert main(["tools", "run", "echo", '{"text": "x"}', "--timeout", timeout]) == 1
        assert capsys.readouterr().err == (
            f"webtap: --timeout must be a positive number of seconds, got {timeout}\n"
        )
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO('{"text": "from stdin"}'))
    assert main(["tools", "run", "echo", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["result"] == {"echo": {"text": "from stdin"}}


def test_events_without_a_store(capsys) -> None:
    assert main(["events", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []


def test_an_unusable_events_store_is_named_with_the_way_out(tmp_path, monkeypatch, capsys) -> None:
    corrupt = tmp_path / "events.db"
    corrupt.write_bytes(b"this is not a SQLite database, only some bytes" * 100)
    monkeypatch.setenv("WEBTAP_DB", str(corrupt))

    assert main(["events", "--json"]) == 1
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err == (
        f"webtap: Cannot use {corrupt} as the events store: it exists and is not a SQLite "
        "database. Set WEBTAP_DB to the path of a file webtap may create and write.\n"
    )


def test_an_event_that_cannot_be_stored_still_reaches_the_person(
    some_tools, tmp_path, monkeypatch, capsys
) -> None:
    monkeypatch.setenv("WEBTAP_DB", str(tmp_path))  # a folder: SQLite cannot open it
    assert main(["tools", "run", "probe", '{"text": "x"}']) == 0
    out = capsys.readouterr()
    assert json.loads(out.out)["tool_success"] is True
    assert "Set the PROBE key" in out.err
    assert f"could not store the tool's event: Cannot use {tmp_path} as the events store" in out.err


def test_webtaps_own_tool_not_installed_says_how_to_install(folders, capsys) -> None:
    assert main(["tools", "run", "web_fetch", "{}"]) == 1
    assert capsys.readouterr().err == (
        "webtap: no tool named 'web_fetch' (found: none); "
        "install webtap's own tools with: webtap install --user\n"
    )


def test_validate_names_a_file_that_is_not_text(tmp_path, capsys) -> None:
    binary = tmp_path / "tools.json"
    binary.write_bytes(b'{"name": "\xff"}')
    assert main(["tools", "validate", str(binary)]) == 1
    assert capsys.readouterr().err == f"webtap: cannot read {binary}: not UTF-8 text (byte 10)\n"


def test_a_stray_argument_is_reported_with_the_subcommands_usage(capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["tools", "list", "--bogus"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: webtap tools list ")
    assert err.endswith("webtap tools list: error: unrecognized arguments: --bogus\n")


def test_run_accepts_json_like_its_siblings(some_tools, capsys) -> None:
    assert main(["tools", "run", "echo", '{"text": "x"}', "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "tool_success": True,
        "result": {"echo": {"text": "x"}},
    }
    assert main(["tools", "run", "--json", "echo", '{"text": 1}']) == 1
    assert json.loads(capsys.readouterr().out)["error_code"] == "INVALID_INPUT"


def test_event_of_a_tool_that_exits_non_zero_is_still_stored(folders, capsys) -> None:
    failing = EVENT_BODY + "exit 3\n"
    folders.tool("project", "failing-tool", body=failing)

    assert main(["tools", "run", "failing", '{"text": "x"}', "--session", "s2"]) == 1

    out = capsys.readouterr()
    assert json.loads(out.out) == {
        "tool_success": False,
        "error": "Tool exited with status 3",
        "error_code": "TOOL_FAILED",
    }
    assert "Set the PROBE key" in out.err
    (row,) = EventStore().list("s2")
    assert row["kind"] == "config_required"
    assert row["data"] == {"env_var": "PROBE_KEY"}
