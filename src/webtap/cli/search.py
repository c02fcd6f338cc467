"""``webtap search``: the search tools for a person, or their JSON with ``--json``."""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["add_parser", "default_provider", "run"]


def add_parser(subparsers: Any) -> None:
    from webtap.protocol import load_schema
    from webtap.providers import PROVIDERS

    names = list(PROVIDERS)
    keys = " / ".join(
        " + ".join(key.env for key in provider.keys.values()) for provider in PROVIDERS.values()
    )
    counts = ", ".join(
        f"{provider.name} {_range(load_schema(provider.tool), provider.count_field)}"
        for provider in PROVIDERS.values()
    )
    parser = subparsers.add_parser(
        "search",
        help=f"search the web with {_listed([p.title for p in PROVIDERS.values()])}",
        description=(
            f"Search the web with {_listed([p.title for p in PROVIDERS.values()])} and print a "
            f"numbered list of results. Keys come from {keys} or "
            "~/.config/ikigai/credentials.json. An identical search within an hour is answered "
            "from the cache (WEBTAP_SEARCH_CACHE_TTL, WEBTAP_CACHE=off)."
        ),
    )
    parser.add_argument("query", nargs="+", help="what to search for")
    parser.add_argument(
        "--provider",
        choices=names,
        help=f"{_listed(names)} (default: the first set up in that order, else {names[0]})",
    )
    parser.add_argument(
        "--count",
        type=int,
        metavar="N",
        help=f"number of results ({counts})",
    )
    parser.add_argument(
        "--allow",
        action="append",
        default=[],
        metavar="DOMAIN",
        help="only results from this domain or its subdomains (repeatable)",
    )
    parser.add_argument(
        "--block",
        action="append",
        default=[],
        metavar="DOMAIN",
        help="no results from this domain or its subdomains (repeatable)",
    )
    parser.add_argument("--json", action="store_true", help="print the tool's JSON response")
    parser.set_defaults(run=run)


def _listed(names: list[str]) -> str:
    return ", ".join(names[:-1]) + f" or {names[-1]}" if len(names) > 1 else names[0]


def _range(schema: dict[str, Any], field: str) -> str:
    rule = schema["parameters"]["properties"].get(field, {})
    return f"{rule.get('minimum', 1)}-{rule.get('maximum', '')}".rstrip("-")


def default_provider() -> str:
    """The first provider set up (DESIGN 7, :func:`webtap.credentials.pick_provider`), else
    the first of the registry (Brave), whose missing-key message then tells the person how to
    set one up."""
    from webtap.credentials import configured_keys, pick_provider
    from webtap.providers import PROVIDERS

    return pick_provider(configured_keys()) or next(iter(PROVIDERS))


def run(args: argparse.Namespace) -> int:
    from webtap.cli._output import print_json, show_event
    from webtap.providers import PROVIDERS
    from webtap.tools import call

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
            from rich.markup import escape

            from webtap.cli._output import err_console

            err_console().print(f"[yellow]{escape(notice)}[/yellow]")
    elif result.event and result.event.get("kind") == "config_required":
        show_event(result.event)  # the setup instructions say all the error says, and more
    else:
        _show_error(result.failure)
        if result.event:
            show_event(result.event)
    return 0 if result.success else 1


def _show_results(results: list[dict[str, str]]) -> None:
    from rich.console import Console
    from rich.markup import escape

    console = Console(highlight=False, soft_wrap=True)
    if not results:
        console.print("No results.")
        return
    width = len(str(len(results)))
    for number, result in enumerate(results, 1):
        indent = " " * (width + 2)
        console.print(f"[bold]{number:>{width}}. {escape(result['title'] or result['url'])}[/bold]")
        console.print(f"{indent}[cyan]{escape(result['url'])}[/cyan]")
        if result["snippet"]:
            console.print(f"{indent}{escape(result['snippet'])}")
        console.print()


def _show_error(failure: Any) -> None:
    from rich.markup import escape

    from webtap.cli._output import err_console

    err_console().print(f"[bold red]{escape(failure.code)}[/bold red]: {escape(failure.message)}")
