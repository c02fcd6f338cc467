"""``webtap crawl URL OUT``: a site's pages into a file, politely and resumably.

The crawl runs on a thread of its own and the main thread waits with the stop signals only
noted, as ``webtap batch`` does (:func:`webtap.signals.run_stoppable`): the first Ctrl-C,
SIGTERM or SIGHUP stops it at once, every row committed is kept in ``OUT.crawl/``, and the
command ends within :data:`webtap.cli.batch.GRACE` seconds with 128 + the signal's number.
"""

from __future__ import annotations

import argparse
import sys
import threading
from typing import Any

__all__ = ["add_parser", "run"]

EPILOG = (
    "robots.txt is obeyed and its Crawl-delay honoured (else WEBTAP_HOST_RATE, fetches a second "
    "per host). Run the same command again after a stop or a crash: it goes on from "
    "OUT.crawl/ without fetching a written page again. See docs/crawl.md."
)


def add_parser(subparsers: Any) -> None:
    from webtap.cli.map import add_scope

    parser = subparsers.add_parser(
        "crawl",
        help="a site's pages into a .jsonl, .parquet or .csv file, politely, resumable",
        description="Crawl URL's site breadth first, from URL and its sitemaps, and write one "
        "row per page to OUT: url, final_url, depth, status, title, content (Markdown, the "
        "main content), published, error_code, error, fetched_at.",
        epilog=EPILOG,
    )
    parser.add_argument("url", metavar="URL", help="the start page")
    parser.add_argument("target", metavar="OUT", help="the output file (.jsonl, .parquet, .csv)")
    add_scope(parser)
    parser.add_argument(
        "--max-pages", type=int, default=10_000, metavar="N",
        help="fetch N pages at most (default: 10000)",
    )  # fmt: skip
    parser.add_argument(
        "--max-depth", type=int, metavar="N", help="follow links N steps from URL at most"
    )
    parser.add_argument(
        "--max-per-pattern", type=int, default=1000, metavar="N",
        help="queue N URLs of one pattern at most, such as /calendar/{n}/{n} (default: 1000)",
    )  # fmt: skip
    parser.add_argument("--no-sitemaps", action="store_true", help="start from URL alone")
    parser.add_argument(
        "--rate", type=float, metavar="R", help="R requests a second per host at most (slower)"
    )
    parser.add_argument(
        "--connections", type=int, default=2, metavar="N",
        help="requests at once per host (default: 2)",
    )  # fmt: skip
    parser.add_argument(
        "--threads", type=int, default=8, metavar="N", help="requests at once (default: 8)"
    )
    parser.add_argument("--no-progress", action="store_true", help="never show progress")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from webtap.cli._output import cell, err_console, exit_abandoned, fail
    from webtap.cli.batch import GRACE, BatchProgress, _stop
    from webtap.crawl.crawler import CrawlOptions, run_crawl
    from webtap.errors import WebtapError
    from webtap.scale.rows import Stop
    from webtap.signals import run_stoppable

    for name in ("max_pages", "max_depth", "max_per_pattern", "connections", "threads"):
        value = getattr(args, name)
        if value is not None and value < (0 if name == "max_depth" else 1):
            return fail(f"--{name.replace('_', '-')} must be a positive number", 2)
    if args.rate is not None and args.rate <= 0:
        return fail("--rate must be more than 0 requests a second", 2)
    options = CrawlOptions(
        subdomains=args.subdomains,
        prefix=args.prefix,
        include=tuple(args.include),
        exclude=tuple(args.exclude),
        max_pages=args.max_pages,
        max_depth=args.max_depth,
        max_per_pattern=args.max_per_pattern,
        sitemaps=not args.no_sitemaps,
        threads=args.threads,
        connections=args.connections,
        rate=args.rate,
    )
    shown = not args.no_progress and sys.stderr.isatty()
    progress = BatchProgress(label="crawl", unit="pages") if shown else None
    stop, done = Stop(), threading.Event()

    def work() -> Any:
        return run_crawl(args.url, args.target, options, progress=progress, stop=stop)

    try:
        result = run_stoppable(work, lambda: _stop(stop), GRACE, done)
    except WebtapError as exc:
        return fail(exc.message)
    except KeyboardInterrupt as exc:
        if progress is not None:
            progress.end()
        err_console().print(
            f"[dim]The pages written so far are kept; run the same command again to go on "
            f"({cell(args.target)}.crawl/).[/dim]"
        )
        if not done.is_set():
            exit_abandoned(exc)
        raise
    err_console().print(_summary(result))
    return 0


def _summary(result: Any) -> str:
    from webtap.cli._output import cell

    said = (
        f"{result.written} pages in {cell(result.output)} ({result.errors} with an error), "
        f"{result.visited} fetched."
    )
    if result.queued:
        said += f" {result.queued} still queued: --max-pages stopped the crawl; raise it to go on."
    left = ", ".join(f"{n} by {why}" for why, n in sorted(result.left_out.items()))
    if left:
        said += f" URLs left out: {left}."
    return said
