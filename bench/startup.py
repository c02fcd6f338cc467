"""Cold start of the tools (a fresh process per call), against peers measured in the same run.

    .venv/bin/python bench/startup.py [--runs 15] [--delay 0.05] [--importtime] [--data DIR]
                                      [--baseline /path/to/other/webtap/src]

1. ``--schema`` of each executable beside a bare ``python -c pass``
   (target: at most 2x the bare start).
2. ``web-fetch-tool`` on a 10 KB local page (a real PostgreSQL manual page from
   ``DIR/html/docs``, ``../shared/data`` beside the repository by default, or as many
   paragraphs of its own when that is missing; served from 127.0.0.1) beside ``python -c pass``
   (target: at most 6x the bare start). The page's site has a robots.txt with rules, which the
   tool reads on every cold call (a model's URL; the caches are off), so the same call with
   ``WEBTAP_ROBOTS=ignore`` is timed too. With ``--baseline``, the fetch call of another
   webtap source tree (``git archive main src | tar -x -C /tmp/main``: give its ``src``) and
   of this one are run in turn, launched the same way (``python -c`` on the entry point with
   that tree first on ``PYTHONPATH``): before and after in one run, with the median of the
   paired CPU differences.
3. A search through each search executable against a fake provider on 127.0.0.1 that answers
   after ``--delay`` seconds with a recorded body, beside the provider's own latency measured
   by a plain HTTP GET (target: the tool adds at most 100 ms).
4. The same search in process (``brave_search``/``google_search`` on a shared client) beside
   the plain GET: the library's own cost per call, without interpreter start-up.

Best and median wall time of ``--runs`` runs, and the median CPU time of the child (on a busy
shared machine the CPU ratio is the steadier one). ``--importtime`` prints the slowest imports
of a real fetch call and a real search call (``python -X importtime``): where start-up goes.
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
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import shared_data
from timing import timed

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "providers"
BIN = Path(sys.executable).parent
EXECUTABLES = ["web-search-brave-tool", "web-search-google-tool", "web-fetch-tool"]
BODIES = {
    "/res/v1/web/search": (FIXTURES / "brave" / "web_search_brave_search.json").read_bytes(),
    "/customsearch/v1": (FIXTURES / "google" / "customsearch_javascript.json").read_bytes(),
}
PAGE_FILE = "postgresql-tutorial-join.html"  # in DIR/html/docs
PAGE_PATH = "/page.html"
ROBOTS_TXT = (
    b"User-agent: *\nDisallow: /search\nDisallow: /private/\n\nUser-agent: BadBot\nDisallow: /\n"
)
# The fetch executable's entry point, for a source tree given on PYTHONPATH.
ENTRY = "import sys; from webtap.entry import fetch_main; sys.exit(fetch_main())"


# The least a --schema can cost: the console script's own imports and one file read.
FLOOR = (
    "import re, sys, webtap, os.path; "
    "sys.stdout.write(open(os.path.join(os.path.dirname(webtap.__file__), "
    "'schemas', 'web_search_brave.json')).read())"
)


def page(data: Path) -> bytes:
    """About 10 KB of real HTML: the manual page, or the same size of paragraphs without it."""
    path = data / "html" / "docs" / PAGE_FILE
    if path.is_file():
        return path.read_bytes()
    print(
        f"note: missing {path} (html/docs/ is {shared_data.ORIGINS['html/docs']}); "
        "timing as many paragraphs of its own instead (--data DIR to use it)"
    )
    paragraph = b"<p>" + b"A join combines rows of two tables on a condition. " * 4 + b"</p>\n"
    return b"<html><head><title>Joins</title></head><body>" + paragraph * 48 + b"</body></html>"


def fake_provider(delay: float, html: bytes) -> http.server.ThreadingHTTPServer:
    """The search providers' endpoints after ``delay`` seconds; the page ``html`` at once."""

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # else delayed ACKs add ~40 ms to every answer

        def do_GET(self) -> None:
            path = self.path.split("?")[0]
            if path == PAGE_PATH:
                self.answer(html, "text/html; charset=utf-8")
                return
            if path == "/robots.txt":  # as sites have: rules, none of them for the page
                self.answer(ROBOTS_TXT, "text/plain")
                return
            time.sleep(delay)
            self.answer(BODIES.get(path, b"{}"), "application/json")

        def answer(self, body: bytes, content_type: str) -> None:
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


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


def run(argv: list[str], stdin: bytes = b"", env: dict[str, str] | None = None) -> bytes:
    proc = subprocess.run(argv, input=stdin, capture_output=True, env=env, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"{argv[0]} failed: {proc.stderr.decode(errors='replace')}")
    return proc.stdout


