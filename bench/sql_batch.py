"""stps_ask_ai over a table: webtap's batched calls beside row-by-row calls, as the extension does.

    .venv/bin/python bench/sql_batch.py [--rows 200] [--latency 0.2]

A fake Anthropic Messages API on 127.0.0.1 answers every call after ``--latency`` seconds (the
one in tests/agent, which also checks each request). The same query,
``SELECT stps_ask_ai('item ' || x, 'Describe it') FROM range(N)`` with N distinct rows, runs
with concurrency 1 (one row after another, as the DuckDB extension of spec 002 calls the model)
and then with webtap's default and higher concurrency; last, the default again with a warm
answer cache. Printed: wall time, rows/s, API calls and the speed-up over row by row.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "tests" / "agent"))

from fake_anthropic import API_KEY, FakeAnthropic  # the fake API the tests use


def run(rows: int, concurrency: int, cache: str | None = None) -> tuple[float, list[str]]:
    import duckdb

    import webtap.sql

    connection = duckdb.connect()
    functions = webtap.sql.register(
        connection, concurrency=concurrency, cache=cache, progress=False
    )
    try:
        started = time.perf_counter()
        answers = connection.execute(
            f"SELECT stps_ask_ai('item ' || x, 'Describe it') FROM range({rows}) t(x)"
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
    args = parser.parse_args()

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
        ("webtap default (concurrency 8)", 8, None),
        ("webtap, stps_set_concurrency(16)", 16, None),
        ("webtap, stps_set_concurrency(32)", 32, None),
        ("webtap default, filling the cache", 8, cache),
        ("webtap default, cache warm (query re-run)", 8, cache),
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


if __name__ == "__main__":
    sys.exit(main())
