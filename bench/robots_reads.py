"""robots.txt read once per origin: ten ``web-fetch-tool`` processes on one site.

    .venv/bin/python bench/robots_reads.py [--calls 10]

Each call is a fresh process fetching another page of one site (the suite's fake site on
127.0.0.1, whose robots.txt has rules). Counted, per setting, from the site's own log: how many
times robots.txt was read, how many pages, and the wall time per call:

- the default (a model's URL, the caches on): robots.txt once, kept in the page cache's file;
- ``WEBTAP_CACHE=off``: once per process (only the process's own memory keeps it);
- ``WEBTAP_ROBOTS=ignore`` (and the caches off): never.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))  # the repository, for the suite's fakes

from tests.fakes.site import Site

BIN = Path(sys.executable).parent
SETTINGS = [
    ("default (cache on)", {}),
    ("WEBTAP_CACHE=off", {"WEBTAP_CACHE": "off"}),
    ("WEBTAP_ROBOTS=ignore", {"WEBTAP_ROBOTS": "ignore", "WEBTAP_CACHE": "off"}),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=10)
    args = parser.parse_args()
    with Site.running() as site:
        site.route("/robots.txt", "User-agent: *\nDisallow: /private/\nDisallow: /search\n")
        for n in range(args.calls):
            page = f"<html><head><title>Page {n}</title></head><body><p>Words of page {n}.</p>"
            site.route(f"/p{n}", page, headers={"Content-Type": "text/html"})
        for label, extra in SETTINGS:
            home = tempfile.mkdtemp(prefix="webtap-robots-")  # an empty page cache
            env = dict(
                os.environ,
                WEBTAP_CACHE_DIR=home,
                WEBTAP_ALLOW_NETWORKS="127.0.0.1/32",
                **extra,
            )
            reads, pages = site.robots_reads(), len(site.requests)
            start = time.perf_counter()
            for n in range(args.calls):
                request = json.dumps({"url": site.url(f"/p{n}")}).encode()
                run = subprocess.run(
                    [str(BIN / "web-fetch-tool")], input=request, capture_output=True, env=env
                )
                if json.loads(run.stdout).get("success") is not True:
                    raise SystemExit(f"the fetch failed: {run.stdout.decode()}")
            per_call = (time.perf_counter() - start) / args.calls
            print(
                f"{label:22} {args.calls} calls: robots.txt read "
                f"{site.robots_reads() - reads}x, pages {len(site.requests) - pages}, "
                f"{per_call * 1000:.0f} ms a call"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
