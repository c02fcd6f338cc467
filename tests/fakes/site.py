"""One fake web site on 127.0.0.1, for the tests that need a real server behind a real socket.

``site.route(path, ...)`` says how a path answers: status and reason phrase, headers, body, and
misbehaviour: stall before answering, drip the body one byte at a time, no Content-Length, hang
up without a word, or ``raw`` bytes sent as the whole answer (status line, headers and body as
written, for answers no well-behaved server library would send: bad framing, two lengths;
dripped too, headers and all, with ``drip``).
``site.answer(path, function)`` serves the route ``function(seen_request)`` describes (a dict of
``Route``'s fields), for pages that answer differently each time (conditional requests).
A path is looked up with its query first, then without it (a search provider's endpoint).

The site records every request it gets (``log``, each with when it came), so a test can prove
that nothing was sent, or count the requests that arrived in any one second. A fetch a model
chose reads ``/robots.txt`` first (a 404 here unless routed: everything allowed); ``requests``
and ``paths()`` are the other requests, those for pages, and ``robots_reads()`` counts the
reads of robots.txt. It listens on
127.0.0.1, or on another address given (``host="127.0.0.2"``: a page on a loopback address of
its own, for tests that allow exactly that one past the SSRF guard).

    with Site.running() as site:
        url = site.page("/", "<title>Hi</title><p>hello</p>")
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["Route", "Seen", "Site"]


@dataclass
class Route:
    status: int = 200
    reason: str | None = None  # None: the standard phrase; "" sends an empty one
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    stall: float = 0.0  # seconds to wait before answering at all
    drip: float = 0.0  # seconds between single bytes of the body (of all of a raw answer)
    length: bool = True  # send Content-Length (else the body ends when the connection closes)
    hangup: bool = False  # close the connection without answering
    raw: bytes | None = None  # the whole answer, byte for byte; then the connection closes


@dataclass
class Seen:
    path: str
    headers: dict[str, str]
    at: float = 0.0  # when it arrived (time.monotonic())


class Site:
    def __init__(self, tls: Any = None, host: str = "127.0.0.1") -> None:
        self.routes: dict[str, Route | Callable[[Seen], dict[str, Any]]] = {}
        self.log: list[Seen] = []
        self.stop = threading.Event()
        site = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                headers = {k.lower(): v for k, v in self.headers.items()}
                seen = Seen(self.path, headers, time.monotonic())
                site.log.append(seen)
                route = site.routes.get(self.path) or site.routes.get(self.path.split("?")[0])
                route = route or Route(404, body=b"no such page")
                if callable(route):
                    route = Route(**route(seen))
                if route.stall and site.stop.wait(route.stall):
                    return
                self.close_connection = True
                if route.hangup:
                    return
                if route.raw is not None:
                    self.send(route.raw, route.drip)
                    return
                self.answer(route)

            def send(self, data: bytes, drip: float = 0.0) -> None:
                """``data``, whole or a byte at a time; a client that hangs up ends it."""
                try:
                    if not drip:
                        self.wfile.write(data)
                        return
                    for byte in data:
                        self.wfile.write(bytes([byte]))
                        self.wfile.flush()
                        if site.stop.wait(drip):
                            return
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def answer(self, route: Route) -> None:
                if route.reason == "":
                    self.wfile.write(f"HTTP/1.1 {route.status} \r\n".encode())
                else:
                    self.send_response_only(route.status, route.reason)
                headers = {"Connection": "close", **route.headers}
                if route.length and not route.drip:
                    headers.setdefault("Content-Length", str(len(route.body)))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.send(route.body, route.drip)

            def log_message(self, *args: Any) -> None:
                pass

        self.host = host
        self.server = ThreadingHTTPServer((host, 0), Handler)
        self.server.daemon_threads = True
        self.scheme = "http"
        if tls is not None:  # an ssl.SSLContext for the server side
            self.server.socket = tls.wrap_socket(self.server.socket, server_side=True)
            self.scheme = "https"
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @classmethod
    @contextmanager
    def running(cls, tls: Any = None, host: str = "127.0.0.1") -> Iterator[Site]:
        """A site serving until the block ends (``tls``: a server-side ``ssl.SSLContext``)."""
        site = cls(tls, host)
        site.thread.start()
        try:
            yield site
        finally:
            site.stop.set()
            site.server.shutdown()
            site.server.server_close()

    def url(self, path: str = "/", host: str | None = None) -> str:
        return f"{self.scheme}://{host or self.host}:{self.port}{path}"

    @property
    def origin(self) -> tuple[str, int]:
        """``(host, port)``: the one origin a browser test lets past the guard."""
        return (self.host, self.port)

    def route(self, path: str, body: bytes | str = b"", **kwargs: Any) -> str:
        """Serve ``body`` at ``path`` (``Route``'s other fields as keywords); returns its URL."""
        if isinstance(body, str):
            body = body.encode()
        kwargs.setdefault("headers", {})
        self.routes[path] = Route(body=body, **kwargs)
        return self.url(path)

    def page(self, path: str, html: str, content_type: str = "text/html; charset=utf-8") -> str:
        return self.route(path, html, headers={"Content-Type": content_type})

    def raw(self, path: str, answer: bytes, drip: float = 0.0) -> str:
        """Answer ``path`` with exactly ``answer`` (status line, headers, body), then hang up;
        with ``drip``, one byte every ``drip`` seconds."""
        return self.route(path, raw=answer, drip=drip)

    def answer(self, path: str, function: Callable[[Seen], dict[str, Any]]) -> str:
        """Serve each request to ``path`` as ``function(request)`` says: ``Route``'s fields."""
        self.routes[path] = function
        return self.url(path)

    @property
    def requests(self) -> list[Seen]:
        """The requests for pages so far, in order: all but robots.txt's."""
        return [seen for seen in self.log if seen.path != "/robots.txt"]

    def paths(self) -> list[str]:
        """The pages requested so far, in order (robots.txt apart)."""
        return [seen.path for seen in self.requests]

    def robots_reads(self) -> int:
        """How many times robots.txt was asked for."""
        return sum(seen.path == "/robots.txt" for seen in self.log)

    def arrivals(self) -> list[float]:
        """When each request so far arrived (``time.monotonic()``), in order."""
        return [seen.at for seen in list(self.requests)]

    def redirect(self, path: str, location: str, status: int = 302) -> str:
        return self.route(path, status=status, headers={"Location": location})
