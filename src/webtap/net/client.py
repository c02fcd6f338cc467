"""webtap's HTTP client: ``http.client`` connections, kept alive in a small pool per origin.

One :class:`Client` per purpose: the fetch tool makes one per fetch with the SSRF guard and
no proxy; search providers share one per process (proxies from the environment honoured).
Each request carries its :class:`~webtap.net.deadline.Deadline`, which bounds DNS, connect,
TLS and every read; ``connect``/``read`` timeouts bound each step within it. Errors are the
standard library's or :mod:`webtap.net.errors`' (translated by ``translate_errors``).
"""

from __future__ import annotations

import contextlib
import http.client
import select
import socket
import threading
import time
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, NamedTuple

from webtap import __version__
from webtap.net.body import PIECE
from webtap.net.connect import open_socket
from webtap.net.deadline import Deadline
from webtap.net.errors import ConnectFailed, ConnectTimeout, ReadTimeout
from webtap.net.proxy import Proxy, proxy_for
from webtap.net.url import Target, parse_url

if TYPE_CHECKING:
    from webtap.guard import Guard

__all__ = ["POOL_LIMITS", "USER_AGENT", "Client", "PoolLimits", "Response"]

USER_AGENT = f"webtap/{__version__} (+https://pypi.org/project/webtap/)"


class PoolLimits(NamedTuple):
    """How many idle connections a :class:`Client` keeps, and for how long.

    A connection is kept only between requests (one request uses it at a time); a request
    with no idle connection to its origin opens a new one, without limit, so a thread never
    waits for another's connection. SQL rows that search one provider hundreds of times reuse
    the same few connections.
    """

    max_idle_per_origin: int = 8
    max_idle: int = 32
    keepalive_expiry: float = 5.0  # seconds an idle connection is trusted (servers close ~5-60)


POOL_LIMITS = PoolLimits()


class _Connection(http.client.HTTPConnection):
    """A connection whose ``connect()`` is webtap's: the socket from :func:`open_socket` (name
    resolved within the deadline, every address checked by the guard), a tunnel through a
    proxy if any, then TLS with the URL's host as ``server_hostname``."""

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
            headers = {"Proxy-Authorization": _basic(proxy.userinfo)} if proxy.userinfo else None
            self.set_tunnel(origin.host, origin.port, headers)

    def connect(self) -> None:
        sock = open_socket(self.host, self.port, self.deadline, self.connect_timeout, self.guard)
        try:
            if self._tunnel_host:
                self.sock = sock
                sock.settimeout(self.deadline.clamp(self.connect_timeout, ConnectTimeout))
                try:
                    self._tunnel()  # CONNECT, as http.client's own connect() does after set_tunnel
                except TimeoutError:
                    raise ConnectTimeout("the proxy did not answer CONNECT in time") from None
                except (OSError, http.client.HTTPException) as exc:
                    raise ConnectFailed(f"the proxy refused the tunnel ({exc})") from None
            if self.tls:
                from webtap.net.tls import start_tls

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


