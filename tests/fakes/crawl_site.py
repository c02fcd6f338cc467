"""A generated web site with every trap a crawler meets, on 127.0.0.1 (issue 31).

    with TrapSite.running(docs=20, delay=0.2) as site:
        site.url("/")                   # the start page
        site.fetched()                  # {path: requests} for pages (robots.txt and sitemaps apart)

What it holds, and what a good crawler does with it:

- **duplicates**: ``/about`` linked as ``/about/``, ``/about#team``, ``/about?utm_source=..``,
  ``HTTP://127.0.0.1:PORT/about``; ``/docs/page-N?b=2&a=1`` and ``?a=1&b=2`` (one URL, whose
  content is ``/docs/page-N``'s: the same content under two URLs); ``/print/about``, ``/about``'s
  content again; ``/blog/post-N;jsessionid=..`` and ``?sessionid=..``;
- **sitemaps**: ``/sitemap.xml`` is an index naming a gzipped sitemap (``/sitemaps/pages.xml.gz``)
  and a plain one (``/sitemaps/docs.xml``); robots.txt alone names ``/hidden-sitemap.xml``, which
  lists ``/orphan/N``, pages no page links to;
- **robots.txt**: ``Disallow: /private/`` (linked from pages and listed in a sitemap), and a
  ``Crawl-delay`` when ``delay`` is given;
- **Retry-After**: ``/limited`` answers ``429`` with ``Retry-After: retry_after`` the first time;
- **a calendar**: ``/calendar/YYYY/M`` links the month before, the month after and the next year,
  without end;
- **another host**: links to ``http://localhost:PORT/...`` (the same server under another name:
  every request's ``Host`` is logged, so a request off the host shows);
- **rel=canonical**: ``/amp/post-N`` names ``/blog/post-N`` as its canonical page;
- **redirects**: ``/moved`` and ``/moved-too`` both redirect (301) to ``/target``.

:attr:`canonical_pages` is the set of paths a crawl should write, each once (the calendar
apart: it is bounded by the crawler's limits, not listed).
"""

from __future__ import annotations

import gzip
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, NamedTuple

__all__ = ["Request", "TrapSite"]

FILES = ("/robots.txt", "/sitemap.xml", "/sitemaps/pages.xml.gz", "/sitemaps/docs.xml",
         "/hidden-sitemap.xml", "/sitemap_index.xml")  # fmt: skip


class Request(NamedTuple):
    path: str
    host: str
    at: float  # time.monotonic() when it arrived


