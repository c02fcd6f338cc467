"""Fetching a URL as Markdown: the ``web_fetch`` tool's library.

:func:`fetch` takes a URL to a :class:`Page` (final URL, title, Markdown): it checks the URL,
follows redirects itself (every hop checked by the SSRF guard), reads the body within a size cap
and an overall deadline, and hands it to :mod:`webtap.content`, which decodes it and turns it
into Markdown by its media type (an HTML page's main content unless ``WEBTAP_FETCH_MODE=page``).
Converted pages are kept in :mod:`webtap.page_cache`, so paging through a page is one request;
a stale one is revalidated with a conditional request. :func:`paginate` cuts the Markdown into
lines, and :func:`web_fetch` is the tool handler that puts the two together.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from http import HTTPStatus
from typing import TYPE_CHECKING, Any, NamedTuple
from urllib.parse import urldefrag, urlsplit

from webtap.content import Converted, convert_body
from webtap.errors import ConfigError, HTTPError, InvalidInput, NetworkError, clip
from webtap.guard import AddressRefused, Guard
from webtap.page_cache import (
    Hit,
    PageCache,
    StoredPage,
    kept_headers,
    page_cache,
    refreshed,
    stored_page,
)
from webtap.urls import check_url, parsed_url, redirect_target, with_fragment

if TYPE_CHECKING:
    from collections.abc import Iterator

    from webtap.net import Client, Deadline, Limits, Response, Timeouts
    from webtap.net.url import Target

# webtap.net's client (and with it http.client) is imported only where a request is made: a
# page served from the cache costs no HTTP stack at all.

__all__ = [
    "CONNECT_TIMEOUT_ENV",
    "FETCH_TIMEOUT_ENV",
    "MAX_BYTES_ENV",
    "MODES",
    "MODE_ENV",
    "Page",
    "fetch",
    "fetch_limits",
    "fetch_mode",
    "fetch_timeouts",
    "paginate",
    "split_lines",
    "web_fetch",
]

CONNECT_TIMEOUT_ENV = "WEBTAP_CONNECT_TIMEOUT"
FETCH_TIMEOUT_ENV = "WEBTAP_FETCH_TIMEOUT"
MAX_BYTES_ENV = "WEBTAP_MAX_BYTES"
MODE_ENV = "WEBTAP_FETCH_MODE"
MODES = ("main", "page")  # the page's main content, or the whole page

DEFAULT_CONNECT_TIMEOUT = 10.0
DEFAULT_MAX_BYTES = 10 * 1024 * 1024  # net.Limits().max_body, without importing webtap.net
DEFAULT_FETCH_TIMEOUT = 30.0

WHAT = "Failed to fetch URL"
ACCEPT = (
    "text/html,application/xhtml+xml,text/markdown;q=0.9,text/plain;q=0.8,"
    "application/json;q=0.8,*/*;q=0.5"
)
REDIRECT_STATUSES = {301, 302, 303, 307, 308}


class Page(NamedTuple):
    """A fetched page: where it ended up, its title, its Markdown and the media type read."""

    url: str
    title: str
    markdown: str
    media_type: str
    trimmed: bool = False
    """True when ``markdown`` is only the page's main content (see ``mode``)."""
    state: str = "content"
    """`webtap.convert.Document.state`: "empty" or "script_shell" when the page has no text."""


def fetch_timeouts() -> Timeouts:
    """Connect timeout and overall deadline, from the environment or the defaults."""
    from webtap.net import Timeouts
    from webtap.settings import env_float

    total = env_float(FETCH_TIMEOUT_ENV, DEFAULT_FETCH_TIMEOUT)
    connect = env_float(CONNECT_TIMEOUT_ENV, DEFAULT_CONNECT_TIMEOUT)
    return Timeouts(connect=min(connect, total), read=total, total=total)


def fetch_mode() -> str:
    """``WEBTAP_FETCH_MODE``: ``"main"`` (the default) or ``"page"``; else a ConfigError."""
    raw = os.environ.get(MODE_ENV, "").strip()
    if not raw:
        return MODES[0]
    if raw.lower() in MODES:
        return raw.lower()
    raise ConfigError(
        f"{MODE_ENV} must be 'main' (an HTML page's main content) or 'page' (the whole page), "
        f"got {clip(raw)!r}; fix it, or unset it to use the default (main)"
    )


