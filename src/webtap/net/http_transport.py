"""webtap's transport: requests over ``http.client``, connections kept alive per origin.

:class:`HTTPTransport` is what a :class:`~webtap.net.client.Client` uses unless it is given
another (see :mod:`webtap.net.transport`). It is where the wire rules hold: the SSRF guard
checks every address before connecting (:mod:`webtap.net.connect`), the request's deadline
bounds DNS, connect, TLS and every read, proxies from the environment are honoured when asked,
and responses are framed strictly (:mod:`webtap.net.connection`). Errors are the standard
library's or :mod:`webtap.net.errors`' (translated by ``translate_errors``).
"""

from __future__ import annotations

import contextlib
import http.client
import select
import socket
import threading
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, NamedTuple

from webtap.net.body import PIECE
from webtap.net.connection import Connection
from webtap.net.errors import ReadTimeout
from webtap.net.proxy import proxy_for
from webtap.net.transport import Request, Response, basic_auth, check_headers

if TYPE_CHECKING:
    from webtap.guard import Guard
    from webtap.net.deadline import Deadline
    from webtap.net.proxy import Proxy
    from webtap.net.url import Target

__all__ = ["POOL_LIMITS", "HTTPTransport", "PoolLimits", "WireResponse"]


class PoolLimits(NamedTuple):
    """How many idle connections a transport keeps, and for how long.

    A connection is kept only between requests (one request uses it at a time); a request
    with no idle connection to its origin opens a new one, without limit, so a thread never
    waits for another's connection. SQL rows that search one provider hundreds of times reuse
    the same few connections.
    """

    max_idle_per_origin: int = 8
    max_idle: int = 32
    keepalive_expiry: float = 5.0  # seconds an idle connection is trusted (servers close ~5-60)


POOL_LIMITS = PoolLimits()


class HTTPTransport:
    """Requests over a pool of kept-alive ``http.client`` connections (thread-safe).

    ``guard``: connect only to addresses the SSRF guard allows. ``proxies``: honour the
    proxy variables of the environment (never together with a guard: through a proxy the guard
    would see only the proxy's address).
    """

    def __init__(
        self, *, guard: Guard | None = None, proxies: bool = False, limits: PoolLimits = POOL_LIMITS
    ) -> None:
        self.guard = guard
        self.proxies = proxies and guard is None
        self.limits = limits
        self._idle: dict[tuple[object, ...], list[Connection]] = {}
        self._lock = threading.Lock()
        self.closed = False

    def handle_request(self, request: Request) -> WireResponse:
        target, deadline = request.target, request.deadline
        proxy = _proxy(target) if self.proxies else None
        headers = request.headers
        line = target.target
        if proxy and target.scheme == "http":
            line = f"http://{target.host_header}{target.target}"  # a proxy takes the whole URL
            if proxy.userinfo:
                headers = {**headers, "Proxy-Authorization": basic_auth(proxy.userinfo)}
                check_headers(headers)
        key = (*target.origin, proxy)
        for attempt in (1, 2):
            conn, reused = self._take(key, target, proxy)
            conn.deadline, conn.connect_timeout = deadline, request.connect_timeout
            try:
                if conn.sock is None:
                    conn.connect()
                conn.bound(request.read_timeout)
                conn.request(request.method, line, headers=headers)
                sock = conn.sock
                raw = _answer(conn, deadline)
            except TimeoutError:
                conn.close()
                raise ReadTimeout("the server did not answer in time") from None
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                conn.close()
                if deadline.expired:
                    raise ReadTimeout("the overall deadline passed before the answer") from None
                if reused and attempt == 1:
                    continue  # the server closed an idle kept-alive connection: a new one
                raise
            except BaseException:
                conn.close()
                if deadline.expired:
                    raise ReadTimeout("the overall deadline passed before the answer") from None
                raise
            return WireResponse(raw, conn, sock, self, request.read_timeout)
        raise AssertionError("unreachable")

    def _take(
        self, key: tuple[object, ...], target: Target, proxy: Proxy | None
    ) -> tuple[Connection, bool]:
        now = time.monotonic()
        with self._lock:
            idle = self._idle.get(key, [])
            while idle:
                conn = idle.pop()
                if now - conn.idle_since < self.limits.keepalive_expiry and _alive(conn):
                    return conn, True
                conn.close()
        return Connection(key, target, proxy, self.guard), False

    def give_back(self, conn: Connection, raw: http.client.HTTPResponse) -> None:
        """Keep ``conn`` for the next request to its origin if the server lets us."""
        if conn.sock is None or not raw.isclosed() or self.closed:
            conn.close()
            return
        conn.idle_since = time.monotonic()
        with self._lock:
            idle = self._idle.setdefault(conn.key, [])
            total = sum(len(conns) for conns in self._idle.values())
            if len(idle) >= self.limits.max_idle_per_origin or total >= self.limits.max_idle:
                conn.close()
                return
            idle.append(conn)

    def idle_count(self) -> int:
        with self._lock:
            return sum(len(conns) for conns in self._idle.values())

    def close(self) -> None:
        with self._lock:
            self.closed = True
            conns = [conn for idle in self._idle.values() for conn in idle]
            self._idle.clear()
        for conn in conns:
            conn.close()