class Response:
    """A response whose body is read in raw pieces (:meth:`iter_raw`); close it when done."""

    def __init__(
        self,
        raw: http.client.HTTPResponse,
        conn: _Connection,
        sock: socket.socket,
        client: Client,
        read: float,
    ) -> None:
        self.status = raw.status
        self.reason = raw.reason
        self.headers = _headers(raw)
        self.set_cookies: list[str] = raw.msg.get_all("set-cookie") or []
        self._raw = raw
        self._conn: _Connection | None = conn
        self._sock = sock
        self._client = client
        self._read = read

    def iter_raw(self) -> Iterator[bytes]:
        """The body as sent (not content-decoded), each read bounded by the deadline."""
        conn = self._conn
        if conn is None:
            return
        expected = self._declared_length()
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

    def _declared_length(self) -> int | None:
        if "chunked" in self.headers.get("transfer-encoding", "").lower():
            return None
        declared = self.headers.get("content-length", "")
        return int(declared) if declared.isdigit() and self._raw.status not in (204, 304) else None

    def _release(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            self._client.give_back(conn, self._raw)

    def __enter__(self) -> Response:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _headers(raw: http.client.HTTPResponse) -> dict[str, str]:
    """Names in lower case; repeated headers joined with ", " (as httpx's ``Headers.get``).

    http.client reads header bytes as Latin-1; bytes that are valid UTF-8 are read as UTF-8
    instead, as browsers read a ``Location`` with raw UTF-8 in it."""
    headers: dict[str, str] = {}
    for name, text in raw.getheaders():
        key = name.lower()
        value = text
        if not text.isascii():
            with contextlib.suppress(UnicodeError):
                value = text.encode("latin-1").decode("utf-8")
        headers[key] = f"{headers[key]}, {value}" if key in headers else value
    return headers


def _check_headers(headers: Mapping[str, str]) -> None:
    """Refuse a header value http.client would refuse, without quoting it (it may be a key)."""
    for name, value in headers.items():
        if any((ord(ch) < 32 and ch != "\t") or ord(ch) == 127 for ch in value):
            raise ValueError(
                f"the {name} header's value contains a line break or a control character; "
                "it was not sent"
            )


def _basic(userinfo: str) -> str:
    import base64  # only for a URL or proxy with credentials

    return "Basic " + base64.b64encode(userinfo.encode("utf-8")).decode("ascii")


class Client:
    """Requests with webtap's User-Agent over a pool of kept-alive connections (thread-safe).

    ``guard``: connect only to addresses the SSRF guard allows. ``proxies``: honour the
    proxy variables of the environment (never together with a guard).
    """

    def __init__(
        self,
        *,
        guard: Guard | None = None,
        proxies: bool = False,
        headers: Mapping[str, str] | None = None,
        limits: PoolLimits = POOL_LIMITS,
    ) -> None:
        self.guard = guard
        self.proxies = proxies and guard is None
        self.headers = {"User-Agent": USER_AGENT, **(headers or {})}
        self.limits = limits
        self._idle: dict[tuple[object, ...], list[_Connection]] = {}
        self._lock = threading.Lock()
        self.closed = False

    def request(
        self,
        method: str,
        url: str,
        *,
        deadline: Deadline,
        headers: Mapping[str, str] | None = None,
        connect_timeout: float = 10.0,
        read_timeout: float = 20.0,
    ) -> Response:
        """Send ``method url`` and read the status and headers; the body is the caller's to
        read (``iter_raw``) or to leave (``close``)."""
        target = parse_url(url)
        proxy = proxy_for(target.scheme, target.host, target.port) if self.proxies else None
        sent = {**self.headers, "Host": target.host_header, **(headers or {})}
        sent.setdefault("Accept-Encoding", "identity")
        if target.userinfo and "Authorization" not in sent:
            sent["Authorization"] = _basic(target.userinfo)
        if proxy and target.scheme == "http" and proxy.userinfo:
            sent["Proxy-Authorization"] = _basic(proxy.userinfo)
        _check_headers(sent)
        line = target.target
        if proxy and target.scheme == "http":
            line = f"http://{target.host_header}{target.target}"  # a proxy takes the whole URL
        key = (*target.origin, proxy)
        for attempt in (1, 2):
            conn, reused = self._take(key, target, proxy)
            conn.deadline, conn.connect_timeout = deadline, connect_timeout
            try:
                if conn.sock is None:
                    conn.connect()
                conn.bound(read_timeout)
                conn.request(method, line, headers=sent)
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
            return Response(raw, conn, sock, self, read_timeout)
        raise AssertionError("unreachable")

    def _take(
        self, key: tuple[object, ...], target: Target, proxy: Proxy | None
    ) -> tuple[_Connection, bool]:
        now = time.monotonic()
        with self._lock:
            idle = self._idle.get(key, [])
            while idle:
                conn = idle.pop()
                if now - conn.idle_since < self.limits.keepalive_expiry and _alive(conn):
                    return conn, True
                conn.close()
        return _Connection(key, target, proxy, self.guard), False

    def give_back(self, conn: _Connection, raw: http.client.HTTPResponse) -> None:
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

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _answer(conn: _Connection, deadline: Deadline) -> http.client.HTTPResponse:
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


def _alive(conn: _Connection) -> bool:
    """False when the server has closed the idle connection (a read would return nothing)."""
    if conn.sock is None:
        return False
    try:
        readable, _, _ = select.select([conn.sock], [], [], 0)
    except (OSError, ValueError):
        return False
    return not readable  # an idle connection has nothing to say but its end
