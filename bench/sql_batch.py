"""stps_ask_ai over a table: webtap's batched calls beside row-by-row calls, as the extension does.

    .venv/bin/python bench/sql_batch.py [--rows 200] [--latency 0.2] [--only anthropic|openai]
    .venv/bin/python bench/sql_batch.py --search [--rows 200]

A fake Anthropic Messages API on 127.0.0.1 answers every call after ``--latency`` seconds (the
suite's, tests/fakes/anthropic.py, which also checks each request). The same query,
``SELECT stps_ask_ai('item ' || x, 'Describe it') FROM range(N)`` with N distinct rows, runs
with concurrency 1 (one row after another, as the DuckDB extension of spec 002 calls the model)
and then with webtap's default and higher concurrency; last, the default again with a warm
answer cache. Printed: wall time, rows/s, API calls and the speed-up over row by row.

Then the same table through an OpenAI-compatible model (``stps_ask_ai(..., 'openai:bench')``,
issue 30): a fake Chat Completions server (tests/fakes/openai.py, checking each request too)
answering after the same latency, row by row and at webtap's default concurrency, with the
ratio between them (goal: at least 10x, as for Anthropic).

With ``--search``, every row searches first: the model asks for ``web_search`` once, then
answers. Search goes to a strict fake Brave that allows exactly one request a second and
answers 429 to anything faster (the suite's, tests/fakes/brave.py), with the shared rate
budget at its default (Brave's free plan). Printed: rows answered with search results (goal:
all), the fake's accepted and refused requests, and the wall time against the floor of one
search a second.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parents[1]))  # the repository, for the suite's fakes

from tests.fakes.anthropic import API_KEY, FakeAnthropic, message, text, tool_use
from tests.fakes.brave import FakeBrave
from tests.fakes.openai import API_KEY as OPENAI_KEY
from tests.fakes.openai import FakeOpenAI
from tests.fakes.provider import new_server

from webtap.sql import DEFAULT_CONCURRENCY


def run(
    rows: int, concurrency: int, cache: str | None = None, model: str | None = None
) -> tuple[float, list[str]]:
    import duckdb

    import webtap.sql

    connection = duckdb.connect()
    functions = webtap.sql.register(
        connection, concurrency=concurrency, cache=cache, progress=False
    )
    try:
        started = time.perf_counter()
        named = f", '{model}'" if model else ""
        answers = connection.execute(
            f"SELECT stps_ask_ai('item ' || x, 'Describe it'{named}) FROM range({rows}) t(x)"
        ).fetchall()
        elapsed = time.perf_counter() - started
    finally:
        functions.close()
        connection.close()
    return elapsed, [answer for (answer,) in answers]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=200)
    parser.add_argument("--latency", type=float, default=0.2, help="seconds per model call")
    parser.add_argument(
        "--search", action="store_true", help="every row searches a strict 1/s fake Brave"
    )
    parser.add_argument("--only", choices=["anthropic", "openai"], help="one protocol's runs")
    args = parser.parse_args()
    if args.search:
        return search_run(args.rows, args.latency)
    failed = 0
    if args.only != "openai":
        failed |= anthropic_runs(args)
    if args.only != "anthropic":
        failed |= openai_runs(args.rows, args.latency)
    return failed


def anthropic_runs(args: argparse.Namespace) -> int:
    fake = FakeAnthropic(delay=args.latency).start()
    os.environ["ANTHROPIC_BASE_URL"] = fake.url
    os.environ["ANTHROPIC_API_KEY"] = API_KEY
    for name in ("BRAVE_API_KEY", "GOOGLE_SEARCH_API_KEY", "GOOGLE_SEARCH_ENGINE_ID"):
        os.environ.pop(name, None)
    run(2, 2)  # warm up: imports, the SDK client, the server's first connections

    print(
        f"stps_ask_ai over {args.rows} distinct rows, fake API answering each call after "
        f"{args.latency * 1000:.0f} ms\n"
    )
    print(f"{'run':<44} {'seconds':>8} {'rows/s':>8} {'calls':>6} {'speed-up':>9}")
    cache = str(Path(tempfile.mkdtemp()) / "answers.sqlite")
    baseline = None
    runs = [
        ("row by row (concurrency 1, as the extension)", 1, None),
        ("stps_set_concurrency(8) (the old default)", 8, None),
        ("stps_set_concurrency(16)", 16, None),
        (f"webtap default (concurrency {DEFAULT_CONCURRENCY})", DEFAULT_CONCURRENCY, None),
        ("stps_set_concurrency(64)", 64, None),
        ("webtap default, filling the cache", DEFAULT_CONCURRENCY, cache),
        ("webtap default, cache warm (query re-run)", DEFAULT_CONCURRENCY, cache),
    ]
    for label, concurrency, cache_path in runs:
        before = len(fake.requests)
        elapsed, answers = run(args.rows, concurrency, cache_path)
        calls = len(fake.requests) - before
        errors = [a for a in answers if a is None or a.startswith("ERROR")]
        if errors:
            print(f"{label}: {len(errors)} rows failed, e.g. {errors[0]!r}")
            return 1
        baseline = baseline or elapsed
        print(
            f"{label:<44} {elapsed:8.2f} {args.rows / elapsed:8.1f} {calls:6d} "
            f"{baseline / elapsed:8.1f}x"
        )
    if fake.violations:
        print(f"the fake API saw invalid requests: {fake.violations[:3]}")
        return 1
    fake.stop()
    return 0


def openai_runs(rows: int, latency: float) -> int:
    """The table through ``openai:bench`` on a fake Chat Completions server."""
    fake = FakeOpenAI(delay=latency).start()
    os.environ.update(OPENAI_BASE_URL=fake.url, OPENAI_API_KEY=OPENAI_KEY)
    run(2, 2, model="openai:bench")  # warm up: the openai SDK's import and client
    print(
        f"\nstps_ask_ai(..., 'openai:bench') over {rows} distinct rows, fake OpenAI-compatible "
        f"server answering each call after {latency * 1000:.0f} ms\n"
    )
    print(f"{'run':<44} {'seconds':>8} {'rows/s':>8} {'calls':>6} {'speed-up':>9}")
    baseline = None
    for label, concurrency in (
        ("row by row (concurrency 1)", 1),
        (f"webtap default (concurrency {DEFAULT_CONCURRENCY})", DEFAULT_CONCURRENCY),
    ):
        before = len(fake.requests)
        elapsed, answers = run(rows, concurrency, model="openai:bench")
        calls = len(fake.requests) - before
        errors = [a for a in answers if a is None or a.startswith("ERROR")]
        if errors:
            print(f"{label}: {len(errors)} rows failed, e.g. {errors[0]!r}")
            return 1
        baseline = baseline or elapsed
        print(
            f"{label:<44} {elapsed:8.2f} {rows / elapsed:8.1f} {calls:6d} "
            f"{baseline / elapsed:8.1f}x"
        )
    ratio = baseline / elapsed if baseline else 0.0
    print(f"\nbatched over row by row: {ratio:.1f}x (goal: at least 10x)")
    fake.stop()
    if fake.violations:
        print(f"the fake server saw invalid requests: {fake.violations[:3]}")
        return 1
    return 0 if ratio >= 10 else 1


def search_then_answer(body: dict) -> Any:
    """The model's side: search first; then say whether the search gave results."""
    last = body["messages"][-1]["content"]
    if isinstance(last, str):  # "Context: item N\n\nQuestion: ...": a distinct query per row
        query = " ".join(last.split())
        return message(tool_use("web_search", {"query": query}), stop_reason="tool_use")
    (result,) = [block for block in last if block.get("type") == "tool_result"]
    searched = not result.get("is_error") and result["content"].startswith("Search Results:")
    return message(text("with search" if searched else "without search"))


