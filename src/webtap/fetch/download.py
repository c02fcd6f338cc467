"""Getting a page's bytes: what any way of getting a page answers (:class:`Download`), and the
HTTP way (:func:`download`): webtap's client with the guard and no proxy, redirects followed
(:mod:`webtap.fetch.redirects`), errors told apart by which limit was reached.

Another way to get a page (a browser) answers a :class:`Download` too, and the rest of the
fetch (conversion, the page cache) does not need to know which way it came.
"""

from __future__ import annotations

from contextlib import contextmanager
from http import HTTPStatus
from typing import TYPE_CHECKING, NamedTuple

from webtap.errors import NetworkError
from webtap.fetch.settings import CONNECT_TIMEOUT_ENV, FETCH_TIMEOUT_ENV

if TYPE_CHECKING:
    from collections.abc import Iterator

    from webtap.fetch.page_cache import Conditions
    from webtap.guard import Guard
    from webtap.net import Client, Deadline, Limits, Timeouts

__all__ = ["WHAT", "Download", "download"]

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


def download(
    url: str,
    timeouts: Timeouts,
    deadline: Deadline,
    limits: Limits,
    guard: Guard,
    client: Client | None = None,
    conditions: Conditions | None = None,
) -> Download:
    """GET ``url`` over HTTP within ``deadline``, with ``client`` or one of webtap's own."""
    from webtap.fetch.redirects import follow
    from webtap.net import ACCEPT_ENCODING, Client

    own_client = client is None
    if client is None:
        # No proxy, ever: through one the guard would see only the proxy's address.
        client = Client(guard=guard, headers={"Accept-Encoding": ACCEPT_ENCODING})
    try:
        with _fetch_errors(deadline, timeouts):
            return follow(client, url, guard, deadline, timeouts, limits, conditions)
    finally:
        if own_client:
            client.close()


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