def _checked_mode(mode: str) -> str:
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    return mode


def fetch_limits() -> Limits:
    """Size cap (decoded bytes) and redirect limit, from the environment or the defaults."""
    from webtap.net import Limits
    from webtap.settings import env_int

    default = Limits()
    return Limits(max_body=env_int(MAX_BYTES_ENV, default.max_body, "bytes"))


# --- Fetching --------------------------------------------------------------------------------


class _Response(NamedTuple):
    url: str  # as reported: the final URL with the fragment rule applied
    content_type: str
    body: bytes
    headers: dict[str, str]  # the ones the page cache reads
    status: int = HTTPStatus.OK
    final_url: str | None = None  # without fragment, when redirected
    final_fragment: str = ""  # the last redirect's own fragment


def fetch(
    url: str,
    *,
    mode: str | None = None,
    timeouts: Timeouts | None = None,
    limits: Limits | None = None,
    guard: Guard | None = None,
    client: Client | None = None,
    cache: bool | None = None,
) -> Page:
    """Fetch ``url`` and convert it to Markdown.

    ``mode`` is ``"main"`` (an HTML page's main content) or ``"page"`` (all of it); the default
    is :func:`fetch_mode`. Settings default to the environment (:func:`fetch_timeouts`,
    :func:`fetch_limits`, :meth:`Guard.from_env`). ``client`` is for embedders: a
    :class:`webtap.net.Client`; with it, names are checked by the client's own guard (if it
    has one), URLs that spell an address by ``guard`` as always. ``cache``: whether to use
    the converted-page cache (:mod:`webtap.page_cache`); by default only when webtap makes
    its own client, since a client of yours may see a different web than webtap's.
    """
    url = check_url(url)
    mode = fetch_mode() if mode is None else _checked_mode(mode)
    guard = guard or Guard.from_env()
    _refuse_address(url, guard)  # an address the guard refuses now is never served, cached or not
    pages = page_cache() if (client is None if cache is None else cache) else None
    key = pages.key(url, mode, guard) if pages is not None else None
    hit = _lookup(pages, key, limits)
    if hit is not None and hit.fresh:
        return _from_cache(hit.page, url)
    from webtap.net import Deadline  # only now: a page from the cache needs no HTTP stack

    timeouts = timeouts or fetch_timeouts()
    deadline = Deadline(timeouts.total)
    limits = limits or fetch_limits()
    conditions = _conditions(hit.page) if hit is not None else None
    response = _download(url, timeouts, deadline, limits, guard, client, conditions)
    if hit is not None and response.status == HTTPStatus.NOT_MODIFIED:
        _refresh(pages, key, hit.page, response)
        return _from_cache(hit.page, url)
    converted = convert_body(
        response.body,
        response.content_type,
        response.url,
        main_content=mode == "main",
        deadline=deadline,
    )
    if pages is not None and key is not None:
        _remember(pages, key, mode, guard, response, converted)
    return Page(response.url, *converted)


def _download(
    url: str,
    timeouts: Timeouts,
    deadline: Deadline,
    limits: Limits,
    guard: Guard,
    client: Client | None,
    conditions: _Conditions | None,
) -> _Response:
    from webtap.net import ACCEPT_ENCODING, Client

    own_client = client is None
    if client is None:
        # No proxy, ever: through one the guard would see only the proxy's address.
        client = Client(guard=guard, headers={"Accept-Encoding": ACCEPT_ENCODING})
    try:
        with _fetch_errors(deadline, timeouts):
            return _get(client, url, guard, deadline, timeouts, limits, conditions)
    finally:
        if own_client:
            client.close()


# --- The page cache --------------------------------------------------------------------------


class _Conditions(NamedTuple):
    """A conditional request for a cached page: its validators, sent only to the URL whose
    response carried them (``final_url``; None: the requested URL itself)."""

    final_url: str | None
    headers: dict[str, str]


def _lookup(pages: PageCache | None, key: str | None, limits: Limits | None) -> Hit | None:
    if pages is None or key is None:
        return None
    hit = pages.lookup(key)
    if hit is not None and hit.page.size > _max_body(limits):
        return None  # kept under a larger WEBTAP_MAX_BYTES: fetch again, to the same error
    return hit