class WireResponse(Response):
    """A response on a connection: its body read from the socket, each read bounded by the
    deadline; read to its end, the connection goes back to the pool."""

    def __init__(
        self,
        raw: http.client.HTTPResponse,
        conn: Connection,
        sock: socket.socket,
        transport: HTTPTransport,
        read: float,
    ) -> None:
        super().__init__(raw.status, _fields(raw), reason=raw.reason)
        self._raw = raw
        self._conn: Connection | None = conn
        self._sock = sock
        self._transport = transport
        self._read = read

    def iter_raw(self) -> Iterator[bytes]:
        conn = self._conn
        if conn is None:
            return
        expected = getattr(self._raw, "declared_length", None)
        got = 0
        while True:
            conn.bound(self._read, self._sock)
            try:
                chunk = self._raw.read1(PIECE)
            except TimeoutError:
                self.close()
                raise ReadTimeout("the server stopped sending the body") from None
            if not chunk:
                break
            got += len(chunk)
            yield chunk
        if expected is not None and got < expected:
            self.close()
            raise http.client.IncompleteRead(b"\0" * got, expected - got)
        self._raw.read()  # nothing is left: this only marks the response as read to its end
        self._release()

    def close(self) -> None:
        """Done with the response: its connection is closed unless it was read to the end."""
        conn, self._conn = self._conn, None
        if conn is not None:
            self._raw.close()
            conn.close()

    def _release(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            self._transport.give_back(conn, self._raw)


def _proxy(target: Target) -> Proxy | None:
    return proxy_for(target.scheme, target.host, target.port)


def _fields(raw: http.client.HTTPResponse) -> list[tuple[str, str]]:
    """The header fields as sent. http.client reads header bytes as Latin-1; bytes that are
    valid UTF-8 are read as UTF-8 instead, as browsers read a ``Location`` with raw UTF-8."""
    fields = []
    for name, text in raw.msg.items():
        value = text
        if not text.isascii():
            with contextlib.suppress(UnicodeError):
                value = text.encode("latin-1").decode("utf-8")
        fields.append((name, value))
    return fields


def _answer(conn: Connection, deadline: Deadline) -> http.client.HTTPResponse:
    """The status line and headers, by the deadline: each read is bounded by the socket's
    timeout, and a server that drips its headers a byte at a time has its connection shut
    when the deadline passes."""
    sock = conn.sock
    if sock is None:  # pragma: no cover - connect() sets it or raises
        return conn.getresponse()
    timer = threading.Timer(max(deadline.remaining(), 0.0), _shut, (sock,))
    timer.daemon = True
    timer.start()
    try:
        return conn.getresponse()
    finally:
        timer.cancel()


def _shut(sock: object) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)  # type: ignore[attr-defined]


def _alive(conn: Connection) -> bool:
    """False when the server has closed the idle connection (a read would return nothing)."""
    if conn.sock is None:
        return False
    try:
        readable, _, _ = select.select([conn.sock], [], [], 0)
    except (OSError, ValueError):
        return False
    return not readable  # an idle connection has nothing to say but its end
