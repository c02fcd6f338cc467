"""The transports: streamable HTTP with the SDK's client, and a stdout that carries only protocol
messages on stdio."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.fakes.ports import free_port, wait_listening

from webtap.host.event_store import EventStore
from webtap.mcp.server import MAP_TOOL
from webtap.tools import TOOLS

WEBTAP = str(Path(sys.executable).parent / "webtap")


@pytest.fixture
def http_server(server_env: Any) -> Iterator[str]:
    """``webtap mcp --http 127.0.0.1:PORT`` running; yields its MCP endpoint."""
    port = free_port()
    process = subprocess.Popen(
        [WEBTAP, "mcp", "--http", f"127.0.0.1:{port}"],
        env=server_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        wait_listening(port, process)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        out, err = process.communicate(timeout=60)
    assert out == b""
    assert b"Traceback" not in err, err.decode()


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_streamable_http_lists_calls_and_logs(http_server: str, mode: str) -> None:
    from mcp import Client

    logs: list[Any] = []

    async def on_log(params: Any) -> None:
        logs.append(params)

    async with Client(http_server, mode=mode, logging_callback=on_log, log_level="warning") as c:
        listed = (await c.list_tools()).tools
        bad = await c.call_tool("web_fetch", {"url": "ftp://example.com/", "limit": -1})
        missing_key = await c.call_tool("web_search_google", {"query": "duckdb"})
    assert [tool.name for tool in listed] == [*TOOLS, MAP_TOOL, "verify_quote"]
    assert bad.is_error and "'limit'" in bad.content[0].text
    assert missing_key.is_error
    assert missing_key.structured_content["error_code"] == "AUTH_MISSING"
    [log] = logs
    assert log.level == "warning" and log.data.startswith("⚠ Configuration Required")
    assert "Search Engine ID" in log.data


def rpc(ident: int, method: str, params: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": ident, "method": method, "params": params}


def test_stdout_carries_only_protocol_messages(raw_mcp: Any) -> None:
    """Raw JSON-RPC on stdin: every line on stdout is a JSON-RPC message, nothing else."""
    messages = [
        rpc(
            1,
            "initialize",
            {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "raw", "version": "0"},
            },
        ),
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        rpc(2, "tools/list", {}),
        rpc(3, "tools/call", {"name": "web_search_brave", "arguments": {"query": "no key"}}),
        rpc(4, "tools/call", {"name": "web_fetch", "arguments": {"url": "not a url"}}),
        rpc(5, "tools/call", {"name": "web_fetch", "arguments": {"offset": 0}}),
        rpc(6, "tools/call", {"name": "nope", "arguments": {}}),
    ]
    # Then a client that asks for errors only hears no more warnings; the event is still stored.
    later = [
        rpc(7, "logging/setLevel", {"level": "error"}),
        rpc(8, "tools/call", {"name": "web_search_brave", "arguments": {"query": "no key"}}),
    ]
    exchange = raw_mcp([messages, later])
    lines = [line for batch in exchange.heard for line in batch]
    assert exchange.rest == b""  # stdout holds protocol lines and nothing after them
    assert exchange.returncode == 0
    assert all(line["jsonrpc"] == "2.0" for line in lines)
    answers = {line["id"]: line for line in lines if "id" in line}
    notes = [line for line in lines if "id" not in line]
    assert [note["method"] for note in notes] == ["notifications/message"]
    assert answers[3]["result"]["isError"] is True
    assert answers[4]["result"]["structuredContent"]["error_code"] == "INVALID_URL"
    assert "'url'" in answers[5]["result"]["content"][0]["text"]
    assert answers[6]["error"]["code"] == -32602
    assert answers[8]["result"]["isError"] is True
    assert b"Traceback" not in exchange.stderr, exchange.stderr.decode()
    with EventStore(os.environ["WEBTAP_DB"]) as store:
        assert [event["kind"] for event in store.list()] == ["config_required"] * 2


def test_a_call_that_ends_after_its_server_stopped_ends_quietly() -> None:
    """A stop closes the event loop while a tool call still runs on its thread: when the call
    ends, its answer has nowhere to go, and the thread says nothing (a traceback on stderr was
    all the person saw of a Ctrl-C that stopped the server mid-call)."""
    import asyncio
    import threading

    from webtap.mcp.server import _in_thread

    release, ended = threading.Event(), threading.Event()
    failures: list[BaseException | None] = []
    previous = threading.excepthook
    threading.excepthook = lambda args: failures.append(args.exc_value)

    def call() -> str:
        release.wait(10)
        ended.set()
        return "late"

    async def stopped_mid_call() -> None:
        task = asyncio.ensure_future(_in_thread(call))
        await asyncio.sleep(0.05)
        task.cancel()

    try:
        loop = asyncio.new_event_loop()
        loop.run_until_complete(stopped_mid_call())
        loop.close()
        release.set()
        assert ended.wait(10)
        for thread in threading.enumerate():
            if thread.name == "webtap-mcp-call":
                thread.join(10)
    finally:
        threading.excepthook = previous
    assert failures == []
