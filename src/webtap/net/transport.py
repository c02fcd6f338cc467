"""The transport seam: what a :class:`~webtap.net.client.Client` asks of whatever carries its
requests, and a transport that answers from a function, for tests.

The contract is httpx's: one method, ``handle_request(request) -> Response``. The client makes
the :class:`Request` (URL parsed, every header in place); the transport sends it and answers
with the status line and headers; the caller reads the body from the :class:`Response` in raw
pieces (``iter_raw``) and closes it. webtap's own transport is
:class:`~webtap.net.http_transport.HTTPTransport` (``http.client``, kept-alive connections,
the SSRF guard at connect, the deadline on every read, HTTP framing checked).
:class:`MockTransport` answers from a function, so that redirect, cookie and conditional-request
logic is tested without a socket; another way to get a page can be one more transport.

The header fields a request and a response carry have their helpers here too: checked before
they are sent (:func:`check_headers`), joined when read (:func:`joined`), Basic credentials
(:func:`basic_auth`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from webtap.net.deadline import Deadline
    from webtap.net.url import Target

__all__ = [
    "MockTransport",
    "Request",
    "Response",
    "Transport",
    "basic_auth",
    "check_headers",
    "joined",
]


class Request:
    """One request, complete: what a transport needs to send it."""

    # A slotted class, not a NamedTuple: defining one costs every HTTP tool call less time.
    __slots__ = (
        "connect_timeout",
        "deadline",
        "headers",
        "method",
        "read_timeout",
        "target",
        "url",
    )

    def __init__(
        self,
        method: str,
        url: str,
        target: Target,
        headers: dict[str, str],
        deadline: Deadline,
        connect_timeout: float,
        read_timeout: float,
    ) -> None:
        self.method = method
        self.url = url  # as the caller wrote it
        self.target = target  # the URL parsed: scheme, ASCII host, port, request target, userinfo
        self.headers = headers  # every header to send (User-Agent, Host, Authorization, ...)
        self.deadline = deadline  # bounds the whole request, body reads included
        self.connect_timeout = connect_timeout
        self.read_timeout = read_timeout

    def __repr__(self) -> str:
        return f"Request({self.method!r}, {self.url!r})"


class Response:
    """A response: ``status``, ``reason``, ``headers`` (names in lower case, a repeated field's
    values joined by ``", "``), ``set_cookies`` (each ``Set-Cookie`` value), and the body as
    sent, in raw pieces, from :meth:`iter_raw`. Close it when done (or use ``with``).

    Made directly, it holds its body in memory: ``Response(302, {"Location": "/b"})``,
    ``Response(200, [("Set-Cookie", "a=1"), ("Set-Cookie", "b=2")], b"<p>hi</p>")``.
    """

    def __init__(
        self,
        status: int,
        headers: Mapping[str, str] | Iterable[tuple[str, str]] = (),
        body: bytes | Iterable[bytes] = b"",
        *,
        reason: str = "",
    ) -> None:
        fields = list(headers.items()) if isinstance(headers, Mapping) else list(headers)
        self.status = status
        self.reason = reason
        self.headers = joined(fields)
        self.set_cookies = [value for name, value in fields if name.lower() == "set-cookie"]
        self._body = [body] if isinstance(body, bytes) else body

    def iter_raw(self) -> Iterator[bytes]:
        """The body as sent (not content-decoded), piece by piece."""
        for piece in self._body:
            if piece:
                yield piece

    def close(self) -> None:
        """Done with the response (a transport's own response lets its connection go)."""

    def __enter__(self) -> Response:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Transport(Protocol):
    """Sends a :class:`Request`, answers its :class:`Response`; may also have ``close()``."""

    def handle_request(self, request: Request) -> Response: ...


class MockTransport:
    """A transport that answers each request with ``handler(request)`` (httpx's
    ``MockTransport``), and keeps the requests it saw in ``requests``. Nothing is sent: no
    guard, no deadline, no framing; what the handler raises, the request raises."""

    def __init__(self, handler: Callable[[Request], Response]) -> None:
        self.handler = handler
        self.requests: list[Request] = []

    def handle_request(self, request: Request) -> Response:
        self.requests.append(request)
        return self.handler(request)


# --- Header fields -------------------------------------------------------------------------


def check_headers(headers: Mapping[str, str]) -> None:
    """Refuse a header value http.client would refuse, without quoting it (it may be a key)."""
    for name, value in headers.items():
        if any((ord(ch) < 32 and ch != "\t") or ord(ch) == 127 for ch in value):
            raise ValueError(
                f"the {name} header's value contains a line break or a control character; "
                "it was not sent"
            )


def joined(fields: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Header fields as one dict: names in lower case, a repeated field's values joined with
    ``", "`` (as httpx's ``Headers.get``)."""
    headers: dict[str, str] = {}
    for name, value in fields:
        key = name.lower()
        headers[key] = f"{headers[key]}, {value}" if key in headers else value
    return headers


def basic_auth(userinfo: str) -> str:
    """The ``Authorization`` (or ``Proxy-Authorization``) value for ``"user:password"``."""
    import base64  # only for a URL or proxy with credentials

    return "Basic " + base64.b64encode(userinfo.encode("utf-8")).decode("ascii")
