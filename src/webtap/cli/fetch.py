"""``webtap fetch URL``: a web page as Markdown on stdout, for a person."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from webtap import settings

__all__ = ["add_parser", "byline", "run"]

DESCRIPTION = """\
Fetch URL and print it as Markdown (HTML and XHTML are converted; plain text, Markdown and JSON
are shown as they are). For an HTML page that is its main content, without menus, sidebars and
footers; --full (or WEBTAP_FETCH_MODE=page) prints the whole page. --offset and --limit select
lines of the Markdown, as the web_fetch tool does. Errors go to stderr as one line, with a
non-zero exit status.

Converted pages are kept in the user cache folder, so reading a page in parts downloads it once.

A bot check or block page is an error (BLOCKED), and so are a login or consent wall, an empty
page and a page that needs JavaScript (NO_CONTENT); a paywalled article's teaser is printed,
with a note on stderr. You chose the URL, so robots.txt is not asked (WEBTAP_ROBOTS=obey to
obey it, as fetches a model chooses do).

A page whose content is built by JavaScript (an empty shell from the server) is rendered in a
browser when one is installed (WEBTAP_RENDER=auto, the default; apt-get install
chromium-headless-shell, or any Chrome or Chromium, or WEBTAP_BROWSER=path); --render renders
any HTML page first (as WEBTAP_RENDER=always), and WEBTAP_RENDER=off never renders.

On a terminal, the page's title comes first, and under it, dimmed, what the page says of itself
(its date, author and site) when it says it; --json gives those as fields ("published",
"author", "site_name"...). A pipe gets the Markdown alone.

Private, loopback and link-local addresses are refused unless WEBTAP_ALLOW_PRIVATE_NETWORKS=1.
"""


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {value}")
    return value


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "fetch",
        help="fetch a URL and print it as Markdown",
        description=DESCRIPTION,
        epilog=settings.environment_help(
            *(setting for setting in settings.SETTINGS.values() if setting.section == "fetch"),
            settings.CACHE,
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("url", metavar="URL", help="the http:// or https:// URL to fetch")
    parser.add_argument(
        "--offset", type=_positive, metavar="N", help="first line to print (1-based)"
    )
    parser.add_argument("--limit", type=_positive, metavar="N", help="print at most N lines")
    parser.add_argument(
        "--full",
        action="store_true",
        help="the whole page, not only its main content (as WEBTAP_FETCH_MODE=page)",
    )
    parser.add_argument(
        "--render",
        action="store_true",
        help="render the page in a browser first (as WEBTAP_RENDER=always)",
    )
    parser.add_argument(
        "--json", action="store_true", help="print the web_fetch tool's JSON response"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from webtap.cli._output import fail, print_json
    from webtap.tools import call

    request: dict[str, Any] = {"url": args.url}
    if args.offset is not None:
        request["offset"] = args.offset
    if args.limit is not None:
        request["limit"] = args.limit
    # A person chose this URL: robots.txt is for the URLs a model chooses (DESIGN 14).
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
        return fail(f"{result.failure.message} [{result.failure.code}]")
    if result.result.get("notice"):
        from webtap.cli._output import cell, err_console

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
