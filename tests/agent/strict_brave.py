"""A fake Brave Search that keeps the free plan's limit strictly: 1 request a second.

A request that arrives less than a second after the last one it accepted gets Brave's 429
``RATE_LIMITED`` answer (the recorded body and headers); an accepted one gets the recorded
results with ``X-RateLimit-*`` headers saying the second's request is used. Used by the rate
budget tests and ``bench/sql_batch.py``; counts what it answered.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).parents[1] / "fixtures" / "providers" / "brave"
PATH = "/res/v1/web/search"


class StrictBrave:
    """``start()`` it, point ``BRAVE_SEARCH_URL`` at ``.url``; ``accepted``/``refused`` count."""

    def __init__(self, per_second: int = 1, monthly_left: int = 1990) -> None:
        self.interval = 1.0 / per_second
        self.per_second = per_second
        self.monthly_left = monthly_left
        self.accepted = 0
        self.refused = 0
        self.keys: set[str] = set()
        self._last = float("-inf")
        self._lock = threading.Lock()
        self._results = (FIXTURES / "web_search_brave_search.json").read_bytes()
        self._limited = (FIXTURES / "error_429_rate_limited.json").read_bytes()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}{PATH}"

    def start(self) -> StrictBrave:
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def admit(self) -> bool:
        """Whether a request arriving now is within the limit (and count it)."""
        with self._lock:
            now = time.monotonic()
            if now - self._last < self.interval:
                self.refused += 1
                return False
            self._last = now
            self.accepted += 1
            return True

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                fake.keys.add(self.headers.get("X-Subscription-Token", ""))
                if fake.admit():
                    status, body = 200, fake._results
                    remaining = f"0, {fake.monthly_left}"
                else:
                    status, body = 429, fake._limited
                    remaining = f"0, {fake.monthly_left}"
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("X-RateLimit-Limit", f"{fake.per_second}, 2000")
                self.send_header("X-RateLimit-Remaining", remaining)
                self.send_header("X-RateLimit-Reset", "1, 1419704")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        return Handler


def results_count() -> int:
    return len(
        json.loads((FIXTURES / "web_search_brave_search.json").read_text())["web"]["results"]
    )
