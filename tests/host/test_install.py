"""webtap's own tools installed where discovery looks, and run through the host end to end."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from webtap import credentials
from webtap.cli import main
from webtap.host import discover, run_tool
from webtap.host.event_store import EventStore
from webtap.host.install import MARKER, is_launcher

WEB_TOOLS = ["web_fetch", "web_search_brave", "web_search_google", "web_search_searxng"]
EXECUTABLES = [
    "web-fetch-tool",
    "web-search-brave-tool",
    "web-search-google-tool",
    "web-search-searxng-tool",
]


def test_install_project_then_discover(folders, capsys) -> None:
    assert main(["install", "--project"]) == 0
    printed = capsys.readouterr().out.split()
    assert printed == [str(folders.project / name) for name in EXECUTABLES]
    for name in EXECUTABLES:
        launcher = folders.project / name
        assert is_launcher(launcher)
        assert os.access(launcher, os.X_OK)
        assert str(Path(sys.executable).parent / name) in launcher.read_text()
    found = discover()
    assert found.names() == WEB_TOOLS
    assert {tool.source for tool in found.tools} == {"project"}
    assert found.rejected == []


@pytest.mark.parametrize(("flag", "where"), [("--user", "user"), ("--system", "system")])
def test_install_user_and_system(folders, flag: str, where: str) -> None:
    argv = ["install", flag]
    if flag == "--system":
        argv.append(str(folders.system.parents[1]))  # PREFIX; tools go to PREFIX/libexec/ikigai
    assert main(argv) == 0
    found = discover()
    assert found.names() == WEB_TOOLS
    assert {tool.source for tool in found.tools} == {where}
    assert all(tool.path.parent == getattr(folders, where) for tool in found.tools)


def test_uninstall_removes_exactly_what_install_wrote(folders, capsys) -> None:
    folders.tool("project", "mine-tool")
    assert main(["install", "--project"]) == 0
    assert main(["uninstall", "--project"]) == 0
    removed = capsys.readouterr().out.split()
    assert removed[-len(EXECUTABLES) :] == [str(folders.project / name) for name in EXECUTABLES]
    assert sorted(p.name for p in folders.project.iterdir()) == ["mine-tool"]
    assert main(["uninstall", "--project"]) == 0
    assert "no webtap launchers" in capsys.readouterr().err


def test_install_never_overwrites_or_removes_a_strangers_file(folders, capsys) -> None:
    stranger = folders.tool("user", "web-fetch-tool")
    before = stranger.read_text()
    assert main(["install", "--user"]) == 1
    err = capsys.readouterr().err
    assert "web-fetch-tool already exists and was not written by webtap" in err
    assert stranger.read_text() == before
    assert not (folders.user / "web-search-brave-tool").exists()
    assert main(["uninstall", "--user"]) == 0
    assert stranger.read_text() == before
    assert MARKER not in before


def test_install_twice_refreshes(folders) -> None:
    assert main(["install", "--project"]) == 0
    assert main(["install", "--project"]) == 0
    assert discover().names() == WEB_TOOLS


def test_install_needs_a_place(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["install"])
    assert "one of the arguments --user --project --system is required" in capsys.readouterr().err


def test_invalid_input_end_to_end_through_the_tool_itself(folders) -> None:
    main(["install", "--project"])
    tool = discover().get("web_search_brave")
    # The host's check passes (the printed schema allows extra fields); the tool refuses them.
    result = run_tool(tool, {"query": "hello", "bogus": 1})
    assert result.success is True
    assert result.result["success"] is False
    assert result.result["error_code"] == "INVALID_INPUT"
    assert "unknown field 'bogus'" in result.result["error"]
    # The host's own check: no process is started.
    assert run_tool(tool, {"query": 5}).error_code == "INVALID_INPUT"


def test_missing_key_end_to_end_event_stored(folders, run_exe) -> None:
    run_exe("webtap", "install", "--project", cwd=folders.cwd)
    run = run_exe(
        "webtap",
        "tools",
        "run",
        "web_search_brave",
        '{"query": "hello"}',
        "--session",
        "e2e",
        cwd=folders.cwd,
    )
    assert run.returncode == 0, run.stderr
    # The tool ran (tool_success) and answered AUTH_MISSING; the event went to the person.
    assert run.json == {
        "tool_success": True,
        "result": {
            "success": False,
            "error": credentials.BRAVE_AUTH_MISSING,
            "error_code": "AUTH_MISSING",
        },
    }
    assert credentials.BRAVE_CONFIG_REQUIRED in run.stderr
    (event,) = EventStore().list("e2e")
    assert (event["session_id"], event["kind"], event["content"], event["data"]) == (
        "e2e",
        "config_required",
        credentials.BRAVE_CONFIG_REQUIRED,
        credentials.BRAVE_EVENT_DATA,
    )
    listed = run_exe("webtap", "events", "--session", "e2e", "--json", cwd=folders.cwd)
    assert [e["id"] for e in listed.json] == [event["id"]]


def test_web_fetch_end_to_end(folders, allow_private, httpserver) -> None:
    pytest.importorskip("webtap.fetch")
    httpserver.expect_request("/page").respond_with_data(
        "<html><head><title>Local page</title></head><body><h1>Hi</h1><p>Text.</p></body></html>",
        content_type="text/html",
    )
    main(["install", "--project"])
    tool = discover().get("web_fetch")
    result = run_tool(tool, {"url": httpserver.url_for("/page")})
    assert result.success, result.error
    assert result.result["success"] is True, result.result
    assert result.result["title"] == "Local page"
    assert "Text." in result.result["content"]
    assert json.dumps(result.for_model()).count("_event") == 0


def test_project_install_from_a_deleted_working_folder_says_so(tmp_path, monkeypatch, capsys):
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()

    assert main(["install", "--project"]) == 1
    assert capsys.readouterr().err == (
        "webtap: the current folder no longer exists; cd into the project and run this again\n"
    )
