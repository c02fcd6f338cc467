"""The converted-page cache: paging through a long page costs one request (decision: Caches).

``web_fetch`` keeps each page it converted in ``pages.sqlite3`` in the user cache folder
(:mod:`webtap.cache`), so every process that fetches (the executables, ``webtap fetch``, the MCP
server, the ask loop) shares it. An entry is the converted Markdown, not the HTTP body: a hit
costs no download and no conversion.

- **Key**: the requested URL (scheme and host lower-cased, no ``#fragment``), the content mode,
  webtap's version (a new converter makes new Markdown), the SSRF guard's policy, and the
  request's headers that a server may vary its answer on (``Accept`` and ``User-Agent``: all
  that webtap's requests differ by, so any ``Vary`` but ``*`` is respected). The policy
  is in the key because an entry is only ever stored after a guarded fetch: a page fetched while
  ``WEBTAP_ALLOW_PRIVATE_NETWORKS=1`` must not be served once the guard is back on. A fetch that
  was redirected is also stored under its final URL, which is the URL the result reports.
- **Freshness**: ``WEBTAP_FETCH_CACHE_TTL`` seconds (default 600), shortened by the server's own
  ``Cache-Control: max-age`` (less ``Age``) or ``Expires``; never lengthened by them. ``no-cache``
  (or ``Pragma: no-cache``) stores the page but asks the server every time. ``no-store`` and
  ``Vary: *`` are never stored. ``private`` is stored: this is the user's own, private cache.
- **Revalidation**: a stale entry with an ``ETag`` or ``Last-Modified`` is asked for with
  ``If-None-Match`` / ``If-Modified-Since``; a ``304`` refreshes it (with the 304's own headers)
  and serves the Markdown without converting again. A stale entry without validators is fetched
  again in full. A stale page is never served when the server cannot be asked: the error is
  the answer.
- Only complete successes (HTTP 200 or 203, converted without error, judged content by the
  fetch's verdict) are stored; failures and walls never. URLs with a user name or password are
  never cached.
- robots.txt answers are kept in the same file under keys of their own
  (:mod:`webtap.fetch.robots_file`).
- ``WEBTAP_FETCH_CACHE_MAX_BYTES`` (default 100 MB) bounds the file; the oldest entries go first.
  ``WEBTAP_CACHE=off`` turns it off.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple
from urllib.parse import urlsplit, urlunsplit

from webtap import __version__
from webtap.cache import Cache, enabled, open_cache
from webtap.settings import FETCH_CACHE_MAX_BYTES, FETCH_CACHE_TTL

if TYPE_CHECKING:
    from webtap.fetch.download import Download
    from webtap.fetch.media import Converted
    from webtap.guard import Guard

__all__ = [
    "CACHED_HEADERS",
    "Conditions",
    "Freshness",
    "Hit",
    "PageCache",
    "StoredPage",
    "freshness",
    "guard_policy",
    "kept_headers",
    "page_cache",
    "refreshed",
    "stored_page",
]


# The response headers that decide how long a page may be kept, and how to ask for it again.
CACHED_HEADERS = ("cache-control", "pragma", "expires", "date", "age", "vary", "etag")
_LAST_MODIFIED = "last-modified"


# --- What the server allows ------------------------------------------------------------------


class Freshness(NamedTuple):
    """What a response's headers allow: store it at all, for how long, ask every time."""

    store: bool
    lifetime: float | None  # seconds the server says it stays fresh; None: it does not say
    always_revalidate: bool


def freshness(headers: Mapping[str, str], now: float | None = None) -> Freshness:
    """Read ``Cache-Control``, ``Pragma``, ``Expires``, ``Date``, ``Age`` and ``Vary``
    (names lower-case) as a private cache does (RFC 9111)."""
    directives = _directives(headers.get("cache-control", ""))
    vary = {part.strip() for part in headers.get("vary", "").split(",")}
    if "no-store" in directives or "*" in vary:
        return Freshness(store=False, lifetime=None, always_revalidate=False)
    no_cache = "no-cache" in directives or (
        "cache-control" not in headers and "no-cache" in headers.get("pragma", "").lower()
    )
    return Freshness(True, _lifetime(headers, directives, now), no_cache)


def _directives(header: str) -> dict[str, str]:
    directives = {}
    for part in header.split(","):
        name, _, value = part.partition("=")
        if name.strip():
            directives[name.strip().lower()] = value.strip().strip('"')
    return directives


def _lifetime(
    headers: Mapping[str, str], directives: dict[str, str], now: float | None
) -> float | None:
    age = _seconds(headers.get("age", "")) or 0.0
    if "max-age" in directives:
        # An unreadable max-age makes the response stale, as RFC 9111 4.2.1 asks.
        return max(0.0, (_seconds(directives["max-age"]) or 0.0) - age)
    if "expires" in headers:
        expires = _http_date(headers["expires"])
        if expires is None:  # "0", "-1": already expired
            return 0.0
        date = _http_date(headers.get("date", ""))
        start = date if date is not None else (time.time() if now is None else now)
        return max(0.0, expires - start - age)
    return None


