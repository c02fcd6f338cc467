"""The guard inside the browser: a forward proxy on 127.0.0.1 that every connection goes through.

A page's scripts choose URLs as freely as a model does, so every connection the browser makes
-- the page, its subresources, redirects, iframes, ``fetch()``, WebSockets, service workers,
prefetches -- must pass the guard ``web_fetch`` uses. Intercepting requests inside the browser
was tried and leaked (redirects and WebSockets got past it); a proxy sees every connection,
because Chromium is started so that it can make no other (see :mod:`webtap.browser.launch`:
``--proxy-server``, no bypass for loopback, a host resolver that resolves nothing).

For each ``CONNECT host:port`` (https, wss) and each plain ``GET http://host/...`` the proxy
calls the very path ``web_fetch`` takes: :meth:`Guard.check_host` on the host as written, then
:func:`webtap.net.connect.open_socket`, which resolves the name, checks every address and
connects only to a checked one. A refusal answers ``403`` and is recorded; the browser shows an
error for that resource and goes on.

:class:`Policy` is the guard plus an allow-list of exact origins, ``(host, port)`` pairs that
skip the address check (never the DNS-rebinding-safe connect): what a test needs to serve its
page on 127.0.0.1 while every other loopback port stays refused. :class:`ProxySession` is one
listener (own ephemeral port) with its own caps and counters: one per render, so that a page's
requests and bytes are counted for that page alone.
"""

from __future__ import annotations

import contextlib
import select
import socket
import threading
from typing import TYPE_CHECKING, NamedTuple

from webtap.guard import AddressRefused
from webtap.net.connect import open_socket
from webtap.net.errors import TransportError

if TYPE_CHECKING:
    from webtap.guard import Guard
    from webtap.net.deadline import Deadline

__all__ = ["DEFAULT_PROXY_LIMITS", "DENY_ALL", "Policy", "ProxyLimits", "ProxySession", "Refusal"]

_HEAD_MAX = 64 * 1024
_CHUNK = 64 * 1024
_HOP_BY_HOP = {
    b"connection",
    b"keep-alive",
    b"proxy-connection",
    b"proxy-authorization",
    b"proxy-authenticate",
    b"te",
    b"trailer",
    b"upgrade",
}


class ProxyLimits(NamedTuple):
    """Caps on what one render may pull through the proxy."""

    max_bytes: int = 32 * 1024 * 1024  # bytes relayed to the browser, all connections
    max_requests: int = 300  # connections (CONNECT) and plain requests
    connect_timeout: float = 10.0


class Policy(NamedTuple):
    """Where the browser may connect: ``guard`` (``None``: nowhere but ``origins``) and the
    exact ``origins`` (lower-case host as the URL spells it, port) that skip its address check."""

    guard: Guard | None
    origins: frozenset[tuple[str, int]] = frozenset()


DENY_ALL = Policy(guard=None)
DEFAULT_PROXY_LIMITS = ProxyLimits()


class Refusal(NamedTuple):
    """A connection the proxy did not make: to where (the host as Chromium wrote it, lower
    case, without brackets), why, and whether the guard refused it (else a cap or a failure)."""

    host: str
    port: int
    reason: str
    guarded: bool = False


class _Capped(Exception):
    pass