def _conditions(page: StoredPage) -> _Conditions | None:
    validators = page.validators()
    return _Conditions(page.final_url, validators) if validators else None


def _from_cache(page: StoredPage, url: str) -> Page:
    return Page(page.url_for(url), page.title, page.markdown, page.media_type, page.trimmed)


def _refresh(
    pages: PageCache | None, key: str | None, page: StoredPage, response: _Response
) -> None:
    """A 304 said the cached page is still right: keep it, under the 304's headers."""
    if pages is None or key is None:
        return
    renewed = refreshed(page, response.headers)
    if renewed is None:
        pages.delete(key)
    else:
        pages.store(key, renewed)


def _remember(
    pages: PageCache,
    key: str,
    mode: str,
    guard: Guard,
    response: _Response,
    converted: Converted,
) -> None:
    """Keep a converted page, if it was a complete success the server lets us keep."""
    if response.status not in _STORED_STATUSES or converted.state != "content":
        return
    stored = stored_page(
        *converted[:4],
        size=len(response.body),
        headers=response.headers,
        final_url=response.final_url,
        final_fragment=response.final_fragment,
    )
    if stored is None:  # no-store: an older copy must not outlive the server's wish either
        pages.delete(key)
        return
    final_key = pages.key(response.final_url, mode, guard) if response.final_url else None
    if response.final_url and final_key is None:
        return  # redirected to a URL with a password: keep nothing of it
    pages.store(key, stored, final_key)


_STORED_STATUSES = {HTTPStatus.OK, HTTPStatus.NON_AUTHORITATIVE_INFORMATION}


def _max_body(limits: Limits | None) -> int:
    """The size cap, without importing the HTTP stack when the setting is left alone."""
    if limits is not None:
        return limits.max_body
    if os.environ.get(MAX_BYTES_ENV, "").strip():
        return fetch_limits().max_body
    return DEFAULT_MAX_BYTES


def _refuse_address(url: str, guard: Guard) -> None:
    try:
        guard.check_host(urlsplit(url).hostname or "")
    except AddressRefused as exc:
        raise exc.for_url(url) from None
    except ValueError:
        pass  # a malformed host: parsing the URL says what is wrong with it


def _get(
    client: Client,
    url: str,
    guard: Guard,
    deadline: Deadline,
    timeouts: Timeouts,
    limits: Limits,
    conditions: _Conditions | None = None,
) -> _Response:
    """GET ``url``, following at most ``limits.max_redirects`` redirects, each one checked.

    With ``conditions``, the hop they belong to is a conditional request, and its ``304`` is
    returned as such (with no body). Cookies a hop sets go back to the same host on later hops.
    """
    from webtap.net import read_body
    from webtap.net.cookies import RedirectCookies

    hop = url  # this hop's URL as written: the caller's, then each Location made absolute
    visited: list[str] = []
    cookies = RedirectCookies()
    for _ in range(limits.max_redirects + 1):
        target = _checked(hop, guard)
        plain = urldefrag(hop).url
        headers = {"Accept": ACCEPT}
        asking = conditions is not None and (
            plain == conditions.final_url if conditions.final_url else not visited
        )
        if asking:
            headers.update(conditions.headers)
        path = target.target.split("?")[0]
        cookie = cookies.header(target.host, path, target.scheme == "https")
        if cookie:
            headers["Cookie"] = cookie
        try:
            with client.request(
                "GET",
                hop,
                headers=headers,
                deadline=deadline,
                connect_timeout=timeouts.connect,
                read_timeout=timeouts.read,
            ) as r:
                cookies.learn(target.host, path, r.set_cookies)
                location = r.headers.get("location")
                if r.status in REDIRECT_STATUSES and location:
                    visited.append(plain)
                    hop = redirect_target(hop, location)
                    continue
                if r.status >= 400:
                    raise HTTPError(_status_line(r))
                not_modified = asking and r.status == HTTPStatus.NOT_MODIFIED
                body = b"" if not_modified else read_body(r, limits.max_body, deadline)
        except AddressRefused as exc:  # from the connection layer, which knows no URLs
            raise exc.for_url(hop) from None
        final = with_fragment(plain, hop, url) if visited else url
        return _Response(
            final,
            r.headers.get("content-type", ""),
            body,
            status=r.status,
            headers=kept_headers(r.headers),
            final_url=plain if visited else None,
            final_fragment=urlsplit(hop).fragment if visited else "",
        )
    loop = " (a redirect loop)" if urldefrag(hop).url in visited else ""
    raise HTTPError(
        f"Too many redirects: {clip(url)} was redirected more than {limits.max_redirects} "
        f"times{loop}"
    )


