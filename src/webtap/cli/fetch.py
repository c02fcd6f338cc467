"""``webtap fetch URL``: a web page as Markdown on stdout, for a person."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from webtap import settings

__all__ = ["add_parser", "run"]

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
        return fail(f"{result.failure.explained} [{result.failure.code}]")
    if result.result.get("notice"):
        from webtap.cli._output import cell, err_console

        err_console().print(f"[dim yellow]{cell(result.result['notice'])}[/dim yellow]")
    content = result.result["content"]
    sys.stdout.write(content if not content or content.endswith("\n") else content + "\n")
    sys.stdout.flush()
    return 0
