"""One HTTP/1.1 connection on ``http.client``, with webtap's connect and strict framing.

:class:`Connection` opens its socket with :func:`~webtap.net.connect.open_socket` (the name
resolved within the deadline, every address checked by the SSRF guard), tunnels through a proxy
if there is one, then starts TLS with the URL's host as ``server_hostname``. Its responses are
:class:`StrictResponse`: ``http.client``'s reader, with the framing checks below where it would
guess.

Where a response body ends is read strictly (RFC 9112 §6): framing two readers could disagree
on is refused, as :class:`~webtap.net.errors.InvalidHTTP`.

``http.client`` reads leniently: ``Content-Length: -5`` or an unreadable value means "read until
the connection closes", of two different ``Content-Length`` fields the first wins, a
``Transfer-Encoding`` it does not know is ignored, and ``int(size, 16)`` reads chunk sizes
(``0x10``, ``+5``, ``1_0`` and ``-5`` included). Where a proxy reads the same bytes otherwise,
that difference is how responses are smuggled; and webtap keeps connections alive, so a body
read one byte too long or short would hand the next request the wrong answer. So:

- ``Content-Length`` is one or more decimal numbers, all the same (RFC 9110 §8.6 allows a
  repeated identical value); anything else is refused.
- ``Transfer-Encoding`` must be exactly ``chunked``. Another final coding would mean "read until
  the connection closes" (RFC 9112 §6.3, 4), with the body still encoded in a coding
  ``http.client`` does not decode; a coding before ``chunked`` (``gzip, chunked``) is valid
  but unread by ``http.client`` too, and no server webtap meets sends one: both are refused.
- Both together are refused. A server must not send them together (§6.1) and the recipient
  "ought to" treat it as an error (§6.3, 3): the two disagree by construction, and which one an
  intermediary on the way believed is unknown.
- A chunk size is hexadecimal digits only, then optional extensions (§7.1).

None of this applies where the status says there is no body (1xx, 204, 304; §6.3, 1).
"""

from __future__ import annotations

import http.client
import re
import socket
from typing import TYPE_CHECKING

from webtap.errors import clip
from webtap.net.connect import open_socket
from webtap.net.deadline import Deadline
from webtap.net.errors import ConnectFailed, ConnectTimeout, InvalidHTTP, ReadTimeout
from webtap.net.tls import start_tls
from webtap.net.transport import basic_auth

if TYPE_CHECKING:
    from webtap.guard import Guard
    from webtap.net.proxy import Proxy
    from webtap.net.url import Target

__all__ = [
    "MAX_CHUNK_LINE",
    "Connection",
    "StrictResponse",
    "chunk_size",
    "content_length",
    "has_body",
]


class StrictResponse(http.client.HTTPResponse):
    """``http.client``'s response, refusing framing it would otherwise guess at.

    ``declared_length`` is the checked ``Content-Length`` (None: chunked, not said, or no body).
    """

    declared_length: int | None = None

    def begin(self) -> None:
        if self.headers is not None:  # already begun
            return
        super().begin()
        if not has_body(self.status, self._method or ""):
            return
        length = content_length(
            self.msg.get_all("content-length") or [], self.msg.get_all("transfer-encoding") or []
        )
        if length is None and self.msg.get("transfer-encoding") is not None:
            # Exactly chunked, however it was spelled (http.client compares the raw value).
            self.chunked, self.chunk_left, self.length = True, None, None
            return
        self.declared_length = self.length = length  # a repeated identical value, read too

    def _read_next_chunk_size(self) -> int:
        # http.client's reader, with the size read strictly (its own accepts what int(x, 16)
        # accepts: "0x10", "+5", "-5", "1_0"). Present in CPython 3.5 through 3.13.
        return chunk_size(self.fp.readline(http.client._MAXLINE + 1))  # type: ignore[attr-defined]


