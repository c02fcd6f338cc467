"""What a rendered page costs through webtap's front doors, beside the plain fetch (issue 21).

    .venv/bin/python bench/render.py [--runs 5] [--pages 30] [--parallel 3]

A light page built by script (a shell whose script writes ~2 KB of content) is served from
127.0.0.1, with ``WEBTAP_ALLOW_NETWORKS=127.0.0.1/32`` (the guard on, that one address allowed)
and the page cache off. In one run:

1. Cold, through the executable: a fresh ``web-fetch-tool`` fetches the shell with rendering as
   by default (``auto``: fetched, judged a shell, rendered in a browser started for it and
   killed), beside the same executable fetching it plainly (``WEBTAP_RENDER=off``: the shell,
   judged and refused as one) and fetching the same content rendered by the server in ``auto``
   (no browser: what auto adds to a page that needs none). Median wall time of ``--runs``.
2. Warm, through ``webtap mcp`` (one long-lived browser): pages/s of ``web_fetch`` calls on the
   shell, one at a time and ``--parallel`` in flight at once, beside the same calls on the
   server-rendered page (plain).
3. Memory: the peak PSS (shared pages counted once) and RSS of the browser's process tree
   during the warm renders, beside the server's own RSS.

A render waits for the quiet spell that says the page has settled (0.3 s), so a render costs at
least that: the ratios are what a rendered page costs over a plain one, not the driver's
overhead (bench/render_drivers.py measures that).
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
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parents[1]))  # the repository, for the suite's fakes

from tests.fakes.site import Site

BIN = Path(sys.executable).parent
SHELL = (
    b"<!doctype html><html><head><title>Light</title></head><body><div id=root></div>"
    b"<script>document.getElementById('root').innerHTML = '<h1>Hello</h1>' + "
    b"'<p>Rendered by script, one paragraph of a light page.</p>'.repeat(40);</script>"
    b"</body></html>"
)
SERVED = (
    b"<!doctype html><html><head><title>Light</title></head><body><h1>Hello</h1>"
    + b"<p>Rendered by the server, one paragraph of a light page.</p>" * 40
    + b"</body></html>"
)


def cold(url: str, runs: int, env: dict[str, str], expect: str) -> float:
    """Median wall time of a fresh ``web-fetch-tool`` fetching ``url``."""
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(
            [str(BIN / "web-fetch-tool")],
            input=json.dumps({"url": url}).encode(),
            env=env,
            check=True,
            capture_output=True,
            timeout=120,
        )
        samples.append(time.perf_counter() - start)
        assert expect in done.stdout.decode(), done.stdout
    return statistics.median(samples)


class Mcp:
    """``webtap mcp`` over raw JSON-RPC on stdio; calls may be sent before answers are read."""

    def __init__(self, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            [str(BIN / "webtap"), "mcp"],
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        self.ids = 0
        self.wait([self.send("initialize", _HELLO)])
        self.write({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def write(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def send(self, method: str, params: dict[str, Any]) -> int:
        self.ids += 1
        self.write({"jsonrpc": "2.0", "id": self.ids, "method": method, "params": params})
        return self.ids

    def fetch(self, arguments: dict[str, Any]) -> int:
        return self.send("tools/call", {"name": "web_fetch", "arguments": arguments})

    def wait(self, ids: list[int]) -> list[dict[str, Any]]:
        assert self.process.stdout is not None
        pending, answers = set(ids), []
        while pending:
            message = json.loads(self.process.stdout.readline())
            if message.get("id") in pending:
                pending.discard(message["id"])
                answers.append(message)
        return answers

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)


_HELLO = {
    "protocolVersion": "2025-06-18",
    "capabilities": {},
    "clientInfo": {"name": "bench", "version": "1"},
}


SERVED_URL = [""]  # the server-rendered page's URL, once served


def pages_per_second(server: Mcp, arguments: dict[str, Any], pages: int, parallel: int) -> float:
    """``pages`` calls, ``parallel`` in flight at a time; each answer checked."""
    start = time.perf_counter()
    for first in range(0, pages, parallel):
        batch = min(parallel, pages - first)
        answers = server.wait([server.fetch(arguments) for _ in range(batch)])
        for answer in answers:
            result = answer["result"]["structuredContent"]
            assert result["success"], result
            assert bool(result.get("rendered")) is (arguments["url"] != SERVED_URL[0]), result
    return pages / (time.perf_counter() - start)


def memory_kb(pids: list[int]) -> tuple[int, int]:
    """(PSS, RSS) summed over ``pids``, in kB."""
    pss = rss = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/smaps_rollup") as handle:
                for line in handle:
                    if line.startswith("Pss:"):
                        pss += int(line.split()[1])
                    elif line.startswith("Rss:"):
                        rss += int(line.split()[1])
        except OSError:
            pass
    return pss, rss


def children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as handle:
                found += [int(child) for child in handle.read().split()]
    except OSError:
        pass
    return found


class PeakMemory:
    """Samples the server's browser tree (every session a child of it leads) every 50 ms."""

    def __init__(self, server_pid: int) -> None:
        self.server_pid = server_pid
        self.peak = (0, 0)
        self.server_rss = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        from webtap.browser.launch import session_members

        while not self.stop.wait(0.05):
            tree = [pid for child in children(self.server_pid) for pid in session_members(child)]
            self.peak = max(self.peak, memory_kb(tree))
            self.server_rss = max(self.server_rss, memory_kb([self.server_pid])[1])

    def __enter__(self) -> PeakMemory:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--pages", type=int, default=30)
    parser.add_argument("--parallel", type=int, default=3)
    options = parser.parse_args()
    from webtap.browser import browser_path

    print(f"browser: {browser_path()}")
    site = Site()
    site.thread.start()
    html = {"Content-Type": "text/html; charset=utf-8"}
    shell, served = (
        site.route("/", SHELL, headers=html),
        site.route("/served", SERVED, headers=html),
    )
    SERVED_URL[0] = served
    env = {
        **os.environ,
        "WEBTAP_CACHE": "off",
        "WEBTAP_ALLOW_NETWORKS": "127.0.0.1/32",
        "WEBTAP_RENDER": "auto",
    }
    rendered = '"rendered": true'
    runs = options.runs
    cold_render = cold(shell, runs, env, rendered)
    cold_plain = cold(shell, runs, {**env, "WEBTAP_RENDER": "off"}, "application shell")
    cold_served = cold(served, runs, env, "Rendered by the server")
    print(f"cold, a fresh web-fetch-tool (median of {runs}):")
    line("shell, auto: rendered (one-shot browser)", cold_render, "s", 3)
    line("shell, plain (WEBTAP_RENDER=off: NO_CONTENT)", cold_plain, "s", 3)
    line("server-rendered page, auto (no browser)", cold_served, "s", 3)
    line("ratio rendered / server-rendered", cold_render / cold_served, "x")

    server = Mcp(env)
    try:
        pages, parallel = options.pages, options.parallel
        pages_per_second(server, {"url": shell}, parallel, parallel)  # start the browser
        with PeakMemory(server.process.pid) as peak:
            one = pages_per_second(server, {"url": shell}, pages, 1)
            many = pages_per_second(server, {"url": shell}, pages, parallel)
        plain_one = pages_per_second(server, {"url": served}, pages, 1)
        plain_many = pages_per_second(server, {"url": served}, pages, parallel)
    finally:
        server.close()
    print(f"warm, through webtap mcp ({pages} pages):")
    line("rendered, one call at a time", one, "pages/s")
    line(f"rendered, {parallel} calls in flight", many, "pages/s")
    line("server-rendered, one at a time", plain_one, "pages/s")
    line(f"server-rendered, {parallel} in flight", plain_many, "pages/s")
    line("ratio plain / rendered (one at a time)", plain_one / one, "x")
    line(f"ratio plain / rendered ({parallel} in flight)", plain_many / many, "x")
    print("memory, during the warm renders:")
    line("browser tree, peak PSS", peak.peak[0] / 1024, "MB", 0)
    line("browser tree, peak RSS (summed)", peak.peak[1] / 1024, "MB", 0)
    line("webtap mcp itself, peak RSS", peak.server_rss / 1024, "MB", 0)


def line(label: str, value: float, unit: str, digits: int = 1) -> None:
    print(f"  {label:<46}{value:8.{digits}f} {unit}")


if __name__ == "__main__":
    main()
