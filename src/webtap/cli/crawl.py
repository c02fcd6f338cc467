"""``webtap crawl URL OUT``: a site's pages into a file, politely and resumably.

The crawl runs on a thread of its own and the main thread waits with the stop signals only
noted, as ``webtap batch`` does (:func:`webtap.signals.run_stoppable`): the first Ctrl-C,
SIGTERM or SIGHUP stops it at once, every row committed is kept in ``OUT.crawl/``, and the
command ends within :data:`WEBTAP_BATCH_STOP_WAIT` seconds with 128 + the signal's number.

Several URLs, or ``--engine ray``, crawl each site into ``OUT.sites/`` and merge them into OUT
(:mod:`webtap.crawl.sites`).
"""

from __future__ import annotations

import argparse
import sys
import threading
from typing import Any

from webtap.cli._output import cell, err_console, fail
from webtap.cli.batch import BatchProgress, run_resumable
from webtap.crawl.crawler import CrawlOptions, run_crawl
from webtap.crawl.sites import run_sites, sites_dir
from webtap.scale.rows import Stop

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    for name in ("max_pages", "max_depth", "max_per_pattern", "connections", "threads"):
        value = getattr(args, name)
        if value is not None and value < (0 if name == "max_depth" else 1):
            return fail(f"--{name.replace('_', '-')} must be a positive number", 2)
    if args.rate is not None and args.rate <= 0:
        return fail("--rate must be more than 0 requests a second", 2)
    if args.engine == "local" and args.address:
        return fail("--address names a Ray cluster: use it with --engine ray", 2)
    if args.workers < 1:
        return fail("--workers must be a positive number", 2)
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
    many = len(args.url) > 1 or args.engine == "ray"
    shown = not args.no_progress and sys.stderr.isatty()
    unit = "sites" if args.engine == "ray" else "pages"
    progress = BatchProgress(label="crawl", unit=unit) if shown else None
    stop, done = Stop(), threading.Event()
    kept = sites_dir(args.target) if many else f"{args.target}.crawl"

    def work() -> Any:
        if not many:
            return run_crawl(args.url[0], args.target, options, progress=progress, stop=stop)
        return run_sites(
            args.url,
            args.target,
            options,
            engine=args.engine,
            address=args.address,
            workers=args.workers,
            progress=progress,
            stop=stop,
        )

    said = (
        f"The pages written so far are kept; run the same command again to go on ({cell(kept)}/)."
    )
    result = run_resumable(work, stop, done, progress, said)
    if isinstance(result, int):
        return result
    if many:
        return _sites_said(result)
    err_console().print(_summary(result))
    return 0


def _sites_said(result: Any) -> int:
    """Each site's summary, then OUT's; 1 when a site could not be crawled."""
    failed = 0
    for site in result.sites:
        if site.error is not None:
            failed += 1
            err_console().print(f"{cell(site.url)}: not crawled: {cell(site.error)}")
        else:
            err_console().print(f"{cell(site.url)}: {_summary(site.result)}")
    err_console().print(f"{result.written} pages in {cell(result.output)}.")
    return 1 if failed else 0


def _summary(result: Any) -> str:
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
