"""webtap's own tools: the registry, in-process calls, and the executables' ``main``.

``call(name, request)`` is the one way to run a tool in process (the MCP server and the ask loop
use it); each executable's ``main`` is that same call between stdin and stdout.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from webtap import __version__
from webtap.errors import WebtapError
from webtap.protocol import (
    RequestError,
    load_schema,
    parse_request,
    schema_text,
    validate_request,
    whole_integers,
)

__all__ = ["TOOLS", "ToolSpec", "call", "main"]


@dataclass(frozen=True)
class ToolSpec:
    """One of webtap's tools: its API name, executable name and library handler."""

    name: str
    executable: str
    handler: str  # "module:function", imported only when the tool runs
    title: str

    @property
    def schema(self) -> dict[str, Any]:
        return load_schema(self.name)

    def resolve(self) -> Callable[[dict[str, Any]], dict[str, Any]]:
        module, _, function = self.handler.partition(":")
        return getattr(import_module(module), function)


TOOLS: dict[str, ToolSpec] = {
    spec.name: spec
    for spec in (
        ToolSpec("web_fetch", "web-fetch-tool", "webtap.fetch:web_fetch", "Fetch a web page"),
        ToolSpec(
            "web_search_brave",
            "web-search-brave-tool",
            "webtap.search:web_search_brave",
            "Search the web (Brave)",
        ),
        ToolSpec(
            "web_search_searxng",
            "web-search-searxng-tool",
            "webtap.search:web_search_searxng",
            "Search the web (SearXNG)",
        ),
        ToolSpec(
            "web_search_google",
            "web-search-google-tool",
            "webtap.search:web_search_google",
            "Search the web (Google)",
        ),
    )
}


def call(name: str, request: dict[str, Any], **options: Any) -> dict[str, Any]:
    """Run tool ``name`` on ``request`` in process; always returns the protocol's response.

    ``options`` go to the handler beside the request, for what the spec's schema has no field
    for (``web_fetch``'s ``full_page``). The response may carry an ``_event`` for the person;
    callers that talk to a model strip it.
    """
    spec = TOOLS[name]
    try:
        validate_request(name, request)
        request = whole_integers(spec.schema["parameters"], request)
        return spec.resolve()(request, **options)
    except WebtapError as exc:
        return exc.to_response()
    except Exception as exc:
        from webtap.redact import redact

        # A bug's text may quote a URL or a body: no key known to this process leaves with it.
        return {
            "success": False,
            "error": redact(f"Internal error in {spec.executable}: {type(exc).__name__}: {exc}"),
            "error_code": "INTERNAL_ERROR",
        }


USAGE = """\
usage: {exe} [--schema | --help | --version]

{description}

Reads one JSON request object on stdin and writes one JSON response object on stdout.
Exit status 0 when the request was carried out (see "success"), 1 when it could not be read.

  --schema   print the tool's JSON schema and exit
  --help     show this help and exit
  --version  print the version and exit
"""


def main(name: str, argv: list[str] | None = None) -> int:
    """The executable: flags, then stdin -> :func:`call` -> stdout."""
    import json

    spec = TOOLS[name]
    args = sys.argv[1:] if argv is None else argv
    if args:
        flag = args[0]
        if flag == "--schema" and len(args) == 1:
            sys.stdout.write(schema_text(name))
            return 0
        if flag in ("--help", "-h") and len(args) == 1:
            description = load_schema(name)["description"]
            sys.stdout.write(USAGE.format(exe=spec.executable, description=description))
            return 0
        if flag == "--version" and len(args) == 1:
            sys.stdout.write(f"{spec.executable} (webtap) {__version__}\n")
            return 0
        if flag in ("--schema", "--help", "-h", "--version"):
            problem = f"{flag} takes no other argument, got {args[1]!r}"
        else:
            problem = f"unknown argument {flag!r}; the request goes on stdin as JSON"
        sys.stderr.write(f"{spec.executable}: {problem} (try --help)\n")
        return 2
    try:
        request = parse_request(sys.stdin.buffer.read())
    except RequestError as exc:
        sys.stderr.write(f"{spec.executable}: {exc}\n")
        return 1
    except KeyboardInterrupt:
        return 130
    try:
        response = call(name, request)
    except KeyboardInterrupt:
        return 130
    out = json.dumps(response, ensure_ascii=False) + "\n"
    # A lone surrogate can only stand inside a JSON string, where "\udxxx" is its valid escape.
    sys.stdout.buffer.write(out.encode("utf-8", "backslashreplace"))
    sys.stdout.flush()
    return 0
