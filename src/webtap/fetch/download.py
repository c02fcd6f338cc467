"""Getting a page's bytes: what any way of getting a page answers (:class:`Download`), and the
HTTP way (:func:`download`): webtap's client with the guard and no proxy, redirects followed
(:mod:`webtap.fetch.redirects`), errors told apart by which limit was reached.

Another way to get a page (a browser) answers a :class:`Download` too, and the rest of the
fetch (conversion, the verdict, the page cache) does not need to know which way it came. An
answer with a status of 400 or more is a :class:`Download` as well: the verdict says what it
is (a bot wall's 403, a plain 404).

One fetch may make several requests (robots.txt, the page, the page's Markdown version): a
:class:`Session` gives them one client and one deadline, each made when first needed, so that
a fetch answered from the caches makes neither.
"""

from __future__ import annotations

from contextlib import contextmanager
from http import HTTPStatus
from typing import TYPE_CHECKING, NamedTuple

from webtap.errors import NetworkError
from webtap.settings import CONNECT_TIMEOUT, FETCH_TIMEOUT

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

    from webtap.fetch.page_cache import Conditions
    from webtap.fetch.redirects import Permit
    from webtap.guard import Guard
    from webtap.net import Client, Deadline, Limits, Timeouts

__all__ = ["WHAT", "Download", "Session", "download"]

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


class Session:
    """The requests of one fetch: its guard, its timeouts (default: the environment's), and
    the client and deadline they share, each made on first use (``client``: an embedder's
    own, kept open)."""

    __slots__ = ("_client", "_deadline", "_own", "_timeouts", "guard")

    def __init__(
        self, guard: Guard, timeouts: Timeouts | None = None, client: Client | None = None
    ) -> None:
        self.guard = guard
        self._timeouts = timeouts
        self._client = client
        self._own = client is None
        self._deadline: Deadline | None = None

    @property
    def timeouts(self) -> Timeouts:
        if self._timeouts is None:
            from webtap.fetch.settings import fetch_timeouts

            self._timeouts = fetch_timeouts()
        return self._timeouts

    def client(self) -> Client:
        if self._client is None:
            from webtap.net import ACCEPT_ENCODING, Client

            # No proxy, ever: through one the guard would see only the proxy's address.
            self._client = Client(guard=self.guard, headers={"Accept-Encoding": ACCEPT_ENCODING})
        return self._client

    def deadline(self) -> Deadline:
        """The fetch's one deadline (``timeouts.total``), from its first request on."""
        if self._deadline is None:
            from webtap.net import Deadline

            self._deadline = Deadline(self.timeouts.total)
        return self._deadline

    def close(self) -> None:
        if self._own and self._client is not None:
            self._client.close()
            self._client = None

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def download(
    url: str,
    timeouts: Timeouts,
    deadline: Deadline,
    limits: Limits,
    guard: Guard,
    client: Client | None = None,
    conditions: Conditions | None = None,
    *,
    headers: Mapping[str, str] | None = None,
    permit: Permit | None = None,
    whole: bool = True,
) -> Download:
    """GET ``url`` over HTTP within ``deadline``, with ``client`` or one of webtap's own
    (``headers``, ``permit`` and ``whole``: see :func:`webtap.fetch.redirects.follow`)."""
    from webtap.fetch.redirects import follow

    with Session(guard, timeouts, client) as session, _fetch_errors(deadline, timeouts):
        return follow(
            session.client(),
            url,
            guard,
            deadline,
            timeouts,
            limits,
            conditions,
            headers=headers,
            permit=permit,
            whole=whole,
        )


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
                    f"(the overall deadline; set {FETCH_TIMEOUT.name} to allow more seconds)"
                ) from None
            if isinstance(exc, ConnectTimeout):
                raise NetworkError(
                    f"{WHAT}: connection timed out after {timeouts.connect:g} s "
                    f"(set {CONNECT_TIMEOUT.name} to allow more seconds)"
                ) from None
            raise
