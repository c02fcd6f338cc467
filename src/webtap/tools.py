"""webtap's own tools: the registry, in-process calls, and the executables' ``main``.

``call(name, request)`` is the one way to run a tool in process (the MCP server and the ask loop
use it); each executable's ``main`` is that same call between stdin and stdout.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import partial
from importlib import import_module
from typing import Any, NamedTuple

from webtap import __version__
from webtap.errors import InternalError, WebtapError
from webtap.protocol import (
    RequestError,
    load_schema,
    loads_json,
    parse_request,
    schema_text,
    validate_request,
    whole_integers,
)
from webtap.providers import PROVIDERS
from webtap.redact import redact

__all__ = [
    "TOOLS",
    "WEB_ANNOTATIONS",
    "ToolResult",
    "ToolSpec",
    "attempt",
    "call",
    "main",
    "split_event",
]


# A NamedTuple, not a dataclass: this module is on every executable's start-up path.
class ToolSpec(NamedTuple):
    """One of webtap's tools: its API name, executable name and library handler."""

    name: str
    executable: str
    handler: str  # "module:function", imported only when the tool runs
    title: str
    provider: str | None = None  # a search tool's provider, passed to its handler first

    @property
    def schema(self) -> dict[str, Any]:
        return load_schema(self.name)

    def resolve(self) -> Callable[..., dict[str, Any]]:
        module, _, function = self.handler.partition(":")
        handler = getattr(import_module(module), function)
        return partial(handler, self.provider) if self.provider else handler


# web_fetch, then a search tool per provider of the registry, in its order (decision: Which search).
TOOLS: dict[str, ToolSpec] = {
    spec.name: spec
    for spec in (
        ToolSpec("web_fetch", "web-fetch-tool", "webtap.fetch:web_fetch", "Fetch a web page"),
        *(
            ToolSpec(
                provider.tool,
                provider.executable,
                "webtap.search.pipeline:answer",
                provider.tool_title,
                provider.name,
            )
            for provider in PROVIDERS.values()
        ),
    )
}

# How every front end describes webtap's tools (MCP's tool annotations, as ``tools export
# --format mcp`` writes them and ``webtap mcp`` lists them): they only read the web, nothing is
# changed, and calling again changes nothing.
WEB_ANNOTATIONS: dict[str, bool] = {
    "readOnlyHint": True,
    "destructiveHint": False,
    "idempotentHint": True,
    "openWorldHint": True,
}


class ToolResult:
    """One run of one tool, webtap's own (:func:`call`) or a discovered one (the host's runner).

    ``result``: the response object the tool answered, without its ``_event``, when it ran
    (empty when it did not).
    ``failure``: why there is no answer, as a class of :mod:`webtap.errors`, when it did not.
    ``event``: the tool's ``_event``, for the person and never for a model, either way.
    ``stderr`` and ``duration``: a discovered tool's process, for the person.

    The edges turn it into what they speak: :meth:`response` (the tool protocol, as the
    executables print it), :meth:`for_model` (the host's envelope).
    """

    __slots__ = ("duration", "event", "failure", "name", "result", "stderr")

    def __init__(
        self,
        name: str,
        result: dict[str, Any] | None = None,
        failure: WebtapError | None = None,
        event: dict[str, Any] | None = None,
        stderr: str = "",
        duration: float = 0.0,
    ) -> None:
        self.name = name
        self.result = {} if result is None else result
        self.failure = failure
        self.event = event
        self.stderr = stderr
        self.duration = duration

    @property
    def success(self) -> bool:
        """The tool ran and answered (the host's ``tool_success``)."""
        return self.failure is None

    @property
    def error(self) -> str | None:
        return None if self.failure is None else self.failure.message

    @property
    def error_code(self) -> str | None:
        return None if self.failure is None else self.failure.code

    def response(self, *, event: bool = True) -> dict[str, Any]:
        """The tool protocol's response: the answer, or the error envelope; with the
        ``_event`` unless ``event=False`` (for whatever a model reads)."""
        if self.failure is None:
            response = dict(self.result)
        else:
            response = self.failure.to_response()  # the tree's one envelope
            response.pop("_event", None)  # the run's own event, below, is the one that counts
        if event and self.event is not None:
            response["_event"] = self.event
        return response

    def for_model(self) -> dict[str, Any]:
        """The host's envelope, what a model may see: never the ``_event``."""
        if self.failure is None:
            return {"tool_success": True, "result": self.result}
        return {"tool_success": False, "error": self.error, "error_code": self.error_code}

    def __repr__(self) -> str:
        outcome = f"failure={self.failure!r}" if self.failure else f"result={self.result!r}"
        return f"ToolResult({self.name!r}, {outcome})"


def attempt(name: str, work: Callable[[], dict[str, Any]], where: str = "") -> ToolResult:
    """``work()``'s response as tool ``name``'s result; a :class:`WebtapError` it raises as the
    failure (its event kept); any other exception as an :class:`InternalError` in ``where``
    (the executable; default ``name``)."""
    try:
        response = work()
    except WebtapError as exc:
        return ToolResult(name, failure=exc, event=exc.event)
    except Exception as exc:
        # A bug's text may quote a URL or a body: no key known to this process leaves with it.
        message = redact(f"Internal error in {where or name}: {type(exc).__name__}: {exc}")
        return ToolResult(name, failure=InternalError(message))
    result, event = split_event(response)
    return ToolResult(name, result, event=event)


def split_event(response: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """``(response without _event, the event or None)``; ``response`` is not modified."""
    if "_event" not in response:
        return response, None
    clean = {key: value for key, value in response.items() if key != "_event"}
    event = response["_event"]
    if event is None:
        return clean, None
    if not isinstance(event, dict):
        # Still for the person, never the model: keep what it said.
        event = {"kind": "event", "content": str(event), "data": {}}
    elif "data" not in event and isinstance(event.get("data_json"), str):
        # Spec 000 spells the event's data as a JSON string, ``data_json``; webtap stores and
        # shows ``data`` as an object (decision: Events), so a tool written to either reading works.
        event = {key: value for key, value in event.items() if key != "data_json"}
        try:
            event["data"] = loads_json(response["_event"]["data_json"])
        except ValueError:
            event["data"] = response["_event"]["data_json"]
    return clean, event


def call(name: str, request: dict[str, Any], **options: Any) -> ToolResult:
    """Run tool ``name`` on ``request`` in process; never raises for what the tool does.

    ``options`` go to the handler beside the request, for what the spec's schema has no field
    for (``web_fetch``'s ``full_page``).
    """
    spec = TOOLS[name]

    def work() -> dict[str, Any]:
        validate_request(name, request)
        checked = whole_integers(spec.schema["parameters"], request)
        return spec.resolve()(checked, **options)

    return attempt(name, work, spec.executable)


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
        response = call(name, request).response()
    except KeyboardInterrupt:
        return 130
    out = json.dumps(response, ensure_ascii=False) + "\n"
    # A lone surrogate can only stand inside a JSON string, where "\udxxx" is its valid escape.
    sys.stdout.buffer.write(out.encode("utf-8", "backslashreplace"))
    sys.stdout.flush()
    return 0
