"""What any way of getting a page answers: its bytes and what came with them (:class:`Download`).

Over HTTP, a :class:`~webtap.fetch.session.Session` gets one (:meth:`Session.get
<webtap.fetch.session.Session.get>`, redirects followed by :mod:`webtap.fetch.redirects`);
another way to get a page (a browser, :mod:`webtap.fetch.render`) answers a :class:`Download`
too, and the rest of the fetch (conversion, the verdict, the page cache) does not need to know
which way it came. An answer with a status of 400 or more is a :class:`Download` as well: the
verdict says what it is (a bot wall's 403, a plain 404).
"""

from __future__ import annotations

from http import HTTPStatus
from typing import NamedTuple

__all__ = ["WHAT", "Download"]

WHAT = "Failed to fetch URL"


class Download(NamedTuple):
    """A page's bytes and what came with them."""

    url: str  # as reported: the final URL, with the fragment rule applied
    content_type: str
    body: bytes
    headers: dict[str, str]  # names in lower case
    status: int = HTTPStatus.OK
    final_url: str | None = None  # without fragment, when redirected
    final_fragment: str = ""  # the last redirect's own fragment
    reason: str = ""  # the server's reason phrase (printable), for "HTTP 404: Not Found"
