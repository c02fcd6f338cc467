"""Fetching a URL as Markdown: the ``web_fetch`` tool's library.

    >>> from webtap.fetch import fetch, paginate
    >>> page = fetch("https://example.com/")            # doctest: +SKIP
    >>> content, total_lines = paginate(page.markdown, offset=1, limit=100)  # doctest: +SKIP

One module per step of a fetch, in the order :func:`fetch` takes them (:mod:`.page`):

- :mod:`.urls`: which URLs are followed, and where a redirect goes;
- :mod:`.settings`: the mode, the deadline, the size cap, from the environment;
- :mod:`.page_cache`: converted pages kept, so that paging through one is one request;
- :mod:`.session`: the fetch's settings in one :class:`~webtap.fetch.session.Session`, whose
  ``get`` gets a page's bytes (:class:`~webtap.fetch.download.Download`) over HTTP with
  webtap's client (:mod:`.redirects` follows them, the SSRF guard checking every hop) and
  whose ``convert`` converts them;
- :mod:`.media`: the bytes to Markdown by media type and charset, without controls or
  invisible characters;
- :mod:`.paging`: the Markdown cut into lines; :mod:`.tool`: the ``web_fetch`` handler;
- :mod:`.given`: the text a model is given for a URL (:func:`~webtap.fetch.given.text_of`;
  not imported here, so that a fetch does not load the snapshots' SQLite), what its quotes are
  checked against.

The HTTP itself is :mod:`webtap.net`'s (its transport checks every address it connects to), and
HTML to Markdown is :mod:`webtap.convert`'s.
"""

from __future__ import annotations

from webtap.fetch.page import Page, fetch
from webtap.fetch.paging import paginate, split_lines
from webtap.fetch.settings import (
    DEFAULT_MAX_BYTES,
    MODES,
    fetch_limits,
    fetch_mode,
    fetch_timeouts,
)
from webtap.fetch.tool import web_fetch
from webtap.fetch.urls import check_url

__all__ = [
    "DEFAULT_MAX_BYTES",
    "MODES",
    "Page",
    "check_url",
    "fetch",
    "fetch_limits",
    "fetch_mode",
    "fetch_timeouts",
    "paginate",
    "split_lines",
    "web_fetch",
]
