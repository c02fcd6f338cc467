"""One spelling per page: the URL a crawl fetches, the key it knows a page by, and the pattern
its trap bound counts.

Peers' trackers show the same duplicates again and again: ``www.`` and the bare host, a
trailing slash, tracking and session parameters, parameters in another order, a fragment. So:

- :func:`normalise` gives the URL to fetch: scheme and host in lower case, the default port
  and the fragment dropped, ``.`` and ``..`` segments resolved, percent-escapes in upper case,
  tracking and session parameters (:data:`DROPPED`, ``utm_*``) and ``;jsessionid=`` path
  parameters dropped, the other query parameters sorted by key (their order kept within a key);
- :func:`page_key` is what two spellings of one page share: the normalised URL without a
  leading ``www.`` and without a trailing slash (a site serves both, or redirects one to the
  other; never two different pages);
- :func:`pattern` is the URL with its numbers and long hex runs wildcarded and its query
  values dropped (``/calendar/{n}/{n}?view``): a calendar or a faceted search makes endless
  URLs of few patterns, and the crawl stops queueing a pattern past its limit.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, quote, unquote, urlencode, urljoin, urlsplit, urlunsplit

__all__ = [
    "DROPPED",
    "SKIPPED_EXTENSIONS",
    "normalise",
    "page_key",
    "pattern",
    "same_site",
    "skipped",
]

DROPPED = frozenset(
    {
        "gclid", "gclsrc", "dclid", "fbclid", "msclkid", "yclid", "twclid", "igshid",
        "mc_cid", "mc_eid", "_ga", "_gl", "_hsenc", "_hsmi", "mkt_tok", "wickedid",
        "sessionid", "session_id", "jsessionid", "phpsessid", "sid", "aspsessionid",
        "cfid", "cftoken", "s_cid", "ref_src",
    }
)  # fmt: skip
_DROPPED_PREFIXES = ("utm_", "pk_", "mtm_", "hsa_")
_PATH_SESSION = re.compile(r";(?:jsessionid|phpsessid|sid|sessionid)=[^/?#;]*", re.IGNORECASE)
_ESCAPE = re.compile(r"%[0-9a-fA-F]{2}")
_DEFAULT_PORTS = {"http": 80, "https": 443}
# Links to files that are not pages: not queued (Scrapy's IGNORED_EXTENSIONS, less PDF, which
# webtap reads).
_EXTENSIONS = """7z 7zip apk bz2 cdr dmg ico iso jar rar tar tgz gz pea xz zip mng pct bmp gif jpg
jpeg png pst psp tif tiff ai drw dxf eps ps svg webp avif heic mp3 wma ogg wav ra aac mid au aiff
3gp asf asx avi mov mp4 mpg qt rm swf wmv m4a m4v flv webm xls xlsx ppt pptx pps doc docx odt ods
odg odp css exe bin rss deb rpm msi woff woff2 ttf otf eot js mjs map"""
SKIPPED_EXTENSIONS = frozenset(_EXTENSIONS.split())


def normalise(url: str, base: str | None = None) -> str | None:
    """``url`` (made absolute against ``base``) in its one spelling; None when it is not an
    http(s) URL a crawl can fetch."""
    try:
        absolute = urljoin(base, url.strip()) if base else url.strip()
        parts = urlsplit(absolute)
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").rstrip(".").lower()
    if scheme not in _DEFAULT_PORTS or not host:
        return None
    if ":" in host:
        host = f"[{host}]"
    netloc = host if port in (None, _DEFAULT_PORTS[scheme]) else f"{host}:{port}"
    path = _PATH_SESSION.sub("", parts.path) or "/"
    path = _escapes(_resolved(path))
    query = _query(parts.query)
    return urlunsplit((scheme, netloc, path, query, ""))


def page_key(url: str) -> str:
    """What every spelling of ``url``'s page shares (``url`` normalised already)."""
    parts = urlsplit(url)
    host = parts.netloc.removeprefix("www.")
    path = parts.path.rstrip("/") or "/"
    return urlunsplit(("", host, path, parts.query, ""))


def same_site(host: str, other: str) -> bool:
    """Whether two host names are one site's: equal but for a leading ``www.``."""
    return host.removeprefix("www.") == other.removeprefix("www.")


def pattern(url: str) -> str:
    """``url``'s shape: numbers and long hex runs as ``{n}``, query keys without their values."""
    parts = urlsplit(url)
    shape = re.sub(r"[0-9a-f]{12,}|\d+", "{n}", parts.path.lower())
    keys = sorted({key for key, _ in parse_qsl(parts.query, keep_blank_values=True)})
    return shape + ("?" + "&".join(keys) if keys else "")


def skipped(url: str) -> bool:
    """A link to a file that is not a page (an image, an archive, a stylesheet)."""
    last = urlsplit(url).path.rsplit("/", 1)[-1]
    return "." in last and last.rsplit(".", 1)[1].lower() in SKIPPED_EXTENSIONS


def _resolved(path: str) -> str:
    if "/." not in path:
        return path
    resolved = urljoin("http://x" + ("" if path.startswith("/") else "/"), path)
    return urlsplit(resolved).path or "/"


def _escapes(path: str) -> str:
    """Escapes in upper case, unreserved characters unescaped, spaces and the like escaped."""
    unescaped = _ESCAPE.sub(lambda m: _unreserved(m.group(0)), path)
    return quote(unescaped, safe="/%:@!$&'()*+,;=-._~")


def _unreserved(escape: str) -> str:
    char = unquote(escape)
    if char.isascii() and (char.isalnum() or char in "-._~"):
        return char
    return escape.upper()


def _query(query: str) -> str:
    if not query:
        return ""
    pairs = [
        (key, value)
        for key, value in parse_qsl(query, keep_blank_values=True)
        if key.lower() not in DROPPED and not key.lower().startswith(_DROPPED_PREFIXES)
    ]
    pairs.sort(key=lambda pair: pair[0])  # stable: a key's values keep their order
    return urlencode(pairs, quote_via=quote, safe="/:@!$'()*+,;-._~")
