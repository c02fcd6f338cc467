"""Small JavaScript apps on 127.0.0.1 and trap listeners that count what reaches them.

``App`` serves routes (status, headers, body, a stall before answering) and records every
request; its own origin is the only one a test's render allows past the guard. ``Trap`` is a
TCP (or UDP) listener that counts every connection (datagram) that arrives: the SSRF tests
assert that the count stays 0.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, NamedTuple


class Route(NamedTuple):
    body: bytes = b""
    status: int = 200
    headers: tuple[tuple[str, str], ...] = (("Content-Type", "text/html; charset=utf-8"),)
    stall: float = 0.0  # seconds before answering (until the server stops, if longer)


class App:
    """An HTTP server on 127.0.0.1 serving a few routes; ``paths`` lists what was asked."""

    def __init__(self) -> None:
        self.routes: dict[str, Route] = {}
        self.paths: list[str] = []
        self.stop = threading.Event()
        app = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                app.paths.append(self.path)
                route = app.routes.get(self.path.split("?")[0])
                if route is None and self.path.startswith("/spa/"):
                    route = app.routes.get("/spa/*")
                route = route or Route(b"no such page", 404, (("Content-Type", "text/plain"),))
                if route.stall and app.stop.wait(route.stall):
                    return
                self.send_response(route.status)
                for name, value in route.headers:
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(route.body)))
                self.end_headers()
                with contextlib.suppress(OSError):
                    self.wfile.write(route.body)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def origin(self) -> tuple[str, int]:
        return ("127.0.0.1", self.port)

    def url(self, path: str = "/") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def page(self, path: str, html: str, **kw: Any) -> str:
        self.routes[path] = Route(html.encode(), **kw)
        return self.url(path)

    def json(self, path: str, text: str, **kw: Any) -> str:
        self.routes[path] = Route(
            text.encode(), headers=(("Content-Type", "application/json"),), **kw
        )
        return self.url(path)

    def redirect(self, path: str, location: str) -> str:
        self.routes[path] = Route(b"", 302, (("Location", location),))
        return self.url(path)

    def close(self) -> None:
        self.stop.set()
        self.server.shutdown()
        self.server.server_close()


class Trap:
    """A listener that counts arrivals: TCP connections accepted, or UDP datagrams."""

    def __init__(self, host: str = "127.0.0.1", udp: bool = False) -> None:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        kind = socket.SOCK_DGRAM if udp else socket.SOCK_STREAM
        self.sock = socket.socket(family, kind)
        self.sock.bind((host, 0))
        self.port = self.sock.getsockname()[1]
        self.arrivals = 0
        if not udp:
            self.sock.listen(16)
        threading.Thread(target=self._count, args=(udp,), daemon=True).start()

    def _count(self, udp: bool) -> None:
        while True:
            try:
                if udp:
                    self.sock.recv(65536)
                else:
                    conn, _ = self.sock.accept()
                    conn.close()
            except OSError:
                return
            self.arrivals += 1

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()


class WebSocketHello:
    """A WebSocket server on 127.0.0.1 that greets each client with one text message."""

    GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    def __init__(self, greeting: str) -> None:
        self.greeting = greeting.encode()
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        import base64
        import hashlib

        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            with contextlib.suppress(OSError):
                head = b""
                while b"\r\n\r\n" not in head:
                    head += conn.recv(4096)
                key = next(
                    line.split(b":", 1)[1].strip()
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"sec-websocket-key:")
                )
                accept = base64.b64encode(hashlib.sha1(key + self.GUID.encode()).digest())
                conn.sendall(
                    b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                    b"Connection: Upgrade\r\nSec-WebSocket-Accept: " + accept + b"\r\n\r\n"
                )
                conn.sendall(bytes([0x81, len(self.greeting)]) + self.greeting)
                conn.recv(4096)  # until the browser closes

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()
