"""Discovered tools as the tool definitions each ecosystem expects.

* ``anthropic``: ``{name, description, input_schema}`` (Messages API ``tools``)
* ``openai``: ``{"type": "function", "function": {name, description, parameters}}``
* ``mcp``: ``{name, title?, description, inputSchema, annotations?}`` (MCP ``Tool``)
* ``btcp``: ``{name, description, inputSchema, capabilities, ...}`` (spec 004)

webtap's own web tools are read-only and reach the open web: MCP marks them with
:data:`webtap.tools.WEB_ANNOTATIONS` (as ``webtap mcp`` lists them), BTCP gives them
``network:fetch:cross-origin``. Other tools keep what their schema declares (``title``,
``annotations``, ``capabilities`` ...).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import Any

from webtap.host.discovery import Tool
from webtap.host.install import is_launcher, scripts_path
from webtap.tools import TOOLS, WEB_ANNOTATIONS

__all__ = ["FORMATS", "export_tool", "export_tools"]

WEB_CAPABILITIES = ["network:fetch:cross-origin"]
# BTCP fields a tool's own schema may carry, copied as they are.
_BTCP_OPTIONAL = ("outputSchema", "examples", "deprecated", "deprecationMessage", "tags", "timeout")


def _webtap_title(tool: Tool) -> str | None:
    """The title of one of webtap's own tools, or None for anybody else's."""
    spec = TOOLS.get(tool.name)
    if spec is None or tool.path.name != spec.executable:
        return None
    # Only the real thing: a stranger's tool that happens to be called web_fetch is not ours.
    ours = scripts_path(spec.executable)
    if is_launcher(tool.path) or (ours and os.path.realpath(tool.path) == os.path.realpath(ours)):
        return spec.title
    return None


def _anthropic(tool: Tool) -> dict[str, Any]:
    return {"name": tool.name, "description": tool.description, "input_schema": tool.input_schema}


def _openai(tool: Tool) -> dict[str, Any]:
    return {
        "type": "function",
        "function": {
            "name": tool.name,
            "description": tool.description,
            "parameters": tool.input_schema,
        },
    }


def _mcp(tool: Tool) -> dict[str, Any]:
    definition: dict[str, Any] = {"name": tool.name}
    webtap_title = _webtap_title(tool)
    title = tool.schema.get("title") or webtap_title
    if isinstance(title, str):
        definition["title"] = title
    definition["description"] = tool.description
    definition["inputSchema"] = tool.input_schema
    if isinstance(tool.schema.get("outputSchema"), dict):
        definition["outputSchema"] = tool.schema["outputSchema"]
    annotations = tool.schema.get("annotations")
    if isinstance(annotations, dict):
        definition["annotations"] = annotations
    elif webtap_title is not None:
        definition["annotations"] = dict(WEB_ANNOTATIONS)
    return definition


def _btcp(tool: Tool) -> dict[str, Any]:
    capabilities = tool.schema.get("capabilities")
    if not isinstance(capabilities, list):
        capabilities = list(WEB_CAPABILITIES) if _webtap_title(tool) is not None else []
    definition: dict[str, Any] = {
        "name": tool.name,
        "description": tool.description,
        "inputSchema": tool.input_schema,
        "capabilities": capabilities,
    }
    for key in _BTCP_OPTIONAL:
        if key in tool.schema:
            definition[key] = tool.schema[key]
    return definition


FORMATS: dict[str, Callable[[Tool], dict[str, Any]]] = {
    "anthropic": _anthropic,
    "openai": _openai,
    "mcp": _mcp,
    "btcp": _btcp,
}


def export_tool(tool: Tool, format: str) -> dict[str, Any]:
    """One tool's definition in ``format`` (one of :data:`FORMATS`)."""
    return _converter(format)(tool)


def _converter(format: str) -> Callable[[Tool], dict[str, Any]]:
    try:
        return FORMATS[format]
    except KeyError:
        raise ValueError(
            f"unknown export format {format!r} (choose from {', '.join(FORMATS)})"
        ) from None


def export_tools(tools: Iterable[Tool], format: str) -> list[dict[str, Any]]:
    """Every tool's definition in ``format``, in the order given."""
    _converter(format)
    return [export_tool(tool, format) for tool in tools]