def _checked(url: str, guard: Guard) -> Target:
    """``url`` parsed, once the guard has seen its host as written.

    The guard looks first: parsing rejects some spellings of addresses that the system
    resolver accepts, and "refused, because it is a loopback address" says more.
    """
    try:
        guard.check_host(urlsplit(url).hostname or "")
    except AddressRefused as exc:
        raise exc.for_url(url) from None
    return parsed_url(url)


def _status_line(response: Response) -> str:
    """``"HTTP 404: Not Found"``: the server's own reason phrase, else the standard one."""
    status = response.status
    reason = " ".join("".join(ch for ch in response.reason if ch.isprintable()).split())[:200]
    if not reason:
        try:
            reason = HTTPStatus(status).phrase
        except ValueError:
            return f"HTTP {status}"
    return f"HTTP {status}: {reason}"


@contextmanager
def _fetch_errors(deadline: Deadline, timeouts: Timeouts) -> Iterator[None]:
    """Transport errors as webtap's, with timeouts told apart: the deadline or the connect limit."""
    from webtap.net import ConnectTimeout, ReadTimeout, translate_errors

    with translate_errors(WHAT):
        try:
            yield
        except (ConnectTimeout, ReadTimeout, TimeoutError) as exc:
            if deadline.remaining() < 0.05:  # a timeout this close to the end is the deadline
                raise NetworkError(
                    f"{WHAT}: no complete response within {deadline.seconds:g} s "
                    f"(the overall deadline; set {FETCH_TIMEOUT_ENV} to allow more seconds)"
                ) from None
            if isinstance(exc, ConnectTimeout):
                raise NetworkError(
                    f"{WHAT}: connection timed out after {timeouts.connect:g} s "
                    f"(set {CONNECT_TIMEOUT_ENV} to allow more seconds)"
                ) from None
            raise


def split_lines(markdown: str) -> list[str]:
    """The Markdown's lines, each with its ``\\n`` (the last may lack one).

    Only ``\\n`` ends a line: ``str.splitlines`` would also split on form feeds and other
    characters that text pages contain, and the counts would not match what a reader sees.
    """
    lines = markdown.split("\n")
    last = lines.pop()
    out = [line + "\n" for line in lines]
    if last:
        out.append(last)
    return out


def paginate(markdown: str, offset: int = 1, limit: int | None = None) -> tuple[str, int]:
    """``(content, total_lines)``: ``limit`` lines of ``markdown`` from line ``offset`` (1-based).

    An offset past the end gives empty content; a limit past the end gives the rest. The pages
    put together are the whole Markdown again.
    """
    if offset < 1:
        raise InvalidInput(f"Invalid input: field 'offset' must be >= 1 (got {offset})")
    if limit is not None and limit < 1:
        raise InvalidInput(f"Invalid input: field 'limit' must be >= 1 (got {limit})")
    lines = split_lines(markdown)
    if offset == 1 and limit is None:
        return markdown, len(lines)
    end = None if limit is None else offset - 1 + limit
    return "".join(lines[offset - 1 : end]), len(lines)


def web_fetch(request: dict[str, Any], *, full_page: bool = False) -> dict[str, Any]:
    """The ``web_fetch`` tool: fetch ``url`` and return lines ``offset``.. of its Markdown.

    ``full_page`` asks for the whole page whatever ``WEBTAP_FETCH_MODE`` says (MCP's
    ``full_page``, ``webtap fetch --full``). When the Markdown is only the page's main content,
    the response says so with ``"content_mode": "main"``.
    """
    page = fetch(request["url"], mode="page" if full_page else None)
    content, total = paginate(page.markdown, request.get("offset", 1), request.get("limit"))
    response: dict[str, Any] = {
        "success": True,
        "url": page.url,
        "title": page.title,
        "content": content,
        "total_lines": total,
    }
    if page.trimmed:
        response["content_mode"] = "main"
    if page.state != "content":
        from webtap.convert import STATE_NOTES

        response["page_state"] = f"{page.state}: {STATE_NOTES[page.state]}"
    return response
