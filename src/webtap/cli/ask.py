"""``webtap ask``: answer a question with the model and the web; the answer on stdout."""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from typing import Any

from webtap import agent
from webtap.agent import ToolCall
from webtap.cli._output import err_console, escape, fail, print_json, show_event
from webtap.errors import WebtapError
from webtap.host.process import stop_tools_on_signals

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    stop_tools_on_signals()  # SIGTERM/SIGHUP stop the question as Ctrl-C does (exit 143, 129)
    question = " ".join(args.question).strip()
    if not question:
        return fail('the question is empty: ask something, e.g. webtap ask "What is DuckDB?"', 2)
    settings = replace(agent.DEFAULT_SETTINGS, search_provider=args.search_provider)
    try:
        answer = agent.ask(
            question,
            args.context,
            model=args.model,
            max_tokens=args.max_tokens,
            max_tool_calls=args.max_tool_calls,
            settings=settings,
            on_step=show_step,
        )
    except WebtapError as exc:
        return fail(exc.message)
    if args.json:
        print_json(answer.to_dict())
        return 0
    print(answer.text)
    if answer.stop_reason == "max_tokens":
        err_console().print("[dim](the answer was cut at --max-tokens)[/dim]")
    return 0


def show_step(step: Any) -> None:
    """A tool call as it starts, and its result as it ends, dim on stderr."""
    console = err_console()
    if isinstance(step, ToolCall):
        shown = json.dumps(step.input, ensure_ascii=False)
        console.print(f"[dim]→ {escape(step.name)} {escape(shown)}[/dim]")
        return
    mark = "✗" if step.is_error else "←"
    console.print(f"[dim]{mark} {escape(step.call.name)}: {escape(step.detail)}[/dim]")
    if step.event:
        show_event(step.event)
