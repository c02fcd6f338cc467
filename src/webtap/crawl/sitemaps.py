"""A site's sitemaps: the URLs they list and when each last changed, without fetching a page.

Where they are found: the ``Sitemap:`` lines of robots.txt and ``/sitemap.xml`` (else
``/sitemap_index.xml``). A sitemap index names more sitemaps, read in turn (at most
:data:`MAX_SITEMAPS`, at most :data:`MAX_NESTING` deep, each once). A sitemap may be gzipped
(by its bytes, whatever its name or type says), XML (``<urlset>``, ``<sitemapindex>``; an RSS
or Atom feed's links too) or plain text, one URL a line. The XML is read without entities or
network access (no XXE), and a gzipped one is expanded to 50 MB at most (the protocol's
limit), so a bomb stops there.
"""

from __future__ import annotations

import gzip
import io
import zlib
from collections.abc import Callable, Iterator
from typing import NamedTuple
from urllib.parse import urljoin, urlsplit

from lxml import etree

from webtap.errors import WebtapError

__all__ = ["MAX_NESTING", "MAX_SITEMAPS", "Listed", "listed_urls"]

MAX_SITEMAPS = 200
MAX_NESTING = 4
MAX_BYTES = 50 * 1024 * 1024  # a sitemap, expanded (sitemaps.org's limit)
FALLBACKS = ("/sitemap.xml", "/sitemap_index.xml")

Read = Callable[[str], "tuple[int, bytes]"]
"""``read(url) -> (status, body)``: a sitemap's bytes; raises ``WebtapError`` on no answer."""


class Listed(NamedTuple):
    """A URL a sitemap lists."""

    url: str
    lastmod: str | None
    source: str  # the sitemap that listed it


def listed_urls(start: str, named: tuple[str, ...], read: Read) -> Iterator[Listed]:
    """Every URL the sitemaps of ``start``'s site list: those robots.txt ``named`` and the
    usual places. Unreadable sitemaps are passed over."""
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(start))
    queue = [(url, 0) for url in named] + [(origin + FALLBACKS[0], 0)]
    seen: set[str] = set()
    while queue and len(seen) < MAX_SITEMAPS:
        where, depth = queue.pop(0)
        if where in seen:
            continue
        seen.add(where)
        body = _body(where, read)
        if body is None:
            if where == origin + FALLBACKS[0]:
                queue.append((origin + FALLBACKS[1], 0))  # the other usual place
            continue
        for kind, url, lastmod in _entries(body, where):
            if kind == "page":
                yield Listed(url, lastmod, where)
            elif depth < MAX_NESTING:
                queue.append((url, depth + 1))


def _body(where: str, read: Read) -> bytes | None:
    try:
        status, body = read(where)
    except WebtapError:
        return None
    if not 200 <= status < 300 or not body:
        return None
    if body[:2] == b"\x1f\x8b":
        try:
            return _gunzip(body)
        except (OSError, EOFError, zlib.error):
            return None
    return body


def _gunzip(body: bytes) -> bytes:
    with gzip.GzipFile(fileobj=io.BytesIO(body)) as stream:
        return stream.read(MAX_BYTES)


def _entries(body: bytes, where: str) -> Iterator[tuple[str, str, str | None]]:
    """``(kind, url, lastmod)`` of each entry: ``sitemap`` (an index's) or ``page``."""
    if body.lstrip()[:1] != b"<":
        for line in body.decode("utf-8", errors="replace").splitlines():
            if line.strip().startswith(("http://", "https://")):
                yield "page", line.strip(), None
        return
    parser = etree.XMLParser(resolve_entities=False, no_network=True, recover=True, huge_tree=False)
    try:
        root = etree.fromstring(body, parser)
    except etree.XMLSyntaxError:
        return
    if root is None:
        return
    index = etree.QName(root).localname.lower() == "sitemapindex"
    for element in root.iter("{*}url", "{*}sitemap", "{*}item", "{*}entry"):
        url = _child_text(element, "loc") or _child_text(element, "link") or _atom_link(element)
        if url:
            kind = "sitemap" if index or etree.QName(element).localname == "sitemap" else "page"
            lastmod = _child_text(element, "lastmod") or _child_text(element, "updated")
            yield kind, urljoin(where, url), lastmod


def _child_text(element: object, name: str) -> str | None:
    for child in element:  # type: ignore[attr-defined]
        tag = child.tag
        if isinstance(tag, str) and tag.rpartition("}")[2].lower() == name:
            text = (child.text or "").strip()
            return text or None
    return None


def _atom_link(element: object) -> str | None:
    for child in element:  # type: ignore[attr-defined]
        tag = child.tag
        if isinstance(tag, str) and tag.rpartition("}")[2] == "link" and child.get("href"):
            return str(child.get("href")).strip()
    return None
