"""Everything a crawl asks of the fetch layer, in one place: a page, a text file, a site's
robots.txt.

A crawl fetches differently from ``web_fetch`` in three ways, and only those:

- it follows no redirect itself: a redirect's target is handed back (:attr:`Got.redirect`) for
  the crawl to queue under its own rules (scope, robots.txt, one visit per page), so that a
  page reached by two redirects is fetched once (the hop is stopped by the ``permit`` the
  fetch's redirect loop asks before each hop);
- it reads what a page links to and its ``rel=canonical`` from the tree the converter parses
  anyway (the fetch's ``inspect`` hook sees it before it is pruned), so a page is parsed once;
  its date, author and the rest are the converter's own (:class:`webtap.convert.Metadata`);
- it always obeys robots.txt (decision: Polite crawl), and also reads its ``Crawl-delay``,
  ``Request-rate`` and ``Sitemap:`` lines, which ``web_fetch`` has no use for.

Otherwise a page is what ``web_fetch`` makes of it: the main content as Markdown, and the
verdict's error (``BLOCKED``, ``NO_CONTENT``, ``HTTP_ERROR`` ...) with its message when it is
not content. The crawl's one :class:`webtap.net.Client` keeps connections alive between pages;
the SSRF guard checks every address, as for any fetch.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple
from urllib.parse import urljoin

from protego import Protego

from webtap.convert import Metadata
from webtap.errors import HTTPError, NetworkError, WebtapError
from webtap.fetch import fetch_limits, fetch_timeouts
from webtap.fetch.download import Download
from webtap.fetch.judge import Inspection, judge, refusal
from webtap.fetch.media import convert_body
from webtap.fetch.redirects import fetch_errors, follow
from webtap.fetch.robots import Rules, read_rules, robots_url
from webtap.fetch.session import with_language
from webtap.guard import Guard
from webtap.net import ACCEPT_ENCODING, Client, Deadline, Limits, Timeouts
from webtap.net.retry_after import retry_after
from webtap.redact import redact
from webtap.useragent import robots_token

__all__ = ["Fetcher", "Got", "SiteRules"]

ROBOTS_BYTES = 512 * 1024
UNSAID_WAIT = 5.0  # seconds to leave a host that answers 429 or 503 without Retry-After
_LINK_CANONICAL = re.compile(r'<\s*([^>]+)\s*>\s*;[^,]*rel\s*=\s*"?canonical"?', re.IGNORECASE)


class Got(NamedTuple):
    """One page as the crawl saw it. ``status`` 0: no answer came (``error`` says why)."""

    url: str
    status: int = 0
    final_url: str | None = None
    redirect: str | None = None  # the target of a redirect, not followed
    retry_after: float | None = None  # seconds a 429 or 503 asked to wait
    title: str | None = None
    content: str | None = None
    metadata: Metadata = Metadata()  # what the page says of itself: its date, author...
    links: tuple[str, ...] = ()
    canonical: str | None = None
    error_code: str | None = None
    error: str | None = None


class SiteRules(NamedTuple):
    """One origin's robots.txt as a crawl reads it."""

    rules: Rules
    delay: float | None  # Crawl-delay (or Request-rate) for webtap's token, in seconds
    sitemaps: tuple[str, ...]

    def refusal(self, url: str) -> str | None:
        """Why robots.txt refuses ``url`` (quoting the rule), or None when it allows it."""
        decision = self.rules.decide(url, robots_token())
        return None if decision.allowed else decision.why


class _Redirected(Exception):
    def __init__(self, target: str) -> None:
        self.target = target


class _Reading(Inspection):
    """The fetch's inspect hook, reading also the links and the canonical URL."""

    __slots__ = ("canonical", "links")

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.links: tuple[str, ...] = ()
        self.canonical: str | None = None

    def __call__(self, root: Any) -> None:
        super().__call__(root)
        bases = root.xpath("//base/@href")
        base = urljoin(self.url, str(bases[0]).strip()) if bases else self.url
        self.links = tuple(
            urljoin(base, str(href).strip()) for href in root.xpath("//a/@href | //area/@href")
        )
        for link in root.xpath("//link[@rel][@href]"):
            if "canonical" in str(link.get("rel")).lower().split():
                self.canonical = urljoin(base, str(link.get("href")).strip())
                break


