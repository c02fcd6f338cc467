"""``webtap mcp``: serve webtap's tools to MCP clients (stdio by default, or streamable HTTP)."""

from __future__ import annotations

import argparse
import functools
import math
import sys
from typing import Any

from webtap.settings import MCP_MAX_LINES, MCP_TIMEOUT, MCP_TOKEN, environment_help

__all__ = ["add_parser", "run"]

MIN_TOKEN = 16  # characters of a WEBTAP_MCP_TOKEN: a guessable token is no token

DESCRIPTION = """\
Serve webtap's tools (web_fetch, web_search_brave, web_search_searxng, web_search_google, and
verify_quote, which checks a quote against a page) over the Model Context Protocol. By default the server speaks MCP on stdin/stdout, as Claude Desktop
and Claude Code start it; --http HOST:PORT serves the streamable HTTP transport at
http://HOST:PORT/mcp instead.
Nothing but protocol messages is written to stdout; diagnostics go to stderr.

Over HTTP beyond loopback (--http 0.0.0.0:8812, or this machine's own address) every request
must carry "Authorization: Bearer <token>": the token in WEBTAP_MCP_TOKEN, or else one made at
start and shown once on stderr; any other request gets 401 and no tools. On 127.0.0.1,
localhost or ::1 no token is needed, unless WEBTAP_MCP_TOKEN is set: then it is required there
too. --discovered beyond loopback is refused unless --allow-remote-discovered is given.
SIGTERM, SIGHUP and Ctrl-C stop the server at once, calls in flight or not: every running
tool is killed, and the exit status is 143, 129 or 130.
"""


def epilog() -> str:
    """The environment section of ``--help``: the settings as declared, then the search keys
    as the provider registry names them."""
    from webtap.providers import PROVIDERS

    keys = ", ".join(key.env for provider in PROVIDERS.values() for key in provider.keys.values())
    return environment_help(
        MCP_MAX_LINES,
        MCP_TIMEOUT,
        MCP_TOKEN,
        more=f"{keys}: the search tools' keys and addresses (or "
        "~/.config/ikigai/credentials.json); web_fetch needs none.",
    )


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "mcp",
        help="serve the tools to MCP clients (Claude Desktop, Claude Code, ...)",
        description=DESCRIPTION,
        epilog=epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--http",
        metavar="HOST:PORT",
        help="serve streamable HTTP at http://HOST:PORT/mcp instead of stdio",
    )
    parser.add_argument(
        "--discovered",
        action="store_true",
        help="also serve every valid tool the host discovers (webtap's own names win)",
    )
    parser.add_argument(
        "--allow-remote-discovered",
        action="store_true",
        help="with --http beyond loopback, serve --discovered tools anyway: every client "
        "holding the token may run the executables in the tool folders",
    )
    parser.add_argument(
        "--only",
        nargs="+",
        metavar="NAME",
        help="serve only these tools",
    )
    parser.add_argument(
        "--max-lines",
        type=int,
        metavar="N",
        help="lines web_fetch returns when the client gives no limit; 0 for no cap "
        f"(default {MCP_MAX_LINES.default_text()}, or {MCP_MAX_LINES.name})",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        metavar="SECONDS",
        help="seconds a call of webtap's tools may take before it ends in an error result "
        f"(default {MCP_TIMEOUT.default_text()}, or {MCP_TIMEOUT.name}); discovered tools keep "
        "the host's timeout",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import logging

    from webtap.cli._output import fail
    from webtap.errors import WebtapError
    from webtap.host.process import stop_tools_on_signals
    from webtap.signals import stopped_by

    # stdout carries the protocol on stdio: everything else goes to stderr.
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="webtap mcp: %(message)s")
    # Until the server's event loop takes them: SIGTERM/SIGHUP kill every tool and stop it.
    stop_tools_on_signals()
    try:
        address = _address(args.http) if args.http else None
        settings = _settings(args)
        import anyio

        from webtap.mcp.server import build_server, select_tools
        from webtap.mcp.transports import is_loopback, listen, serve_http, serve_stdio
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
    import secrets

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


def _settings(args: argparse.Namespace) -> Any:
    from webtap.mcp.server import ServerSettings

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