def _seconds(text: str) -> float | None:
    text = text.strip()
    return float(text) if text.isascii() and text.isdigit() else None


def _http_date(text: str) -> float | None:
    from email.utils import parsedate_to_datetime  # the email package: not for a cache hit

    try:
        return parsedate_to_datetime(text.strip()).timestamp()
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


# --- What is stored --------------------------------------------------------------------------


class Conditions(NamedTuple):
    """A conditional request for a cached page: its validators, sent only to the URL whose
    response carried them (``final_url``; None: the requested URL itself)."""

    final_url: str | None
    headers: dict[str, str]


class StoredPage(NamedTuple):
    """A converted page as the cache keeps it."""

    title: str
    markdown: str
    media_type: str
    trimmed: bool
    size: int  # decoded body bytes: a hit still honours a smaller WEBTAP_MAX_BYTES
    headers: dict[str, str]  # CACHED_HEADERS + last-modified
    final_url: str | None = None  # where redirects ended (no fragment); None: not redirected
    final_fragment: str = ""  # the last redirect's own #fragment
    lifetime: float | None = None
    always_revalidate: bool = False
    invisible_removed: int = 0  # characters taken out of title and Markdown (webtap.text)
    markdown_source: str | None = None  # the page's Markdown version, when it was used
    rendered: bool = False  # the Markdown is the page as a browser rendered it (fetch.render)
    metadata: dict[str, str] | None = None  # what the page says of itself (Metadata.fields())

    @classmethod
    def from_json(cls, value: Any) -> StoredPage | None:
        try:
            page = cls(**value)
        except TypeError:  # a row written by another version: a miss
            return None
        if page.metadata is not None and not _metadata_fields(page.metadata):
            return None
        return page

    def validators(self) -> dict[str, str]:
        """The conditional request headers that ask whether this page changed."""
        asked = {}
        if self.headers.get("etag"):
            asked["If-None-Match"] = self.headers["etag"]
        if self.headers.get(_LAST_MODIFIED):
            asked["If-Modified-Since"] = self.headers[_LAST_MODIFIED]
        return asked

    def conditions(self) -> Conditions | None:
        """The conditional request that asks whether this page changed; None without
        validators (the page is then fetched again in full)."""
        validators = self.validators()
        return Conditions(self.final_url, validators) if validators else None

    def fresh(self, age: float, ttl: float) -> bool:
        if self.always_revalidate:
            return False
        limit = ttl if self.lifetime is None else min(ttl, self.lifetime)
        return age < limit

    def useful(self) -> bool:
        """Worth keeping: fresh for a while, or able to be revalidated cheaply."""
        return bool(self.validators()) or (
            not self.always_revalidate and (self.lifetime is None or self.lifetime > 0)
        )

    def url_for(self, requested: str) -> str:
        """The URL to report to a caller who asked for ``requested``: the final URL after
        redirects, keeping the fragment asked for unless the redirect named its own."""
        if self.final_url is None:
            return requested
        fragment = self.final_fragment or urlsplit(requested).fragment
        return f"{self.final_url}#{fragment}" if fragment else self.final_url


def _metadata_fields(value: object) -> bool:
    """Whether a stored page's metadata is fields of text by name, as stored."""
    return isinstance(value, dict) and all(
        isinstance(name, str) and isinstance(text, str) for name, text in value.items()
    )


def kept_headers(headers: Mapping[str, str]) -> dict[str, str]:
    """The headers of a response that the cache keeps (names lower-case)."""
    return {name: headers[name] for name in (*CACHED_HEADERS, _LAST_MODIFIED) if name in headers}


# --- The cache -------------------------------------------------------------------------------


_STORED_STATUSES = {200, 203}  # complete successes: OK, Non-Authoritative Information


class Hit(NamedTuple):
    """A stored page and whether it may be served without asking the server."""

    page: StoredPage
    fresh: bool


