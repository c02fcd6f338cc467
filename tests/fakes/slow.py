"""A page on 127.0.0.1 that is asked for and never answered: work a stop signal must cut short."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class SlowSite(ThreadingHTTPServer):
    """Every page is asked for and held until ``released`` (at most ``hold`` seconds):
    ``asked`` is set at the first request, ``hits`` counts them."""

    daemon_threads = True

    def __init__(self, hold: float = 300) -> None:
        self.asked = threading.Event()
        self.released = threading.Event()
        self.hits = 0
        site = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                site.hits += 1
                site.asked.set()
                site.released.wait(hold)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        super().__init__(("127.0.0.1", 0), Handler)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/slow"
