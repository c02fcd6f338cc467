"""``webtap ask``: answer a question with the model and the web; the answer on stdout."""

from __future__ import annotations

import argparse
import json
from typing import Any

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Any) -> None:
    from webtap.providers import MODEL_PROVIDERS, PROVIDERS
    from webtap.settings import MODEL

    presets = ", ".join(
        f"{name}:NAME" for name in MODEL_PROVIDERS if name not in ("anthropic", "openai", "ollama")
    )

    parser = subparsers.add_parser(
        "ask",
        help="answer a question with a model, searching and fetching the web when it helps",
        description=(
            "Ask a model a question. The model may search the web (when Brave, SearXNG or "
            "Google is set up) and fetch pages; each tool call is shown on stderr, the answer "
            "goes to stdout. Name the model provider:model: a bare name is Anthropic's (its key "
            "from ANTHROPIC_API_KEY or the first line of ~/.stps/anthropic_api_key), "
            "openai:NAME any OpenAI-compatible server (OPENAI_BASE_URL, OPENAI_API_KEY), "
            f"ollama:NAME a local Ollama (OLLAMA_HOST), or a hosted preset: {presets}."
        ),
    )
    parser.add_argument("question", nargs="+", help="the question")
    parser.add_argument("--context", "-c", default="", help="context for the question")
    parser.add_argument(
        "--model",
        "-m",
        help=f"the model, provider:model, e.g. ollama:qwen2.5 (default: {MODEL.name}, else "
        f"{MODEL.default})",
    )
    parser.add_argument(
        "--max-tokens", type=int, metavar="N", help="the answer's length limit (default 1000)"
    )
    parser.add_argument(
        "--max-tool-calls",
        type=int,
        metavar="N",
        help="tool calls the model may make, 0-20 (default 1)",
    )
    parser.add_argument(
        "--provider",
        "--search-provider",
        dest="search_provider",
        choices=[*PROVIDERS, "none"],
        help=f"the search the model gets (default: the first set up of {', '.join(PROVIDERS)})",
    )
    parser.add_argument(
        "--schema",
        metavar="SCHEMA",
        help="answer as data that fits SCHEMA: a JSON Schema (a file, or its JSON) or a DuckDB "
        "type such as 'STRUCT(city VARCHAR, founded INTEGER)'; prints the value as JSON, each "
        "field's source under _sources",
    )
    parser.add_argument(
        "--unsupported",
        choices=["keep", "null"],
        default="keep",
        help="with --schema: a field whose quote is not in what was read is kept and marked "
        "(keep, the default) or made null",
    )
    parser.add_argument(
        "--no-citations",
        dest="citations",
        action="store_false",
        help="no sources: the tools' results go to the model as the spec's plain texts",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print the answer, its citations and its steps as JSON",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from webtap import agent
    from webtap.cli._output import fail, print_json
    from webtap.errors import WebtapError
    from webtap.host.process import stop_tools_on_signals

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
        from webtap.cli._output import err_console

        err_console().print("[dim](the answer was cut at --max-tokens)[/dim]")
    return 0


def read_schema(given: str) -> dict[str, Any]:
    """``--schema``: a file holding a JSON Schema, else the text itself (JSON or a DuckDB
    type), read by :func:`webtap.answer_schema.parse`."""
    from pathlib import Path

    from webtap.answer_schema import parse
    from webtap.errors import InvalidInput

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
    from webtap.text import strip_controls  # a title or a quote is the web's text

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
    from rich.markup import escape

    from webtap.agent import ToolCall
    from webtap.cli._output import err_console, show_event

    console = err_console()
    if isinstance(step, ToolCall):
        shown = json.dumps(step.input, ensure_ascii=False)
        console.print(f"[dim]→ {escape(step.name)} {escape(shown)}[/dim]")
        return
    mark = "✗" if step.is_error else "←"
    console.print(f"[dim]{mark} {escape(step.call.name)}: {escape(step.detail)}[/dim]")
    if step.event:
        show_event(step.event)
