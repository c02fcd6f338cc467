"""Many sites in one crawl: ``webtap crawl URL [URL ...] OUT [--engine ray]`` (decision:
Polite crawl).

Each site is crawled by :func:`~webtap.crawl.crawler.run_crawl` into a file of its own under
``OUT.sites/`` (Parquet, named after its start URL, its journal beside it), so each site keeps
its journal and a rerun resumes each on its own. When every site is done, their rows are merged
into OUT with the writer ``webtap batch`` uses (:func:`webtap.scale.batch.write_table`).

The engine is ``local`` (the sites one after another, on the caller's thread) or ``ray``: one
Ray task per site, ``workers`` at once, on a cluster joined at ``address`` or started on this
machine bound to 127.0.0.1 (:func:`webtap.scale.batch.ray_session`). The tasks get this
process's ``WEBTAP_*`` settings, and ``WEBTAP_BUDGET=ray`` unless another store is named: each
host's politeness budget (:mod:`webtap.crawl.hosts`) is then one for the whole cluster, so two
workers crawling one host take turns in its delay.
"""

from __future__ import annotations

import hashlib
import re
from concurrent.futures import FIRST_COMPLETED, Future, wait
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import urlsplit

from webtap.crawl.crawler import CrawlOptions, CrawlProgress, CrawlResult, run_crawl, table_of
from webtap.crawl.mapper import start_url
from webtap.errors import InvalidInput, WebtapError
from webtap.scale.batch import ENGINES, check_format, forwarded_env, ray_session, write_table
from webtap.scale.rows import Stop
from webtap.settings import BUDGET

__all__ = ["SiteOutcome", "SitesResult", "run_sites", "sites_dir"]

CPUS_PER_SITE = 0.25  # a crawl waits on the network and its hosts' delays, not on a CPU


class SiteOutcome(NamedTuple):
    url: str  # the start URL
    result: CrawlResult | None
    error: str | None = None  # why the site was not crawled (then ``result`` is None)


class SitesResult(NamedTuple):
    sites: list[SiteOutcome]  # in the order they finished
    written: int  # rows in OUT
    output: str
    stopped: bool = False


def sites_dir(target: str | Path) -> Path:
    target = Path(target)
    return target.with_name(target.name + ".sites")


def run_sites(
    urls: list[str],
    target: str | Path,
    options: CrawlOptions = CrawlOptions(),  # noqa: B008 - a NamedTuple: immutable
    *,
    engine: str = "local",
    address: str | None = None,
    workers: int = 2,
    progress: CrawlProgress | None = None,
    stop: Stop | None = None,
) -> SitesResult:
    """Crawl each of ``urls``' sites into ``OUT.sites/``, then merge their rows into
    ``target``, going on from where a previous run of the same crawls stopped.

    ``progress`` is told the pages of each site in turn (``local``), or the sites as they end
    (``ray``)."""
    target = Path(target)
    check_format(target)
    if engine not in ENGINES:
        raise InvalidInput(f"unknown engine {engine!r}: use local or ray")
    if workers < 1:
        raise InvalidInput("--workers must be 1 or more")
    folder = sites_dir(target)
    if target.exists() and not folder.exists():
        raise InvalidInput(
            f"{target} exists and was not written by a crawl of many sites ({folder} is "
            "missing): move it away, or name another OUT"
        )
    sites = _sites(urls, folder)
    folder.mkdir(parents=True, exist_ok=True)
    stop = stop or Stop()
    if engine == "ray":
        outcomes = _on_ray(sites, options, address, workers, progress, stop)
    else:
        outcomes = _here(sites, options, progress, stop)
    if stop.is_set():
        return SitesResult(outcomes, 0, str(target), True)
    written = _merge(target, [file for _, file in sites])
    return SitesResult(outcomes, written, str(target))


def _sites(urls: list[str], folder: Path) -> list[tuple[str, Path]]:
    """Each start URL (once) and its file: its host and path, readable, and a hash that
    keeps two start URLs apart."""
    sites: dict[str, Path] = {}
    for url in urls:
        start = start_url(url)  # a URL that is none is said before any site is crawled
        parts = urlsplit(start)
        readable = re.sub(r"[^A-Za-z0-9.-]+", "_", parts.netloc + parts.path).strip("_")[:60]
        digest = hashlib.sha256(start.encode()).hexdigest()[:10]
        sites.setdefault(start, folder / f"{readable}-{digest}.parquet")
    return list(sites.items())


def crawl_site(url: str, target: str, options: CrawlOptions) -> SiteOutcome:
    """One site, as a Ray task runs it: its error a value, never a failed task."""
    try:
        return SiteOutcome(url, run_crawl(url, target, options))
    except WebtapError as exc:
        return SiteOutcome(url, None, exc.message)


def _here(
    sites: list[tuple[str, Path]],
    options: CrawlOptions,
    progress: CrawlProgress | None,
    stop: Stop,
) -> list[SiteOutcome]:
    outcomes = []
    for url, file in sites:
        try:
            result = run_crawl(url, file, options, progress=progress, stop=stop)
        except WebtapError as exc:
            outcomes.append(SiteOutcome(url, None, exc.message))
            continue
        if stop.is_set():
            break
        outcomes.append(SiteOutcome(url, result))
    return outcomes


def _on_ray(
    sites: list[tuple[str, Path]],
    options: CrawlOptions,
    address: str | None,
    workers: int,
    progress: CrawlProgress | None,
    stop: Stop,
) -> list[SiteOutcome]:
    with ray_session(address, stop) as ray:
        env = forwarded_env()
        env.setdefault(BUDGET.name, BUDGET.get() or "ray")  # one budget per host, cluster-wide
        task = ray.remote(crawl_site).options(num_cpus=CPUS_PER_SITE, runtime_env={"env_vars": env})
        waiting = list(sites)
        running: dict[Future[Any], tuple[str, Any]] = {}
        outcomes: list[SiteOutcome] = []
        if progress is not None:
            progress.start(len(sites), 0)
        try:
            while (waiting or running) and not stop.is_set():
                while waiting and len(running) < workers:
                    url, file = waiting.pop(0)
                    ref = task.remote(url, str(file), options)
                    running[ref.future()] = (url, ref)
                done, _ = wait([*running, stop.signal], return_when=FIRST_COMPLETED)
                for future in done:
                    if future is stop.signal or stop.is_set():
                        continue
                    url, _ = running.pop(future)
                    outcome = _outcome(url, future)
                    outcomes.append(outcome)
                    if progress is not None:
                        progress.advance(1, 0 if outcome.error is None else 1)
        finally:
            if progress is not None:
                progress.end()
            if stop.is_set() and ray.is_initialized():
                for _, ref in running.values():
                    ray.cancel(ref, force=True)  # on a cluster that outlives this run
        return outcomes


def _outcome(url: str, future: Future[Any]) -> SiteOutcome:
    from ray.exceptions import RayError

    try:
        outcome: SiteOutcome = future.result()
    except RayError as exc:
        first = str(exc).strip().splitlines()[-1] if str(exc).strip() else type(exc).__name__
        return SiteOutcome(url, None, f"its Ray task failed: {first}")
    return outcome


def _merge(target: Path, files: list[Path]) -> int:
    """OUT := every site's rows, in the order the sites were named."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    tables = [pq.read_table(file) for file in files if file.is_file()]
    table = pa.concat_tables(tables, promote_options="default") if tables else table_of([])
    write_table(target, table)
    return int(table.num_rows)
