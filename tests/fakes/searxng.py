"""A fake SearXNG instance: ``GET {base}/search?q=…&format=json&pageno=…``.

No recorded answers exist for SearXNG in the shared data, so :data:`RESULTS` is its JSON as
SearXNG 2024+ answers ``format=json`` (every top-level field it sends; fields of a result that
webtap does not read trimmed). ``SEARXNG_URL`` is the instance's base address, which may carry
a user and password (:meth:`FakeSearxng.address`); :meth:`FakeSearxng.echo_headers` answers as a
misconfigured instance or proxy that echoes the request's headers in an HTML error page.
"""

from __future__ import annotations

import base64
import html
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
        """From now on, answer every search with an HTML error page that lists the headers the
        request came with, ``Authorization`` included, and the credentials it carries decoded
        and URL-encoded (as some proxies' debugging error pages do)."""

        def echo(request: Request) -> Response:
            shown = list(request.headers.items())
            scheme, _, token = request.headers.get("Authorization", "").partition(" ")
            if scheme == "Basic":
                decoded = base64.b64decode(token).decode("utf-8", "replace")
                shown += [("credentials", decoded), ("credentials (URL)", quote(decoded, safe=""))]
            rows = "".join(
                f"<tr><td>{html.escape(name)}</td><td>{html.escape(value)}</td></tr>"
                for name, value in shown
            )
            page = f"<html><body><h1>{status} Unauthorized</h1><table>{rows}</table></body></html>"
            return Response(page, status=status, content_type="text/html")

        return self.respond(echo)  # type: ignore[return-value]
