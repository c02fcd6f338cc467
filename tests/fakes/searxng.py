"""A fake SearXNG instance: ``GET {base}/search?q=…&format=json&pageno=…``.

No recorded answers exist for SearXNG in the shared data, so :data:`RESULTS` is its JSON as
SearXNG 2024+ answers ``format=json`` (every top-level field it sends; fields of a result that
webtap does not read trimmed). ``SEARXNG_URL`` is the instance's base address, which may carry
a user and password (:meth:`FakeSearxng.address`); :meth:`FakeSearxng.echo_headers` answers as a
proxy in front of the instance that echoes the request's headers in a plain-text error page.
"""

from __future__ import annotations

import base64
import json
from typing import Any
from urllib.parse import quote

from pytest_httpserver import HTTPServer
from tests.fakes.provider import FakeProvider
from werkzeug import Request, Response

__all__ = ["RESULTS", "FakeSearxng"]

RESULTS: dict[str, Any] = {
    "query": "duckdb",
    "number_of_results": 0,
    "results": [
        {
            "url": f"https://site{n}.example/",
            "title": f"Result {n}",
            "content": f"About {n}",
            "engine": "duckduckgo",
            "engines": ["duckduckgo", "brave"],
            "positions": [n],
            "score": 4.0 / n,
            "category": "general",
        }
        for n in range(1, 9)
    ],
    "answers": [],
    "corrections": [],
    "infoboxes": [],
    "suggestions": ["duckdb python"],
    "unresponsive_engines": [],
}


class FakeSearxng(FakeProvider):
    endpoint_env = "SEARXNG_URL"

    def __init__(self, server: HTTPServer, base: str = "/") -> None:
        super().__init__(server)
        self.base = base
        self.path = base.rstrip("/") + "/search"

    def address(self, userinfo: str = "") -> str:
        """The instance's base address, as ``SEARXNG_URL`` holds it; with ``userinfo``
        ("alice:password", percent-encoded as a URL needs it) in front of the host."""
        url = self.server.url_for(self.base)
        return url.replace("://", f"://{userinfo}@", 1) if userinfo else url

    def environment(self) -> dict[str, str]:
        return {self.endpoint_env: self.address()}

    def answer(self, body: Any = None, status: int = 200) -> FakeSearxng:  # type: ignore[override]
        """From now on, answer every search with ``body`` (default :data:`RESULTS`) as JSON."""
        data = json.dumps(RESULTS if body is None else body)
        response = Response(data, status=status, content_type="application/json")
        return self.respond(lambda request: response)  # type: ignore[return-value]

    def echo_headers(self, status: int = 401) -> FakeSearxng:
        """From now on, answer every search as a proxy in front of the instance that refuses
        it with a plain-text page echoing the request's ``Authorization`` header first, then
        the credentials in it decoded and URL-encoded, then the other headers (as some
        proxies' debugging pages do)."""

        def echo(request: Request) -> Response:
            lines = [
                f"{status} Unauthorized: Authorization: {request.headers.get('Authorization')}"
            ]
            scheme, _, token = request.headers.get("Authorization", "").partition(" ")
            if scheme == "Basic":
                decoded = base64.b64decode(token).decode("utf-8", "replace")
                lines += [f"credentials {decoded}", f"as URL {quote(decoded, safe='')}"]
            lines += [f"{name}: {value}" for name, value in request.headers.items()]
            return Response("\n".join(lines), status=status, content_type="text/plain")

        return self.respond(echo)  # type: ignore[return-value]