def search_run(rows: int, latency: float) -> int:
    fake = FakeAnthropic(delay=latency, responder=search_then_answer).start()
    brave = FakeBrave(new_server()).strict()
    cache_dir = tempfile.mkdtemp()
    os.environ.update(
        ANTHROPIC_BASE_URL=fake.url,
        ANTHROPIC_API_KEY=API_KEY,
        BRAVE_SEARCH_URL=brave.url(),
        BRAVE_API_KEY="BSA-bench-key-0123456789",
        WEBTAP_CACHE_DIR=cache_dir,  # a fresh budget and no cached searches
    )
    for name in ("GOOGLE_SEARCH_API_KEY", "SEARXNG_URL", "WEBTAP_BRAVE_RATE"):
        os.environ.pop(name, None)
    print(
        f"stps_ask_ai over {rows} distinct rows with search on (concurrency "
        f"{DEFAULT_CONCURRENCY}), a fake Brave allowing 1 request/s, model calls {latency:g} s"
    )
    elapsed, answers = run(rows, DEFAULT_CONCURRENCY)
    searched = answers.count("with search")
    others = [answer for answer in answers if answer not in ("with search", "without search")]
    print(f"rows answered with search results: {searched} / {rows}")
    print(f"rows answered without:             {answers.count('without search')}")
    print(f"other (errors):                    {len(others)} {others[:1]}")
    print(f"fake Brave: {brave.accepted} accepted, {brave.refused} refused (429)")
    print(f"wall time: {elapsed:.1f} s; floor at 1 search/s: {rows} s; ratio {elapsed / rows:.2f}")
    fake.stop()
    brave.stop()
    return 0 if searched == rows and brave.refused == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
