"""``webtap tools``: the tools the host finds, their schemas, a run, a check, an export."""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

from webtap.cli._output import (
    cell,
    console,
    err_console,
    fail,
    print_json,
    read_text,
    show_event,
    table,
)
from webtap.host import discover, export_tools, run_tool, tool_folders, validate_btcp
from webtap.host.discovery import registry_name
from webtap.host.events import keep_event
from webtap.host.process import stop_tools_on_signals
from webtap.protocol import loads_json
from webtap.text import strip_controls
from webtap.tools import TOOLS

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    return {
        "list": _list,
        "schema": _schema,
        "run": _run,
        "validate": _validate,
        "export": _export,
    }[args.action](args)


def _list(args: argparse.Namespace) -> int:
    found = discover()
    if args.json:
        value: dict[str, Any] = {"tools": [_tool_json(tool) for tool in found.tools]}
        if args.all:
            value["rejected"] = [{"path": str(p), "reason": r} for p, r in found.rejected]
            value["shadowed"] = [{"path": str(p), "by": str(b)} for p, b in found.shadowed]
        print_json(value)
        return 0
    out = console()
    if found.tools:
        shown = table(box=None, pad_edge=False)
        shown.add_column("name", no_wrap=True)
        shown.add_column("source")
        shown.add_column("description", ratio=3)
        shown.add_column("path", overflow="fold", ratio=2)
        for tool in found.tools:
            shown.add_row(
                cell(tool.name),
                tool.source,
                cell(_first_sentence(tool.description)),
                cell(tool.path),
            )
        out.print(shown)
    else:
        folders = ", ".join(str(folder) for _, folder in tool_folders())
        err_console().print(f"No tools found in {cell(folders)}.")
        err_console().print("Install webtap's own with: webtap install --user")
    if args.all and (found.rejected or found.shadowed):
        shown = table(box=None, pad_edge=False)
        shown.add_column("left out", overflow="fold", ratio=1)
        shown.add_column("reason", ratio=1)
        for path, reason in found.rejected:
            shown.add_row(cell(path), cell(reason))
        for path, by in found.shadowed:
            shown.add_row(cell(path), cell(f"shadowed by {by}"))
        out.print()
        out.print(shown)
    elif found.rejected:
        err_console().print(
            f"[dim]{len(found.rejected)} tool(s) left out: webtap tools list --all[/dim]"
        )
    return 0


def _tool_json(tool: Any) -> dict[str, Any]:
    return {
        "name": tool.name,
        "source": tool.source,
        "path": str(tool.path),
        "description": tool.description,
        "input_schema": tool.input_schema,
        "timeout": tool.timeout,
    }


def _first_sentence(text: str, width: int = 70) -> str:
    sentence = text.split(". ")[0].strip()
    return sentence if len(sentence) <= width else sentence[: width - 1] + "…"


def _find(name: str) -> Any:
    found = discover()
    tool = found.get(name)
    if tool is None:
        rejected = [reason for path, reason in found.rejected if _same_tool(path.name, name)]
        if rejected:
            raise LookupError(f"tool {name!r} was left out: {rejected[0]}")
        known = ", ".join(found.names()) or "none"
        advice = "see webtap tools list --all"
        if name in TOOLS:
            advice = "install webtap's own tools with: webtap install --user"
        raise LookupError(f"no tool named {name!r} (found: {known}); {advice}")
    return tool


def _same_tool(filename: str, name: str) -> bool:
    return registry_name(filename) == name


def _schema(args: argparse.Namespace) -> int:
    try:
        tool = _find(args.name)
    except LookupError as exc:
        return fail(str(exc))
    print_json(tool.schema)
    return 0


def _run(args: argparse.Namespace) -> int:
    stop_tools_on_signals()  # SIGTERM/SIGHUP end the call as Ctrl-C does: the tool dies too

    text = sys.stdin.read() if args.arguments == "-" else args.arguments
    try:
        arguments = loads_json(text)
    except json.JSONDecodeError as exc:
        return fail(f"JSON arguments are not valid JSON: {exc.msg} (column {exc.colno})")
    if not isinstance(arguments, dict):
        return fail('JSON arguments must be an object, e.g. \'{"url": "https://example.com"}\'')
    if args.timeout is not None and not 0 < args.timeout < math.inf:  # nan fails too
        return fail(f"--timeout must be a positive number of seconds, got {args.timeout:g}")
    try:
        tool = _find(args.name)
    except LookupError as exc:
        return fail(str(exc))
    result = run_tool(tool, arguments, timeout=args.timeout)
    if result.event is not None:
        show_event(result.event)
        keep_event(result.event, args.session)
    print_json(result.for_model())
    return 0 if result.success else 1


def _validate(args: argparse.Namespace) -> int:
    try:
        text = read_text(args.file)
    except ValueError as exc:
        return fail(str(exc))
    try:
        document = loads_json(text)
    except json.JSONDecodeError as exc:
        return fail(
            f"{args.file} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        )
    problems = validate_btcp(document)
    errors = [p for p in problems if p.severity == "error"]
    if args.json:
        print_json(
            {
                "valid": not errors,
                "problems": [
                    {"path": p.path, "message": p.message, "severity": p.severity} for p in problems
                ],
            }
        )
    else:
        for problem in problems:  # they quote the file's own text
            sys.stdout.write(f"{strip_controls(str(problem))}\n")
        count = len(document) if isinstance(document, list) else 1
        if errors:
            sys.stderr.write(f"{args.file}: {len(errors)} error(s)\n")
        else:
            sys.stderr.write(f"{args.file}: valid ({count} tool definition(s))\n")
    return 1 if errors else 0


def _export(args: argparse.Namespace) -> int:
    print_json(export_tools(discover().tools, args.format))
    return 0
