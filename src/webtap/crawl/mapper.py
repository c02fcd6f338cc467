"""``webtap map URL``: a site's URLs without fetching its pages.

The URLs come from the site's sitemaps (:mod:`webtap.crawl.sitemaps`: those robots.txt names,
else the usual places; indexes, gzip, ``lastmod``), and with ``links`` from the start page's
links too (one page fetched). Each is kept by the crawl's own rules: normalised and counted
once (:mod:`webtap.crawl.urls`), in scope (:class:`~webtap.crawl.scope.Scope`), allowed by
robots.txt. The start URL comes first.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple
from urllib.parse import urlsplit

from webtap.crawl.fetching import Fetcher
from webtap.crawl.hosts import Host, spacing
from webtap.crawl.scope import Scope
from webtap.crawl.sitemaps import MAX_BYTES, listed_urls
from webtap.crawl.urls import normalise, page_key, skipped
from webtap.errors import InvalidURL

__all__ = ["Mapped", "map_site", "start_url"]


class Mapped(NamedTuple):
    """One URL of a site, and where it was found."""

    url: str
    lastmod: str | None = None
    source: str = "sitemap"  # "start", "sitemap" or "links"
    sitemap: str | None = None  # the sitemap that listed it

    def record(self) -> dict[str, str | None]:
        return {"url": self.url, "lastmod": self.lastmod, "source": self.source}


def start_url(url: str) -> str:
    """``url`` normalised, ``https://`` added when no scheme is given; ``INVALID_URL`` else."""
    text = url.strip()
    if "://" not in text:
        text = "https://" + text
    normal = normalise(text)
    if normal is None:
        raise InvalidURL(f"Invalid URL: {url!r} is not an http or https URL of a site")
    return normal


def map_site(
    url: str,
    *,
    links: bool = False,
    limit: int | None = None,
    scope: Scope | None = None,
    fetcher: object | None = None,
) -> Iterator[Mapped]:
    """The URLs of ``url``'s site, each once, at most ``limit`` of them."""
    start = start_url(url)
    scope = scope or Scope.of(start)
    own = fetcher is None
    got = fetcher if isinstance(fetcher, Fetcher) else Fetcher()
    try:
        yield from _mapped(start, scope, got, links, limit)
    finally:
        if own:
            got.close()


def _mapped(
    start: str, scope: Scope, fetcher: object, links: bool, limit: int | None
) -> Iterator[Mapped]:
    assert isinstance(fetcher, Fetcher)
    rules = fetcher.site_rules(start)
    seen: set[str] = set()
    count = 0

    def kept(raw: str, base: str | None = None) -> str | None:
        normal = normalise(raw, base)
        if normal is None or not scope.keeps(normal) or skipped(normal):
            return None
        key = page_key(normal)
        if key in seen or rules.refusal(normal) is not None:
            return None
        seen.add(key)
        return normal

    hosts: dict[str, Host] = {}

    def turn(url: str) -> None:
        """Each request waits for its host's turn, as a crawl's do."""
        name = urlsplit(url).netloc
        if name not in hosts:
            delay = rules.delay if name == urlsplit(start).netloc else None
            hosts[name] = Host(name, spacing(delay), 1)
        hosts[name].turn()

    def read(where: str) -> tuple[int, bytes]:
        turn(where)
        return fetcher.text(where, MAX_BYTES)

    found: list[Mapped] = []
    if kept(start):
        found.append(Mapped(start, None, "start"))
    if links:
        turn(start)
        page = fetcher.page(start)
        target = page.redirect and kept(page.redirect)
        if target:
            found.append(Mapped(target, None, "links"))
        found += [Mapped(u, None, "links") for link in page.links if (u := kept(link))]
    for mapped in found:
        if limit is not None and count >= limit:
            return
        count += 1
        yield mapped
    for listed in listed_urls(start, rules.sitemaps, read):
        if limit is not None and count >= limit:
            return
        normal = kept(listed.url)
        if normal:
            count += 1
            yield Mapped(normal, listed.lastmod, "sitemap", listed.source)
