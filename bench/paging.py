"""Paging through a long page with ``web-fetch-tool``: the converted-page cache against ten
full fetches, measured in the same run.

    .venv/bin/python bench/paging.py [--runs 3] [--steps 10] [--limit 500] [--delay 0]
                                     [--page synthetic|docs] [--data DIR]

A 127.0.0.1 server answers with a long page (``--page synthetic``: a 5,000-item list, 5,000
lines of Markdown; ``--page docs``: the largest page in ``DIR/html/docs/``, the Python manual's
built-in types, 700 KB of HTML; ``DIR`` defaults to ``../shared/data`` beside the repository)
after ``--delay`` seconds. One round is
``--steps`` calls of the executable, ``offset`` 1, 501, 1001, ... with ``limit`` 500, as an
agent reads a page:

- **cached**: a fresh cache folder, the default settings: one download and one conversion,
  then every step is served from the cache;
- **uncached**: ``WEBTAP_CACHE=off``, which is what every call cost before the cache: each step
  downloads and converts the whole page (ten full fetches);
- **floor**: ``web-fetch-tool --schema`` as many times, the cost of starting the executable;
- **tool floor**: as many calls that end before any fetch (``ftp://`` is an invalid URL): start-up,
  reading and validating the request, importing the fetch module, answering. A step served from
  the cache costs this and the cache lookup.

The same two rounds also run in process (``webtap.fetch.web_fetch``, as the MCP server and the
ask loop call it), where no start-up hides what the cache saves. Best and median of ``--runs``
rounds; the ratio uncached/cached is the cache's gain. Requests counted by the server prove one
request per cached round.
"""

from __future__ import annotations

import argparse
import gzip
import http.server
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import shared_data
from timing import timed

ROOT = Path(__file__).resolve().parents[1]
TOOL = str(Path(sys.executable).parent / "web-fetch-tool")


def synthetic_page(items: int = 5000) -> bytes:
    rows = "".join(
        f'<li>Item {n}: <a href="/items/{n}">a link</a> and some words about it</li>'
        for n in range(1, items + 1)
    )
    return f"<html><head><title>Long</title></head><body><ol>{rows}</ol></body></html>".encode()


def docs_page(data: Path) -> bytes:
    return shared_data.need(data, "html/docs", "python-library-stdtypes.html").read_bytes()


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, body: bytes, delay: float) -> None:
        self.body = gzip.compress(body, 6)
        self.delay = delay
        self.requests = 0
        super().__init__(("127.0.0.1", 0), Handler)


class Handler(http.server.BaseHTTPRequestHandler):
    server: Server
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def do_GET(self) -> None:
        self.server.requests += 1
        time.sleep(self.server.delay)
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(self.server.body)))
        self.send_header("ETag", '"v1"')
        self.end_headers()
        self.wfile.write(self.server.body)

    def log_message(self, *args: object) -> None:
        pass


def run_tool(stdin: bytes, env: dict[str, str], *args: str) -> bytes:
    proc = subprocess.run([TOOL, *args], input=stdin, capture_output=True, env=env, check=True)
    return proc.stdout


def paging_round(url: str, steps: int, limit: int, env: dict[str, str]) -> int:
    """Read the page in ``steps`` calls; returns the total lines the tool reported."""
    total = 0
    for step in range(steps):
        request = f'{{"url": "{url}", "offset": {1 + step * limit}, "limit": {limit}}}'
        out = run_tool(request.encode(), env)
        if b'"success": true' not in out:
            sys.exit(f"bench/paging.py: the tool failed: {out[:300]!r}")
        total = int(out.rsplit(b'"total_lines": ', 1)[1].split(b"}")[0].split(b",")[0])
    return total


