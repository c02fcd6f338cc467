"""web_search_searxng installed, discovered, run and exported by the host, and served over MCP."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

RESULTS = {
    "query": "duckdb",
    "results": [{"url": "https://duckdb.org/", "title": "DuckDB", "content": "A database"}],
    "unresponsive_engines": [],
}


@pytest.fixture
def searxng(searxng: Any) -> Any:
    """The suite's fake SearXNG answering one result, its address in SEARXNG_URL."""
    return searxng.answer(RESULTS)


def test_installed_discovered_run_and_exported_by_the_host(
    searxng: Any, run_exe: Any, tmp_path: Path
) -> None:
    installed = run_exe("webtap", "install", "--project", cwd=tmp_path)
    assert installed.returncode == 0, installed.stderr
    assert (tmp_path / ".ikigai" / "tools" / "web-search-searxng-tool").exists()
    listed = run_exe("webtap", "tools", "list", "--json", cwd=tmp_path)
    names = [tool["name"] for tool in json.loads(listed.stdout)["tools"]]
    assert "web_search_searxng" in names
    run = run_exe(
        "webtap", "tools", "run", "web_search_searxng", '{"query": "duckdb"}', cwd=tmp_path
    )
    assert run.returncode == 0, run.stderr
    assert "https://duckdb.org/" in run.stdout
    exported = run_exe("webtap", "tools", "export", "--format", "anthropic", cwd=tmp_path)
    assert "web_search_searxng" in [tool["name"] for tool in json.loads(exported.stdout)]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_served_over_mcp(searxng: Any) -> None:
    """The MCP server's handlers, in process through the SDK's in-process client."""
    from mcp import Client
    from webtap.mcp_server import build_server, select_tools

    async with Client(build_server(select_tools()), mode="legacy") as client:
        listed = [tool.name for tool in (await client.list_tools()).tools]
        result = await client.call_tool("web_search_searxng", {"query": "duckdb"})
    assert "web_search_searxng" in listed
    assert not result.is_error
    assert result.structured_content["results"][0]["url"] == "https://duckdb.org/"
    assert len(searxng.log) == 1
