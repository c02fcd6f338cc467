"""``web-fetch-tool`` never reports a page without text as a silent success: the converter's
``Document.state`` comes back as ``page_state``, a one-line note. The real executable, against
a server on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from threading import Thread
from typing import Any

import pytest

from webtap.convert import STATE_NOTES

PAGES = {
    "/shell": b"<html><head><title>App</title></head><body><div id='root'></div>"
    b"<script src='/bundle.js'></script></body></html>",
    "/empty": b"<html><head><title>Nothing</title></head><body></body></html>",
    "/story": b"<html><head><title>Ferry</title></head><body><main><h1>Ferry</h1>"
    + b"<p>The ferry to the island runs twice a day in winter, at eight and at four.</p>" * 5
    + b"</main></body></html>",
}


@pytest.fixture
def server(allow_private: None) -> Iterator[str]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = PAGES.get(self.path, b"")
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def fetch(run_exe: Callable[..., Any], url: str) -> dict[str, Any]:
    result = run_exe("web-fetch-tool", stdin={"url": url}, timeout=30)
    assert result.returncode == 0 and result.stderr == ""
    return result.json


@pytest.mark.parametrize(("path", "state"), [("/shell", "script_shell"), ("/empty", "empty")])
def test_a_page_without_text_says_why(server: str, run_exe: Callable[..., Any], path, state):
    response = fetch(run_exe, server + path)
    assert response["success"] is True
    assert response["page_state"] == f"{state}: {STATE_NOTES[state]}"


def test_a_page_with_text_has_no_page_state(server: str, run_exe: Callable[..., Any]) -> None:
    response = fetch(run_exe, server + "/story")
    assert "twice a day" in response["content"]
    assert "page_state" not in response


def test_a_shell_is_not_kept_in_the_page_cache(server: str, run_exe: Callable[..., Any]):
    # The note must come back on the next fetch (a later one may render the page).
    fetch(run_exe, server + "/shell")
    assert fetch(run_exe, server + "/shell")["page_state"].startswith("script_shell: ")
