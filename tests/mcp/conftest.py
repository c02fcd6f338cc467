"""Fixtures for the MCP server tests: the server built in this process and reached through the
SDK's in-process client (``mcp_memory``: most tests, where no process boundary is under test), a
real ``webtap mcp`` subprocess spoken to over stdio (``mcp_session``, ``raw_mcp``: the command,
its flags and environment, stdout's framing), and small HTTP servers on 127.0.0.1 that answer as
web sites and as Brave."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from tests.fakes.brave import FakeBrave

WEBTAP = str(Path(sys.executable).parent / "webtap")
FIXTURES = Path(__file__).parent.parent / "fixtures"

# What the server process gets from the test's (isolated) environment.
PASSED_ON = [
    "HOME",
    "PATH",
    "XDG_CONFIG_HOME",
    "XDG_DATA_HOME",
    "XDG_CACHE_HOME",
    "WEBTAP_DB",
    "WEBTAP_RENDER",
]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


Route = Callable[["Handler"], None]


class Handler(BaseHTTPRequestHandler):
    server: LocalServer

    def do_GET(self) -> None:
        path = self.path.split("?")[0]
        # robots.txt, which a model's fetch reads first, is no page: a 404 unless routed.
        fallback = self.server.fallback if path != "/robots.txt" else None
        route = self.server.routes.get(path) or fallback
        if route is None:
            self.send_error(404, "Not Found")
            return
        self.server.requests.append(self.path)
        route(self)

    def reply(self, body: bytes | str, content_type: str = "text/html; charset=utf-8") -> None:
        data = body.encode() if isinstance(body, str) else body
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        pass


class LocalServer(ThreadingHTTPServer):
    """A threaded 127.0.0.1 server: ``routes`` maps a path to a function of the handler."""

    daemon_threads = True
    request_queue_size = 128  # 50 concurrent calls connect at once

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.routes: dict[str, Route] = {}
        self.fallback: Route | None = None
        self.requests: list[str] = []
        self.released = threading.Event()  # set at teardown: stalled handlers give up

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}{path}"


@pytest.fixture
def local_server() -> Iterator[LocalServer]:
    server = LocalServer()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.released.set()
    server.shutdown()
    server.server_close()


@pytest.fixture
def fake_brave(provider_server: Any) -> FakeBrave:
    """The suite's fake Brave, answering with its recorded ``brave search`` results."""
    return FakeBrave(provider_server).answer()  # type: ignore[return-value]


def _server_env(**extra: str) -> dict[str, str]:
    env = {name: os.environ[name] for name in PASSED_ON if name in os.environ}
    # `pytest --cov` measures the server too: coverage starts in it from these variables.
    env.update({k: v for k, v in os.environ.items() if k.startswith("COVERAGE_")})
    env["WEBTAP_ALLOW_PRIVATE_NETWORKS"] = "1"
    env.update(extra)
    return env


@dataclass
class Session:
    """A connected client and the log messages the server sent it."""

    client: Any
    logs: list[Any] = field(default_factory=list)

    async def call(self, name: str, arguments: dict[str, Any]) -> Any:
        return await self.client.call_tool(name, arguments)


@asynccontextmanager
async def _mcp_session(
    *args: str,
    env: dict[str, str] | None = None,
    mode: str = "legacy",
    cwd: str | Path | None = None,
) -> AsyncIterator[Session]:
    """``webtap mcp ARGS`` as a subprocess, connected over stdio with the SDK's client.

    ``mode="legacy"`` is the initialize handshake that today's clients (Claude Desktop, Claude
    Code) use; ``"auto"`` lets the SDK negotiate the newest protocol, where log messages are a
    per-request opt-in (the client here opts in at warning level).
    """
    from mcp.client.stdio import StdioServerParameters

    from mcp import Client

    session = Session(client=None)

    async def on_log(params: Any) -> None:
        session.logs.append(params)

    parameters = StdioServerParameters(
        command=WEBTAP, args=["mcp", *args], env=env or _server_env(), cwd=cwd
    )
    async with Client(
        parameters, mode=mode, logging_callback=on_log, log_level="warning"
    ) as client:
        session.client = client
        yield session


@asynccontextmanager
async def _memory_session(
    *,
    discovered: bool = False,
    only: list[str] | None = None,
    settings: Any = None,
    mode: str = "legacy",
) -> AsyncIterator[Session]:
    """webtap's MCP server built in this process (the tools ``webtap mcp [--discovered]
    [--only ...]`` would serve) and reached through the SDK's in-process client: ``legacy`` runs
    the JSON-RPC stream loop over memory streams (mcp.shared.memory), ``auto`` the modern
    per-request path. Everything but the process: the handlers, schemas, results and events."""
    from mcp import Client
    from webtap.mcp.server import build_server, select_tools

    session = Session(client=None)

    async def on_log(params: Any) -> None:
        session.logs.append(params)

    server = build_server(select_tools(discovered=discovered, only=only), settings)
    async with Client(server, mode=mode, logging_callback=on_log, log_level="warning") as client:
        session.client = client
        yield session


@pytest.fixture
def mcp_memory(monkeypatch: pytest.MonkeyPatch) -> Callable[..., Any]:
    """``async with mcp_memory(discovered=, only=, settings=, mode=) as session``: see
    :func:`_memory_session`. Private networks are allowed, as for ``mcp_session``."""
    monkeypatch.setenv("WEBTAP_ALLOW_PRIVATE_NETWORKS", "1")
    return _memory_session


@pytest.fixture
def server_env() -> Callable[..., dict[str, str]]:
    """The environment for ``webtap mcp``: the test's own, private networks allowed, plus
    the given variables."""
    return _server_env


@pytest.fixture
def mcp_session() -> Callable[..., Any]:
    """``async with mcp_session(*args, env=, mode=, cwd=) as session``: see :func:`_mcp_session`."""
    return _mcp_session


@dataclass
class RawExchange:
    """What ``webtap mcp`` answered to raw JSON-RPC lines: the lines read for each batch (its
    answers and the notifications before them), what was left on stdout, stderr, exit code."""

    heard: list[list[dict[str, Any]]]
    rest: bytes
    stderr: bytes
    returncode: int


def _raw_exchange(batches: list[list[dict[str, Any]]], **env: str) -> RawExchange:
    process = subprocess.Popen(
        [WEBTAP, "mcp"],
        env=_server_env(**env),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    heard = []
    # Each batch is answered before the next is sent: a setting applies to the calls after it.
    for batch in batches:
        process.stdin.write("".join(json.dumps(message) + "\n" for message in batch).encode())
        process.stdin.flush()
        requests = sum("id" in message for message in batch)
        lines: list[dict[str, Any]] = []
        while sum("id" in line for line in lines) < requests:
            raw = process.stdout.readline()
            assert raw, process.stderr.read().decode()
            lines.append(json.loads(raw))
        heard.append(lines)
    rest, err = process.communicate(timeout=60)  # closes stdin: the client hangs up
    return RawExchange(heard, rest, err, process.returncode)


@pytest.fixture
def raw_mcp() -> Callable[..., RawExchange]:
    """``raw_mcp(batches, **env)``: a ``webtap mcp`` process spoken to in raw JSON-RPC lines,
    one batch after another (see :class:`RawExchange`)."""
    return _raw_exchange
