"""``webtap tools``: the tools the host finds, their schemas, a run, a check, an export."""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

from webtap.cli._output import cell, err_console, fail, print_json, read_text, show_event
from webtap.protocol import loads_json
from webtap.text import strip_controls

__all__ = ["add_parser", "run"]

EXPORT_FORMATS = ["anthropic", "openai", "mcp", "btcp"]


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "tools",
        help="list, inspect, run, validate and export external tools",
        description="External tools found in the system, user and project folders "
        "(<prefix>/libexec/ikigai, ~/.ikigai/tools, ./.ikigai/tools).",
    )
    parser.set_defaults(run=lambda args: _help(parser))
    actions = parser.add_subparsers(dest="action", metavar="ACTION")

    p = actions.add_parser("list", help="the tools found (a table; --json for machines)")
    p.add_argument("--all", action="store_true", help="also show tools left out, and why")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=run)

    p = actions.add_parser("schema", help="print one tool's schema")
    p.add_argument("name", metavar="NAME", help="the tool's name, e.g. web_fetch")
    p.set_defaults(run=run)

    p = actions.add_parser("run", help="run one tool with JSON arguments")
    p.add_argument("name", metavar="NAME", help="the tool's name, e.g. web_fetch")
    p.add_argument(
        "arguments", metavar="JSON", help="the arguments as a JSON object, or - for stdin"
    )
    p.add_argument("--session", metavar="S", help="session id to store the tool's event under")
    p.add_argument("--timeout", type=float, metavar="SECONDS", help="override the tool's timeout")
    # Like its siblings' --json; the result is JSON either way (its event goes to stderr).
    p.add_argument("--json", action="store_true", help="print JSON (the default)")
    p.set_defaults(run=run)

    p = actions.add_parser("validate", help="check BTCP tool definitions in a JSON file")
    p.add_argument("file", metavar="FILE", help="a JSON file (one definition or a list), or -")
    p.add_argument("--json", action="store_true", help="print the problems as JSON")
    p.set_defaults(run=run)

    p = actions.add_parser("export", help="the tools as definitions for a model API")
    p.add_argument("--format", required=True, choices=EXPORT_FORMATS, help="target ecosystem")
    p.set_defaults(run=run)


def _help(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    return {
        "list": _list,
        "schema": _schema,
        "run": _run,
        "validate": _validate,
        "export": _export,
    }[args.action](args)


def _list(args: argparse.Namespace) -> int:
    from webtap.host import discover, tool_folders

    found = discover()
    if args.json:
        value: dict[str, Any] = {"tools": [_tool_json(tool) for tool in found.tools]}
        if args.all:
            value["rejected"] = [{"path": str(p), "reason": r} for p, r in found.rejected]
            value["shadowed"] = [{"path": str(p), "by": str(b)} for p, b in found.shadowed]
        print_json(value)
        return 0
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False)
    if found.tools:
        table = Table(box=None, pad_edge=False)
        table.add_column("name", no_wrap=True)
        table.add_column("source")
        table.add_column("description", ratio=3)
        table.add_column("path", overflow="fold", ratio=2)
        for tool in found.tools:
            table.add_row(
                cell(tool.name),
                tool.source,
                cell(_first_sentence(tool.description)),
                cell(tool.path),
            )
        console.print(table)
    else:
        folders = ", ".join(str(folder) for _, folder in tool_folders())
        err_console().print(f"No tools found in {cell(folders)}.")
        err_console().print("Install webtap's own with: webtap install --user")
    if args.all and (found.rejected or found.shadowed):
        table = Table(box=None, pad_edge=False)
        table.add_column("left out", overflow="fold", ratio=1)
        table.add_column("reason", ratio=1)
        for path, reason in found.rejected:
            table.add_row(cell(path), cell(reason))
        for path, by in found.shadowed:
            table.add_row(cell(path), cell(f"shadowed by {by}"))
        console.print()
        console.print(table)
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
    from webtap.host import discover

    found = discover()
    tool = found.get(name)
    if tool is None:
        rejected = [reason for path, reason in found.rejected if _same_tool(path.name, name)]
        if rejected:
            raise LookupError(f"tool {name!r} was left out: {rejected[0]}")
        from webtap.tools import TOOLS

        known = ", ".join(found.names()) or "none"
        advice = "see webtap tools list --all"
        if name in TOOLS:
            advice = "install webtap's own tools with: webtap install --user"
        raise LookupError(f"no tool named {name!r} (found: {known}); {advice}")
    return tool


def _same_tool(filename: str, name: str) -> bool:
    from webtap.host.discovery import registry_name

    return registry_name(filename) == name


def _schema(args: argparse.Namespace) -> int:
    try:
        tool = _find(args.name)
    except LookupError as exc:
        return fail(str(exc))
    print_json(tool.schema)
    return 0


def _run(args: argparse.Namespace) -> int:
    from webtap.host import run_tool
    from webtap.host.process import stop_tools_on_signals

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
        from webtap.host.events import keep_event

        show_event(result.event)
        keep_event(result.event, args.session)
    print_json(result.for_model())
    return 0 if result.success else 1


def _validate(args: argparse.Namespace) -> int:
    from webtap.host import validate_btcp

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
    from webtap.host import discover, export_tools

    print_json(export_tools(discover().tools, args.format))
    return 0
