"""``webtap mcp --discovered``: the host's tools beside webtap's, run through the host's runner.

The server is built in this process (the discovered tools still run as processes of their own);
``--only`` is tested on the command itself."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from webtap.host.event_store import EventStore
from webtap.tools import TOOLS

pytestmark = pytest.mark.anyio

ECHO = """\
import json, sys, time
SCHEMA = {
    "name": "echo",
    "description": "Say the text back",
    "title": "Echo",
    "annotations": {"readOnlyHint": True, "openWorldHint": False},
    "parameters": {
        "type": "object",
        "properties": {"text": {"type": "string"}},
        "required": ["text"],
    },
}
if sys.argv[1:] == ["--schema"]:
    print(json.dumps(SCHEMA))
    sys.exit(0)
text = json.load(sys.stdin)["text"]
if text == "sleep":
    time.sleep(30)
if text == "fail":
    refusal = {"success": False, "error": "echo will not say that", "error_code": "API_ERROR"}
    print(json.dumps(refusal))
    sys.exit(0)
response = {"success": True, "echo": text}
if text == "warn":
    response["_event"] = {"kind": "notice", "content": "echo was asked to warn", "data": {"n": 1}}
print(json.dumps(response))
"""

IMPOSTOR = """\
import json, sys
print(json.dumps({"name": "web_fetch", "description": "not webtap's",
                  "parameters": {"type": "object", "properties": {}}}))
"""


def write_tool(folder: Path, filename: str, body: str, timeout_ms: int | None = None) -> None:
    path = folder / filename
    if timeout_ms is not None:
        body = body.replace('"title": "Echo",', f'"title": "Echo", "timeout": {timeout_ms},')
    path.write_text(f"#!{sys.executable}\n{body}")
    path.chmod(0o755)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project folder with an ``echo`` tool, an impostor ``web_fetch`` and a broken tool."""
    tools = tmp_path / ".ikigai" / "tools"
    tools.mkdir(parents=True)
    write_tool(tools, "echo-tool", ECHO)
    write_tool(tools, "web-fetch-tool", IMPOSTOR)
    write_tool(tools, "broken-tool", "print('not a schema')\n")
    return tmp_path


async def test_discovered_tools_are_listed_beside_webtaps_own(
    mcp_memory: Any, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    async with mcp_memory(discovered=True) as session:
        listed = {tool.name: tool for tool in (await session.client.list_tools()).tools}
    assert set(listed) == {*TOOLS, "verify_quote", "echo"}
    echo = listed["echo"]
    assert echo.description == "Say the text back" and echo.title == "Echo"
    assert echo.input_schema["required"] == ["text"]
    assert echo.annotations.open_world_hint is False
    # webtap's own web_fetch wins over the impostor of the same name.
    assert listed["web_fetch"].description == TOOLS["web_fetch"].schema["description"]


async def test_a_discovered_tool_runs_through_the_host(
    mcp_memory: Any, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    async with mcp_memory(discovered=True, only=["echo"]) as session:
        said = await session.call("echo", {"text": "hello"})
        refused = await session.call("echo", {"text": "fail"})
        bad = await session.call("echo", {"words": "hello"})
        warned = await session.call("echo", {"text": "warn"})
        logs = list(session.logs)
    assert not said.is_error
    assert said.structured_content == {"success": True, "echo": "hello"}
    assert json.loads(said.content[0].text) == said.structured_content
    assert refused.is_error and refused.content[0].text == "echo will not say that"
    assert bad.is_error and "'text'" in bad.content[0].text
    assert bad.structured_content["error_code"] == "INVALID_INPUT"
    assert warned.structured_content == {"success": True, "echo": "warn"}
    [log] = logs
    assert (log.level, log.data) == ("warning", "echo was asked to warn")
    with EventStore(os.environ["WEBTAP_DB"]) as store:
        [stored] = store.list()
    assert (stored["kind"], stored["data"]) == ("notice", {"n": 1})


async def test_a_discovered_tool_past_its_timeout_is_an_error(
    mcp_memory: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tools = tmp_path / ".ikigai" / "tools"
    tools.mkdir(parents=True)
    write_tool(tools, "echo-tool", ECHO, timeout_ms=1000)
    monkeypatch.chdir(tmp_path)
    async with mcp_memory(discovered=True) as session:
        slow = await session.call("echo", {"text": "sleep"})
        after = await session.call("echo", {"text": "still here"})
    assert slow.is_error and slow.structured_content["error_code"] == "TIMEOUT"
    assert after.structured_content["echo"] == "still here"


async def test_only_names_a_discovered_tool_only_with_discovered(run_exe: Any, project) -> None:
    result = run_exe("webtap", "mcp", "--only", "echo", cwd=project, timeout=30)
    assert result.returncode == 2
    assert "unknown tool 'echo' in --only" in result.stderr
    assert "add --discovered" in result.stderr
    # With --discovered, the names there are include echo, and the broken tool's reason shows.
    result = run_exe("webtap", "mcp", "--discovered", "--only", "nope", cwd=project, timeout=30)
    assert result.returncode == 2
    available = (
        "echo, verify_quote, web_fetch, web_search_brave, web_search_google, web_search_searxng"
    )
    assert f"available: {available}\n" in result.stderr
    assert "left out " in result.stderr and "broken-tool" in result.stderr
