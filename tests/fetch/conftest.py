"""A real web site on 127.0.0.1 for the fetch tests, and a helper that runs web-fetch-tool.

``site.route(path, ...)`` says how a path answers: status and reason phrase, headers, body,
and misbehaviour (stall before answering, drip the body one byte at a time, no Content-Length).
The server records every request it gets, so a test can prove that nothing was sent.
``site.answer(path, function)`` serves the route ``function(seen_request)`` describes (a dict of
``Route``'s fields), for pages that answer differently each time (conditional requests).
"""

from __future__ import annotations

import json
import shutil
import socket
import ssl
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest


@dataclass
class Route:
    status: int = 200
    reason: str | None = None  # None: the standard phrase; "" sends an empty one
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    stall: float = 0.0  # seconds to wait before answering at all
    drip: float = 0.0  # seconds between single bytes of the body (after the headers)
    length: bool = True  # send Content-Length (else the body ends when the connection closes)
    hangup: bool = False  # close the connection without answering


@dataclass
class Seen:
    path: str
    headers: dict[str, str]


class Site:
    def __init__(self, tls: Any = None) -> None:
        self.routes: dict[str, Route | Callable[[Seen], dict[str, Any]]] = {}
        self.requests: list[Seen] = []
        self.stop = threading.Event()
        site = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                seen = Seen(self.path, {k.lower(): v for k, v in self.headers.items()})
                site.requests.append(seen)
                route = site.routes.get(self.path) or Route(404, body=b"no such page")
                if callable(route):
                    route = Route(**route(seen))
                if route.stall and site.stop.wait(route.stall):
                    return
                if route.hangup:
                    self.close_connection = True
                    return
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
                self.close_connection = True
                try:
                    if route.drip:
                        for byte in route.body:
                            self.wfile.write(bytes([byte]))
                            self.wfile.flush()
                            if site.stop.wait(route.drip):
                                return
                    else:
                        self.wfile.write(route.body)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.scheme = "http"
        if tls is not None:  # an ssl.SSLContext for the server side
            self.server.socket = tls.wrap_socket(self.server.socket, server_side=True)
            self.scheme = "https"
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def url(self, path: str = "/", host: str = "127.0.0.1") -> str:
        return f"{self.scheme}://{host}:{self.port}{path}"

    def route(self, path: str, body: bytes | str = b"", **kwargs: Any) -> str:
        """Serve ``body`` at ``path``; returns the path's URL."""
        if isinstance(body, str):
            body = body.encode()
        kwargs.setdefault("headers", {})
        self.routes[path] = Route(body=body, **kwargs)
        return self.url(path)

    def page(self, path: str, html: str, content_type: str = "text/html; charset=utf-8") -> str:
        return self.route(path, html, headers={"Content-Type": content_type})

    def answer(self, path: str, function: Callable[[Seen], dict[str, Any]]) -> str:
        """Serve each request to ``path`` as ``function(request)`` says: ``Route``'s fields."""
        self.routes[path] = function
        return self.url(path)

    def paths(self) -> list[str]:
        """The paths requested so far, in order."""
        return [seen.path for seen in self.requests]

    def redirect(self, path: str, location: str, status: int = 302) -> str:
        return self.route(path, status=status, headers={"Location": location})


@pytest.fixture
def site() -> Iterator[Site]:
    server = Site()
    server.thread.start()
    yield server
    server.stop.set()
    server.server.shutdown()
    server.server.server_close()


@pytest.fixture(scope="session")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """A self-signed certificate for the name ``public.test``: (cert file, key file)."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl is needed to make a test certificate")
    folder = tmp_path_factory.mktemp("tls")
    cert, key = str(folder / "cert.pem"), str(folder / "key.pem")
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-keyout",
            key,
            "-out",
            cert,
            "-days",
            "2",
            "-subj",
            "/CN=public.test",
            "-addext",
            "subjectAltName=DNS:public.test",
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


@pytest.fixture
def tls_site(certificate: tuple[str, str]) -> Iterator[Site]:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(*certificate)
    server = Site(tls=context)
    server.thread.start()
    yield server
    server.stop.set()
    server.server.shutdown()
    server.server.server_close()


@pytest.fixture
def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (bound, then closed)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def fetch_tool(run_exe: Callable[..., Any]) -> Callable[..., dict[str, Any]]:
    """Run web-fetch-tool on a request; it must exit 0 without a traceback.

    Returns the JSON response, with ``_seconds`` (how long the run took) added.
    """

    def run(url: str, env: dict[str, str] | None = None, **fields: Any) -> dict[str, Any]:
        started = time.monotonic()
        result = run_exe("web-fetch-tool", stdin={"url": url, **fields}, env=env, timeout=30)
        assert result.returncode == 0, result.stderr
        assert "Traceback" not in result.stderr
        assert result.stderr == ""
        response = result.json
        assert set(response) <= {
            "success",
            "url",
            "title",
            "content",
            "total_lines",
            "content_mode",
            "page_state",
            "error",
            "error_code",
        }
        response["_seconds"] = time.monotonic() - started
        return response

    return run


@pytest.fixture
def fetch_call() -> Callable[..., dict[str, Any]]:
    """The same handler in process (``webtap.tools.call``, as the MCP server and ask loop run
    it): for the variants of a case whose first variant runs the real executable."""
    from webtap.tools import call

    def run(url: str, env: dict[str, str] | None = None, **fields: Any) -> dict[str, Any]:
        with pytest.MonkeyPatch.context() as patch:
            for name, value in (env or {}).items():
                patch.setenv(name, value)
            started = time.monotonic()
            response = json.loads(json.dumps(call("web_fetch", {"url": url, **fields}).response()))
        response["_seconds"] = time.monotonic() - started
        return response

    return run


@pytest.fixture
def runner(request: pytest.FixtureRequest) -> Callable[[str], Callable[..., dict[str, Any]]]:
    """``runner("exe")`` is :func:`fetch_tool`, ``runner("call")`` is :func:`fetch_call`."""
    return lambda how: request.getfixturevalue({"exe": "fetch_tool", "call": "fetch_call"}[how])
