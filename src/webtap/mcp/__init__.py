"""``webtap mcp``: webtap's tools over the Model Context Protocol, for any MCP client.

- :mod:`~webtap.mcp.server`: the server itself, the same on every transport: which tools it
  serves (webtap's own, and the host's with ``--discovered``), their schemas and annotations,
  each call in process within its deadline, results and events as MCP carries them;
- :mod:`~webtap.mcp.tool`: a tool as the server offers it (:mod:`~webtap.mcp.quote`'s
  ``verify_quote`` is one);
- :mod:`~webtap.mcp.transports`: how clients meet it (stdio, or streamable HTTP behind a bearer
  token beyond loopback) and how it stops (SIGINT, SIGTERM, SIGHUP).

A front door beside the command line and the SQL functions: nothing below it imports it, it
imports neither, and ``webtap mcp`` (:mod:`webtap.cli.mcp`) starts it. Both modules load the MCP
SDK: they are imported when serving, not before (``webtap --help`` does not).
"""

from __future__ import annotations

from webtap.mcp.server import (
    DEFAULT_MAX_LINES,
    DEFAULT_TIMEOUT,
    ServerSettings,
    build_server,
    select_tools,
)
from webtap.mcp.tool import ServedTool
from webtap.mcp.transports import BearerGate, is_loopback, listen, serve_http, serve_stdio

__all__ = [
    "DEFAULT_MAX_LINES",
    "DEFAULT_TIMEOUT",
    "BearerGate",
    "ServedTool",
    "ServerSettings",
    "build_server",
    "is_loopback",
    "listen",
    "select_tools",
    "serve_http",
    "serve_stdio",
]
