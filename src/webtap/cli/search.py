"""``webtap search``: the search tools for a person, or their JSON with ``--json``."""

from __future__ import annotations

import argparse
from typing import Any

from webtap.cli._output import console, err_console, escape, print_json, show_event
from webtap.credentials import configured_keys, pick_provider
from webtap.providers import PROVIDERS
from webtap.tools import call

__all__ = ["default_provider", "run"]


def default_provider() -> str:
    """The first provider set up (decision: Which search, :func:`webtap.credentials.pick_provider`),
    else the first of the registry (Brave), whose missing-key message then tells the person how to
    set one up."""
    return pick_provider(configured_keys()) or next(iter(PROVIDERS))


def run(args: argparse.Namespace) -> int:
    provider = PROVIDERS[args.provider or default_provider()]
    request: dict[str, Any] = {"query": " ".join(args.query)}
    if args.count is not None:
        request[provider.count_field] = args.count
    if args.allow:
        request["allowed_domains"] = args.allow
    if args.block:
        request["blocked_domains"] = args.block
    result = call(provider.tool, request)
    if args.json:
        print_json(result.response())
    elif result.failure is None:
        _show_results(result.result["results"])
        if notice := result.result.get("notice"):
            err_console().print(f"[yellow]{escape(notice)}[/yellow]")
    elif result.event and result.event.get("kind") == "config_required":
        show_event(result.event)  # the setup instructions say all the error says, and more
    else:
        _show_error(result.failure)
        if result.event:
            show_event(result.event)
    return 0 if result.success else 1


def _show_results(results: list[dict[str, str]]) -> None:
    out = console(soft_wrap=True)
    if not results:
        out.print("No results.")
        return
    width = len(str(len(results)))
    for number, result in enumerate(results, 1):
        indent = " " * (width + 2)
        out.print(f"[bold]{number:>{width}}. {escape(result['title'] or result['url'])}[/bold]")
        out.print(f"{indent}[cyan]{escape(result['url'])}[/cyan]")
        if result["snippet"]:
            out.print(f"{indent}{escape(result['snippet'])}")
        out.print()


def _show_error(failure: Any) -> None:
    err_console().print(f"[bold red]{escape(failure.code)}[/bold red]: {escape(failure.message)}")
