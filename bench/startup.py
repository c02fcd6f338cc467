"""Start-up and per-call overhead of the search tools, against peers measured in the same run.

    .venv/bin/python bench/startup.py [--runs 15] [--delay 0.05] [--importtime]

1. ``--schema`` wall time of each executable beside a bare ``python -c pass``
   (target: at most 2x the bare start).
2. A search through each search executable against a fake provider on 127.0.0.1 that answers
   after ``--delay`` seconds with a recorded body, beside the provider's own latency measured
   by a plain HTTP GET (target: the tool adds at most 100 ms).
3. The same search in process (``brave_search``/``google_search`` on a shared client) beside
   the plain GET: the library's own cost per call, without interpreter start-up.

Best and median of ``--runs`` runs. ``--importtime`` prints the slowest imports on the search
path (``python -X importtime``), to see where start-up time goes.
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
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "providers"
BIN = Path(sys.executable).parent
EXECUTABLES = ["web-search-brave-tool", "web-search-google-tool", "web-fetch-tool"]
BODIES = {
    "/res/v1/web/search": (FIXTURES / "brave" / "web_search_brave_search.json").read_bytes(),
    "/customsearch/v1": (FIXTURES / "google" / "customsearch_javascript.json").read_bytes(),
}


# The least a --schema can cost: the console script's own imports and one file read.
FLOOR = (
    "import re, sys, webtap, os.path; "
    "sys.stdout.write(open(os.path.join(os.path.dirname(webtap.__file__), "
    "'schemas', 'web_search_brave.json')).read())"
)


def fake_provider(delay: float) -> http.server.ThreadingHTTPServer:
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # else delayed ACKs add ~40 ms to every answer

        def do_GET(self) -> None:
            time.sleep(delay)
            body = BODIES.get(self.path.split("?")[0], b"{}")
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def timed(action: Callable[[], object], runs: int) -> tuple[float, float]:
    """(best, median) wall time in seconds, after one warm-up run."""
    action()
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return min(samples), statistics.median(samples)


def child_cpu() -> float:
    """CPU seconds (user + system) used so far by finished child processes."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cpu_per_run(action: Callable[[], object], runs: int) -> float:
    """Median CPU seconds a child process spends: unlike wall time, waiting for a busy
    machine's cores does not count, so this is the number to trust on a shared host."""
    samples = []
    for _ in range(runs):
        before = child_cpu()
        action()
        samples.append(child_cpu() - before)
    return statistics.median(samples)


def run(argv: list[str], stdin: bytes = b"", env: dict[str, str] | None = None) -> None:
    proc = subprocess.run(argv, input=stdin, capture_output=True, env=env, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"{argv[0]} failed: {proc.stderr.decode(errors='replace')}")


def row(label: str, best: float, median: float, note: str = "", cpu: float | None = None) -> None:
    cpu_text = f"cpu {cpu * 1000:6.1f} ms" if cpu is not None else " " * 13
    print(
        f"  {label:<40} best {best * 1000:6.1f} ms  median {median * 1000:6.1f} ms  "
        f"{cpu_text}  {note}"
    )


def adds(best: float, median: float, peer: tuple[float, float], note: str = "") -> str:
    """Time added over the peer, best against best and median against median."""
    return f"adds {(best - peer[0]) * 1000:.0f}/{(median - peer[1]) * 1000:.0f} ms {note}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--delay", type=float, default=0.05, help="fake provider latency (s)")
    parser.add_argument("--importtime", action="store_true")
    args = parser.parse_args()

    print(f"python {sys.version.split()[0]}, {args.runs} runs each\n\n--schema start-up")

    def bare_run() -> None:
        run([sys.executable, "-c", "pass"])

    bare = timed(bare_run, args.runs)
    bare_cpu = cpu_per_run(bare_run, args.runs)
    row("python -c pass", *bare, cpu=bare_cpu)
    schema_runs = [(f"{exe} --schema", [str(BIN / exe), "--schema"]) for exe in EXECUTABLES]
    schema_runs.append(("floor: entry script + read the schema", [sys.executable, "-c", FLOOR]))
    for label, argv in schema_runs:
        best, median = timed(lambda a=argv: run(a), args.runs)
        cpu = cpu_per_run(lambda a=argv: run(a), args.runs)
        note = f"{median / bare[1]:.2f}x bare wall, {cpu / bare_cpu:.2f}x cpu (target <= 2x)"
        row(label, best, median, note, cpu)

    server = fake_provider(args.delay)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    env = dict(
        os.environ,
        BRAVE_SEARCH_URL=f"{base}/res/v1/web/search",
        GOOGLE_SEARCH_URL=f"{base}/customsearch/v1",
        BRAVE_API_KEY="bench-key",
        GOOGLE_SEARCH_API_KEY="bench-key",
        GOOGLE_SEARCH_ENGINE_ID="bench-cx",
        HOME=str(ROOT / "bench"),  # no credentials file is read from the real home
    )

    import httpx

    print(f"\nsearch call, fake provider answering after {args.delay * 1000:.0f} ms")
    with httpx.Client() as client:
        provider = timed(lambda: client.get(f"{base}/res/v1/web/search?q=x").json(), args.runs)
    row("provider alone (plain GET, warm client)", *provider)
    request = json.dumps({"query": "brave search"}).encode()
    call_runs = [(f"{exe} (process)", [str(BIN / exe)]) for exe in EXECUTABLES[:2]]
    for label, argv in call_runs:
        best, median = timed(lambda a=argv: run(a, request, env), args.runs)
        cpu = cpu_per_run(lambda a=argv: run(a, request, env), args.runs)
        row(label, best, median, adds(best, median, provider, "(target <= 100 ms)"), cpu)

    os.environ.update({k: v for k, v in env.items() if k != "HOME"})
    from webtap.search import brave_search, google_search

    with httpx.Client() as client:
        for name, call in (
            ("brave_search (in process)", lambda: brave_search("brave search", client=client)),
            ("google_search (in process)", lambda: google_search("javascript", client=client)),
        ):
            best, median = timed(call, args.runs)
            row(name, best, median, adds(best, median, provider))
    server.shutdown()

    if args.importtime:
        print("\nslowest imports on the search path (cumulative, python -X importtime)")
        proc = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", "import webtap.tools, webtap.search"],
            capture_output=True,
            text=True,
            check=True,
        )
        rows = []
        for line in proc.stderr.splitlines()[1:]:
            _, _, cumulative, name = (
                part.strip() for part in line.split("|", 1)[0:1] + line.split("|")
            )
            rows.append((int(cumulative), name))
        for cumulative, name in sorted(rows, reverse=True)[:15]:
            print(f"  {cumulative / 1000:7.1f} ms  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
