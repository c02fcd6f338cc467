"""``webtap fetch URL``: a web page as Markdown on stdout, for a person."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from webtap.cli._output import cell, err_console, fail, print_json
from webtap.tools import call

__all__ = ["byline", "run"]


def run(args: argparse.Namespace) -> int:
    request: dict[str, Any] = {"url": args.url}
    if args.offset is not None:
        request["offset"] = args.offset
    if args.limit is not None:
        request["limit"] = args.limit
    # A person chose this URL: robots.txt is for the URLs a model chooses (decision: What a fetch
    # got).
    result = call(
        "web_fetch",
        request,
        full_page=args.full,
        model_chose=False,
        render=True if args.render else None,
    )
    if args.json:
        print_json(result.response())
        return 0 if result.success else 1
    if result.failure is not None:
        return fail(f"{result.failure.explained} [{result.failure.code}]")
    if result.result.get("notice"):
        err_console().print(f"[dim yellow]{cell(result.result['notice'])}[/dim yellow]")
    if sys.stdout.isatty() and (args.offset or 1) == 1:
        _heading(result.result)
    content = result.result["content"]
    sys.stdout.write(content if not content or content.endswith("\n") else content + "\n")
    sys.stdout.flush()
    return 0


def byline(response: dict[str, Any]) -> str:
    """The line under the title: "2024-03-12 · Jane Doe · The Daily", what the page said of
    these (its date as a day), ``""`` when it said none."""
    day = str(response.get("published") or "")[:10]
    parts = [day, response.get("author"), response.get("site_name")]
    return " · ".join(str(part) for part in parts if part)


def _heading(response: dict[str, Any]) -> None:
    """The title, then the byline dimmed, above the Markdown a person reads on a terminal."""
    from rich.console import Console
    from rich.markup import escape

    console = Console(highlight=False, soft_wrap=True)
    if response.get("title"):
        console.print(f"[bold]{escape(str(response['title']))}[/bold]")
    said = byline(response)
    if said:
        console.print(f"[dim]{escape(said)}[/dim]")
    if response.get("title") or said:
        console.print()
