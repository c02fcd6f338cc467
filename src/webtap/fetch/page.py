"""Fetching a page: the steps from a URL to a :class:`Page`, in order.

1. The URL is checked (:mod:`webtap.fetch.urls`) and the settings read
   (:mod:`webtap.fetch.settings`).
2. The page cache is asked (:mod:`webtap.fetch.page_cache`): a fresh page is the answer, with
   no request and no HTTP stack imported.
3. The page is downloaded (:mod:`webtap.fetch.download`): over HTTP, redirects followed and
   every hop checked by the SSRF guard (:mod:`webtap.fetch.redirects`), a stale cached page
   asked for with a conditional request. A ``304`` serves the cached page.
4. The body is converted by its media type (:mod:`webtap.fetch.media`), controls and
   invisible characters taken out.
5. The page is kept in the cache when the server allows it.

Another way to get a page's bytes answers a :class:`~webtap.fetch.download.Download` as step 3
does; a judgement on the converted page (a block, a login wall) belongs between steps 4 and 5,
before anything is kept.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import TYPE_CHECKING, NamedTuple

from webtap.fetch.page_cache import page_cache
from webtap.fetch.settings import checked_mode, fetch_limits, fetch_mode, fetch_timeouts, max_body
from webtap.fetch.urls import check_url
from webtap.guard import Guard

if TYPE_CHECKING:
    from webtap.fetch.page_cache import StoredPage
    from webtap.net import Client, Limits, Timeouts

# webtap.net's client (and with it http.client) and the converters are imported only where a
# request is made: a page served from the cache costs no HTTP stack and no converter at all.

__all__ = ["Page", "fetch"]


class Page(NamedTuple):
    """A fetched page: where it ended up, its title, its Markdown and the media type read."""

    url: str
    title: str
    markdown: str
    media_type: str
    trimmed: bool = False
    """True when ``markdown`` is only the page's main content (see ``mode``)."""
    invisible_removed: int = 0
    """How many invisible characters were taken out of ``title`` and ``markdown``."""
    state: str = "content"
    """`webtap.convert.Document.state`: "empty" or "script_shell" when the page has no text."""


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
    :class:`webtap.net.Client` (with any transport); with it, names are checked by the client's
    own guard (if it has one), URLs that spell an address by ``guard`` as always. ``cache``:
    whether to use the converted-page cache (:mod:`webtap.fetch.page_cache`); by default only
    when webtap makes its own client, since a client of yours may see a different web than
    webtap's. A page is only ever cached after a fetch under the same guard policy (it is in
    the key), so an address the guard refuses is never served from the cache either.
    """
    url = check_url(url)
    mode = fetch_mode() if mode is None else checked_mode(mode)
    guard = guard or Guard.from_env()
    pages = page_cache() if (client is None if cache is None else cache) else None
    key = pages.key(url, mode, guard) if pages is not None else None
    hit = pages.lookup(key, max_body(limits)) if pages is not None else None
    if hit is not None and hit.fresh:
        return _from_cache(hit.page, url)

    # Only now: a page from the cache needs no HTTP stack and no converter.
    from webtap.fetch.download import download
    from webtap.fetch.media import convert_body
    from webtap.net import Deadline

    timeouts = timeouts or fetch_timeouts()
    deadline = Deadline(timeouts.total)
    limits = limits or fetch_limits()
    conditions = hit.page.conditions() if hit is not None else None
    got = download(url, timeouts, deadline, limits, guard, client, conditions)
    if pages is not None and hit is not None and got.status == HTTPStatus.NOT_MODIFIED:
        pages.refresh(key, hit.page, got.headers)
        return _from_cache(hit.page, url)
    converted = convert_body(
        got.body, got.content_type, got.url, main_content=mode == "main", deadline=deadline
    )
    if pages is not None:
        pages.remember(key, mode, guard, got, converted)
    return Page(got.url, *converted)


def _from_cache(page: StoredPage, url: str) -> Page:
    return Page(
        page.url_for(url),
        page.title,
        page.markdown,
        page.media_type,
        page.trimmed,
        page.invisible_removed,
    )
