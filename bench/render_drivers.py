"""How to drive Chromium (issue 21): webtap's DevTools-pipe client beside Playwright and pychrome.

    .venv/bin/python bench/render_drivers.py [--pages 20] [--runs 3]

Playwright and pychrome are not webtap dependencies: each is measured only where it imports,
so run the script once per environment that has one (webtap's browser package needs nothing
outside the standard library and webtap itself, so ``PYTHONPATH=src`` in a venv holding only
the driver is enough):

    PYTHONPATH=src /tmp/pw/bin/python bench/render_drivers.py      # after pip install playwright
    PYTHONPATH=src /tmp/pc/bin/python bench/render_drivers.py      # after pip install pychrome

Every driver does the same work through the same guarded proxy (webtap's, allowing only the
page's origin): start the browser, then per page a new context, a tab, navigate and wait for
the load event, read ``outerHTML``, close the context. Measured: the driver's import time and
cold launch plus first page (fresh process, median of ``--runs``), warm pages/s in one browser,
memory (proportional set size, PSS, of the driver's own process plus every process of the
browser and, for Playwright, its Node driver), and the installed size of the driver.
"""

from __future__ import annotations

import argparse
import http.server
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

PAGE = (
    b"<!doctype html><html><head><title>Light</title></head><body><div id=root></div>"
    b"<script>document.getElementById('root').innerHTML = '<h1>Hello</h1>' + "
    b"'<p>Rendered by script.</p>'.repeat(40);</script></body></html>"
)


def serve() -> int:
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(PAGE)))
            self.end_headers()
            self.wfile.write(PAGE)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server.server_address[1]


def measure(one: Callable[[], str], pages: int, start: float) -> tuple[float, float, int]:
    """A driver's figures: seconds from ``start`` to the first page rendered (by ``one``),
    pages a second over ``pages`` more, and the PSS (KB) of this process and its browser."""
    assert "Rendered by script" in one()
    first = time.perf_counter() - start
    start = time.perf_counter()
    for _ in range(pages):
        one()
    rate = pages / (time.perf_counter() - start)
    return first, rate, pss_kb(tree(os.getpid()))


