"""Run a discovered tool: check the arguments, then one bounded process, then one result.

The protocol (decision: Discovery): no arguments, the JSON arguments on stdin, the JSON response on
stdout, read whole. The model sees ``{"tool_success": true, "result": {...}}`` when the tool
ran, and ``{"tool_success": false, "error": ..., "error_code": ...}`` when it could not (bad
arguments, a crash, a non-zero exit, silence, a timeout, output that is not a JSON object). A
tool's own ``success: false`` is a result the model should read, so it comes back as a result.
The ``_event`` a tool raises is taken out here and handed to the caller, never to the model.
"""

from __future__ import annotations

import json
from typing import Any

from webtap.errors import InvalidInput, InvalidOutput, ToolFailed, ToolRunError
from webtap.host.discovery import Tool
from webtap.host.outcome import RUN, json_output
from webtap.host.process import Completed, run_process
from webtap.host.validate import schema_validator
from webtap.protocol import explain_errors, loads_json, whole_integers
from webtap.tools import ToolResult, split_event

__all__ = [
    "DEFAULT_OUTPUT_LIMIT",
    "ToolResult",
    "check_arguments",
    "run_tool",
    "split_event",
]

DEFAULT_OUTPUT_LIMIT = 16 * 1024 * 1024  # bytes of a tool's stdout


def check_arguments(tool: Tool, arguments: Any) -> str | None:
    """Why ``arguments`` break the tool's input schema (a message for the model), or None."""
    if not isinstance(arguments, dict):
        return f"Invalid input: arguments must be a JSON object, got {type(arguments).__name__}"
    try:
        return explain_errors(schema_validator(tool.input_schema), arguments)
    except Exception as exc:  # a schema jsonschema accepted but cannot apply ($ref it can't find)
        return f"Invalid input: the tool's input schema could not be applied ({exc})"


def run_tool(
    tool: Tool,
    arguments: dict[str, Any],
    *,
    timeout: float | None = None,
    limit: int = DEFAULT_OUTPUT_LIMIT,
) -> ToolResult:
    """Run ``tool`` on ``arguments``; never raises for anything the tool does."""
    problem = check_arguments(tool, arguments)
    if problem:
        return ToolResult(tool.name, failure=InvalidInput(problem))
    arguments = whole_integers(tool.input_schema, arguments)
    seconds = timeout if timeout is not None else tool.timeout
    try:
        # ASCII escapes: a model's arguments may hold a lone surrogate, which UTF-8 cannot carry.
        stdin = json.dumps(arguments, allow_nan=False).encode("ascii")
    except ValueError:  # NaN, Infinity or an integer of over 4,300 digits, from an MCP client
        problem = (
            "Invalid input: NaN and Infinity are not JSON numbers, nor are integers of "
            "thousands of digits; give ordinary finite numbers"
        )
        return ToolResult(tool.name, failure=InvalidInput(problem))
    try:
        done = run_process([str(tool.path)], stdin, timeout=seconds, limit=limit)
    except OSError as exc:
        message = f"Tool could not be started: {exc.strerror or exc} ({tool.path})"
        return ToolResult(tool.name, failure=ToolFailed(message))
    return _interpret(tool.name, done, seconds, limit)


def _interpret(name: str, done: Completed, seconds: float, limit: int) -> ToolResult:
    stderr = done.stderr.decode("utf-8", "replace")
    try:
        response = json_output(done, RUN, seconds=seconds, limit=limit)
        if not isinstance(response, dict):
            raise InvalidOutput("Tool returned JSON that is not an object")
    except ToolRunError as exc:
        event = _event_of_failed(done) if isinstance(exc, ToolFailed) else None
        return ToolResult(name, failure=exc, event=event, stderr=stderr, duration=done.duration)
    result, event = split_event(response)
    return ToolResult(name, result, event=event, stderr=stderr, duration=done.duration)


def _event_of_failed(done: Completed) -> dict[str, Any] | None:
    """The ``_event`` in what a failed tool printed, if it printed a whole JSON object.

    The run failed, so the model hears only that; but a tool that exits non-zero after asking
    the person for something (a key to set) still asked, and the person should hear it.
    """
    try:
        response = loads_json(done.stdout.decode("utf-8", "replace"))
    except ValueError:
        return None
    return split_event(response)[1] if isinstance(response, dict) else None
