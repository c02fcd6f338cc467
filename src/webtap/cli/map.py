"""``webtap map URL``: a site's URLs, from its sitemaps (and its start page's links), without
fetching its pages."""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["add_parser", "add_scope", "run"]


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "map",
        help="a site's URLs from its sitemaps, without fetching its pages",
        description="List the URLs of URL's site: those its sitemaps list (robots.txt's "
        "Sitemap: lines, /sitemap.xml, indexes, gzip), each once, in scope and allowed by "
        "robots.txt. One URL a line.",
        epilog="See docs/crawl.md.",
    )
    parser.add_argument("url", metavar="URL", help="the site (its start page)")
    parser.add_argument("--links", action="store_true", help="add the start page's links")
    parser.add_argument(
        "--json", action="store_true", help="one JSON object a line: url, lastmod, source"
    )
    parser.add_argument("--limit", type=int, metavar="N", help="at most N URLs")
    add_scope(parser)
    parser.set_defaults(run=run)


def add_scope(parser: argparse.ArgumentParser) -> None:
    """The scope options ``map`` and ``crawl`` share."""
    parser.add_argument("--subdomains", action="store_true", help="the site's subdomains too")
    parser.add_argument("--prefix", default="", metavar="PATH", help="only paths under PATH")
    parser.add_argument(
        "--include", action="append", default=[], metavar="GLOB",
        help="only URLs matching GLOB (path and query, or the whole URL; repeatable)",
    )  # fmt: skip
    parser.add_argument(
        "--exclude", action="append", default=[], metavar="GLOB",
        help="no URL matching GLOB (repeatable)",
    )  # fmt: skip


def run(args: argparse.Namespace) -> int:
    import json
    import sys

    from webtap.cli._output import fail
    from webtap.crawl import Scope, map_site, start_url
    from webtap.errors import WebtapError

    if args.limit is not None and args.limit < 1:
        return fail("--limit must be 1 or more", 2)
    try:
        scope = Scope.of(
            start_url(args.url),
            subdomains=args.subdomains,
            prefix=args.prefix,
            include=tuple(args.include),
            exclude=tuple(args.exclude),
        )
        for mapped in map_site(args.url, links=args.links, limit=args.limit, scope=scope):
            line = json.dumps(mapped.record(), ensure_ascii=False) if args.json else mapped.url
            sys.stdout.write(line + "\n")
            sys.stdout.flush()
    except WebtapError as exc:
        return fail(exc.message)
    return 0
