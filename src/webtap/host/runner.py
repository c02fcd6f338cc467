"""Run a discovered tool: check the arguments, then one bounded process, then one result.

The protocol (DESIGN 9): no arguments, the JSON arguments on stdin, the JSON response on
stdout, read whole. The model sees ``{"tool_success": true, "result": {...}}`` when the tool
ran, and ``{"tool_success": false, "error": ..., "error_code": ...}`` when it could not (bad
arguments, a crash, a non-zero exit, silence, a timeout, output that is not a JSON object). A
tool's own ``success: false`` is a result the model should read, so it comes back as a result.
The ``_event`` a tool raises is taken out here and handed to the caller, never to the model.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from webtap.host.discovery import Tool
from webtap.host.process import Completed, run_process, signal_name
from webtap.protocol import loads_json, whole_integers

__all__ = [
    "DEFAULT_OUTPUT_LIMIT",
    "INVALID_INPUT",
    "INVALID_OUTPUT",
    "OUTPUT_TOO_LARGE",
    "TIMEOUT",
    "TOOL_FAILED",
    "ToolResult",
    "check_arguments",
    "run_tool",
    "split_event",
]

DEFAULT_OUTPUT_LIMIT = 16 * 1024 * 1024  # bytes of a tool's stdout

INVALID_INPUT = "INVALID_INPUT"
INVALID_OUTPUT = "INVALID_OUTPUT"
OUTPUT_TOO_LARGE = "OUTPUT_TOO_LARGE"
TIMEOUT = "TIMEOUT"
TOOL_FAILED = "TOOL_FAILED"


@dataclass
class ToolResult:
    """One run of one tool. ``success`` is ``tool_success``: the tool ran and answered."""

    name: str
    success: bool
    result: dict[str, Any] | None = None
    error: str | None = None
    error_code: str | None = None
    event: dict[str, Any] | None = None
    stderr: str = ""
    duration: float = 0.0

    def for_model(self) -> dict[str, Any]:
        """What a model may see: never the ``_event``."""
        if self.success:
            return {"tool_success": True, "result": self.result}
        return {"tool_success": False, "error": self.error, "error_code": self.error_code}


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
        # shows ``data`` as an object (DESIGN 1), so a tool written to either reading works.
        event = {key: value for key, value in event.items() if key != "data_json"}
        try:
            event["data"] = loads_json(response["_event"]["data_json"])
        except ValueError:
            event["data"] = response["_event"]["data_json"]
    return clean, event


def check_arguments(tool: Tool, arguments: Any) -> str | None:
    """Why ``arguments`` break the tool's input schema (a message for the model), or None."""
    from webtap.host.validate import schema_validator
    from webtap.protocol import explain_errors

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
        return ToolResult(tool.name, False, error=problem, error_code=INVALID_INPUT)
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
        return ToolResult(tool.name, False, error=problem, error_code=INVALID_INPUT)
    try:
        done = run_process([str(tool.path)], stdin, timeout=seconds, limit=limit)
    except OSError as exc:
        return ToolResult(
            tool.name,
            False,
            error=f"Tool could not be started: {exc.strerror or exc} ({tool.path})",
            error_code=TOOL_FAILED,
        )
    return _interpret(tool.name, done, seconds, limit)


def _interpret(name: str, done: Completed, seconds: float, limit: int) -> ToolResult:
    stderr = done.stderr.decode("utf-8", "replace")

    def failure(error: str, code: str, event: dict[str, Any] | None = None) -> ToolResult:
        return ToolResult(
            name,
            False,
            error=error,
            error_code=code,
            event=event,
            stderr=stderr,
            duration=done.duration,
        )

    hint = f": {done.last_stderr_line}" if done.last_stderr_line else ""
    if done.timed_out:
        return failure(f"Tool timed out after {seconds:g} s", TIMEOUT)
    if done.overflowed:
        return failure(f"Tool output exceeded {limit} bytes", OUTPUT_TOO_LARGE)
    if done.returncode and done.returncode < 0:
        event = _event_of_failed(done)
        return failure(f"Tool crashed ({signal_name(-done.returncode)}){hint}", TOOL_FAILED, event)
    if done.returncode:
        event = _event_of_failed(done)
        return failure(f"Tool exited with status {done.returncode}{hint}", TOOL_FAILED, event)
    text = done.stdout.decode("utf-8", "replace")
    if not text.strip():
        return failure(f"Tool returned no output{hint}", INVALID_OUTPUT)
    try:
        response = loads_json(text)
    except json.JSONDecodeError:
        return failure(f"Tool returned invalid JSON{hint}", INVALID_OUTPUT)
    if not isinstance(response, dict):
        return failure("Tool returned JSON that is not an object", INVALID_OUTPUT)
    result, event = split_event(response)
    return ToolResult(name, True, result=result, event=event, stderr=stderr, duration=done.duration)


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