def check_success(argv: list[str], stdin: bytes, env: dict[str, str]) -> None:
    """Time only calls that work: a tool answers a failure with exit status 0 too."""
    response = json.loads(run(argv, stdin, env))
    if response.get("success") is not True:
        raise SystemExit(f"{Path(argv[0]).name} did not succeed: {response.get('error')}")


def row(label: str, best: float, median: float, note: str = "", cpu: float | None = None) -> None:
    cpu_text = f"cpu {cpu * 1000:6.1f} ms" if cpu is not None else " " * 13
    print(
        f"  {label:<40} best {best * 1000:6.1f} ms  median {median * 1000:6.1f} ms  "
        f"{cpu_text}  {note}"
    )


def adds(best: float, median: float, peer: tuple[float, float], note: str = "") -> str:
    """Time added over the peer, best against best and median against median."""
    return f"adds {(best - peer[0]) * 1000:.0f}/{(median - peer[1]) * 1000:.0f} ms {note}"


def slowest_imports(exe: str, stdin: bytes, env: dict[str, str]) -> list[tuple[int, str]]:
    """The top-level imports (and their children) of one real call, slowest first: each the
    least of 5 runs, since one run on a shared machine is mostly noise."""
    best: dict[str, int] = {}
    for _ in range(5):
        proc = subprocess.run(
            [sys.executable, "-X", "importtime", str(BIN / exe)],
            input=stdin,
            capture_output=True,
            env=env,
            check=True,
        )
        for line in proc.stderr.decode().splitlines():
            parts = line.removeprefix("import time:").split("|")
            if len(parts) != 3 or not parts[1].strip().isdigit():
                continue
            depth = (len(parts[2]) - len(parts[2].lstrip()) - 1) // 2
            if depth <= 1:
                name = "  " * depth + parts[2].strip()
                best[name] = min(best.get(name, 1 << 62), int(parts[1]))
    return sorted(((us, name) for name, us in best.items()), reverse=True)[:15]