class Fetcher:
    """The crawl's requests: one client, the guard, the fetch's timeouts and size cap."""

    def __init__(
        self,
        guard: Guard | None = None,
        timeouts: Timeouts | None = None,
        limits: Limits | None = None,
        client: Client | None = None,
    ) -> None:
        self.guard = guard or Guard.from_env()
        self.timeouts = timeouts or fetch_timeouts()
        self.limits = (limits or fetch_limits())._replace(max_redirects=1)
        self._client = client
        self._own = client is None

    def client(self) -> Client:
        if self._client is None:
            self._client = Client(guard=self.guard, headers={"Accept-Encoding": ACCEPT_ENCODING})
        return self._client

    def close(self) -> None:
        if self._own and self._client is not None:
            self._client.close()
            self._client = None

    def page(self, url: str) -> Got:
        """``url``'s page; any failure is the row's error, never raised."""
        try:
            got = self._download(url, self.limits)
        except _Redirected as hop:
            return Got(url, 301, url, redirect=hop.target)
        except WebtapError as exc:
            return Got(url, error_code=exc.code, error=_said(exc))
        try:
            return self._read(url, got)
        except WebtapError as exc:
            return Got(url, got.status, got.url, error_code=exc.code, error=_said(exc))

    def text(self, url: str, max_bytes: int) -> tuple[int, bytes]:
        """``(status, body)`` of a file (robots.txt, a sitemap), redirects followed; the body
        is cut at ``max_bytes``. Raises a :class:`WebtapError` when no answer came."""
        limits = self.limits._replace(max_body=max_bytes, max_redirects=5)
        accept = {"Accept": "application/xml, text/xml, text/plain, */*;q=0.5"}
        got = self._get(url, limits, headers=accept, whole=False)
        return got.status, got.body

    def site_rules(self, url: str) -> SiteRules:
        """The robots.txt of ``url``'s origin; one that cannot be read allows everything."""
        where = robots_url(url)
        try:
            status, body = self.text(where, ROBOTS_BYTES)
        except WebtapError as exc:
            unreadable = NetworkError(exc.message)
            return SiteRules(_allow_all(where, unreadable), None, ())
        text = body.decode("utf-8", errors="replace").lstrip("\ufeff")
        rules = read_rules(status, text, where)
        if not 200 <= status < 300:
            return SiteRules(rules, None, ())
        return SiteRules(rules, *_delay_and_sitemaps(text, where))

    def _download(self, url: str, limits: Limits) -> Download:
        def permit(hop: str) -> None:
            if hop != url:  # a redirect: the crawl queues it instead
                raise _Redirected(hop)

        return self._get(url, limits, permit=permit)

    def _get(
        self,
        url: str,
        limits: Limits,
        *,
        headers: dict[str, str] | None = None,
        permit: Any = None,
        whole: bool = True,
    ) -> Download:
        """One GET as a fetch's session makes it (:func:`webtap.fetch.redirects.follow`, its
        errors translated as a fetch's): this fetcher is the session, each request with its
        own deadline and permit, so that the crawl's threads share no state."""
        deadline = Deadline(self.timeouts.total)
        with fetch_errors(deadline, self.timeouts):
            return follow(
                self,
                url,
                headers=headers,
                conditions=None,
                limits=limits,
                deadline=deadline,
                permit=permit,
                whole=whole,
            )

    def _read(self, url: str, got: Download) -> Got:
        if got.status in (429, 503):
            wait = retry_after(got.headers)
            message = f"HTTP {got.status}: the site asked to wait, and kept asking"
            return Got(url, got.status, got.url, None, UNSAID_WAIT if wait is None else wait,
                       error_code=HTTPError.code, error=message)  # fmt: skip
        converted, seen = None, _Reading(got.url)
        if got.status < 400:
            converted = convert_body(
                got.body, got.content_type, got.url, main_content=True, inspect=seen
            )
            converted = with_language(converted, got.headers)
        verdict = judge(got, converted, seen)
        if not verdict.ok:
            raise refusal(verdict, got)
        assert converted is not None
        canonical = seen.canonical or _header_canonical(got)
        return Got(
            url,
            got.status,
            got.url,
            title=converted.title,
            content=converted.markdown,
            metadata=converted.metadata,
            links=seen.links,
            canonical=canonical,
        )


def _header_canonical(got: Download) -> str | None:
    found = _LINK_CANONICAL.search(got.headers.get("link", ""))
    return urljoin(got.url, found.group(1).strip()) if found else None


def _allow_all(where: str, exc: WebtapError) -> Rules:
    why = f"{where} could not be read ({exc.message}), so everything may be fetched"
    return Rules(where, "allow_all", why)


def _delay_and_sitemaps(text: str, where: str) -> tuple[float | None, tuple[str, ...]]:
    """Crawl-delay (else the spacing Request-rate asks for) for webtap's token, and the
    sitemaps named, made absolute."""
    if not re.search(r"(?i)crawl-delay|request-rate|sitemap", text):
        return None, ()
    parsed = Protego.parse(text)
    token = robots_token()
    delay = parsed.crawl_delay(token)
    rate = parsed.request_rate(token)
    if delay is None and rate is not None and rate.requests:
        delay = rate.seconds / rate.requests
    sitemaps = tuple(urljoin(where, str(url).strip()) for url in parsed.sitemaps)
    return (float(delay) if delay is not None else None), sitemaps


def _said(exc: WebtapError) -> str:
    return redact(exc.message)