class TrapSite:
    def __init__(
        self, docs: int = 10, posts: int = 4, orphans: int = 3, delay: float | None = None,
        retry_after: float = 1.0, stall: float = 0.0,
    ) -> None:  # fmt: skip
        self.docs, self.posts, self.orphans = docs, posts, orphans
        self.delay, self.retry_after, self.stall = delay, retry_after, stall
        self.log: list[Request] = []
        self._lock = threading.Lock()
        site = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                with site._lock:
                    seen = Request(self.path, self.headers.get("Host", ""), time.monotonic())
                    site.log.append(seen)
                    first = sum(1 for r in site.log if r.path == self.path) == 1
                if site.stall and self.path not in FILES:
                    time.sleep(site.stall)
                status, headers, body = site.answer(self.path, first)
                self.send_response(status)
                for name, value in {"Content-Length": str(len(body)), **headers}.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @classmethod
    @contextmanager
    def running(cls, **kwargs: Any) -> Iterator[TrapSite]:
        site = cls(**kwargs)
        site.thread.start()
        try:
            yield site
        finally:
            site.server.shutdown()
            site.server.server_close()

    def url(self, path: str = "/", host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.port}{path}"

    # -- what the crawler did --------------------------------------------------------------------

    def pages(self) -> list[Request]:
        """Every request for a page (robots.txt and the sitemaps apart)."""
        with self._lock:
            return [r for r in self.log if r.path not in FILES]

    def fetched(self) -> Counter[str]:
        return Counter(r.path for r in self.pages())

    def off_host(self) -> list[Request]:
        with self._lock:
            return [r for r in self.log if not r.host.startswith("127.0.0.1")]

    @property
    def canonical_pages(self) -> set[str]:
        """The paths a crawl writes, each once (the calendar apart)."""
        return {
            "/", "/about", "/blog/", "/target", "/limited",
            *(f"/docs/page-{n}" for n in range(1, self.docs + 1)),
            *(f"/blog/post-{n}" for n in range(1, self.posts + 1)),
            *(f"/orphan/{n}" for n in range(1, self.orphans + 1)),
        }  # fmt: skip

    # -- the site --------------------------------------------------------------------------------

    def answer(self, path: str, first: bool) -> tuple[int, dict[str, str], bytes]:
        plain = path.split("?")[0].split(";")[0]
        if plain == "/robots.txt":
            delay = f"Crawl-delay: {self.delay}\n" if self.delay else ""
            text = (f"User-agent: *\nDisallow: /private/\n{delay}"
                    f"Sitemap: {self.url('/hidden-sitemap.xml')}\n")  # fmt: skip
            return 200, {"Content-Type": "text/plain"}, text.encode()
        if plain == "/sitemap.xml":
            named = [self.url("/sitemaps/pages.xml.gz"), self.url("/sitemaps/docs.xml")]
            return _xml(_index(named))
        if plain == "/sitemaps/pages.xml.gz":
            urls = ["/", "/about", *(f"/blog/post-{n}" for n in range(1, self.posts + 1))]
            body = gzip.compress(_urlset([self.url(u) for u in urls], lastmod="2024-05-01"))
            return 200, {"Content-Type": "application/gzip"}, body
        if plain == "/sitemaps/docs.xml":
            urls = [self.url(f"/docs/page-{n}") for n in range(1, self.docs + 1)]
            urls += [self.url("/docs/page-1?utm_source=sitemap"), self.url("/private/listed"),
                     self.url("/elsewhere", host="localhost")]  # fmt: skip
            return _xml(_urlset(urls))
        if plain == "/hidden-sitemap.xml":
            return _xml(_urlset([self.url(f"/orphan/{n}") for n in range(1, self.orphans + 1)]))
        if plain in ("/moved", "/moved-too"):
            return 301, {"Location": "/target"}, b""
        if plain == "/limited" and first:
            return 429, {"Retry-After": f"{self.retry_after:g}"}, b"slow down"
        body = self.page(plain)
        if body is None:
            return 404, {"Content-Type": "text/html"}, b"<title>Not found</title><h1>Not found</h1>"
        return 200, {"Content-Type": "text/html; charset=utf-8"}, body.encode()

    def page(self, path: str) -> str | None:
        links: list[str] = []
        head = ""
        if path == "/":
            title, text = "Home", "The home page of the trap site."
            links = ["/about", "/about/", "/about#team", "/about?utm_source=home&utm_medium=x",
                     self.url("/about").replace("http://", "HTTP://"), "/docs/page-1", "/blog/",
                     "/calendar/2024/1", "/private/secret", self.url("/offsite", host="localhost"),
                     "/moved", "/moved-too", "/limited", "/print/about", "/images/logo.png",
                     "mailto:someone@example.com"]  # fmt: skip
        elif path in ("/about", "/print/about"):
            title, text = "About", "Who we are, and why this site is full of traps."
            links = ["/", "/docs/page-1"]
        elif path.startswith("/docs/page-"):
            n = _number(path)
            if n is None or not 1 <= n <= self.docs:
                return None
            title, text = f"Docs {n}", f"Documentation page {n} explains part {n} of the system."
            if n < self.docs:
                links = [f"/docs/page-{n + 1}", f"/docs/page-{n + 1}?b=2&a=1",
                         f"/docs/page-{n + 1}?a=1&b=2"]  # fmt: skip
            links.append("/private/docs")
        elif path == "/blog/":
            title, text = "Blog", "All the posts of the blog, newest first."
            links = [f"/blog/post-{n};jsessionid=ABC123" for n in range(1, self.posts + 1)]
        elif path.startswith("/blog/post-"):
            n = _number(path)
            if n is None or not 1 <= n <= self.posts:
                return None
            title, text = f"Post {n}", f"Blog post number {n}, about something that happened."
            links = [f"/amp/post-{n}", f"/blog/post-{n}?sessionid=xyz", "/blog/"]
        elif path.startswith("/amp/post-"):
            n = _number(path)
            title, text = f"Post {n} (AMP)", f"The AMP version of post {n}, lighter."
            head = f'<link rel="canonical" href="/blog/post-{n}">'
        elif path.startswith("/calendar/"):
            parts = path.split("/")
            try:
                year, month = int(parts[2]), int(parts[3])
            except (IndexError, ValueError):
                return None
            title, text = f"{year}-{month:02d}", f"Nothing happens in {year}-{month:02d} either."
            before = (year - 1, 12) if month == 1 else (year, month - 1)
            after = (year + 1, 1) if month == 12 else (year, month + 1)
            links = [f"/calendar/{y}/{m}" for y, m in (before, after, (year + 1, month))]
        elif path in ("/target", "/limited", "/private/secret", "/private/docs", "/private/listed",
                      "/offsite", "/elsewhere") or path.startswith("/orphan/"):  # fmt: skip
            title, text = path.strip("/").title(), f"The page at {path}, with its own words."
        else:
            return None
        anchors = "".join(f'<li><a href="{link}">{link}</a></li>' for link in links)
        return (f"<!doctype html><html><head><title>{title}</title>{head}</head><body>"
                f"<main><h1>{title}</h1><p>{text}</p><p>{text} Twice, to be content.</p>"
                f"</main><nav><ul>{anchors}</ul></nav></body></html>")  # fmt: skip


def _number(path: str) -> int | None:
    try:
        return int(path.rsplit("-", 1)[1].strip("/"))
    except (IndexError, ValueError):
        return None


def _xml(body: bytes) -> tuple[int, dict[str, str], bytes]:
    return 200, {"Content-Type": "application/xml"}, body


def _urlset(urls: list[str], lastmod: str | None = None) -> bytes:
    mod = f"<lastmod>{lastmod}</lastmod>" if lastmod else ""
    items = "".join(f"<url><loc>{u.replace('&', '&amp;')}</loc>{mod}</url>" for u in urls)
    return (f'<?xml version="1.0" encoding="UTF-8"?><urlset xmlns='
            f'"http://www.sitemaps.org/schemas/sitemap/0.9">{items}</urlset>').encode()  # fmt: skip


def _index(urls: list[str]) -> bytes:
    items = "".join(f"<sitemap><loc>{u}</loc></sitemap>" for u in urls)
    schema = "http://www.sitemaps.org/schemas/sitemap/0.9"
    return f'<?xml version="1.0"?><sitemapindex xmlns="{schema}">{items}</sitemapindex>'.encode()
