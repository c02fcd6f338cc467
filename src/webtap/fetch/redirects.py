"""Following redirects: every hop checked by the SSRF guard, cookies carried, at most N hops.

:func:`follow` GETs a URL with a session's client (:meth:`Session.get
<webtap.fetch.session.Session.get>`) and follows 301, 302, 303, 307 and 308 itself. Each hop's
URL passes the guard here, once, before anything is sent to it (:func:`checked_hop`: an address
written in the URL, in any spelling); the client's transport checks every address a name
resolves to when it connects. A fetch the model chose also asks robots.txt about each hop
(``permit``) before it is sent. Cookies a hop sets go back to the same host on later hops
(:class:`webtap.net.cookies.RedirectCookies`). A conditional request for a cached page asks
only the hop whose response gave the validators. Transport errors become webtap's, a timeout
told apart by the limit it reached: the fetch's deadline or the connect timeout.

An answer with a status of 400 or more is returned, not raised: the fetch judges it
(:mod:`webtap.verdict`: a bot wall's 403 is ``BLOCKED``, a 404 an ``HTTP_ERROR``), and for that
only the first :data:`ERROR_BODY_BYTES` of its body are read, never an error of their own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from http import HTTPStatus
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import urldefrag, urlsplit

from webtap.errors import HTTPError, NetworkError, clip
from webtap.fetch.download import WHAT, Download
from webtap.fetch.negotiation import ACCEPT
from webtap.fetch.urls import parsed_url, redirect_target, with_fragment
from webtap.guard import AddressRefused, Guard
from webtap.net import (
    ConnectTimeout,
    Deadline,
    Limits,
    ReadTimeout,
    Response,
    Timeouts,
    TransportError,
    decode_capped,
    read_body,
    translate_errors,
)
from webtap.net.cookies import RedirectCookies
from webtap.settings import CONNECT_TIMEOUT, FETCH_TIMEOUT

if TYPE_CHECKING:
    from webtap.fetch.page_cache import Conditions
    from webtap.net import Client
    from webtap.net.url import Target

__all__ = [
    "ACCEPT",
    "ERROR_BODY_BYTES",
    "REDIRECT_STATUSES",
    "Permit",
    "checked_hop",
    "fetch_errors",
    "follow",
    "reason_phrase",
    "status_line",
]

REDIRECT_STATUSES = {301, 302, 303, 307, 308}
ERROR_BODY_BYTES = 256 * 1024  # of an error page, enough for its title and a challenge's marks

Permit = Callable[[str], Any]
"""``permit(url)`` before a hop is sent: raises when it must not be (robots.txt)."""


class Sender(Protocol):
    """What following redirects needs of a fetch's session
    (:class:`~webtap.fetch.session.Session`): a protocol, so that this module, which the
    session imports on its first request, does not import it back."""

    @property
    def guard(self) -> Guard: ...

    @property
    def timeouts(self) -> Timeouts: ...

    def client(self) -> Client: ...


def follow(
    session: Sender,
    url: str,
    *,
    headers: Mapping[str, str] | None,
    conditions: Conditions | None,
    limits: Limits,
    deadline: Deadline,
    permit: Permit | None,
    whole: bool,
) -> Download:
    """GET ``url`` with ``session``'s client, within ``deadline``, following at most
    ``limits.max_redirects`` redirects, each one checked.

    ``headers`` are sent on every hop (default: webtap's ``Accept``, :data:`ACCEPT`);
    ``permit(hop)`` is asked before each hop is sent. With ``conditions``, the hop they belong
    to is a conditional request, and its ``304`` is returned as such (with no body). A status
    of 400 or more is returned with the head of its body. ``whole``: a body past
    ``limits.max_body`` is an error; else (robots.txt) only that much of it is read.
    """
    client, guard, timeouts = session.client(), session.guard, session.timeouts
    hop = url  # this hop's URL as written: the caller's, then each Location made absolute
    visited: list[str] = []
    cookies: RedirectCookies | None = None  # made when a hop sets one (most never do)
    asked = dict(headers) if headers is not None else {"Accept": ACCEPT}
    for _ in range(limits.max_redirects + 1):
        target = checked_hop(hop, guard)
        if permit is not None:
            permit(hop)
        plain = urldefrag(hop).url
        headers = dict(asked)
        asking = conditions is not None and (
            plain == conditions.final_url if conditions.final_url else not visited
        )
        if asking and conditions is not None:
            headers.update(conditions.headers)
        path = target.target.split("?")[0]
        cookie = cookies and cookies.header(target.host, path, target.scheme == "https")
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
                if r.set_cookies:
                    if cookies is None:
                        cookies = RedirectCookies()
                    cookies.learn(target.host, path, r.set_cookies)
                location = r.headers.get("location")
                if r.status in REDIRECT_STATUSES and location:
                    visited.append(plain)
                    hop = redirect_target(hop, location)
                    continue
                not_modified = asking and r.status == HTTPStatus.NOT_MODIFIED
                if not_modified:
                    body = b""
                elif r.status >= 400:
                    body = read_head(r, min(limits.max_body, ERROR_BODY_BYTES), deadline)
                elif whole:
                    body = read_body(r, limits.max_body, deadline)
                else:
                    body = read_head(r, limits.max_body, deadline)
        except AddressRefused as exc:  # from the connection layer, which knows no URLs
            raise exc.for_url(hop) from None
        return Download(
            with_fragment(plain, hop, url) if visited else url,
            r.headers.get("content-type", ""),
            body,
            r.headers,
            status=r.status,
            final_url=plain if visited else None,
            final_fragment=urlsplit(hop).fragment if visited else "",
            reason=reason_phrase(r.reason),
        )
    loop = " (a redirect loop)" if urldefrag(hop).url in visited else ""
    raise HTTPError(
        f"Too many redirects: {clip(url)} was redirected more than {limits.max_redirects} "
        f"times{loop}"
    )


@contextmanager
def fetch_errors(deadline: Deadline, timeouts: Timeouts) -> Iterator[None]:
    """Transport errors as webtap's, with timeouts told apart: the deadline or the connect limit."""
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


def checked_hop(url: str, guard: Guard) -> Target:
    """``url`` parsed, once the guard has seen its host as written: the one check of a hop's
    URL (its resolved addresses are checked by the transport when it connects).

    The guard looks first: parsing rejects some spellings of addresses that the system
    resolver accepts, and "refused, because it is a loopback address" says more.
    """
    try:
        guard.check_host(urlsplit(url).hostname or "")
    except AddressRefused as exc:
        raise exc.for_url(url) from None
    return parsed_url(url)


def read_head(response: Response, max_bytes: int, deadline: Deadline) -> bytes:
    """The first ``max_bytes`` of the body, decoded; the rest is left unread, and a body that
    cannot be read or decoded to its end keeps what came before (an error page, robots.txt:
    the head is what counts, and it is never an error of its own)."""
    kept: list[bytes] = []

    def pieces() -> Iterator[bytes]:
        for chunk in response.iter_raw():
            yield chunk
            if deadline.expired:
                return

    # Decoded pieces are at most 64 KiB: past the cap by one piece, there is enough to cut.
    try:
        for piece in decode_capped(pieces(), _coding(response), max_bytes + 65536, _Enough):
            kept.append(piece)
    except (_Enough, TransportError, OSError):
        pass
    return b"".join(kept)[:max_bytes]


class _Enough(Exception):
    """The head is read."""


def _coding(response: Response) -> str:
    return response.headers.get("content-encoding", "")


def reason_phrase(reason: str) -> str:
    """The server's reason phrase, printable and at most 200 characters."""
    return " ".join("".join(ch for ch in reason if ch.isprintable()).split())[:200]


def status_line(response: Response | Download) -> str:
    """``"HTTP 404: Not Found"``: the server's own reason phrase, else the standard one."""
    status = response.status
    reason = reason_phrase(response.reason)
    if not reason:
        try:
            reason = HTTPStatus(status).phrase
        except ValueError:
            return f"HTTP {status}"
    return f"HTTP {status}: {reason}"