def in_process_round(url: str, steps: int, limit: int, env: dict[str, str]) -> None:
    from webtap.fetch import web_fetch

    saved = dict(os.environ)
    os.environ.update(env)
    try:
        for step in range(steps):
            web_fetch({"url": url, "offset": 1 + step * limit, "limit": limit})
    finally:
        os.environ.clear()
        os.environ.update(saved)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--limit", type=int, default=500)
    parser.add_argument("--delay", type=float, default=0.0, help="server latency, seconds")
    parser.add_argument("--page", choices=["synthetic", "docs"], default="synthetic")
    shared_data.add_argument(parser)
    args = parser.parse_args()

    body = synthetic_page() if args.page == "synthetic" else docs_page(args.data)
    server = Server(body, args.delay)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/long"
    base = {**os.environ, "WEBTAP_ALLOW_PRIVATE_NETWORKS": "1"}
    base.pop("WEBTAP_CACHE", None)

    with tempfile.TemporaryDirectory() as scratch:
        rounds = iter(range(10**6))

        def cached() -> None:
            folder = Path(scratch) / f"cache-{next(rounds)}"  # a cold cache every round
            before = server.requests
            paging_round(url, args.steps, args.limit, {**base, "WEBTAP_CACHE_DIR": str(folder)})
            if server.requests - before != 1:
                sys.exit(f"bench/paging.py: {server.requests - before} requests in a cached round")

        def uncached() -> None:
            paging_round(url, args.steps, args.limit, {**base, "WEBTAP_CACHE": "off"})

        def floor() -> None:
            for _ in range(args.steps):
                run_tool(b"", base, "--schema")

        def tool_floor() -> None:
            for _ in range(args.steps):
                run_tool(b'{"url": "ftp://example.com/"}', base)

        def cached_in_process() -> None:
            folder = Path(scratch) / f"cache-{next(rounds)}"
            in_process_round(url, args.steps, args.limit, {"WEBTAP_CACHE_DIR": str(folder)})

        def uncached_in_process() -> None:
            in_process_round(url, args.steps, args.limit, {"WEBTAP_CACHE": "off"})

        lines = paging_round(url, 1, args.limit, {**base, "WEBTAP_CACHE": "off"})  # warm-up
        os.environ["WEBTAP_ALLOW_PRIVATE_NETWORKS"] = "1"
        os.environ.pop("WEBTAP_CACHE", None)
        uncached_in_process()  # warm-up: imports
        rounds_of = {
            "cached (one download)": cached,
            "uncached (WEBTAP_CACHE=off)": uncached,
            "floor (--schema)": floor,
            "tool floor (no fetch)": tool_floor,
            "in process, cached": cached_in_process,
            "in process, uncached": uncached_in_process,
        }
        # Warmed up above, once for all: a round of its own per action would only add time.
        results = {
            label: timed(action, args.runs, warm_up=False) for label, action in rounds_of.items()
        }
    server.shutdown()

    print(
        f"{args.page} page: {len(body) / 1e3:.0f} KB of HTML, {lines} lines of Markdown; "
        f"{args.steps} calls of {args.limit} lines, server delay {args.delay * 1e3:.0f} ms, "
        f"best/median of {args.runs} rounds"
    )
    print(f"{'round':<30}{'best s':>9}{'median s':>10}{'per call ms':>13}")
    for name, (best, median) in results.items():
        print(f"{name:<30}{best:>9.3f}{median:>10.3f}{best / args.steps * 1e3:>13.1f}")
    cached_best = results["cached (one download)"][0]
    uncached_best = results["uncached (WEBTAP_CACHE=off)"][0]
    tool_best = results["tool floor (no fetch)"][0]
    print(f"uncached / cached: {uncached_best / cached_best:.2f}x (executable)", end="; ")
    in_cached = results["in process, cached"][0]
    in_uncached = results["in process, uncached"][0]
    print(f"{in_uncached / in_cached:.1f}x (in process)")
    print(
        f"cached over the tool floor: {(cached_best - tool_best) / args.steps * 1e3:.1f} ms a "
        f"call; uncached over it: {(uncached_best - tool_best) / args.steps * 1e3:.1f} ms"
    )


if __name__ == "__main__":
    main()
