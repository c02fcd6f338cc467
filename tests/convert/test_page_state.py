"""``web-fetch-tool`` never reports a page without text as a silent success: the converter's
``Document.state`` becomes the fetch's verdict, a ``NO_CONTENT`` error that says why and what
would help (issues 20 and 22). The real executable, against a server on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from threading import Thread
from typing import Any

import pytest

PAGES = {
    "/shell": b"<html><head><title>App</title></head><body><div id='root'></div>"
    b"<script src='/bundle.js'></script></body></html>",
    "/empty": b"<html><head><title>Nothing</title></head><body></body></html>",
    "/story": b"<html><head><title>Ferry</title></head><body><main><h1>Ferry</h1>"
    + b"<p>The ferry to the island runs twice a day in winter, at eight and at four.</p>" * 5
    + b"</main></body></html>",
}


@pytest.fixture
def server(allow_private: None) -> Iterator[Any]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.server.paths.append(self.path)  # type: ignore[attr-defined]
            body = PAGES.get(self.path, b"")
            self.send_response(200 if body or self.path != "/robots.txt" else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.paths = []  # type: ignore[attr-defined]
    thread = Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()


def fetch(run_exe: Callable[..., Any], url: str) -> dict[str, Any]:
    result = run_exe("web-fetch-tool", stdin={"url": url}, timeout=30)
    assert result.returncode == 0 and result.stderr == ""
    return result.json


def url(server: Any, path: str) -> str:
    return f"http://127.0.0.1:{server.server_address[1]}{path}"


@pytest.mark.parametrize(
    ("path", "state", "retry_with", "said"),
    [
        ("/shell", "script_shell", "render", "JavaScript application shell"),
        ("/empty", "empty", "another_url", "holds no text"),
    ],
)
def test_a_page_without_text_says_why(
    server: Any, run_exe: Callable[..., Any], path: str, state: str, retry_with: str, said: str
) -> None:
    response = fetch(run_exe, url(server, path))
    assert response["success"] is False
    assert response["error_code"] == "NO_CONTENT"
    assert response["verdict"] == state
    assert (response["retryable"], response["retry_with"]) == (False, retry_with)
    assert said in response["error"]
    assert "content" not in response


def test_a_page_with_text_is_content(server: Any, run_exe: Callable[..., Any]) -> None:
    response = fetch(run_exe, url(server, "/story"))
    assert response["success"] is True
    assert "twice a day" in response["content"]
    assert "verdict" not in response


def test_a_shell_is_not_kept_in_the_page_cache(server: Any, run_exe: Callable[..., Any]) -> None:
    # The verdict must come back from the page itself on the next fetch (a later one may
    # render it): both fetches reach the server.
    for _ in range(2):
        assert fetch(run_exe, url(server, "/shell"))["verdict"] == "script_shell"
    assert server.paths.count("/shell") == 2
