"""``webtap ask``: answer a question with the model and the web; the answer on stdout, with
its sources (or, with ``--schema``, the answer as data)."""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from webtap import agent
from webtap.agent import ToolCall
from webtap.answer_schema import parse
from webtap.cli._output import err_console, escape, fail, print_json, show_event
from webtap.errors import InvalidInput, WebtapError
from webtap.host.process import stop_tools_on_signals
from webtap.text import strip_controls

__all__ = ["read_schema", "run", "with_sources"]


def run(args: argparse.Namespace) -> int:
    stop_tools_on_signals()  # SIGTERM/SIGHUP stop the question as Ctrl-C does (exit 143, 129)
    question = " ".join(args.question).strip()
    if not question:
        return fail('the question is empty: ask something, e.g. webtap ask "What is DuckDB?"', 2)
    settings = replace(
        agent.DEFAULT_SETTINGS,
        search_provider=args.search_provider,
        citations=args.citations,
        unsupported=args.unsupported,
    )
    try:
        schema = read_schema(args.schema) if args.schema else None
        answer = agent.ask(
            question,
            args.context,
            model=args.model,
            max_tokens=args.max_tokens,
            max_tool_calls=args.max_tool_calls,
            settings=settings,
            on_step=show_step,
            schema=schema,
        )
    except WebtapError as exc:
        return fail(exc.message)
    if schema is not None:
        print_json(answer.data())  # data, for a program or a person: the same JSON
        return 0
    if args.json:
        print_json(answer.to_dict())
        return 0
    print(with_sources(answer))
    if answer.stop_reason == "max_tokens":
        err_console().print("[dim](the answer was cut at --max-tokens)[/dim]")
    return 0


def read_schema(given: str) -> dict[str, Any]:
    """``--schema``: a file holding a JSON Schema, else the text itself (JSON or a DuckDB
    type), read by :func:`webtap.answer_schema.parse`."""
    path = Path(given)
    text = given
    if not given.lstrip().startswith("{") and (path.is_file() or path.suffix == ".json"):
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise InvalidInput(f"Cannot read the schema file {given}: {exc}") from None
    return parse(text)


def with_sources(answer: Any) -> str:
    """The answer with a mark ``[n]`` after each stretch a source supports, then the sources,
    numbered, each quote marked ✓ (it stands in what was read) or ✗ (it does not)."""
    numbers: dict[str, int] = {}
    for citation in answer.citations:
        numbers.setdefault(citation.url, len(numbers) + 1)
    marks: dict[int, list[int]] = {}
    for citation in answer.citations:
        found = marks.setdefault(citation.answer_end, [])
        if numbers[citation.url] not in found:
            found.append(numbers[citation.url])
    text, cut = "", 0
    for end in sorted(marks):
        text += answer.text[cut:end] + "".join(f"[{n}]" for n in marks[end])
        cut = end
    text += answer.text[cut:]
    if not numbers:
        return text
    lines = [text, "", "Sources:"]
    for url, number in numbers.items():
        quotes = [c for c in answer.citations if c.url == url]
        title = " ".join(strip_controls(quotes[0].title).split())
        lines.append(f"[{number}] {title} — {url}" if title else f"[{number}] {url}")
        for quote, verified in dict.fromkeys((c.quote, c.verified) for c in quotes):
            shown = " ".join(strip_controls(quote).split())
            shown = shown if len(shown) <= 160 else shown[:157] + "..."
            mark = "✓" if verified else "✗ not found in what was read:"
            lines.append(f"    {mark} “{shown}”")
    return "\n".join(lines)


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