def compare_trees(baseline: Path, env: dict[str, str], request: bytes, rounds: int) -> None:
    """The fetch call of ``baseline`` (a webtap src folder) and of this tree, robots.txt obeyed
    and ignored, run in turn ``rounds`` times: on a shared machine only runs made side by side
    compare, so each round runs all three and the median of the paired differences is shown."""
    configs = {
        "baseline": dict(env, PYTHONPATH=str(baseline)),
        "this tree": dict(env, PYTHONPATH=str(ROOT / "src")),
        "this tree, WEBTAP_ROBOTS=ignore": dict(
            env, PYTHONPATH=str(ROOT / "src"), WEBTAP_ROBOTS="ignore"
        ),
    }
    argv = [sys.executable, "-c", ENTRY]
    for tree_env in configs.values():
        check_success(argv, request, tree_env)  # and a warm-up: bytecode written
    cpu: dict[str, list[float]] = {label: [] for label in configs}
    wall: dict[str, list[float]] = {label: [] for label in configs}
    for _ in range(rounds):
        for label, tree_env in configs.items():
            before, start = child_cpu(), time.perf_counter()
            run(argv, request, tree_env)
            wall[label].append(time.perf_counter() - start)
            cpu[label].append(child_cpu() - before)
    print(f"  the fetch call of two trees, side by side ({rounds} rounds; {baseline}):")
    for label in configs:
        median = statistics.median(cpu[label])
        row(f"fetch call, {label}", min(wall[label]), statistics.median(wall[label]), cpu=median)
    for label in list(configs)[1:]:
        paired = [a - b for a, b in zip(cpu[label], cpu["baseline"], strict=True)]
        print(f"  {label} - baseline: median of paired cpu differences "
              f"{statistics.median(paired) * 1000:+.1f} ms")  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--delay", type=float, default=0.05, help="fake provider latency (s)")
    parser.add_argument("--importtime", action="store_true")
    shared_data.add_argument(parser)
    parser.add_argument("--baseline", type=Path, help="another webtap's src folder to compare")
    args = parser.parse_args()
    html = page(args.data)

    # An installed webtap has its bytecode compiled; an editable checkout under
    # PYTHONDONTWRITEBYTECODE=1 would compile every module at every start instead.
    import compileall

    compileall.compile_dir(str(ROOT / "src" / "webtap"), quiet=1)
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

    server = fake_provider(args.delay, html)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    env = dict(
        os.environ,
        BRAVE_SEARCH_URL=f"{base}/res/v1/web/search",
        GOOGLE_SEARCH_URL=f"{base}/customsearch/v1",
        BRAVE_API_KEY="bench-key",
        GOOGLE_SEARCH_API_KEY="bench-key",
        GOOGLE_SEARCH_ENGINE_ID="bench-cx",
        WEBTAP_ALLOW_NETWORKS="127.0.0.1/32",  # the page is local; the guard stays on
        HOME=str(ROOT / "bench"),  # no credentials file is read from the real home
        # A cold call is what is timed: no page or search cache, no pacing by the rate budget.
        WEBTAP_CACHE="off",
        WEBTAP_CACHE_DIR=tempfile.mkdtemp(prefix="webtap-bench-"),  # the rate budget's files
        WEBTAP_BRAVE_RATE="1000",
        WEBTAP_GOOGLE_RATE="1000",
    )

    size = len(html) / 1024
    print(f"\nweb-fetch-tool on a {size:.0f} KB local page")
    fetch_request = json.dumps({"url": f"{base}{PAGE_PATH}"}).encode()
    fetch_argv = [str(BIN / "web-fetch-tool")]
    check_success(fetch_argv, fetch_request, env)
    best, median = timed(lambda: run(fetch_argv, fetch_request, env), args.runs)
    cpu = cpu_per_run(lambda: run(fetch_argv, fetch_request, env), args.runs)
    note = f"{median / bare[1]:.2f}x bare wall, {cpu / bare_cpu:.2f}x cpu (target <= 6x)"
    row("web-fetch-tool (process)", best, median, note, cpu)
    ignoring = dict(env, WEBTAP_ROBOTS="ignore")
    best, median = timed(lambda: run(fetch_argv, fetch_request, ignoring), args.runs)
    cpu = cpu_per_run(lambda: run(fetch_argv, fetch_request, ignoring), args.runs)
    note = f"{median / bare[1]:.2f}x bare wall, {cpu / bare_cpu:.2f}x cpu (no robots.txt read)"
    row("web-fetch-tool, WEBTAP_ROBOTS=ignore", best, median, note, cpu)
    if args.baseline:
        compare_trees(args.baseline.resolve(), env, fetch_request, args.runs * 2)

    import http.client

    print(f"\nsearch call, fake provider answering after {args.delay * 1000:.0f} ms")
    port = server.server_address[1]
    plain = http.client.HTTPConnection("127.0.0.1", port)

    def plain_get() -> None:
        plain.request("GET", "/res/v1/web/search?q=x")
        json.loads(plain.getresponse().read())

    provider = timed(plain_get, args.runs)
    row("provider alone (plain GET, warm client)", *provider)
    # The least a Python process can do: start, import http.client and json, one GET.
    floor = [
        sys.executable,
        "-c",
        "import http.client, json; c = http.client.HTTPConnection('127.0.0.1', "
        f"{port}); c.request('GET', '/res/v1/web/search?q=x'); "
        "json.loads(c.getresponse().read())",
    ]
    best, median = timed(lambda: run(floor), args.runs)
    cpu = cpu_per_run(lambda: run(floor), args.runs)
    row("floor: python + http.client + one GET", best, median, adds(best, median, provider), cpu)
    request = json.dumps({"query": "brave search"}).encode()
    call_runs = [(f"{exe} (process)", [str(BIN / exe)]) for exe in EXECUTABLES[:2]]
    for label, argv in call_runs:
        check_success(argv, request, env)
        best, median = timed(lambda a=argv: run(a, request, env), args.runs)
        cpu = cpu_per_run(lambda a=argv: run(a, request, env), args.runs)
        row(label, best, median, adds(best, median, provider, "(target <= 100 ms)"), cpu)

    os.environ.update({k: v for k, v in env.items() if k != "HOME"})
    from webtap.net import Client
    from webtap.search import brave_search, google_search

    with Client() as client:
        for name, call in (
            ("brave_search (in process)", lambda: brave_search("brave search", client=client)),
            ("google_search (in process)", lambda: google_search("javascript", client=client)),
        ):
            best, median = timed(call, args.runs)
            row(name, best, median, adds(best, median, provider))

    if args.importtime:
        calls = [
            ("web-fetch-tool, the 10 KB page", "web-fetch-tool", fetch_request),
            ("web-search-brave-tool", "web-search-brave-tool", request),
        ]
        for label, exe, stdin in calls:
            print(f"\nslowest imports of a {label} call (cumulative, python -X importtime)")
            for cumulative, name in slowest_imports(exe, stdin, env):
                print(f"  {cumulative / 1000:7.1f} ms  {name}")
    server.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
