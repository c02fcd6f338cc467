"""``webtap crawl URL OUT``: a site's pages, breadth first, politely, resumable
(decision: Polite crawl).

The loop, on the caller's thread:

1. The journal (:class:`~webtap.crawl.state.State`) is opened: a run that stopped goes on from
   its queue; a new one is seeded with the start URL and the URLs of the site's sitemaps.
2. The queue is taken breadth first (depth, then the order found), at most ``threads`` pages at
   once and ``connections`` per host; each fetch waits for its host's turn
   (:mod:`webtap.crawl.hosts`) on a daemon thread.
3. Each page's outcome is one commit: its row (or why it has none: a redirect, a canonical
   page named elsewhere, content already written under another URL), and its links, normalised,
   in scope, allowed by robots.txt, within ``max_depth`` and each pattern's limit, queued.
4. A ``429`` or ``503`` pauses its host for its ``Retry-After`` and puts the URL back (at most
   :data:`ATTEMPTS` times; a wait longer than :data:`MAX_RETRY_AFTER` is the row's error).
5. At the end, OUT is written whole from the journal; a ``.jsonl`` OUT also grows as rows are
   committed, so it can be followed while the crawl runs.

A :class:`~webtap.scale.rows.Stop` set from another thread ends the loop at once: the rows
committed are kept, the pages in flight are abandoned (the next run fetches them).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from concurrent.futures import FIRST_COMPLETED, Future, wait
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple, Protocol
from urllib.parse import urlsplit

import pyarrow as pa

from webtap.crawl.fetching import Fetcher, Got, SiteRules
from webtap.crawl.hosts import Host, spacing
from webtap.crawl.mapper import start_url
from webtap.crawl.scope import Scope
from webtap.crawl.sitemaps import MAX_BYTES, listed_urls
from webtap.crawl.state import SKIPPED, Queued, State
from webtap.crawl.urls import normalise, page_key, skipped
from webtap.errors import InvalidInput
from webtap.scale.batch import FORMATS, check_format, write_table
from webtap.scale.rows import Stop
from webtap.sql.pool import Pool
from webtap.sqlite import usable_file

__all__ = [
    "ATTEMPTS",
    "COLUMNS",
    "CrawlOptions",
    "CrawlProgress",
    "CrawlResult",
    "run_crawl",
    "table_of",
]

COLUMNS = (
    "url",
    "final_url",
    "depth",
    "status",
    "title",
    "content",
    "published",
    "modified",
    "author",
    "site_name",
    "language",
    "description",
    "image",
    "error_code",
    "error",
    "fetched_at",
)
_METADATA = ("published", "modified", "author", "site_name", "language", "description", "image")
ATTEMPTS = 3  # fetches of a URL its host keeps answering 429 or 503
MAX_RETRY_AFTER = 300.0  # seconds; a longer Retry-After is the row's error, not a wait


class CrawlOptions(NamedTuple):
    """What to crawl and how (the defaults are ``webtap crawl``'s)."""

    subdomains: bool = False
    prefix: str = ""
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    max_pages: int = 10_000  # pages fetched, at most
    max_depth: int | None = None  # links from the start URL, at most (None: no limit)
    max_per_pattern: int | None = 1000  # URLs queued per pattern (webtap.crawl.urls.pattern)
    sitemaps: bool = True  # seed from the sitemaps too
    threads: int = 8  # fetches at once
    connections: int = 2  # fetches at once per host
    rate: float | None = None  # requests a second per host, at most (slower only)

    def scope(self, start: str) -> Scope:
        return Scope.of(
            start,
            subdomains=self.subdomains,
            prefix=self.prefix,
            include=self.include,
            exclude=self.exclude,
        )

    def fingerprint(self, start: str) -> dict[str, Any]:
        """What makes a run the same crawl: the start and the scope (limits may change), as
        the journal keeps it (JSON)."""
        fingerprint: dict[str, Any] = json.loads(
            json.dumps({"start": start, "scope": list(self.scope(start))})
        )
        return fingerprint


class CrawlResult(NamedTuple):
    written: int  # rows in OUT
    errors: int  # of those, rows with an error
    visited: int  # pages fetched (this run and before)
    queued: int  # left in the queue (a stop, or max_pages)
    left_out: dict[str, int]  # URLs not queued, by why (robots.txt, pattern limit, ...)
    output: str
    stopped: bool = False


class CrawlProgress(Protocol):
    """Told how a crawl goes: ``start`` once, ``advance`` as pages finish, ``end`` once."""

    def start(self, total: int, skipped: int) -> None: ...

    def advance(self, rows: int, errors: int) -> None: ...

    def retotal(self, total: int) -> None: ...

    def end(self) -> None: ...


def run_crawl(
    url: str,
    target: str | Path,
    options: CrawlOptions = CrawlOptions(),  # noqa: B008 - a NamedTuple: immutable
    *,
    progress: CrawlProgress | None = None,
    stop: Stop | None = None,
    fetcher: Fetcher | None = None,
) -> CrawlResult:
    """Crawl ``url``'s site into ``target`` (``.jsonl``, ``.parquet`` or ``.csv``), going on
    from where a previous run of the same crawl stopped."""
    target = Path(target)
    check_format(target)
    if options.threads < 1 or options.connections < 1:
        raise InvalidInput("--threads and --connections must be 1 or more")
    start = start_url(url)
    crawl = _Crawl(start, target, options, fetcher or Fetcher(), fetcher is None, stop)
    try:
        return crawl.run(progress)
    finally:
        crawl.close()


class _Crawl:
    def __init__(
        self,
        start: str,
        target: Path,
        options: CrawlOptions,
        fetcher: Fetcher,
        own: bool,
        stop: Stop | None,
    ) -> None:
        self.start, self.target, self.options = start, target, options
        self.scope = options.scope(start)
        self.fetcher, self._own = fetcher, own
        self.stop = stop or Stop()
        self.state = _open_state(target, options.fingerprint(start))
        self.rules: dict[str, SiteRules] = {}
        self.hosts: dict[str, Host] = {}
        self.frontier: dict[str, list[Queued]] = {}
        self.attempts: dict[str, int] = {}
        self.left_out: dict[str, set[str]] = {}
        self.visited = self.state.visited()
        self.pool: Any = None
        self._jsonl: Any = None

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown()
        if self._jsonl is not None:
            self._jsonl.close()
        self.state.close()
        if self._own:
            self.fetcher.close()

    # -- the loop -------------------------------------------------------------------------------

    def run(self, progress: CrawlProgress | None) -> CrawlResult:
        queued = self.state.queued()
        if not queued and not self.state.visited():
            queued = self._seed()
        if self._format() == "json":
            self._write_out()  # a resumed run's OUT: whole again, a torn last line gone
        for item in queued:
            self.frontier.setdefault(_host(item.url), []).append(item)
        if progress is not None:
            progress.start(self.visited + self._waiting(), self.visited)
        self.pool = Pool(self.options.threads, name="webtap_crawl")
        running: dict[Future[Got], tuple[Queued, Host]] = {}
        try:
            while not self.stop.is_set():
                self._launch(running)
                if not running:
                    break
                waited: list[Future[Any]] = [*running, self.stop.signal]
                done, _ = wait(waited, return_when=FIRST_COMPLETED)
                for future in done:
                    if future is self.stop.signal or self.stop.is_set():
                        continue
                    item, host = running.pop(future)
                    host.busy -= 1
                    errors = self._finished(item, host, future.result())
                    if progress is not None:
                        progress.advance(1, errors)
                        progress.retotal(self.visited + self._waiting() + len(running))
        finally:
            if progress is not None:
                progress.end()
        stopped = self.stop.is_set()
        if not stopped:
            self._write_out()
        return CrawlResult(
            self.state.written(),
            self.state.errors(),
            self.visited,
            self._waiting(),
            {why: len(urls) for why, urls in self.left_out.items()},
            str(self.target),
            stopped,
        )

    def _waiting(self) -> int:
        return sum(len(items) for items in self.frontier.values())

    def _launch(self, running: dict[Future[Got], tuple[Queued, Host]]) -> None:
        """Start the next pages, breadth first, within the crawl's and each host's limits."""
        while len(running) < self.options.threads:
            if self.visited + len(running) >= self.options.max_pages:
                return
            ready = [
                (items[0].depth, name)
                for name, items in self.frontier.items()
                if items and self._host(name).free()
            ]
            if not ready:
                return
            name = min(ready)[1]
            item = self.frontier[name].pop(0)
            host = self._host(name)
            host.busy += 1
            running[self.pool.submit(self._visit, item.url, host)] = (item, host)

    def _visit(self, url: str, host: Host) -> Got:
        host.turn()
        return self.fetcher.page(url)

    # -- one page's outcome -----------------------------------------------------------------------

    def _finished(self, item: Queued, host: Host, got: Got) -> int:
        """Commit ``got``: the row, or why there is none; the URLs it leads to. The errors."""
        if got.retry_after is not None and self._retry(item, host, got.retry_after):
            return 0
        if got.redirect is not None:
            target = self._kept(got.redirect, item.depth, item.via or item.url)
            why = f"redirected to {got.redirect}"
            self._commit(item, None, [target] if target else [], why=why)
            return 0
        canonical = self._canonical(item, got)
        if canonical is not None:
            self._commit(item, None, [canonical], why=f"its canonical page is {canonical.url}")
            return 0
        if not self.scope.keeps(item.url):  # the start page, read only for its links
            self._commit(item, None, self._links(item, got), why="out of scope")
            return 0
        record = _record(item, got)
        digest = _digest(got.content) if got.content else None
        owner = self.state.digest_owner(digest) if digest else None
        if owner is not None:
            self._commit(item, None, [], why=f"the same content as {owner}")
            return 0
        found = self._links(item, got)
        self._commit(item, record, found, digest=digest)
        self._append(record)
        return 1 if got.error_code else 0

    def _retry(self, item: Queued, host: Host, seconds: float) -> bool:
        """The host asked to wait: pause it, and put the URL back (a few times)."""
        if seconds > MAX_RETRY_AFTER:
            return False
        host.pause(seconds)
        tries = self.attempts[item.key] = self.attempts.get(item.key, 0) + 1
        if tries >= ATTEMPTS:
            return False
        self.frontier.setdefault(host.name, []).insert(0, item)
        return True

    def _canonical(self, item: Queued, got: Got) -> Queued | None:
        """The page ``got`` names as its canonical one, when that is another page of the
        crawl that can be (or was) written in its stead."""
        if got.canonical is None or got.error_code:
            return None
        canonical = normalise(got.canonical)
        if canonical is None or not self.scope.keeps(canonical):
            return None
        key = page_key(canonical)
        if key in (item.key, page_key(got.final_url or item.url)):
            return None
        if self.state.state_of(key) == SKIPPED:  # it named another page, or was left out
            return None
        if self._refusal(canonical) is not None:
            return None
        return Queued(key, canonical, item.depth, item.via or item.url)

    def _links(self, item: Queued, got: Got) -> list[Queued]:
        depth = item.depth + 1
        if self.options.max_depth is not None and depth > self.options.max_depth:
            for link in got.links:
                url = normalise(link, got.final_url or item.url)
                if url is not None and self.scope.keeps(url):
                    self._count("max depth", page_key(url))
            return []
        found: dict[str, Queued] = {}
        base = got.final_url or item.url
        for link in got.links:
            kept = self._kept(link, depth, None, base)
            if kept is not None:
                found.setdefault(kept.key, kept)
        return list(found.values())

    def _kept(
        self, link: str, depth: int, via: str | None, base: str | None = None
    ) -> Queued | None:
        url = normalise(link, base)
        if url is None or skipped(url):
            return None
        key = page_key(url)
        if not self.scope.keeps(url):
            self._count("out of scope", key)
            return None
        if self._refusal(url) is not None:
            self._count("robots.txt", key)
            return None
        return Queued(key, url, depth, via)

    def _commit(
        self,
        item: Queued,
        record: dict[str, Any] | None,
        found: list[Queued],
        *,
        digest: str | None = None,
        why: str | None = None,
    ) -> None:
        added, cut = self.state.finish(
            item.key, record, found, self.options.max_per_pattern, digest=digest, why=why
        )
        self.visited += 1
        self._count("pattern limit", *cut)
        for queued in added:
            self.frontier.setdefault(_host(queued.url), []).append(queued)

    def _count(self, why: str, *keys: str) -> None:
        if keys:
            self.left_out.setdefault(why, set()).update(keys)

    # -- seeds, hosts, robots.txt ------------------------------------------------------------------

    def _seed(self) -> list[Queued]:
        seeds = [Queued(page_key(self.start), self.start, 0)]
        if self._refusal(self.start) is not None:
            raise InvalidInput(
                f"robots.txt refuses the start URL {self.start}: {self._refusal(self.start)}"
            )
        if self.options.sitemaps:

            def read(where: str) -> tuple[int, bytes]:
                self._host(_host(where)).turn()  # a sitemap is a request like any other
                return self.fetcher.text(where, MAX_BYTES)

            named = self._rules(self.start).sitemaps
            for listed in listed_urls(self.start, named, read):
                kept = self._kept(listed.url, 1, None)
                if kept is not None:
                    seeds.append(kept)
        added, cut = self.state.add(seeds, self.options.max_per_pattern)
        self._count("pattern limit", *cut)
        return added

    def _rules(self, url: str) -> SiteRules:
        origin = "{0.scheme}://{0.netloc}".format(urlsplit(url))
        rules = self.rules.get(origin)
        if rules is None:
            rules = self.rules[origin] = self.fetcher.site_rules(url)
        return rules

    def _refusal(self, url: str) -> str | None:
        return self._rules(url).refusal(url)

    def _host(self, name: str) -> Host:
        host = self.hosts.get(name)
        if host is None:
            delay = self._rules(f"{self._scheme()}://{name}/").delay
            interval = spacing(delay, self.options.rate)
            host = self.hosts[name] = Host(name, interval, self.options.connections)
        return host

    def _scheme(self) -> str:
        return urlsplit(self.start).scheme

    # -- OUT ---------------------------------------------------------------------------------------

    def _format(self) -> str:
        return FORMATS[self.target.suffix.lower()]

    def _append(self, record: dict[str, Any]) -> None:
        """A ``.jsonl`` OUT grows as rows are committed (one write per line)."""
        if self._format() != "json":
            return
        if self._jsonl is None:
            fd = os.open(self.target, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            self._jsonl = os.fdopen(fd, "a", encoding="utf-8")
        self._jsonl.write(json.dumps(record, ensure_ascii=False) + "\n")
        self._jsonl.flush()

    def _write_out(self) -> None:
        if self._jsonl is not None:
            self._jsonl.close()
            self._jsonl = None
        write_table(self.target, table_of(self.state.records()))


def _open_state(target: Path, fingerprint: dict[str, Any]) -> State:
    folder = target.with_name(target.name + ".crawl")
    if target.exists() and not folder.exists():
        raise InvalidInput(
            f"{target} exists and was not written by a crawl that can go on ({folder} is "
            "missing): move it away, or name another OUT"
        )
    with usable_file(folder / "state.sqlite3", "a crawl's state", "Move it away to start afresh."):
        state = State(target)
    known = state.settings()
    if known is None:
        state.remember(fingerprint)
    elif known != fingerprint:
        state.close()
        raise InvalidInput(
            f"{target} holds another crawl (from {known.get('start')}, its own scope): name "
            f"another OUT, or move {target} and {folder} away to start afresh"
        )
    return state


def _record(item: Queued, got: Got) -> dict[str, Any]:
    return {
        "url": item.via or item.url,
        "final_url": got.final_url,
        "depth": item.depth,
        "status": got.status or None,
        "title": got.title,
        "content": got.content,
        **{name: getattr(got.metadata, name) or None for name in _METADATA},
        "error_code": got.error_code,
        "error": got.error,
        "fetched_at": datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z"),
    }


def _digest(content: str) -> str:
    """The content's fingerprint: the same text in other whitespace is the same page."""
    text = re.sub(r"\s+", " ", content).strip()
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def table_of(records: Any) -> Any:
    """The crawl's rows (dicts of :data:`COLUMNS`) as an Arrow table of OUT's schema."""
    schema = pa.schema(
        [(name, pa.int64() if name in ("depth", "status") else pa.string()) for name in COLUMNS]
    )
    rows = list(records)
    return pa.Table.from_pylist(rows, schema=schema)


def _host(url: str) -> str:
    return urlsplit(url).netloc
