"""Issue 18 item 5: ``webtap mcp --http`` beyond loopback answers only its bearer token.

The servers here bind ``0.0.0.0`` (every interface: beyond loopback) and are reached only
through 127.0.0.1: the tests talk to nothing but this machine's loopback.
"""

from __future__ import annotations

import http.client
import json
import re
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from tests.fakes.ports import free_port

from webtap.mcp.server import MAP_TOOL
from webtap.tools import TOOLS

WEBTAP = str(Path(sys.executable).parent / "webtap")
TOKEN = "test-token-0123456789abcdef"
HELLO = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"},
    },
}
LIST = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}
TOKEN_LINE = re.compile(r"'Authorization: Bearer ([A-Za-z0-9_-]+)'")


@dataclass
class Served:
    """A running ``webtap mcp --http``: its port and what it said on stderr before serving."""

    process: subprocess.Popen[bytes]
    port: int
    said: list[str] = field(default_factory=list)

    def post(self, body: dict[str, Any], token: str | None = None, **headers: str) -> Any:
        """POST to /mcp on 127.0.0.1: (status, headers, body)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        sent = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        if token is not None:
            sent["Authorization"] = f"Bearer {token}"
        sent.update(headers)
        connection.request("POST", "/mcp", json.dumps(body), sent)
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()

    @property
    def shown_token(self) -> str | None:
        found = [m.group(1) for line in self.said for m in TOKEN_LINE.finditer(line)]
        assert len(found) <= 1, "the token was shown more than once"
        return found[0] if found else None


@pytest.fixture
def serve(server_env: Callable[..., dict[str, str]]) -> Iterator[Callable[..., Served]]:
    """``serve(host, *args, **env)``: ``webtap mcp --http HOST:PORT ARGS``, once it serves."""
    started: list[Served] = []

    def start(host: str, *args: str, **env: str) -> Served:
        port = free_port("0.0.0.0")
        process = subprocess.Popen(
            [WEBTAP, "mcp", "--http", f"{host}:{port}", *args],
            env=server_env(**env),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        served = Served(process, port)
        started.append(served)
        assert process.stderr is not None
        while not any("serving" in line for line in served.said):
            line = process.stderr.readline().decode()
            assert line, f"the server did not start: {''.join(served.said)}"
            served.said.append(line)
        return served

    yield start
    for served in started:
        served.process.send_signal(signal.SIGTERM)
        _, err = served.process.communicate(timeout=60)
        rest = "".join(served.said) + err.decode()
        assert "Traceback" not in rest, rest
        assert TOKEN not in rest  # a token from the environment is never shown


def test_beyond_loopback_a_token_is_made_and_shown_once(serve: Callable[..., Served]) -> None:
    served = serve("0.0.0.0")

    token = served.shown_token
    assert token is not None and len(token) >= 32
    assert "bearer token required" in served.said[-1]
    status, _, _ = served.post(HELLO, token)
    assert status == 200


def test_without_the_token_every_request_is_refused_and_no_tool_is_named(
    serve: Callable[..., Served],
) -> None:
    served = serve("0.0.0.0")
    token = served.shown_token
    assert token is not None

    for body in (HELLO, LIST):
        for sent in (None, "not-the-token", token + "x", token[:-1]):
            status, headers, answer = served.post(body, sent)
            assert status == 401, (body["method"], sent)
            assert headers["www-authenticate"].startswith('Bearer realm="webtap"')
            assert ("invalid_token" in headers["www-authenticate"]) == (sent is not None)
            error = json.loads(answer)
            assert "Authorization: Bearer <token>" in error["error_description"]
            assert not any(name.encode() in answer for name in TOOLS)
    # Another scheme, or the token without one, is no bearer token.
    assert served.post(HELLO, Authorization=f"Basic {token}")[0] == 401
    assert served.post(HELLO, Authorization=token)[0] == 401
    # The scheme's name is case-insensitive (RFC 7235).
    assert served.post(HELLO, Authorization=f"bearer {token}")[0] == 200


@pytest.mark.anyio
async def test_with_the_token_the_sdk_s_client_lists_and_calls(
    serve: Callable[..., Served],
) -> None:
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    from mcp import Client

    served = serve("0.0.0.0", WEBTAP_MCP_TOKEN=TOKEN)
    assert served.shown_token is None  # the person chose it: nothing to show
    http = create_mcp_http_client(headers={"Authorization": f"Bearer {TOKEN}"})
    url = f"http://127.0.0.1:{served.port}/mcp"
    async with http, Client(streamable_http_client(url, http_client=http)) as client:
        listed = (await client.list_tools()).tools
        answer = await client.call_tool("web_fetch", {"url": "ftp://example.com/"})
    assert [tool.name for tool in listed] == [*TOOLS, MAP_TOOL, "verify_quote"]
    assert answer.is_error and answer.structured_content["error_code"] == "INVALID_URL"


def test_a_token_set_is_required_on_loopback_too(serve: Callable[..., Served]) -> None:
    served = serve("127.0.0.1", WEBTAP_MCP_TOKEN=TOKEN)

    assert served.post(HELLO)[0] == 401
    assert served.post(HELLO, TOKEN)[0] == 200


def test_loopback_without_a_token_set_needs_none(serve: Callable[..., Served]) -> None:
    served = serve("127.0.0.1")

    assert served.shown_token is None
    assert served.post(HELLO)[0] == 200


def test_discovered_beyond_loopback_is_refused_unless_asked_for(
    run_exe: Any, serve: Callable[..., Served], tmp_path: Path
) -> None:
    result = run_exe("webtap", "mcp", "--http", f"0.0.0.0:{free_port('0.0.0.0')}", "--discovered")

    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.startswith("webtap: --discovered on 0.0.0.0, beyond loopback")
    assert "--allow-remote-discovered" in result.stderr
    assert "Bearer" not in result.stderr  # refused before any token was made
    served = serve("0.0.0.0", "--discovered", "--allow-remote-discovered")
    assert served.post(HELLO, served.shown_token)[0] == 200


def test_a_short_token_is_refused_without_quoting_it(run_exe: Any) -> None:
    result = run_exe(
        "webtap",
        "mcp",
        "--http",
        f"127.0.0.1:{free_port('0.0.0.0')}",
        env={"WEBTAP_MCP_TOKEN": "hunter2"},
    )

    assert result.returncode == 2
    assert result.stderr.startswith("webtap: WEBTAP_MCP_TOKEN must be at least 16")
    assert "hunter2" not in result.stderr


@pytest.mark.anyio
async def test_the_gate_lets_the_lifespan_through_and_closes_a_websocket() -> None:
    from webtap.mcp.transports import BearerGate

    seen: list[str] = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        seen.append(scope["type"])

    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    gate = BearerGate(app, TOKEN)
    await gate({"type": "lifespan"}, None, send)
    await gate({"type": "websocket", "headers": []}, None, send)
    await gate(
        {"type": "http", "headers": [(b"authorization", f"Bearer {TOKEN}".encode())]}, None, send
    )

    assert seen == ["lifespan", "http"]
    assert sent == [{"type": "websocket.close", "code": 1008}]


def test_the_token_is_a_secret_no_message_quotes() -> None:
    from webtap.mcp.transports import BearerGate
    from webtap.redact import redact

    BearerGate(lambda *_: None, TOKEN)

    assert TOKEN not in redact(f"Internal error: the client sent 'Bearer {TOKEN}'")
