"""Fetch a local 200 KB page through one long-lived ``webtap mcp`` session, beside the same fetch
through a fresh ``web-fetch-tool`` process each time.

    .venv/bin/python bench/mcp.py [--calls N]

Prints the median wall time per fetch of each and their ratio. The page is served from
127.0.0.1, so the numbers are webtap's own cost: process start and imports for the fresh tool,
the MCP round trip for the server.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

# Run as a script, this file's folder comes first on sys.path, and this file is named mcp.py:
# without this it would stand in for the mcp package it measures.
if Path(sys.path[0] or ".").resolve() == Path(__file__).parent.resolve():
    del sys.path[0]

import anyio

BIN = Path(sys.executable).parent
PAGE_BYTES = 200 * 1024


def make_page(size: int = PAGE_BYTES) -> bytes:
    """An article-like page: headings, paragraphs with links and emphasis, lists, a table."""
    parts = ["<html><head><title>Bench page</title></head><body><h1>Bench page</h1>"]
    section = 0
    while sum(map(len, parts)) < size:
        section += 1
        parts.append(f"<h2>Section {section}</h2>")
        parts.append(
            f"<p>Paragraph {section} with <a href='/doc/{section}'>a link</a>, <em>emphasis</em> "
            "and <strong>strong words</strong>, long enough to wrap across a line or two of "
            "text as an ordinary article would.</p>"
        )
        parts.append("<ul>" + "".join(f"<li>item {i}</li>" for i in range(5)) + "</ul>")
        parts.append(
            "<table><tr><th>a</th><th>b</th></tr>"
            + "".join(f"<tr><td>{i}</td><td>{i * i}</td></tr>" for i in range(3))
            + "</table>"
        )
    parts.append("</body></html>")
    return "".join(parts).encode()


def serve(page: bytes) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def fresh_process(url: str, calls: int, env: dict[str, str]) -> tuple[list[float], dict]:
    times, response = [], {}
    request = json.dumps({"url": url}).encode()
    for _ in range(calls):
        start = time.perf_counter()
        done = subprocess.run(
            [str(BIN / "web-fetch-tool")], input=request, capture_output=True, env=env, check=True
        )
        times.append(time.perf_counter() - start)
        response = json.loads(done.stdout)
    return times, response


async def mcp_session(url: str, calls: int, env: dict[str, str]) -> tuple[list[float], dict]:
    from mcp.client.stdio import StdioServerParameters

    from mcp import Client

    # --max-lines 0: the whole page, as the fresh tool returns it.
    server = StdioServerParameters(
        command=str(BIN / "webtap"), args=["mcp", "--max-lines", "0"], env=env
    )
    times, response = [], {}
    async with Client(server, mode="legacy") as client:
        await client.call_tool("web_fetch", {"url": url})  # warm: imports on first use
        for _ in range(calls):
            start = time.perf_counter()
            result = await client.call_tool("web_fetch", {"url": url})
            times.append(time.perf_counter() - start)
            response = result.structured_content
    return times, response


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=20, help="fetches of each kind (default 20)")
    args = parser.parse_args()

    page = make_page()
    server = serve(page)
    url = f"http://127.0.0.1:{server.server_address[1]}/page"
    env = dict(os.environ, WEBTAP_ALLOW_PRIVATE_NETWORKS="1")
    try:
        fresh_times, fresh = fresh_process(url, args.calls, env)
        mcp_times, served = anyio.run(mcp_session, url, args.calls, env)
    finally:
        server.shutdown()
    if not (fresh.get("success") and served.get("success")):
        print(f"a fetch failed: fresh={fresh.get('error')!r} mcp={served.get('error')!r}")
        return 1
    if fresh["content"] != served["content"]:
        print("the two ways returned different Markdown")
        return 1

    fresh_ms = statistics.median(fresh_times) * 1000
    mcp_ms = statistics.median(mcp_times) * 1000
    lines = served.get("total_lines", len(served["content"].splitlines()))
    print(
        f"page: {len(page) / 1024:.0f} KB of HTML -> {lines} lines of Markdown; {args.calls} calls"
    )
    print(f"fresh web-fetch-tool process   median {fresh_ms:8.1f} ms")
    print(f"one webtap mcp session (stdio) median {mcp_ms:8.1f} ms")
    print(f"ratio fresh / mcp: {fresh_ms / mcp_ms:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