def pss_kb(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/smaps_rollup") as handle:
                for line in handle:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total


def tree(root: int) -> list[int]:
    """``root`` and every live descendant (from /proc)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as handle:
                    parents[int(entry)] = int(handle.read().rsplit(b")", 1)[1].split()[1])
            except OSError:
                pass
    found, stack = [], [root]
    while stack:
        pid = stack.pop()
        found.append(pid)
        stack += [child for child, parent in parents.items() if parent == pid]
    return found


# --- the drivers: each a function (url, pages) -> (first page seconds, warm pages/s, PSS kB) ---


def drive_pipe(url: str, pages: int, proxy: str, executable: str) -> tuple[float, float, int]:
    from webtap.browser.launch import BrowserProcess

    start = time.perf_counter()
    process = BrowserProcess(executable, proxy)
    conn = process.connection

    def one() -> str:
        context = conn.call("Target.createBrowserContext", {"disposeOnDetach": True}, timeout=30)
        context = context["browserContextId"]
        target = conn.call(
            "Target.createTarget", {"url": "about:blank", "browserContextId": context}, timeout=30
        )
        session = conn.call(
            "Target.attachToTarget", {"targetId": target["targetId"], "flatten": True}, timeout=30
        )["sessionId"]
        events = conn.events(session)
        conn.call("Page.enable", session=session, timeout=30)
        conn.call("Page.navigate", {"url": url}, session=session, timeout=30)
        while events.get(timeout=30)[0] != "Page.loadEventFired":
            pass
        html = conn.call(
            "Runtime.evaluate",
            {"expression": "document.documentElement.outerHTML", "returnByValue": True},
            session=session,
            timeout=30,
        )["result"]["value"]
        conn.forget(session)
        conn.call("Target.disposeBrowserContext", {"browserContextId": context}, timeout=30)
        return html

    first, rate, memory = measure(one, pages, start)
    process.kill()
    return first, rate, memory


def drive_playwright(url: str, pages: int, proxy: str, executable: str) -> tuple[float, float, int]:
    from playwright.sync_api import sync_playwright

    from webtap.browser.launch import chromium_args

    start = time.perf_counter()
    flags = [a for a in chromium_args("x", proxy) if a.startswith("--") and "user-data" not in a]
    flags = [a for a in flags if a not in ("--headless", "--remote-debugging-pipe")]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=flags, headless=True)

        def one() -> str:
            context = browser.new_context()
            page = context.new_page()
            page.goto(url, wait_until="load")
            html = page.evaluate("document.documentElement.outerHTML")
            context.close()
            return html

        first, rate, memory = measure(one, pages, start)
        browser.close()
    return first, rate, memory


def drive_pychrome(url: str, pages: int, proxy: str, executable: str) -> tuple[float, float, int]:
    import socket
    import tempfile

    import pychrome

    from webtap.browser.launch import chromium_args

    start = time.perf_counter()
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    profile = tempfile.mkdtemp()
    args = [a for a in chromium_args(profile, proxy) if a != "--remote-debugging-pipe"]
    chrome = subprocess.Popen(
        [executable, f"--remote-debugging-port={port}", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    browser = pychrome.Browser(url=f"http://127.0.0.1:{port}")
    while True:
        try:
            browser.version()
            break
        except Exception:
            time.sleep(0.02)

    def one() -> str:
        tab = browser.new_tab()  # pychrome's tabs open in the default context
        loaded = threading.Event()
        tab.start()
        tab.set_listener("Page.loadEventFired", lambda **kw: loaded.set())
        tab.Page.enable()
        tab.Page.navigate(url=url)
        loaded.wait(30)
        html = tab.Runtime.evaluate(
            expression="document.documentElement.outerHTML", returnByValue=True
        )["result"]["value"]
        tab.stop()
        browser.close_tab(tab)
        return html

    first, rate, memory = measure(one, pages, start)
    chrome.kill()
    chrome.wait()
    return first, rate, memory


# driver: (function, the package it is, the module its import time is measured on)
DRIVERS = {
    "pipe": (drive_pipe, "webtap.browser", "webtap.browser.pool"),
    "playwright": (drive_playwright, "playwright", "playwright.sync_api"),
    "pychrome": (drive_pychrome, "pychrome", "pychrome"),
}


def child(name: str, url: str, pages: int, executable: str, origin_port: int) -> None:
    """One measurement in this (fresh) process; prints a JSON line."""
    from webtap.browser.proxy import Policy, ProxySession
    from webtap.net.deadline import Deadline

    started = time.perf_counter()
    __import__(DRIVERS[name][2])
    imported = time.perf_counter() - started
    proxy = ProxySession(Policy(None, frozenset({("127.0.0.1", origin_port)})), Deadline(600))
    first, rate, memory = DRIVERS[name][0](url, pages, proxy.address, executable)
    print(json.dumps({"import": imported, "first": first, "rate": rate, "pss_kb": memory}))


def installed_mb(module: str) -> float:
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        return 0.0
    folder = Path(next(iter(spec.submodule_search_locations)))
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file()) / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=20)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--child", nargs=5, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.child:
        name, url, pages, executable, port = options.child
        child(name, url, int(pages), executable, int(port))
        return
    from webtap.browser import browser_path

    executable = browser_path()
    port = serve()
    url = f"http://127.0.0.1:{port}/"
    print(f"browser: {executable}; {options.pages} warm pages, median of {options.runs} runs")
    heads = ("import s", "cold+1st s", "warm p/s", "PSS MB", "size MB")
    print(f"{'driver':<12}" + "".join(f"{head:>12}" for head in heads))
    for name, (_, module, _) in DRIVERS.items():
        if importlib.util.find_spec(module) is None:
            print(f"{name:<12}(not installed here)")
            continue
        rows = []
        for _ in range(options.runs):
            out = subprocess.run(
                [
                    sys.executable,
                    __file__,
                    "--child",
                    name,
                    url,
                    str(options.pages),
                    executable,
                    str(port),
                ],
                capture_output=True,
                text=True,
                timeout=300,
            )
            if out.returncode != 0:
                print(f"{name:<12}failed: {out.stderr.strip().splitlines()[-1:]}")
                break
            rows.append(json.loads(out.stdout.strip().splitlines()[-1]))
        if not rows:
            continue
        med = {key: statistics.median(row[key] for row in rows) for key in rows[0]}
        size = installed_mb(module)
        print(
            f"{name:<12}{med['import']:>12.3f}{med['first']:>12.3f}{med['rate']:>12.1f}"
            f"{med['pss_kb'] / 1024:>12.0f}{size:>12.1f}"
        )


if __name__ == "__main__":
    main()