class ProxySession:
    """One listener on 127.0.0.1 with its policy, caps and counters; ``close()`` ends it all."""

    def __init__(
        self, policy: Policy, deadline: Deadline, limits: ProxyLimits = DEFAULT_PROXY_LIMITS
    ) -> None:
        self.policy = policy
        self.deadline = deadline
        self.limits = limits
        self.requests = 0
        self.bytes_in = 0
        self.capped: str | None = None  # "bytes" or "requests" once a cap was reached
        self.refused: list[Refusal] = []
        self._lock = threading.Lock()
        self._sockets: set[socket.socket] = set()
        self._closed = False
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(64)
        self.port: int = self._listener.getsockname()[1]
        threading.Thread(target=self._accept_loop, name="webtap-proxy", daemon=True).start()

    @property
    def address(self) -> str:
        """The proxy as Chromium's ``--proxy-server`` or ``proxyServer`` takes it."""
        return f"http://127.0.0.1:{self.port}"

    def close(self) -> None:
        """Stop listening and cut every connection still open."""
        with self._lock:
            self._closed = True
            sockets = list(self._sockets)
            self._sockets.clear()
        with contextlib.suppress(OSError):
            self._listener.shutdown(socket.SHUT_RDWR)
        self._listener.close()
        for sock in sockets:
            _shut(sock)

    # --- bookkeeping --------------------------------------------------------------------

    def _track(self, sock: socket.socket) -> bool:
        with self._lock:
            if self._closed:
                return False
            self._sockets.add(sock)
            return True

    def _untrack(self, sock: socket.socket) -> None:
        with self._lock:
            self._sockets.discard(sock)
        _shut(sock)

    def _refuse(self, host: str, port: int, reason: str, guarded: bool = False) -> None:
        with self._lock:
            if len(self.refused) < 200:
                self.refused.append(Refusal(host, port, reason, guarded))

    def _count_request(self) -> bool:
        with self._lock:
            self.requests += 1
            if self.requests > self.limits.max_requests:
                self.capped = self.capped or "requests"
                return False
            return True

    def _count_bytes(self, n: int) -> None:
        with self._lock:
            self.bytes_in += n
            if self.bytes_in > self.limits.max_bytes:
                self.capped = self.capped or "bytes"
                raise _Capped

    # --- serving ------------------------------------------------------------------------

    def _accept_loop(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            if not self._track(client):
                _shut(client)
                return
            threading.Thread(
                target=self._serve, args=(client,), name="webtap-proxy-conn", daemon=True
            ).start()

    def _serve(self, client: socket.socket) -> None:
        upstream: socket.socket | None = None
        try:
            client.settimeout(max(self.deadline.remaining(), 0.01))
            head, rest = _read_head(client)
            if head is None:
                return
            method, target, headers = _parse_head(head)
            if method == b"CONNECT":
                host, port = _split_authority(target.decode("latin-1"))
                upstream = self._open(host, port, client)
                if upstream is None:
                    return
                client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
                if rest:
                    upstream.sendall(rest)
                self._relay(client, upstream)
            else:
                self._forward(client, method, target, headers, rest)
        except (_Capped, OSError, ValueError, TransportError):
            pass
        finally:
            if upstream is not None:
                self._untrack(upstream)
            self._untrack(client)

    def _open(self, host: str, port: int, client: socket.socket) -> socket.socket | None:
        """A guarded connection to ``host:port``, or ``None`` after answering the refusal."""
        bare = host.strip("[]").lower()
        if not self._count_request():
            self._refuse(bare, port, f"the render's cap of {self.limits.max_requests} requests")
            _answer(client, 429, "Too Many Requests")
            return None
        allowed = (bare, port) in self.policy.origins
        guard = None if allowed else self.policy.guard
        try:
            if not allowed:
                if guard is None:
                    raise AddressRefused(host, "the browser may connect only to the page's origin")
                guard.check_host(bare)
            sock = open_socket(
                bare, port, self.deadline, self.limits.connect_timeout, None if allowed else guard
            )
        except AddressRefused as exc:
            self._refuse(bare, port, exc.reason, guarded=True)
            _answer(client, 403, "Forbidden")
            return None
        except (TransportError, OSError) as exc:
            self._refuse(bare, port, str(exc) or type(exc).__name__)
            _answer(client, 502, "Bad Gateway")
            return None
        if not self._track(sock):
            _shut(sock)
            return None
        sock.settimeout(max(self.deadline.remaining(), 0.01))
        return sock

    def _forward(
        self,
        client: socket.socket,
        method: bytes,
        target: bytes,
        headers: list[tuple[bytes, bytes]],
        rest: bytes,
    ) -> None:
        """One plain-http request, then the connection closes (no reuse for another origin)."""
        url = target.decode("latin-1")
        if not url.lower().startswith("http://"):
            _answer(client, 400, "Bad Request")
            return
        authority, _, path = url[7:].partition("/")
        host, port = _split_authority(authority, default=80)
        if any(name == b"transfer-encoding" for name, _ in headers):
            _answer(client, 501, "Not Implemented")  # browsers send bodies with a length
            return
        length = next((int(value) for name, value in headers if name == b"content-length"), 0)
        upstream = self._open(host, port, client)
        if upstream is None:
            return
        try:
            lines = [method + b" /" + path.encode("latin-1") + b" HTTP/1.1"]
            lines += [name + b": " + value for name, value in headers if name not in _HOP_BY_HOP]
            lines.append(b"Connection: close")
            upstream.sendall(b"\r\n".join(lines) + b"\r\n\r\n")
            body = rest[:length]
            upstream.sendall(body)
            while len(body) < length:
                chunk = client.recv(min(_CHUNK, length - len(body)))
                if not chunk:
                    return
                body += chunk
                upstream.sendall(chunk)
            answer, more = _read_head(upstream)
            if answer is None:
                _answer(client, 502, "Bad Gateway")
                return
            self._count_bytes(len(answer) + len(more))
            client.sendall(_closing(answer) + more)
            self._relay(client, upstream, one_way=True)
        finally:
            self._untrack(upstream)

    def _relay(self, client: socket.socket, upstream: socket.socket, one_way: bool = False) -> None:
        """Copy bytes both ways (or upstream to client only) until one side ends, the deadline
        passes or the byte cap is reached."""
        ends = [upstream] if one_way else [client, upstream]
        while ends:
            left = self.deadline.remaining()
            if left <= 0:
                return
            readable, _, _ = select.select(ends, [], [], min(left, 1.0))
            for sock in readable:
                chunk = sock.recv(_CHUNK)
                if not chunk:
                    return
                if sock is upstream:
                    self._count_bytes(len(chunk))
                    client.sendall(chunk)
                else:
                    upstream.sendall(chunk)


def _read_head(sock: socket.socket) -> tuple[bytes | None, bytes]:
    """The bytes up to the blank line that ends a request or response head, and what followed."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(_CHUNK)
        if not chunk:
            return None, b""
        data += chunk
        if len(data) > _HEAD_MAX:
            raise ValueError("head too large")
    head, _, rest = data.partition(b"\r\n\r\n")
    return head, rest


def _parse_head(head: bytes) -> tuple[bytes, bytes, list[tuple[bytes, bytes]]]:
    first, *lines = head.split(b"\r\n")
    method, target, _ = first.split(b" ", 2)
    headers = []
    for line in lines:
        name, sep, value = line.partition(b":")
        if not sep:
            raise ValueError("malformed header")
        headers.append((name.strip().lower(), value.strip()))
    return method.upper(), target, headers


def _split_authority(authority: str, default: int = 443) -> tuple[str, int]:
    """``host:port`` (``[v6]:port``) into its parts; the port is ``default`` when absent."""
    if authority.startswith("["):
        host, _, tail = authority.partition("]")
        host += "]"
        port = tail[1:] if tail.startswith(":") else ""
    else:
        host, _, port = authority.rpartition(":") if ":" in authority else (authority, "", "")
    if not host:
        raise ValueError("no host")
    number = int(port) if port else default
    if not 0 < number < 65536:
        raise ValueError("bad port")
    return host, number


def _closing(head: bytes) -> bytes:
    """A response head without its hop-by-hop headers, saying the connection closes."""
    first, *lines = head.split(b"\r\n")
    kept = [line for line in lines if line.partition(b":")[0].strip().lower() not in _HOP_BY_HOP]
    return b"\r\n".join([first, *kept, b"Connection: close", b"Proxy-Connection: close"]) + (
        b"\r\n\r\n"
    )


def _answer(sock: socket.socket, status: int, reason: str) -> None:
    with contextlib.suppress(OSError):
        sock.sendall(
            f"HTTP/1.1 {status} {reason}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".encode()
        )


def _shut(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    sock.close()
