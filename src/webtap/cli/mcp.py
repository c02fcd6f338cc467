"""``webtap mcp``: serve webtap's tools to MCP clients (stdio by default, or streamable HTTP)."""

from __future__ import annotations

import argparse
import functools
import logging
import math
import secrets
import sys

import anyio

from webtap.cli._output import fail
from webtap.errors import WebtapError
from webtap.host.process import stop_tools_on_signals
from webtap.mcp.server import ServerSettings, build_server, select_tools
from webtap.mcp.transports import is_loopback, listen, serve_http, serve_stdio
from webtap.settings import MCP_MAX_LINES, MCP_TIMEOUT, MCP_TOKEN
from webtap.signals import stopped_by

__all__ = ["run"]

MIN_TOKEN = 16  # characters of a WEBTAP_MCP_TOKEN: a guessable token is no token


def run(args: argparse.Namespace) -> int:
    # stdout carries the protocol on stdio: everything else goes to stderr.
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="webtap mcp: %(message)s")
    # Until the server's event loop takes them: SIGTERM/SIGHUP kill every tool and stop it.
    stop_tools_on_signals()
    try:
        address = _address(args.http) if args.http else None
        settings = _settings(args)
    except (ValueError, WebtapError) as exc:
        return fail(str(exc), 2)
    if address is None:
        try:
            tools = select_tools(discovered=args.discovered, only=args.only)
        except WebtapError as exc:
            return fail(str(exc), 2)
        signum = anyio.run(serve_stdio, build_server(tools, settings))
        if signum is not None:
            raise stopped_by(signum)
        return 0
    host, port = address
    shown = f"[{host}]" if ":" in host else host
    try:
        sock = listen(host, port)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        return fail(f"cannot listen on {shown}:{port}: {reason}; give --http another address")
    with sock:
        loopback = is_loopback(sock)
        if args.discovered and not loopback and not args.allow_remote_discovered:
            return fail(
                f"--discovered on {shown}, beyond loopback, lets every client that can reach "
                "the port run the executables in the tool folders; bind 127.0.0.1, or add "
                "--allow-remote-discovered if that is what you want",
                2,
            )
        try:
            tools = select_tools(discovered=args.discovered, only=args.only)
            token = _token(loopback)
        except (ValueError, WebtapError) as exc:
            return fail(str(exc), 2)
        sys.stderr.write(
            f"webtap mcp: serving {len(tools)} tools at http://{shown}:{port}/mcp "
            f"({'bearer token required; ' if token else ''}Ctrl-C stops)\n"
        )
        signum = anyio.run(
            functools.partial(serve_http, token=token),
            build_server(tools, settings),
            host,
            port,
            sock,
        )
    if signum is not None:
        raise stopped_by(signum)
    return 0


def _token(loopback: bool) -> str | None:
    """The bearer token clients must send: WEBTAP_MCP_TOKEN if set (on any address), else one
    made now and shown once on stderr when the server is reachable beyond loopback; None on
    loopback without the variable."""
    token = MCP_TOKEN.get()
    if token:
        if len(token) < MIN_TOKEN or any(not 0x21 <= ord(c) <= 0x7E for c in token):
            raise ValueError(
                f"{MCP_TOKEN.name} must be at least {MIN_TOKEN} printable characters without "
                "spaces; make one with: "
                "python3 -c 'import secrets; print(secrets.token_urlsafe(32))'"
            )
        return token
    if loopback:
        return None
    token = secrets.token_urlsafe(32)
    sys.stderr.write(
        "webtap mcp: this server answers only requests with the header "
        f"'Authorization: Bearer {token}' (shown once; set {MCP_TOKEN.name} to choose it)\n"
    )
    return token


def _settings(args: argparse.Namespace) -> ServerSettings:
    # A flag is checked here; a variable by its declaration (a ConfigError that names it).
    max_lines = MCP_MAX_LINES.get() if args.max_lines is None else args.max_lines
    if max_lines < 0:
        raise ValueError(f"--max-lines must be 0 (no cap) or more, got {max_lines}")
    timeout = MCP_TIMEOUT.get() if args.timeout is None else args.timeout
    if not 0 < timeout < math.inf:  # nan fails too
        raise ValueError(f"--timeout must be a number of seconds above 0, got {timeout:g}")
    return ServerSettings(max_lines=max_lines, timeout=timeout)


def _address(value: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6) -> (host, port)."""
    host, sep, port = value.rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"--http wants HOST:PORT, such as 127.0.0.1:8765 (got {value!r})")
    return host, int(port)
