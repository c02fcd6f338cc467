"""Discovery with real executables in real folders: precedence, filters, bad --schema, cache."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from webtap.host import Rejected, discover, run_tool
from webtap.host.discovery import cache_path, registry_name, tool_folders


def test_registry_name_from_file_name() -> None:
    assert registry_name("web-fetch-tool") == "web_fetch"
    assert registry_name("my-cool-thing-tool") == "my_cool_thing"
    assert registry_name("web-fetch") is None
    assert registry_name("-tool") is None


def test_project_beats_user_beats_system_and_list_is_sorted(folders) -> None:
    for where in ("system", "user", "project"):
        folders.tool(where, "shared-tool")
    folders.tool("system", "zeta-tool")
    folders.tool("user", "alpha-tool")
    folders.tool("user", "only-user-tool")
    folders.tool("system", "only-user-tool")

    found = discover()

    assert found.names() == ["alpha", "only_user", "shared", "zeta"]
    by_name = {tool.name: tool for tool in found.tools}
    assert by_name["shared"].source == "project"
    assert by_name["shared"].path == folders.project / "shared-tool"
    assert by_name["only_user"].source == "user"
    assert by_name["zeta"].source == "system"
    assert by_name["alpha"].path == folders.user / "alpha-tool"
    assert found.rejected == []
    shadowed = {(str(s.path), str(s.by)) for s in found.shadowed}
    assert (str(folders.system / "shared-tool"), str(folders.user / "shared-tool")) in shadowed
    assert (str(folders.user / "shared-tool"), str(folders.project / "shared-tool")) in shadowed


def test_discovery_from_another_cwd_sees_that_project(folders, tmp_path) -> None:
    folders.tool("project", "here-tool")
    other = tmp_path / "other"
    (other / ".ikigai" / "tools").mkdir(parents=True)
    assert discover(cwd=other).names() == []
    assert discover().names() == ["here"]
    assert discover(cwd=folders.cwd).names() == ["here"]


def test_non_executables_and_other_names_are_ignored(folders) -> None:
    folders.tool("project", "plain-tool", mode=0o644)
    folders.tool("project", "helper")
    folders.tool("project", "tool-not-suffix")
    folders.tool("project", "-tool")
    (folders.project / "dir-tool").mkdir()
    folders.tool("project", "good-tool")

    found = discover()

    assert found.names() == ["good"]
    assert found.rejected == []


def test_symlinked_tool_is_found(folders, tmp_path, make_tool) -> None:
    target = make_tool(tmp_path / "elsewhere", "real-tool", schema=None)
    folders.project.mkdir(parents=True)
    (folders.project / "linked-tool").symlink_to(target)
    # The schema inside says "real": the file name here says "linked".
    found = discover()
    assert found.names() == []
    assert "does not match the file name (expected 'linked')" in found.rejected[0].reason
    (folders.project / "real-tool").symlink_to(target)
    assert discover().names() == ["real"]


def test_bad_schemas_are_left_out_with_reasons(folders, schema_for) -> None:
    tool = folders.tool
    tool("project", "good-tool")
    tool("project", "crash-tool", schema_script="kill -SEGV $$")
    tool("project", "fails-tool", schema_script="echo 'cannot find config' >&2; exit 3")
    tool("project", "huge-tool", schema_script="head -c 10485760 /dev/zero | tr '\\0' x; exit 0")
    tool("project", "silent-tool", schema_script="exit 0")
    tool("project", "notjson-tool", schema_script="echo 'name: notjson'; exit 0")
    tool("project", "array-tool", schema="[1, 2]")
    bad_params = schema_for("badparams", parameters={"type": "objekt"})
    tool("project", "badparams-tool", schema=bad_params)
    tool("project", "notobject-tool", schema=schema_for("notobject", parameters={"type": "array"}))
    tool("project", "short-tool", schema=schema_for("short", description="Short"))
    tool("project", "wrongname-tool", schema=schema_for("other_name"))
    tool("project", "badtimeout-tool", schema=schema_for("badtimeout", timeout=5))
    tool("project", "bad.name-tool")

    found = discover()

    assert found.names() == ["good"]
    reasons = {path.name: reason for path, reason in found.rejected}
    assert reasons["crash-tool"] == "--schema crashed (SIGSEGV)"
    assert reasons["fails-tool"] == "--schema exited with status 3: cannot find config"
    assert reasons["huge-tool"] == "--schema printed more than 1 MB"
    assert reasons["silent-tool"] == "--schema printed nothing"
    assert reasons["notjson-tool"].startswith("--schema printed invalid JSON: Expecting value")
    assert (
        reasons["array-tool"] == "invalid tool schema: schema must be a JSON object, got an array"
    )
    assert reasons["badparams-tool"].startswith(
        "invalid tool schema: input schema is not a valid JSON Schema: at type:"
    )
    assert "'objekt'" in reasons["badparams-tool"]
    assert reasons["notobject-tool"].startswith(
        'invalid tool schema: input schema must describe a JSON object ("type": "object")'
    )
    assert reasons["short-tool"] == (
        "invalid tool schema: description must be 10-1000 characters (got 5)"
    )
    assert reasons["wrongname-tool"] == (
        "invalid tool schema: schema name 'other_name' does not match the file name "
        "(expected 'wrongname')"
    )
    assert (
        "timeout must be an integer number of milliseconds, 1000-300000 (got 5)"
        in (reasons["badtimeout-tool"])
    )
    assert "the file name gives the tool name 'bad.name'" in reasons["bad.name-tool"]
    assert all(isinstance(item, Rejected) for item in found.rejected)


def test_schemas_are_asked_for_concurrently(folders) -> None:
    """Two tools whose --schema each waits for the other to have started: asked one after
    the other, the first would time out waiting; asked together, both answer."""
    for me, other in (("ping", "pong"), ("pong", "ping")):
        waits_for_other = (
            f"touch {folders.cwd / me}\n"
            f"for i in $(seq 100); do [ -e {folders.cwd / other} ] && break; sleep 0.1; done\n"
            f"[ -e {folders.cwd / other} ] || exit 1\n"
            f"cat <<'E'\n{json.dumps(_schema(me))}\nE\nexit 0"
        )
        folders.tool("project", f"{me}-tool", schema_script=waits_for_other)

    found = discover(timeout=15.0)

    assert found.names() == ["ping", "pong"], found.rejected


@pytest.mark.parametrize(("setting", "said"), [(None, "1 s"), ("0.5", "0.5 s")])
def test_a_hanging_schema_is_given_the_declared_time(
    folders, monkeypatch, setting: str | None, said: str
) -> None:
    """Each --schema gets WEBTAP_SCHEMA_TIMEOUT seconds, 1 s unless set (the suite sets it)."""
    if setting is None:
        monkeypatch.delenv("WEBTAP_SCHEMA_TIMEOUT")
    else:
        monkeypatch.setenv("WEBTAP_SCHEMA_TIMEOUT", setting)
    folders.tool("project", "hang-tool", schema_script="exec sleep 30")
    found = discover()
    reason = f"--schema timed out after {said}"
    assert found.rejected == [Rejected(folders.project / "hang-tool", reason)]


def test_hanging_schema_is_killed_with_its_children(
    folders, pid_gone, wait_until, past_its_start
) -> None:
    pidfile = folders.cwd / "child.pid"
    folders.tool("project", "forks-tool", schema_script=f"sleep 30 &\necho $! > {pidfile}\nwait")
    seconds, found = past_its_start(lambda s: discover(timeout=s), pidfile.exists)
    assert found.rejected[0].reason == f"--schema timed out after {seconds:g} s"
    child = int(pidfile.read_text())
    assert wait_until(lambda: pid_gone(child))


def test_schema_timeout_sets_run_timeout(folders, schema_for) -> None:
    folders.tool("project", "slow-tool", schema=schema_for("slow", timeout=120000))
    folders.tool("project", "plain-tool")
    tools = {tool.name: tool for tool in discover().tools}
    assert tools["slow"].timeout == 120.0
    assert tools["plain"].timeout == 30.0


def test_btcp_style_schema_with_input_schema_is_accepted(folders) -> None:
    schema = {
        "name": "getPageTitle",
        "description": "Returns the title of the current page from the document's <title>",
        "inputSchema": {"type": "object", "properties": {}, "additionalProperties": False},
        "capabilities": ["dom:read"],
    }
    folders.tool("project", "getPageTitle-tool", schema=schema)
    (tool,) = discover().tools
    assert tool.name == "getPageTitle"
    assert tool.input_schema == schema["inputSchema"]
    assert tool.schema == schema


def test_second_discovery_spawns_nothing(folders) -> None:
    counter = folders.cwd / "schema-calls"
    for index in range(5):
        folders.tool(
            "project",
            f"counted{index}-tool",
            schema_script=f"echo x >> {counter}\n"
            + f"cat <<'E'\n{json.dumps(_schema(f'counted{index}'))}\nE\nexit 0",
        )
    folders.tool("project", "broken-tool", schema_script=f"echo x >> {counter}; exit 1")

    first = discover()
    assert len(counter.read_text().splitlines()) == 6
    second = discover()
    assert len(counter.read_text().splitlines()) == 6, "cached discovery ran --schema again"
    assert second.names() == first.names()
    assert [tool.schema for tool in second.tools] == [tool.schema for tool in first.tools]
    assert second.rejected == first.rejected
    assert cache_path().is_file()

    # A changed file is asked again; the others stay cached.
    path = folders.project / "counted0-tool"
    path.write_text(path.read_text() + "\n# changed\n")
    discover()
    assert len(counter.read_text().splitlines()) == 7
    # Without the cache every tool is asked.
    discover(use_cache=False)
    assert len(counter.read_text().splitlines()) == 13


def test_timeouts_are_not_cached(folders, past_its_start) -> None:
    """A --schema that timed out is asked again next time (here it then answers at once)."""
    asked = folders.cwd / "asked"
    folders.tool(
        "project",
        "slow-tool",
        schema_script=f"[ -e {asked} ] || {{ touch {asked}; exec sleep 30; }}\n"
        f"cat <<'E'\n{json.dumps(_schema('slow'))}\nE\nexit 0",
    )
    seconds, first = past_its_start(lambda s: discover(timeout=s), asked.exists, first=0.3)
    assert first.rejected[0].reason == f"--schema timed out after {seconds:g} s"
    assert discover().names() == ["slow"]


def test_a_corrupt_cache_is_ignored(folders) -> None:
    folders.tool("project", "good-tool")
    cache = cache_path()
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text("{not json")
    assert discover().names() == ["good"]
    assert json.loads(cache.read_text())["entries"]


def test_cache_lives_in_xdg_cache_home(folders, isolated_env) -> None:
    folders.tool("project", "good-tool")
    discover()
    assert Path(os.environ["XDG_CACHE_HOME"]) in cache_path().parents
    assert cache_path().exists()


def _counted_tool(folders) -> Path:
    """A tool that notes each time it is asked for its schema; returns the note file."""
    counter = folders.cwd / "schema-calls"
    folders.tool(
        "project",
        "counted-tool",
        schema_script=f"echo x >> {counter}\n"
        + f"cat <<'E'\n{json.dumps(_schema('counted'))}\nE\nexit 0",
    )
    return counter


def test_webtap_cache_off_turns_the_discovery_cache_off(folders, monkeypatch) -> None:
    """One switch for every cache, the discovery cache too (decision: Caches)."""
    counter = _counted_tool(folders)
    monkeypatch.setenv("WEBTAP_CACHE", "off")

    assert discover().names() == ["counted"]
    assert discover().names() == ["counted"]

    assert len(counter.read_text().splitlines()) == 2, "a cache that is off answered"
    assert not cache_path().exists(), "a cache that is off was written"


def test_webtap_cache_dir_moves_the_discovery_cache(folders, monkeypatch, tmp_path) -> None:
    """One folder for every cache, the discovery cache too (decision: Caches)."""
    counter = _counted_tool(folders)
    elsewhere = tmp_path / "caches"
    monkeypatch.setenv("WEBTAP_CACHE_DIR", str(elsewhere))

    discover()
    discover()

    assert len(counter.read_text().splitlines()) == 1  # the second came from the cache
    assert cache_path() == elsewhere / "tool-schemas.json"
    assert json.loads(cache_path().read_text())["entries"]
    assert not (Path(os.environ["XDG_CACHE_HOME"]) / "webtap" / "tool-schemas.json").exists()


def _schema(name: str) -> dict:
    return {
        "name": name,
        "description": f"Counts how often its schema is asked for ({name}).",
        "parameters": {"type": "object", "properties": {}},
    }


def test_a_system_folder_that_is_a_file_is_reported(folders, tmp_path, monkeypatch) -> None:
    not_a_folder = tmp_path / "tools.txt"
    not_a_folder.write_text("not a folder")
    monkeypatch.setenv("WEBTAP_SYSTEM_TOOLS_DIR", str(not_a_folder))
    folders.tool("user", "echo-tool")

    found = discover()

    assert found.names() == ["echo"]
    assert found.rejected == [
        Rejected(
            not_a_folder,
            "cannot read the system tools folder (WEBTAP_SYSTEM_TOOLS_DIR): Not a directory",
        )
    ]


def test_a_deleted_working_folder_holds_no_project_tools(folders, tmp_path, monkeypatch) -> None:
    folders.tool("user", "echo-tool")
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()  # as when the folder a shell sits in is removed by another

    found = discover()

    assert found.names() == ["echo"]
    assert [source for source, _ in tool_folders()] == ["system", "user"]


def test_ikigai_schema_with_only_name_and_description_takes_no_arguments(folders) -> None:
    schema = {"name": "uptime", "description": "How long this machine has been running"}
    folders.tool("project", "uptime-tool", schema=schema, body="cat >/dev/null\necho '{\"up\": 1}'")

    (tool,) = discover().tools

    assert tool.name == "uptime"
    assert tool.input_schema == {"type": "object", "properties": {}}
    assert tool.schema == {**schema, "parameters": {"type": "object", "properties": {}}}
    result = run_tool(tool, {})
    assert result.for_model() == {"tool_success": True, "result": {"up": 1}}
    assert run_tool(tool, {"x": 1}).success, "no schema of its own: nothing is refused"
    # The cached verdict gives the same tool.
    assert discover().tools[0].input_schema == tool.input_schema


def test_schema_name_with_hyphens_for_underscores_is_the_file_names_tool(folders) -> None:
    schema = {
        "name": "file-read",
        "description": "Reads a file and returns its lines",
        "parameters": {"type": "object", "properties": {"path": {"type": "string"}}},
    }
    folders.tool("project", "file-read-tool", schema=schema)
    folders.tool("project", "file_list-tool", schema={**schema, "name": "file-list"})

    found = discover()

    assert found.names() == ["file_list", "file_read"]
    assert found.get("file_read").schema["name"] == "file-read"
    result = run_tool(found.get("file_read"), {"path": "/x"})
    assert result.result == {"echo": {"path": "/x"}}


def test_schema_name_differing_otherwise_is_still_refused(folders, schema_for) -> None:
    folders.tool("project", "file-read-tool", schema=schema_for("file-write"))
    folders.tool("project", "fileread-tool", schema=schema_for("file-read"))
    folders.tool("project", "bad-name-tool", schema=schema_for("bad name"))

    found = discover()

    assert found.names() == []
    reasons = {path.name: reason for path, reason in found.rejected}
    assert reasons["file-read-tool"] == (
        "invalid tool schema: schema name 'file-write' must start with a letter and contain "
        "only letters, digits and underscores"
    )
    assert reasons["fileread-tool"] == (
        "invalid tool schema: schema name 'file-read' must start with a letter and contain "
        "only letters, digits and underscores"
    )
    assert "schema name 'bad name' must start with a letter" in reasons["bad-name-tool"]
