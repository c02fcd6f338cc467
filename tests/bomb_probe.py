"""Run one body-reading path against a local server that answers with a 1.6 KB brotli body
expanding to 1 GiB; print the peak memory growth (MB) and the error, as JSON.

Used by tests/test_hardening.py in a subprocess (peak RSS is per process) and runnable by hand:
``python tests/bomb_probe.py search|anthropic|fetch``.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

BOMB = (Path(__file__).parent / "fixtures" / "bombs" / "zeros-1GiB.br").read_bytes()


class Bomb(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    requests = 0

    def _answer(self) -> None:
        # robots.txt (a model's fetch reads it first) is a bomb too, read only to its cap; the
        # requests counted are the page's.
        Bomb.requests += self.path != "/robots.txt"
        length = int(self.headers.get("content-length") or 0)
        self.rfile.read(length)
        self.send_response(200)
        for name, value in (
            ("Content-Type", "application/json"),
            ("Content-Encoding", "br"),
            ("Content-Length", str(len(BOMB))),
        ):
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(BOMB)

    do_GET = do_POST = _answer

    def log_message(self, *args: object) -> None:
        pass


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def main(case: str) -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Bomb)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    os.environ.update(
        BRAVE_SEARCH_URL=f"{url}/res/v1/web/search",
        BRAVE_API_KEY="BSA-bomb-probe-key",
        ANTHROPIC_BASE_URL=url,
        ANTHROPIC_API_KEY="sk-ant-bomb-probe-key",
        WEBTAP_ALLOW_PRIVATE_NETWORKS="1",
        WEBTAP_MAX_BYTES=str(50 * 1024 * 1024),
    )
    from webtap import agent, tools
    from webtap.errors import WebtapError

    if case == "anthropic":
        import anthropic  # noqa: F401  imported before the baseline, as the others' modules
    tools.call("web_fetch", {"url": "http://127.0.0.1:1/"})  # imports the fetch path
    before = peak_mb()
    if case == "search":
        error = tools.call("web_search_brave", {"query": "bomb"}).error
    elif case == "fetch":
        error = tools.call("web_fetch", {"url": f"{url}/page"}).error
    else:
        settings = agent.AskSettings(max_retries=2, store_events=False, max_tool_calls=0)
        try:
            agent.ask("bomb?", settings=settings)
            error = None
        except WebtapError as exc:
            error = exc.message
    growth = round(peak_mb() - before, 1)
    print(json.dumps({"growth_mb": growth, "error": error, "requests": Bomb.requests}))


if __name__ == "__main__":
    main(sys.argv[1])
