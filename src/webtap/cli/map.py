"""``webtap map URL``: a site's URLs, from its sitemaps (and its start page's links), without
fetching its pages."""

from __future__ import annotations

import argparse
import json
import sys

from webtap.cli._output import fail
from webtap.crawl import Scope, map_site, start_url
from webtap.errors import WebtapError

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
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
