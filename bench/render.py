"""Rendering a page in the guarded browser, beside the plain fetch of the same page (issue 21).

    .venv/bin/python bench/render.py [--runs 5] [--pages 30] [--tabs 3]

A light page built by script (a shell whose script writes ~2 KB of content) is served from
127.0.0.1; the guard stays on with only that origin allowed.

1. Cold: a fresh Python process renders it once through ``webtap.browser.render`` (start
   Chromium, render until settled, kill it), beside a fresh ``web-fetch-tool`` process fetching
   it plainly (what the executable costs today). Median wall time of ``--runs``.
2. Warm: pages/s through one long-lived ``Browser`` (one tab, then ``--tabs`` in parallel),
   beside in-process plain fetches (``webtap.tools.call("web_fetch")``, cache off).
3. Memory: peak PSS (proportional set size, so shared pages count once) of the browser's
   whole process tree during the warm renders, and its RSS sum, beside this process's own RSS.

A render always waits for the quiet spell that says the page has settled (0.3 s), so a
render's time is at least that: the ratios below are what a rendered page costs over a plain
one, not the driver's overhead (bench/render_drivers.py measures that).
"""

from __future__ import annotations

import argparse
import http.server
import json
import os
import resource
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

BIN = Path(sys.executable).parent
PAGE = (
    b"<!doctype html><html><head><title>Light</title></head><body><div id=root></div>"
    b"<script>document.getElementById('root').innerHTML = '<h1>Hello</h1>' + "
    b"'<p>Rendered by script, one paragraph of a light page.</p>'.repeat(40);</script>"
    b"</body></html>"
)

COLD_RENDER = """
import sys
from webtap.browser import render
from webtap.guard import Guard
port = int(sys.argv[1])
result = render(f"http://127.0.0.1:{port}/", deadline=30, guard=Guard(),
                origins={("127.0.0.1", port)})
assert result.outcome == "settled" and "Rendered by script" in result.html, result
"""


def serve() -> int:
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(PAGE)))
            self.end_headers()
            self.wfile.write(PAGE)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server.server_address[1]


def median_wall(argv: list[str], runs: int, env: dict[str, str], stdin: bytes = b"") -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, input=stdin, env=env, check=True, capture_output=True, timeout=120)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


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


class PeakMemory:
    """Samples the browser's process tree every 50 ms while running."""

    def __init__(self, browser: object) -> None:
        self.browser = browser
        self.peak = (0, 0)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        from webtap.browser.launch import session_members

        while not self.stop.wait(0.05):
            pid = self.browser.pid  # type: ignore[attr-defined]
            if pid is not None:
                now = memory_kb(session_members(pid))
                self.peak = max(self.peak, now)

    def __enter__(self) -> PeakMemory:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()


def warm(port: int, pages: int, tabs: int) -> dict[str, float]:
    from webtap.browser import Browser
    from webtap.guard import Guard
    from webtap.tools import call

    url = f"http://127.0.0.1:{port}/"
    origins = {("127.0.0.1", port)}
    os.environ["WEBTAP_CACHE"] = "off"
    os.environ["WEBTAP_ALLOW_NETWORKS"] = "127.0.0.1/32"
    out: dict[str, float] = {}
    with Browser(tabs=tabs) as browser, PeakMemory(browser) as peak:
        browser.render(url, deadline=30, guard=Guard(), origins=origins)  # start it
        start = time.perf_counter()
        for _ in range(pages):
            browser.render(url, deadline=30, guard=Guard(), origins=origins)
        out["render_one_tab"] = pages / (time.perf_counter() - start)

        def worker(count: int) -> None:
            for _ in range(count):
                browser.render(url, deadline=60, guard=Guard(), origins=origins)

        threads = [threading.Thread(target=worker, args=(pages // tabs,)) for _ in range(tabs)]
        start = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        out["render_tabs"] = (pages // tabs) * tabs / (time.perf_counter() - start)
    out["pss_mb"], out["rss_mb"] = (value / 1024 for value in peak.peak)
    start = time.perf_counter()
    for _ in range(pages):
        response = call("web_fetch", {"url": url}).response()
        assert response["success"], response
    out["fetch"] = pages / (time.perf_counter() - start)
    out["self_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--pages", type=int, default=30)
    parser.add_argument("--tabs", type=int, default=3)
    options = parser.parse_args()
    from webtap.browser import browser_path

    print(f"browser: {browser_path()}")
    port = serve()
    env = {**os.environ, "WEBTAP_CACHE": "off", "WEBTAP_ALLOW_NETWORKS": "127.0.0.1/32"}
    cold_render = median_wall([sys.executable, "-c", COLD_RENDER, str(port)], options.runs, env)
    request = json.dumps({"url": f"http://127.0.0.1:{port}/"}).encode()
    cold_fetch = median_wall([str(BIN / "web-fetch-tool")], options.runs, env, request)
    print(f"cold, fresh process (median of {options.runs}):")
    line("render (library, one-shot browser)", cold_render, "s", 3)
    line("plain fetch (web-fetch-tool)", cold_fetch, "s", 3)
    line("ratio render / fetch", cold_render / cold_fetch, "x")
    n = warm(port, options.pages, options.tabs)
    tabs = options.tabs
    print(f"warm ({options.pages} pages):")
    line("render, one long-lived browser, 1 tab", n["render_one_tab"], "pages/s")
    line(f"render, {tabs} tabs in parallel", n["render_tabs"], "pages/s")
    line("plain fetch, in process", n["fetch"], "pages/s")
    line("ratio fetch / render (1 tab)", n["fetch"] / n["render_one_tab"], "x")
    line(f"ratio fetch / render ({tabs} tabs)", n["fetch"] / n["render_tabs"], "x")
    print("memory:")
    line("browser tree, peak PSS", n["pss_mb"], "MB", 0)
    line("browser tree, peak RSS (summed)", n["rss_mb"], "MB", 0)
    line("this Python process, peak RSS", n["self_rss_mb"], "MB", 0)


def line(label: str, value: float, unit: str, digits: int = 1) -> None:
    print(f"  {label:<40}{value:8.{digits}f} {unit}")


if __name__ == "__main__":
    main()