class PageCache:
    """Converted pages in a :class:`~webtap.cache.Cache`, with HTTP freshness on top."""

    def __init__(self, cache: Cache, ttl: float) -> None:
        self.cache = cache
        self.ttl = ttl

    @staticmethod
    def key(url: str, mode: str, guard: Guard, sent: Mapping[str, str] | None = None) -> str | None:
        """The key for ``url`` fetched in ``mode`` under ``guard`` with request headers
        ``sent`` (those a server may vary on: Accept, User-Agent); None when it must not be
        cached (a URL with a user name or password)."""
        try:
            parts = urlsplit(url)
        except ValueError:
            return None
        if "@" in parts.netloc:
            return None
        normal = urlunsplit(
            (parts.scheme.lower(), parts.netloc.lower(), parts.path or "/", parts.query, "")
        )
        request = "\n".join(
            f"{name.lower()}: {value}" for name, value in sorted((sent or {}).items())
        )
        return f"page|{__version__}|{mode}|{guard_policy(guard)}|{request}|{normal}"

    def lookup(self, key: str | None, max_body: int) -> Hit | None:
        """The page stored under ``key``, unless it is larger than ``max_body`` (kept under a
        larger WEBTAP_MAX_BYTES: fetched again, to the same error as without the cache)."""
        entry = self.cache.get(key) if key is not None else None
        if entry is None:
            return None
        page = StoredPage.from_json(entry.value)
        if page is None or page.size > max_body:
            return None
        return Hit(page, page.fresh(entry.age(), self.ttl))

    def refresh(self, key: str | None, page: StoredPage, headers: Mapping[str, str]) -> None:
        """A 304 with ``headers`` said the stored ``page`` is still right: keep it, under the
        304's headers (RFC 9111 4.3.4), or drop it if they now forbid keeping it."""
        if key is None:
            return
        renewed = refreshed(page, headers)
        if renewed is None:
            self.delete(key)
        else:
            self.store(key, renewed)

    def remember(
        self,
        key: str | None,
        mode: str,
        guard: Guard,
        download: Download,
        converted: Converted,
        sent: Mapping[str, str] | None = None,
        markdown_source: str | None = None,
        rendered: bool = False,
    ) -> None:
        """Keep a converted page, if it was a complete success the server lets us keep; under
        its final URL's key too when it was redirected (``sent``: as for :meth:`key`).
        ``rendered``: it came from a browser."""
        if key is None or download.status not in _STORED_STATUSES:
            return
        if converted.state != "content":
            return  # a page without content is fetched again, to say so again
        stored = stored_page(
            converted,
            size=len(download.body),
            headers=download.headers,
            final_url=download.final_url,
            final_fragment=download.final_fragment,
            rendered=rendered,
        )
        if stored is None:  # no-store: an older copy must not outlive the server's wish either
            self.delete(key)
            return
        stored = stored._replace(markdown_source=markdown_source)
        final_key = self.key(download.final_url, mode, guard, sent) if download.final_url else None
        if download.final_url and final_key is None:
            return  # redirected to a URL with a password: keep nothing of it
        self.store(key, stored, final_key)

    def store(self, key: str, page: StoredPage, final_key: str | None = None) -> None:
        """Keep ``page`` under ``key``, and under ``final_key`` (its final URL's key) as a page
        that was not redirected; nothing is kept when the page is not worth it."""
        if not page.useful():
            self.cache.delete(key)
            return
        self.cache.put(key, page._asdict())
        if final_key is not None and final_key != key:
            self.cache.put(final_key, page._asdict() | {"final_url": None, "final_fragment": ""})

    def delete(self, key: str) -> None:
        self.cache.delete(key)


def guard_policy(guard: Guard) -> str:
    """The SSRF guard's policy as a key part: a cached answer is only served under the policy
    it was fetched under."""
    if guard.allow_private:
        return "open"
    return "guarded:" + ",".join(sorted(str(net) for net in guard.allowed_networks))


def page_cache() -> PageCache | None:
    """The cache of converted pages the environment asks for; None when caching is off.

    The settings are read each time, so a test or a long-running server sees a changed
    environment; the file is opened once per process (:func:`webtap.cache.open_cache`).
    """
    if not enabled():
        return None
    return PageCache(open_cache("pages", FETCH_CACHE_MAX_BYTES.get()), FETCH_CACHE_TTL.get())


def stored_page(
    converted: Converted,
    size: int,
    headers: Mapping[str, str],
    final_url: str | None = None,
    final_fragment: str = "",
    now: float | None = None,
    rendered: bool = False,
) -> StoredPage | None:
    """The page to store for a response with ``headers``, or None when they forbid storing."""
    allowed = freshness(headers, now)
    if not allowed.store:
        return None
    return StoredPage(
        title=converted.title,
        markdown=converted.markdown,
        media_type=converted.media_type,
        trimmed=converted.trimmed,
        size=size,
        final_url=final_url,
        final_fragment=final_fragment,
        headers=kept_headers(headers),
        lifetime=allowed.lifetime,
        always_revalidate=allowed.always_revalidate,
        invisible_removed=converted.invisible_removed,
        rendered=rendered,
        metadata=converted.metadata.fields() or None,
    )


def refreshed(page: StoredPage, headers: Mapping[str, str]) -> StoredPage | None:
    """``page`` after a 304 with ``headers``: the 304's headers replace the stored ones
    (RFC 9111 4.3.4); None when they now forbid storing."""
    merged = {**page.headers, **kept_headers(headers)}
    allowed = freshness(merged)
    if not allowed.store:
        return None
    return StoredPage(
        **{
            **page._asdict(),
            "headers": merged,
            "lifetime": allowed.lifetime,
            "always_revalidate": allowed.always_revalidate,
        }
    )
