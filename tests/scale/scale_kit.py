"""What the scale tests share: local pages, a fake Brave that records when each request arrives,
and the count a provider's limit is about (the most requests in any one second)."""

from __future__ import annotations

import gzip
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).parents[1] / "fixtures" / "providers" / "brave"
HERE = Path(__file__).parent
REAL_PAGES = sorted((HERE.parent / "convert" / "data").glob("*.html.gz"))
BRAVE_KEY = "BSA-scale-test-key-4e7a1c"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# -- pages -----------------------------------------------------------------------------------


def page(n: int) -> bytes:
    """A page with structure for the converter: headings, a list, a table, code, links."""
    rows = "".join(f"<tr><td>r{n}.{i}</td><td>{i * n}</td></tr>" for i in range(n % 5 + 1))
    items = "".join(f"<li>item {i} of page {n}</li>" for i in range(n % 4 + 2))
    return (
        f"<!doctype html><html><head><title>Page {n}</title></head><body>"
        f"<nav><a href='/'>home</a></nav><main><article><h1>Page number {n}</h1>"
        f"<p>This is <b>page {n}</b>, with <a href='/p{n + 1}'>a link</a> and some text "
        f"that a reader would want to keep. {'More words. ' * (n % 7 + 3)}</p>"
        f"<h2>List</h2><ul>{items}</ul><h2>Table</h2><table><tr><th>name</th><th>value</th>"
        f"</tr>{rows}</table><pre><code>print({n})\n</code></pre></article></main>"
        f"<footer>footer {n}</footer></body></html>"
    ).encode()


class Pages:
    """A threaded server of ``count`` pages: ``/p<n>`` generated, ``/real<n>`` the real pages
    in tests/convert/data, ``/missing`` a 404. ``hits`` counts requests per path, ``arrivals``
    records when each came (monotonic)."""

    def __init__(self, count: int = 50) -> None:
        self.count = count
        self.hits: dict[str, int] = {}
        self.arrivals: list[float] = []
        self._lock = threading.Lock()
        real = [gzip.decompress(path.read_bytes()) for path in REAL_PAGES]
        self.bodies = {f"/real{i}": body for i, body in enumerate(real)}
        for n in range(count - len(real)):
            self.bodies[f"/p{n}"] = page(n)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    @property
    def urls(self) -> list[str]:
        return [self.url(path) for path in self.bodies]

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}{path}"

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        pages = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                with pages._lock:
                    pages.hits[self.path] = pages.hits.get(self.path, 0) + 1
                    pages.arrivals.append(time.monotonic())
                body = pages.bodies.get(self.path)
                self.send_response(200 if body is not None else 404)
                body = body if body is not None else b"<html><body>not here</body></html>"
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        return Handler


PATH = "/res/v1/web/search"


def most_in_any_window(times: list[float], window: float = 1.0) -> int:
    """The most arrivals in any interval of ``window`` seconds."""
    times = sorted(times)
    best = first = 0
    for last, at in enumerate(times):
        while times[first] <= at - window:
            first += 1
        best = max(best, last - first + 1)
    return best


class WindowBrave:
    """``start()`` it, point ``BRAVE_SEARCH_URL`` at ``.url``; ``arrivals`` are monotonic
    times. Its ``X-RateLimit-Limit`` says ``per_second``, as Brave's does."""

    def __init__(self, per_second: int = 5) -> None:
        self.per_second = per_second
        self.arrivals: list[float] = []
        self._lock = threading.Lock()
        self._body = (FIXTURES / "web_search_brave_search.json").read_bytes()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}{PATH}"

    def start(self) -> WindowBrave:
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def most_in_a_second(self) -> int:
        with self._lock:
            return most_in_any_window(self.arrivals)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                with fake._lock:
                    fake.arrivals.append(time.monotonic())
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("X-RateLimit-Limit", f"{fake.per_second}, 20000000")
                self.send_header("X-RateLimit-Remaining", f"{fake.per_second - 1}, 19999000")
                self.send_header("X-RateLimit-Reset", "1, 1419704")
                self.send_header("Content-Length", str(len(fake._body)))
                self.end_headers()
                self.wfile.write(fake._body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        return Handler


def brave_env(fake: Any, **extra: str) -> dict[str, str]:
    """What a worker needs to search the fake with the shared key at 5 requests a second."""
    return {
        "BRAVE_SEARCH_URL": fake.url,
        "BRAVE_API_KEY": BRAVE_KEY,
        "WEBTAP_BRAVE_RATE": "5",
        "WEBTAP_CACHE": "off",
        "WEBTAP_SEARCH_DEADLINE": "60",
        **extra,
    }
