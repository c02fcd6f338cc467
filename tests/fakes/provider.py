"""What the provider fakes share: a search provider played by a real HTTP server on 127.0.0.1.

A fake is a role a pytest-httpserver ``HTTPServer`` plays: the provider's endpoint on it, the
variables that point webtap at it, the credentials it expects, and its recorded answers
(:meth:`FakeProvider.answer`). Everything else is the server's own (``expect_request``,
``log``, ``clear``, ``url_for``, ``start``, ``stop``): a test scripts answers of its own on it
as on any pytest-httpserver. The fakes of one test may share one server, since each provider
answers on its own path (the suite's ``provider_server`` fixture).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, ClassVar, Self

from pytest_httpserver import HTTPServer
from tests.fakes.recorded import recorded
from werkzeug import Request, Response

__all__ = ["FakeProvider", "new_server"]


def new_server() -> HTTPServer:
    """A threaded server on 127.0.0.1, so that concurrent calls really are served concurrently
    (started: stop it when done). Quiet: werkzeug's line per request is not for a benchmark's
    output."""
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    server = HTTPServer(host="127.0.0.1", port=0, threaded=True)
    server.start()
    return server


class FakeProvider:
    """A search provider's endpoint on ``server``."""

    path: ClassVar[str]  # the endpoint's path
    endpoint_env: ClassVar[str]  # the variable that points webtap at it
    folder: ClassVar[str]  # its recorded answers: tests/fixtures/providers/<folder>/
    usual: ClassVar[str]  # the recorded answer it gives when asked for none in particular

    def __init__(self, server: HTTPServer) -> None:
        self.server = server
        self._handler: Callable[[Request], Response] | None = None
        self._registered: Any = None
        self.arrivals: list[float] = []  # when each request reached the endpoint (monotonic)
        self._lock = threading.Lock()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.server, name)  # expect_request, log, clear, url_for, start, stop...

    def url(self, path: str | None = None) -> str:
        """The endpoint's URL (or ``path``'s on the same server)."""
        return self.server.url_for(self.path if path is None else path)

    def credentials(self) -> dict[str, str]:
        """The variables holding the credentials the fake's provider takes."""
        return {}

    def environment(self) -> dict[str, str]:
        """Every variable webtap needs to search here: the endpoint and the credentials."""
        return {self.endpoint_env: self.url(), **self.credentials()}

    def answer(self, name: str | None = None, status: int | None = None) -> Self:
        """From now on, answer every request at the endpoint with the recorded answer ``name``
        (default: the usual success), with its recorded status and headers; ``status``
        overrides the status."""
        response = recorded(f"{self.folder}/{name or self.usual}")
        if status is not None:
            response.status_code = status
        return self.respond(lambda request: response)

    def respond(self, handler: Callable[[Request], Response]) -> Self:
        """From now on, answer every request at the endpoint with ``handler(request)``."""
        self._handler = handler
        if self._registered is None or self._registered not in self.server.handlers:
            self._registered = self.server.expect_request(self.path)
            self._registered.respond_with_handler(self._respond)
        return self

    def _respond(self, request: Request) -> Response:
        with self._lock:
            self.arrivals.append(time.monotonic())
        assert self._handler is not None
        return self._handler(request)

    def requests(self) -> list[Request]:
        """The requests the endpoint received, in order."""
        return [request for request, _ in self.server.log if request.path == self.path]
