"""Seconds from a stop signal to the exit, for every front door with a call in flight.

    .venv/bin/python bench/stop.py [--rounds N] [--ray]

Each front door runs as a real process with work it cannot finish -- a page on 127.0.0.1 that
never answers, a model call the fake Anthropic API holds, a discovered tool that sleeps -- and
gets SIGTERM, SIGHUP and SIGINT in turn. The time is from ``send_signal`` to the reaped exit;
the target is 2 s (docs/host.md, "Stopping webtap"). ``--ray`` adds ``webtap batch --engine
ray`` (each run starts a Ray instance of its own first, ~10 s). For scale, the first row is the same
``webtap mcp`` ending because its client hung up (stdin closed), which it always did promptly.
The machine's load average is printed too: these are wall times of processes competing for it.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parents[1]))  # the repository: the tests' fakes

from tests.fakes.anthropic import API_KEY, FakeAnthropic, echo, message, tool_use
from tests.fakes.ports import free_port, wait_listening
from tests.fakes.slow import SlowSite

WEBTAP = str(Path(sys.executable).parent / "webtap")
TARGET = 2.0
HELLO = {
    "protocolVersion": "2025-06-18",
    "capabilities": {},
    "clientInfo": {"name": "bench", "version": "1"},
}
SLEEPER = '#!/bin/sh\nif [ "$1" = "--schema" ]; then\ncat <<\'E\'\n{schema}\nE\nexit 0\nfi\n'
SLEEPER += 'cat > /dev/null\necho started >> "{marks}"\nsleep 300\n'


class Bench:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.project = root / "project"
        self.marks = root / "marks"
        tools = self.project / ".ikigai" / "tools"
        tools.mkdir(parents=True)
        schema = {
            "name": "sleeper",
            "description": "Sleeps until it is killed",
            "parameters": {"type": "object", "properties": {"text": {"type": "string"}}},
        }
        tool = tools / "sleeper-tool"
        tool.write_text(SLEEPER.format(schema=json.dumps(schema), marks=self.marks))
        tool.chmod(0o755)
        self.slow = SlowSite()
        threading.Thread(target=self.slow.serve_forever, daemon=True).start()
        self.api = FakeAnthropic().start()
        self.model_asked = 0
        self.model_release = threading.Event()
        self.env = {
            "PATH": os.environ.get("PATH", ""),
            "HOME": str(root / "home"),
            "XDG_CACHE_HOME": str(root / "cache"),
            "XDG_DATA_HOME": str(root / "data"),
            "XDG_CONFIG_HOME": str(root / "config"),
            "WEBTAP_DB": str(root / "events.db"),
            "WEBTAP_SYSTEM_TOOLS_DIR": str(root / "system"),
            "WEBTAP_ALLOW_PRIVATE_NETWORKS": "1",
            "WEBTAP_SQL_CANCEL_WAIT": "3600",
            "ANTHROPIC_BASE_URL": self.api.url,
            "ANTHROPIC_API_KEY": API_KEY,
        }

    def hold_model(self, body: dict[str, Any]) -> Any:
        self.model_asked += 1
        self.model_release.wait(300)
        return echo(body)

    def start(self, *args: str) -> subprocess.Popen[bytes]:
        # SIGINT at its default, as from a terminal, whatever this script inherited.
        shim = "import os,signal,sys;signal.signal(signal.SIGINT,signal.SIG_DFL);"
        shim += "os.execv(sys.argv[1],sys.argv[1:])"
        return subprocess.Popen(
            [sys.executable, "-c", shim, WEBTAP, *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=self.env,
            cwd=self.project,
        )

    def count(self, what: str) -> int:
        """How often ``what`` happened so far: the slow page asked for, the model asked, the
        tool started."""
        if what == "page":
            return self.slow.hits
        if what == "model":
            return self.model_asked
        return self.marks.read_text().count("started") if self.marks.exists() else 0

    def started(self, what: str, start: Callable[[], Any]) -> Any:
        """``start()`` a front door, and return it once ``what`` happened once more."""
        before = self.count(what)
        process = start()
        deadline = time.monotonic() + 30
        while self.count(what) <= before:
            if time.monotonic() > deadline:
                raise RuntimeError(f"the {what} was never reached")
            time.sleep(0.005)
        return process


def stdio(bench: Bench, tool: str, arguments: dict[str, Any], *extra: str) -> Any:
    process = bench.start("mcp", *extra)
    assert process.stdin and process.stdout
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": HELLO},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": tool, "arguments": arguments},
        },
    ]
    process.stdin.write(json.dumps(lines[0]).encode() + b"\n")
    process.stdin.flush()
    process.stdout.readline()
    for line in lines[1:]:
        process.stdin.write(json.dumps(line).encode() + b"\n")
    process.stdin.flush()
    return process


def http_server(bench: Bench, tool: str, arguments: dict[str, Any], *extra: str) -> Any:
    port = free_port()
    process = bench.start("mcp", "--http", f"127.0.0.1:{port}", *extra)
    wait_listening(port, process)
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}

    def post(body: dict[str, Any]) -> http.client.HTTPResponse:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
        connection.request("POST", "/mcp", json.dumps(body), headers)
        return connection.getresponse()

    answer = post({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": HELLO})
    headers["mcp-session-id"] = answer.getheader("mcp-session-id") or ""
    answer.read()
    post({"jsonrpc": "2.0", "method": "notifications/initialized"}).read()
    params = {"name": tool, "arguments": arguments}
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": params}

    def in_flight() -> None:
        with contextlib.suppress(OSError, http.client.HTTPException):
            post(call).read()

    threading.Thread(target=in_flight, daemon=True).start()
    return process


def scenarios(bench: Bench, ray: bool = False) -> dict[str, Callable[[], Any]]:
    fetch = {"url": bench.slow.url}
    sleep = {"text": "zzz"}
    urls, questions = bench.root / "urls.csv", bench.root / "questions.csv"
    urls.write_text(f"url\n{bench.slow.url}\n")
    questions.write_text("context,prompt\nParis,Which country?\n")

    def batch(job: str, source: Path, *extra: str) -> Any:
        out = str(bench.root / f"{job}.parquet")
        return bench.start("batch", job, str(source), out, "--no-progress", *extra)

    def ask_fetch() -> Any:
        bench.api.queue(message(tool_use("web_fetch", fetch), stop_reason="tool_use"))
        return bench.start("ask", "What does the slow page say?")

    query = "SELECT count(stps_ask_ai('c' || x, 'q')) FROM range(200) t(x)"
    cases: dict[str, tuple[str, Callable[[], Any]]] = {
        "mcp stdio, web_fetch in flight": ("page", lambda: stdio(bench, "web_fetch", fetch)),
        "mcp stdio, discovered tool running": (
            "tool",
            lambda: stdio(bench, "sleeper", sleep, "--discovered"),
        ),
        "mcp --http, web_fetch in flight": ("page", lambda: http_server(bench, "web_fetch", fetch)),
        "mcp --http, discovered tool running": (
            "tool",
            lambda: http_server(bench, "sleeper", sleep, "--discovered"),
        ),
        "ask, web_fetch in flight": ("page", ask_fetch),
        "ask, model call held": ("model", lambda: bench.start("ask", "What is DuckDB?")),
        "sql, 200 model calls held": ("model", lambda: bench.start("sql", query)),
        "tools run, tool running": (
            "tool",
            lambda: bench.start("tools", "run", "sleeper", json.dumps(sleep)),
        ),
        "batch fetch, web page hanging": ("page", lambda: batch("fetch", urls)),
        "batch ask, model call held": ("model", lambda: batch("ask", questions)),
    }
    if ray:
        cases["batch --engine ray, page hanging"] = (
            "page",
            lambda: batch("fetch", urls, "--engine", "ray"),
        )
    return {
        name: (lambda what=what, start=start: bench.started(what, start))
        for name, (what, start) in cases.items()
    }


def seconds_to_exit(process: Any, signum: int | None) -> float:
    """Send ``signum`` (None: close stdin, the client hangs up) and time the exit."""
    started = time.perf_counter()
    if signum is None:
        process.stdin.close()
    else:
        process.send_signal(signum)
    try:
        process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        return float("inf")
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="runs of each case (default 3)")
    parser.add_argument("--ray", action="store_true", help="webtap batch --engine ray too")
    args = parser.parse_args()
    signals = {"SIGTERM": signal.SIGTERM, "SIGHUP": signal.SIGHUP, "SIGINT": signal.SIGINT}
    with tempfile.TemporaryDirectory() as folder:
        bench = Bench(Path(folder))
        bench.api.responder = bench.hold_model
        cases = scenarios(bench, args.ray)
        print(f"seconds from the signal to the exit (median / worst of {args.rounds}); target 2 s")
        print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs\n")
        print(f"{'front door, what is in flight':40} {'SIGTERM':>13} {'SIGHUP':>13} {'SIGINT':>13}")
        first = cases["mcp stdio, web_fetch in flight"]
        hang_up = [seconds_to_exit(first(), None) for _ in range(args.rounds)]
        print(f"{'(mcp stdio, client hangs up: stdin EOF)':40} {cell(hang_up):>13}")
        worst = 0.0
        for name, start in cases.items():
            row = []
            for signum in signals.values():
                times = [seconds_to_exit(start(), signum) for _ in range(args.rounds)]
                worst = max(worst, *times)
                row.append(cell(times))
            print(f"{name:40} " + " ".join(f"{value:>13}" for value in row))
        print(f"\nworst: {worst:.2f} s ({'within' if worst <= TARGET else 'over'} the 2 s target)")
        bench.slow.released.set()
        bench.model_release.set()
        bench.api.stop()


def cell(times: list[float]) -> str:
    return f"{statistics.median(times):.2f} / {max(times):.2f}"


if __name__ == "__main__":
    main()
