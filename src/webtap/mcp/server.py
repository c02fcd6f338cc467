"""webtap's tools over the Model Context Protocol, for any MCP client.

The server is the SDK's low-level ``Server`` with explicit ``tools/list`` and ``tools/call``
handlers, because the input schemas must be the spec's own, to the key, and a decorated typed
function would generate its own. A call of one of webtap's tools runs in process
(:func:`webtap.tools.call`); a discovered tool runs through the host's runner. Either way:

- the result is ``structuredContent`` plus the same JSON as text; a tool failure is a result
  with ``isError`` and the tool's message, never a protocol error;
- an ``_event`` is for the person, not the model: it is sent as a log message at warning level,
  stored like the host stores events, and left out of the result;
- the fetch tool returns at most :data:`DEFAULT_MAX_LINES` lines when the client asks for no
  ``limit``, and says how to read on; its schema adds two optional arguments to the spec's,
  ``full_page`` (the whole page instead of its main content; a trimmed result says how to ask
  for it) and ``render`` (render the page in a browser first, or never); a paywalled article's
  teaser says that it is one;
- a failure that says whether trying again can help (webtap's verdicts: ``BLOCKED``,
  ``NO_CONTENT``, ``ROBOTS_DISALLOWED``, an ``HTTP_ERROR``...) ends its text with its code, and
  its structured content carries ``retryable`` and ``retry_with``;
- the pages it renders share one browser while it runs (:func:`webtap.fetch.render.keep_browser`);
- every call has a deadline, so a slow tool ends in an error result instead of a stuck session.

Nothing here writes to stdout: on the stdio transport stdout is the protocol's. The transports
themselves -- stdio, streamable HTTP with its bearer token, stopping on signals -- are
:mod:`webtap.mcp.transports`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import threading
import warnings
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass
from typing import Any

import anyio
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

from webtap import __version__
from webtap.crawl import Scope, map_site, start_url
from webtap.errors import (
    ConfigError,
    InternalError,
    InvalidInput,
    ToolFailed,
    ToolTimeout,
    explain,
)
from webtap.fetch.render import keep_browser
from webtap.host import discover, export_tool, run_tool
from webtap.host.events import keep_event
from webtap.mcp.quote import verify_quote_tool
from webtap.mcp.tool import Runner, ServedTool
from webtap.providers import provider_of_tool
from webtap.redact import redact
from webtap.settings import MCP_MAX_LINES, MCP_TIMEOUT
from webtap.tools import TOOLS, WEB_ANNOTATIONS, ToolResult, attempt, call

__all__ = [
    "DEFAULT_MAX_LINES",
    "DEFAULT_TIMEOUT",
    "ServedTool",
    "ServerSettings",
    "build_server",
    "discovered_tools",
    "own_tools",
    "select_tools",
    "stop_calls",
]

logger = logging.getLogger("webtap.mcp")

DEFAULT_MAX_LINES = MCP_MAX_LINES.default
DEFAULT_TIMEOUT = MCP_TIMEOUT.default
# Calls running at once; more wait their turn (a client could otherwise start a thread per call).
MAX_CONCURRENT_CALLS = 64

PAGED_TOOL = "web_fetch"
HOST_GRACE = 5.0

# The arguments webtap's MCP schema adds to the spec's (decision: Main content).
FULL_PAGE = "full_page"
FULL_PAGE_SCHEMA = {
    "type": "boolean",
    "description": "Return the whole page instead of only its main content (HTML pages give "
    'their main content by default, marked "content_mode": "main")',
    "default": False,
}
RENDER = "render"
RENDER_SCHEMA = {
    "type": "boolean",
    "description": "true: render the page in a browser first, for a page whose content is "
    "built by JavaScript; false: never. Left out, a page judged to be an empty script shell is "
    'rendered when a browser is installed. A rendered result says "rendered": true',
}

# What the client is told about the server, sentence by sentence for the tools it offers.
INSTRUCTIONS = {
    "web_fetch": "web_fetch reads a URL as Markdown; a long page comes in pages of lines "
    "(offset/limit; total_lines says how many there are). An HTML page gives its main content; "
    "full_page=true gives the whole page. A page built by JavaScript is rendered in a browser "
    "when it comes back as an empty shell; render=true asks for that rendering.",
    "web_search": "The web_search_* tools search the web; each needs its provider set up (an "
    "API key, or SEARXNG_URL for a SearXNG instance), and when it is not the result says so.",
    "web_map": "web_map lists a site's URLs from its sitemaps without fetching its pages: "
    "find the page you need, then web_fetch it.",
    "verify_quote": "verify_quote checks that a quote stands on a page, as web_fetch reads it, "
    "before you cite it.",
}


@dataclass(frozen=True)
class ServerSettings:
    """``max_lines``: lines per fetch when the client gives no ``limit`` (0: no cap).
    ``timeout``: seconds a call may take before it ends in an error result."""

    max_lines: int = DEFAULT_MAX_LINES
    timeout: float = DEFAULT_TIMEOUT


def own_tools() -> list[ServedTool]:
    """webtap's own tools, with the spec's schemas, run in process; then ``verify_quote``
    (:mod:`webtap.mcp.quote`), which checks a quote against a page."""
    served = []
    for spec in TOOLS.values():
        schema = spec.schema
        parameters = schema["parameters"]
        if spec.name == PAGED_TOOL:
            properties = {
                **parameters["properties"],
                FULL_PAGE: FULL_PAGE_SCHEMA,
                RENDER: RENDER_SCHEMA,
            }
            parameters = {**parameters, "properties": properties}
        served.append(
            ServedTool(
                name=spec.name,
                description=schema["description"],
                input_schema=parameters,
                run=_own_runner(spec.name),
                title=spec.title,
                annotations=types.ToolAnnotations.model_validate(
                    {"title": spec.title, **WEB_ANNOTATIONS}
                ),
            )
        )
    served.append(_map_tool())
    served.append(verify_quote_tool())
    return served


# web_map: a site's URLs (webtap.crawl.map_site), for an agent to find a page before fetching it.
MAP_TOOL = "web_map"
MAP_LIMIT = 200  # URLs when the client asks for no limit
MAP_MAX = 5000
MAP_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "url": {"type": "string", "description": "The site: its start page's URL"},
        "limit": {
            "type": "integer",
            "minimum": 1,
            "maximum": MAP_MAX,
            "default": MAP_LIMIT,
            "description": "The most URLs to return",
        },
        "links": {
            "type": "boolean",
            "default": False,
            "description": "Add the start page's links (fetches that one page)",
        },
        "prefix": {"type": "string", "description": "Only URLs whose path starts with this"},
        "subdomains": {"type": "boolean", "default": False, "description": "Subdomains too"},
    },
    "required": ["url"],
    "additionalProperties": False,
}


def _map_tool() -> ServedTool:
    return ServedTool(
        name=MAP_TOOL,
        description="List a web site's URLs without fetching its pages: those its sitemaps "
        "list (robots.txt's Sitemap: lines, /sitemap.xml, indexes, gzip), each once (tracking "
        "parameters, fragments and www. duplicates merged), on the site, allowed by its "
        "robots.txt; with lastmod when the sitemap gives it. Use it to find the page to fetch.",
        input_schema=MAP_SCHEMA,
        run=_run_map,
        title="Web map",
        annotations=types.ToolAnnotations.model_validate({"title": "Web map", **WEB_ANNOTATIONS}),
    )


def _run_map(arguments: dict[str, Any], timeout: float) -> ToolResult:
    def work() -> dict[str, Any]:
        url, limit = arguments.get("url"), arguments.get("limit", MAP_LIMIT)
        if not isinstance(url, str) or not url.strip():
            raise InvalidInput("Invalid input: field 'url' must be a URL")
        if type(limit) is not int or not 1 <= limit <= MAP_MAX:
            raise InvalidInput(f"Invalid input: field 'limit' must be from 1 to {MAP_MAX}")
        scope = Scope.of(
            start_url(url),
            subdomains=arguments.get("subdomains") is True,
            prefix=str(arguments.get("prefix") or ""),
        )
        found = list(
            map_site(url, links=arguments.get("links") is True, limit=limit + 1, scope=scope)
        )
        records = [mapped.record() for mapped in found[:limit]]
        return {"success": True, "urls": records, "count": len(records),
                "truncated": len(found) > limit}  # fmt: skip

    return attempt(MAP_TOOL, work, "web_map")


def _own_runner(name: str) -> Runner:
    def run(arguments: dict[str, Any], timeout: float) -> ToolResult:
        if name != PAGED_TOOL:
            return call(name, arguments)
        arguments = dict(arguments)
        full_page = arguments.pop(FULL_PAGE, False)
        render = arguments.pop(RENDER, None)
        for field, value in ((FULL_PAGE, full_page), (RENDER, render)):
            if not isinstance(value, bool | None):
                message = f"Invalid input: field '{field}' must be true or false"
                return ToolResult(name, failure=InvalidInput(message))
        return call(name, arguments, full_page=full_page, render=render)

    return run


def discovered_tools() -> list[ServedTool]:
    """Every valid tool the host finds, run through the host's runner.

    Listed as the host exports them for MCP (a title and annotations the tool's schema
    declares), but without an ``outputSchema``: a stranger's output is passed on, not vouched for.
    """
    discovery = discover()
    for rejected in discovery.rejected:
        logger.warning("left out %s: %s", rejected.path, rejected.reason)
    served = []
    for tool in discovery.tools:
        definition = export_tool(tool, "mcp")
        served.append(
            ServedTool(
                name=tool.name,
                description=tool.description,
                input_schema=tool.input_schema,
                run=_host_runner(tool),
                title=definition.get("title"),
                annotations=_annotations(tool.name, definition.get("annotations")),
                timeout=tool.timeout,
                grace=HOST_GRACE,
            )
        )
    return served


def _annotations(name: str, declared: Any) -> types.ToolAnnotations | None:
    if declared is None:
        return None
    try:
        return types.ToolAnnotations.model_validate(declared)
    except ValueError:
        logger.warning("%s: its annotations are not MCP tool annotations; left out", name)
        return None


def _host_runner(tool: Any) -> Runner:
    def run(arguments: dict[str, Any], timeout: float) -> ToolResult:
        return run_tool(tool, arguments, timeout=timeout)

    return run


def select_tools(discovered: bool = False, only: list[str] | None = None) -> list[ServedTool]:
    """webtap's tools, plus the host's when ``discovered``, narrowed to ``only``.

    A discovered tool named like one of webtap's is left out (webtap serves its own). An
    unknown name in ``only`` is a :class:`ConfigError` that lists the names there are.
    """
    served = own_tools()
    if discovered:
        names = {tool.name for tool in served}
        for tool in discovered_tools():
            if tool.name in names:
                logger.info("discovered tool %s left out: webtap serves its own", tool.name)
                continue
            names.add(tool.name)
            served.append(tool)
    if only:
        known = {tool.name: tool for tool in served}
        unknown = [name for name in only if name not in known]
        if unknown:
            hint = "" if discovered else " (add --discovered for the host's tools)"
            raise ConfigError(
                f"unknown tool {', '.join(map(repr, unknown))} in --only; "
                f"available: {', '.join(sorted(known))}{hint}"
            )
        served = [known[name] for name in dict.fromkeys(only)]
    return served


def build_server(tools: list[ServedTool], settings: ServerSettings | None = None) -> Server:
    """The MCP server offering ``tools``."""
    settings = settings or ServerSettings()
    by_name = {tool.name: tool for tool in tools}
    listing = types.ListToolsResult(tools=[tool.listing() for tool in tools])
    gate = anyio.Semaphore(MAX_CONCURRENT_CALLS)
    # logging/setLevel, per connection (the HTTP session, or the one stdio client).
    log_levels: dict[str | None, str] = {}

    async def list_tools(
        ctx: ServerRequestContext, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return listing

    async def call_tool(
        ctx: ServerRequestContext, params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        tool = by_name.get(params.name)
        if tool is None:
            raise MCPError(
                types.INVALID_PARAMS,
                f"Unknown tool {params.name!r}; this server offers: {', '.join(by_name)}",
            )
        arguments = dict(params.arguments or {})
        if tool.name == PAGED_TOOL and "limit" not in arguments and settings.max_lines:
            arguments["limit"] = settings.max_lines
        timeout = tool.timeout or settings.timeout
        async with gate:
            result = await _run_with_deadline(tool, arguments, timeout)
        if result.event:
            await _deliver_event(ctx, tool.name, result.event, log_levels)
        return _result(tool.name, arguments, result)

    async def set_logging_level(
        ctx: ServerRequestContext, params: types.SetLevelRequestParams
    ) -> types.EmptyResult:
        log_levels[_connection_id(ctx)] = params.level
        return types.EmptyResult()

    with warnings.catch_warnings():
        # Logging is deprecated from protocol 2026-07-28 on, but the handshake-era clients in use
        # today (Claude Desktop, Claude Code) see _events only through it, and a server that logs
        # must say so by answering logging/setLevel.
        warnings.simplefilter("ignore")
        return Server(
            "webtap",
            version=__version__,
            title="webtap",
            instructions=_instructions(by_name),
            lifespan=_keeping_a_browser,
            get_tool_input_schema=lambda name: (
                by_name[name].input_schema if name in by_name else None
            ),
            on_list_tools=list_tools,
            on_call_tool=call_tool,
            on_set_logging_level=set_logging_level,
        )


@contextlib.asynccontextmanager
async def _keeping_a_browser(server: Server) -> AsyncIterator[dict[str, Any]]:
    """The pages the server renders share one browser, closed when it stops (or killed on a
    stop signal, by ``webtap.host.process.kill_running``)."""
    with keep_browser():
        yield {}


def _instructions(names: Iterable[str]) -> str:
    offered = {"web_search" if provider_of_tool(name) else name for name in names}
    return " ".join(
        ["webtap gives you the web."]
        + [text for key, text in INSTRUCTIONS.items() if key in offered]
    )


# The calls in flight, each in its own cancel scope, so that a stopping server can settle them.
_in_flight: set[anyio.CancelScope] = set()


def stop_calls() -> None:
    """Answer every call in flight, in every server of this process, now: each ends in an error
    result that says the server is stopping. A stopping transport calls this first, so that
    every request is settled before the connection goes (a request left open at the end costs
    the SDK a final write that no one reads, and its client a cut connection)."""
    for scope in list(_in_flight):
        scope.cancel()


async def _run_with_deadline(
    tool: ServedTool, arguments: dict[str, Any], timeout: float
) -> ToolResult:
    stopping = anyio.CancelScope()
    _in_flight.add(stopping)
    try:
        with stopping, anyio.fail_after(timeout + tool.grace):
            return await _in_thread(tool.run, arguments, timeout)
    except TimeoutError:
        message = (
            f"{tool.name} did not answer within {timeout:g} seconds, so the call was given up. "
            "Try again later, or ask for less; the limit is set with webtap mcp --timeout or "
            f"{MCP_TIMEOUT.name}."
        )
        return ToolResult(tool.name, failure=ToolTimeout(message))
    except Exception as exc:  # a bug in a runner must not end the session
        logger.exception("%s failed", tool.name)
        message = redact(f"Internal error in {tool.name}: {type(exc).__name__}: {exc}")
        return ToolResult(tool.name, failure=InternalError(message))
    finally:
        _in_flight.discard(stopping)
    # Only stop_calls gets here: the call's thread is abandoned (a discovered tool is killed).
    message = f"{tool.name} was stopped: the webtap mcp server is shutting down."
    return ToolResult(tool.name, failure=ToolFailed(message))


async def _in_thread(function: Callable[..., Any], *args: Any) -> Any:
    """Run a blocking call on its own daemon thread and await its result.

    Not ``anyio.to_thread``: its workers are not daemons, so a call abandoned at its deadline
    (a thread cannot be stopped) would hold the process open at exit until the call's own
    network timeouts end it. A daemon thread is simply dropped.
    """
    loop = asyncio.get_running_loop()
    future: asyncio.Future[Any] = loop.create_future()

    def settle(outcome: Callable[[Any], None], value: Any) -> None:
        if not future.done():
            outcome(value)

    def work() -> None:
        try:
            value = function(*args)
        except Exception as exc:
            outcome, value = future.set_exception, exc
        else:
            outcome = future.set_result
        # A server stopped while the call ran has closed its loop: nobody awaits the answer,
        # and a traceback from this thread would be all the person sees of it.
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(settle, outcome, value)

    threading.Thread(target=work, name="webtap-mcp-call", daemon=True).start()
    return await future


async def _deliver_event(
    ctx: ServerRequestContext,
    tool_name: str,
    event: dict[str, Any],
    log_levels: dict[str | None, str],
) -> None:
    """The person's message: a warning-level log message to the client, and stored."""
    session_id = _connection_id(ctx)
    content = str(event.get("content") or event.get("kind") or "")
    if _level_allows(log_levels.get(session_id), "warning"):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # see build_server
                await ctx.session.send_log_message(
                    "warning",
                    content,
                    logger=f"webtap.{event.get('kind') or 'event'}",
                    related_request_id=ctx.request_id,
                )
        except Exception:
            logger.warning("could not send the %s event to the client", tool_name, exc_info=True)
    # Off the event loop: SQLite may wait for another writer's lock.
    await anyio.to_thread.run_sync(keep_event, event, session_id or f"mcp-{os.getpid()}")


LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]


def _level_allows(threshold: str | None, level: str) -> bool:
    if threshold not in LOG_LEVELS:
        return True
    return LOG_LEVELS.index(level) >= LOG_LEVELS.index(threshold)


def _connection_id(ctx: ServerRequestContext) -> str | None:
    """The HTTP session's id; ``None`` on stdio, where the process is the one connection."""
    headers = getattr(ctx.request, "headers", None)
    return headers.get("mcp-session-id") if headers is not None else None


def _result(name: str, arguments: dict[str, Any], result: ToolResult) -> types.CallToolResult:
    # A discovered tool that ran may still answer success: false; the client hears both alike.
    response = result.response(event=False)
    if response.get("success") is False:
        # The spec's error, then webtap's advice: this text is webtap's own.
        message = explain(str(response.get("error") or f"{name} failed"), response.get("advice"))
        if "retryable" in response and result.failure is not None:  # advice: name the code
            message = f"{message} [{result.failure.code}]"
        return types.CallToolResult(
            content=[types.TextContent(text=message)],
            structured_content=response,
            is_error=True,
        )
    content: list[types.ContentBlock] = [
        types.TextContent(text=json.dumps(response, ensure_ascii=False))
    ]
    notes = (
        [_more_note(arguments, response), _trimmed_note(response), _paywall_note(response)]
        if name == PAGED_TOOL
        else []
    )
    content.extend(types.TextContent(text=note) for note in notes if note)
    return types.CallToolResult(content=content, structured_content=response)


def _trimmed_note(response: dict[str, Any]) -> str | None:
    """How to get the whole page, when the content is only its main part."""
    if response.get("content_mode") != "main":
        return None
    return f"[main content only; call again with {FULL_PAGE}=true for the whole page]"


def _paywall_note(response: dict[str, Any]) -> str | None:
    """That only a paywalled article's teaser came back (webtap.verdict), when it did."""
    if response.get("verdict") != "paywall":
        return None
    return f"[{response.get('notice') or 'only the teaser of a paywalled article came back'}]"


def _more_note(arguments: dict[str, Any], response: dict[str, Any]) -> str | None:
    """The note "[showing lines 1–500 of 1234; call again with offset=501 ...]", when lines
    are left to read."""
    total = response.get("total_lines")
    limit = arguments.get("limit")
    offset = arguments.get("offset", 1)
    if not all(isinstance(n, int) for n in (total, limit, offset)):
        return None
    last = min(offset + limit - 1, total)
    if last >= total or offset > total:
        return None
    return (
        f"[showing lines {offset}–{last} of {total}; call again with offset={last + 1} to read on]"
    )