class Connection(http.client.HTTPConnection):
    """A kept-alive connection to one origin (or through one proxy), reused by the pool."""

    response_class = StrictResponse

    def __init__(
        self, key: tuple[object, ...], origin: Target, proxy: Proxy | None, guard: Guard | None
    ) -> None:
        host, port = (proxy.host, proxy.port) if proxy else (origin.host, origin.port)
        super().__init__(host, port)
        self.key = key
        self.tls = origin.scheme == "https"
        self.tls_host = origin.host
        self.guard = guard
        self.deadline = Deadline(30.0)  # set before each request
        self.connect_timeout = 10.0
        self.idle_since = 0.0
        if proxy and self.tls:
            auth = {"Proxy-Authorization": basic_auth(proxy.userinfo)} if proxy.userinfo else None
            self.set_tunnel(origin.host, origin.port, auth)

    def connect(self) -> None:
        sock = open_socket(self.host, self.port, self.deadline, self.connect_timeout, self.guard)
        try:
            if self._tunnel_host:  # type: ignore[attr-defined]
                self.sock = sock
                sock.settimeout(self.deadline.clamp(self.connect_timeout, ConnectTimeout))
                try:
                    # CONNECT, as http.client's own connect() does after set_tunnel.
                    self._tunnel()  # type: ignore[attr-defined]
                except TimeoutError:
                    raise ConnectTimeout("the proxy did not answer CONNECT in time") from None
                except (OSError, http.client.HTTPException) as exc:
                    raise ConnectFailed(f"the proxy refused the tunnel ({exc})") from None
            if self.tls:
                sock = start_tls(sock, self.tls_host, self.deadline, self.connect_timeout)
        except BaseException:
            sock.close()
            self.sock = None
            raise
        self.sock = sock

    def bound(self, timeout: float, sock: socket.socket | None = None) -> None:
        """The next operation on ``sock`` (default: the connection's) may take ``timeout``, and
        no more than the deadline. A response that ends the connection keeps its socket after
        http.client has let go of it (``self.sock`` is None then): pass that one."""
        sock = sock or self.sock
        if sock is not None:
            sock.settimeout(self.deadline.clamp(timeout, ReadTimeout))


# --- Framing ------------------------------------------------------------------------------

MAX_CHUNK_LINE = 64 * 1024  # http.client's own limit on a line
_DIGITS = re.compile(r"[0-9]{1,18}")  # more than 18 digits is no length anyone means
_HEX = re.compile(rb"[0-9A-Fa-f]{1,16}")


def has_body(status: int, method: str) -> bool:
    """False where the message ends with its headers whatever they say (§6.3, 1)."""
    return not (100 <= status < 200 or status in (204, 304) or method == "HEAD")


def content_length(lengths: list[str], encodings: list[str]) -> int | None:
    """The body's length from its ``Content-Length`` and ``Transfer-Encoding`` fields (each
    field's values as received): a number of bytes, or None when it is chunked or not said
    (the body then ends with the connection). Else :class:`InvalidHTTP`."""
    if encodings:
        codings = [c.strip().lower() for field in encodings for c in field.split(",")]
        codings = [c for c in codings if c]
        shown = clip(", ".join(field.strip() for field in encodings), 60)
        if not codings or codings[-1] != "chunked":
            raise InvalidHTTP(f"Transfer-Encoding {shown!r} does not end in chunked")
        if codings.count("chunked") > 1:
            raise InvalidHTTP(f"Transfer-Encoding {shown!r} applies chunked more than once")
        if len(codings) > 1:
            raise InvalidHTTP(
                f"Transfer-Encoding {shown!r} applies a coding before chunked "
                "(webtap reads chunked alone)"
            )
        if lengths:
            raise InvalidHTTP(
                "it has both Transfer-Encoding and Content-Length (a server must send only "
                "one of them)"
            )
        return None
    if not lengths:
        return None
    values = [v.strip() for field in lengths for v in field.split(",")]
    values = [v for v in values if v]  # empty list elements are allowed, and mean nothing
    for value in values:
        if not _DIGITS.fullmatch(value):
            raise InvalidHTTP(f"Content-Length is {clip(value, 30)!r}, not a number of bytes")
    if not values:
        raise InvalidHTTP("Content-Length is empty")
    if len({int(value) for value in values}) > 1:
        shown = ", ".join(dict.fromkeys(values))
        raise InvalidHTTP(f"it gives different Content-Length values ({clip(shown, 60)})")
    return int(values[0])


def chunk_size(line: bytes) -> int:
    """The size a chunk-size line (``1a;ext=1\\r\\n``) announces; :class:`InvalidHTTP` when it
    is not hexadecimal digits. An empty line (the connection closed) is a ``ValueError``, as
    ``http.client`` expects, which reports the body as cut short."""
    if not line:
        raise ValueError("the connection closed before the next chunk")
    if len(line) > MAX_CHUNK_LINE:
        raise InvalidHTTP("a chunk-size line is longer than 64 KB")
    size = line.split(b";", 1)[0].rstrip(b"\r\n").rstrip(b" \t")  # BWS before extensions
    if not _HEX.fullmatch(size):
        shown = size[:20].decode("latin-1")
        raise InvalidHTTP(f"the chunk size {shown!r} is not a hexadecimal number")
    return int(size, 16)
