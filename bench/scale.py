"""Rows a second against workers, past one machine: fetch+convert, and ask under a rate limit.

    .venv/bin/python bench/scale.py [--fetch-rows 240] [--ask-rows 100] [--limit 12]
                                    [--workers 1,2,4] [--data DIR]

Needs the ray extra. Starts a local Ray cluster (2 CPUs, every port on 127.0.0.1) and, for 1, 2
and 4 workers (Ray actors of ``webtap.scale.cluster``; half a CPU each, so that four fit), runs:

- **fetch+convert** of local pages: real news pages (``DIR/html/articles/html/*.html.gz``, the
  shared data folder, ``../shared/data`` beside the repository by default; generated ones if
  absent) served by the suite's fake site
  (tests/fakes/site.py) on 127.0.0.1, two fetches at once per worker, the page cache off and
  per-host politeness lifted (all pages are on one host). CPU bound: it rises with workers until
  the cores are used.
- **ask** against the suite's fake Messages API (tests/fakes/anthropic.py) that takes 200 ms a
  call and states a limit of ``--limit`` requests a second (``anthropic-ratelimit-requests-limit``),
  one call at a time per worker, the key's budget in the Ray store (``WEBTAP_BUDGET=ray``,
  ``WEBTAP_ANTHROPIC_RPM`` set to the limit). It rises with workers, then goes flat at the
  limit and never above it: beside each rate, the most requests the fake saw in any one second.

Rates are steady-state: rows after the first batch out, over the time from it to the last.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import os
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parents[1]))  # the repository, for the suite's fakes
os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = (
    "0"  # webtap.scale.cluster.LOOPBACK_ENV, before ray
)

from tests.fakes.anthropic import API_KEY, FakeAnthropic, Reply, echo
from tests.fakes.site import Site
from tests.scale.scale_kit import HTML, most_in_any_window, page

import shared_data

LATENCY = 0.2


def steady_rate(dataset: Any) -> tuple[float, int]:
    """Rows a second after the first batch out, and the rows with an error."""
    first = last = None
    rows = after_first = errors = 0
    for batch in dataset.iter_batches(batch_format="pyarrow", batch_size=None):
        now = time.monotonic()
        errors += batch.num_rows - batch.column("error").null_count
        rows += batch.num_rows
        if first is None:
            first = now
        else:
            after_first += batch.num_rows
        last = now
    span = (last or 0) - (first or 0)
    return (after_first / span if span > 0 else float("nan")), errors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fetch-rows", type=int, default=240)
    parser.add_argument("--ask-rows", type=int, default=100)
    parser.add_argument("--limit", type=int, default=12, help="the API's requests a second")
    parser.add_argument("--workers", default="1,2,4")
    shared_data.add_argument(parser)
    args = parser.parse_args()
    workers = [int(n) for n in args.workers.split(",")]

    articles = sorted((args.data / "html" / "articles" / "html").glob("*.html.gz"))
    bodies = [gzip.decompress(p.read_bytes()) for p in articles] or [page(n) for n in range(50)]
    stack = contextlib.ExitStack()
    site = stack.enter_context(Site.running())
    for i in range(args.fetch_rows):
        site.route(f"/{i}", bodies[i % len(bodies)], headers=HTML)
    arrivals: list[float] = []
    lock = threading.Lock()

    def respond(body: dict[str, Any]) -> Reply:
        with lock:
            arrivals.append(time.monotonic())
        time.sleep(LATENCY)
        reply = echo(body)
        reply.headers["anthropic-ratelimit-requests-limit"] = str(args.limit * 60)
        return reply

    model = FakeAnthropic(responder=respond).start()
    home = tempfile.mkdtemp(prefix="webtap-bench-")
    os.environ["HOME"] = home  # Ray keeps its token there
    import pyarrow as pa

    import webtap.scale.cluster

    webtap.scale.cluster.start_local_cluster(num_cpus=2, _temp_dir=os.path.join(home, "ray"))
    import ray

    fetch_env = {
        "WEBTAP_ALLOW_PRIVATE_NETWORKS": "1",
        "WEBTAP_HOST_RATE": "100000",
        "WEBTAP_CACHE": "off",
    }
    ask_env = {
        "ANTHROPIC_BASE_URL": model.url,
        "ANTHROPIC_API_KEY": API_KEY,
        "WEBTAP_BUDGET": "ray",
        "WEBTAP_ANTHROPIC_RPM": str(args.limit * 60),
        "WEBTAP_CACHE": "off",
    }
    print(
        f"pages: {len(bodies)} ({'real articles' if articles else 'generated'}), "
        f"{sum(map(len, bodies)) / len(bodies) / 1024:.0f} KB on average; "
        f"ask: {LATENCY * 1000:.0f} ms a call, limit {args.limit} requests/s"
    )
    print(
        f"{'workers':>7}  {'fetch rows/s':>12}  {'x1':>5}  {'ask rows/s':>10}  {'x1':>5}  "
        f"{'ask max in 1 s':>14}  errors"
    )
    base_fetch = base_ask = None
    try:
        for n in workers:
            urls = pa.table({"url": [site.url(f"/{i}") for i in range(args.fetch_rows)]})
            fetched = webtap.scale.cluster.fetch_pages(
                webtap.scale.cluster.from_table(urls, 8),
                actors=n,
                min_actors=n,
                threads=2,
                batch_size=8,
                num_cpus=2 / max(workers),
                env=fetch_env,
            )
            fetch_rate, fetch_errors = steady_rate(fetched)
            with lock:
                arrivals.clear()
            questions = pa.table(
                {
                    "context": [f"item {n}.{i}" for i in range(args.ask_rows)],
                    "prompt": ["Describe it"] * args.ask_rows,
                }
            )
            asked = webtap.scale.cluster.ask_rows(
                webtap.scale.cluster.from_table(questions, 2),
                actors=n,
                min_actors=n,
                concurrency=1,
                batch_size=2,
                num_cpus=2 / max(workers),
                env=ask_env,
            )
            ask_rate, ask_errors = steady_rate(asked)
            with lock:
                most = most_in_any_window(arrivals)
            base_fetch, base_ask = base_fetch or fetch_rate, base_ask or ask_rate
            print(
                f"{n:>7}  {fetch_rate:>12.1f}  {fetch_rate / base_fetch:>5.2f}  "
                f"{ask_rate:>10.1f}  {ask_rate / base_ask:>5.2f}  "
                f"{most:>8} (≤ {args.limit})  {fetch_errors + ask_errors}"
            )
    finally:
        ray.shutdown()
        model.stop()
        stack.close()
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
