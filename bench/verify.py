"""Quote verification: webtap beside two baselines, on the set bench/quote_set.py builds.

    .venv/bin/python bench/verify.py [--data DIR] [--seed N] [--per-kind N]
                                     [--difflib-sample N] [--no-exe]

Builds the set (``bench/quote_set.py``: genuine quotes with each drift a faithful copy makes,
fabrications of each kind, from the shared data's pages as webtap converts them) into
``bench/.cache/``, then checks every quote against its page with

- **webtap**: ``webtap.quotes.QuoteIndex`` (one index per page), a genuine quote counted only
  when verified *at the right span* (its passage's first to last word character);
- **exact**: the quote a substring of the page after collapsing whitespace on both sides;
- **difflib**: the best ratio of ``difflib.SequenceMatcher`` between the quote and the page's
  windows of the quote's length (one starting at each word), accepted at >= 0.92. It takes
  seconds a quote, so it runs on ``--difflib-sample`` quotes of each kind (default 40), said
  in its column.

Per kind: genuine quotes verified (webtap: at the right span), fabrications accepted, and for
webtap the fabrications accepted with a changed number or negation, listed. Then quotes a
second for each (one thread, CPU time), and ``webtap verify --jsonl`` run as an executable over
the whole set, one line a page, startup included.

Targets: >= 99.5% of genuine quotes verified at the right span; <= 0.3% of fabrications
accepted, none with a changed number or negation; >= 5,000 quotes/s through the executable.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import time
from collections import defaultdict
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import quote_set
import shared_data

WEBTAP = Path(sys.executable).parent / "webtap"
THRESHOLD = 0.92


def load(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def exact(quote: str, text: str) -> bool:
    return " ".join(quote.split()) in " ".join(text.split())


def best_window(quote: str, text: str) -> float:
    """The best SequenceMatcher ratio between ``quote`` and a window of ``text`` as long as it,
    one window starting at each word."""
    matcher = SequenceMatcher(autojunk=False)
    matcher.set_seq2(quote)
    size = len(quote)
    best = 0.0
    starts = [0] + [i + 1 for i, c in enumerate(text) if c.isspace()]
    for start in starts:
        matcher.set_seq1(text[start : start + size])
        if matcher.real_quick_ratio() <= best or matcher.quick_ratio() <= best:
            continue
        best = max(best, matcher.ratio())
    return best


def run_webtap(pages: list[dict[str, Any]]) -> tuple[dict[int, Any], float]:
    from webtap.quotes import QuoteIndex

    results = {}
    started = time.process_time()
    for number, page in enumerate(pages):
        index = QuoteIndex(page["text"])
        for n, quote in enumerate(page["quotes"]):
            results[number, n] = index.locate(quote["quote"])
    return results, time.process_time() - started


def run_exe(pages: list[dict[str, Any]]) -> tuple[float, float, int, list[Any]]:
    """``webtap verify --jsonl`` over every page: wall seconds, the process's CPU seconds,
    quotes, the answers."""
    lines = "".join(
        json.dumps({"text": p["text"], "quotes": [q["quote"] for q in p["quotes"]]}) + "\n"
        for p in pages
    ).encode()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        [str(WEBTAP), "verify", "--jsonl"], input=lines, capture_output=True, check=True
    )
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    answers = [json.loads(line) for line in done.stdout.decode().splitlines()]
    return elapsed, cpu, sum(len(p["quotes"]) for p in pages), answers


def pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:6.2f}%" if whole else "     -"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    shared_data.add_argument(parser)
    parser.add_argument("--seed", type=int, default=28)
    parser.add_argument("--per-kind", type=int, default=3, metavar="N")
    parser.add_argument("--difflib-sample", type=int, default=40, metavar="N")
    parser.add_argument("--no-exe", action="store_true", help="skip the executable's run")
    args = parser.parse_args(argv)

    out = quote_set.DEFAULT_OUT
    quote_set.main(
        [
            "--data",
            str(args.data),
            "--seed",
            str(args.seed),
            "--per-kind",
            str(args.per_kind),
            "--out",
            str(out),
        ]
    )
    pages = load(out)
    results, webtap_seconds = run_webtap(pages)

    by_kind: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for number, page in enumerate(pages):
        for n, quote in enumerate(page["quotes"]):
            by_kind[quote["kind"]].append((number, n))

    rng = random.Random(args.seed)
    exact_seconds = 0.0
    difflib_seconds = 0.0
    difflib_count = 0
    rows = []
    slips = []
    totals = defaultdict(int)
    for kind in (*quote_set.GENUINE, *quote_set.FABRICATED):
        keys = by_kind.get(kind, [])
        genuine = kind in quote_set.GENUINE
        good = 0
        exact_good = 0
        for number, n in keys:
            page = pages[number]
            quote = page["quotes"][n]
            match = results[number, n]
            if genuine:
                good += match.verified and (match.start, match.end) == (
                    quote["start"],
                    quote["end"],
                )
            else:
                good += match.verified
                if match.verified:
                    slips.append((kind, quote["quote"], match.exact))
            started = time.process_time()
            exact_good += exact(quote["quote"], page["text"])
            exact_seconds += time.process_time() - started
        sample = rng.sample(keys, min(args.difflib_sample, len(keys)))
        started = time.process_time()
        difflib_good = sum(
            best_window(pages[i]["quotes"][n]["quote"], pages[i]["text"]) >= THRESHOLD
            for i, n in sample
        )
        difflib_seconds += time.process_time() - started
        difflib_count += len(sample)
        rows.append((kind, len(keys), good, exact_good, difflib_good, len(sample)))
        group = "genuine" if genuine else "fabricated"
        totals[group, "n"] += len(keys)
        totals[group, "webtap"] += good
        totals[group, "exact"] += exact_good
        totals[group, "difflib"] += difflib_good
        totals[group, "difflib n"] += len(sample)

    print()
    print(f"{'kind':<20}{'quotes':>8}  {'webtap':>8}  {'exact':>8}  {'difflib>=0.92':>14}")
    headings = {
        "genuine": "-- genuine: verified (webtap: at the right span)",
        "fabricated": "-- fabricated: accepted",
    }
    for group, heading in headings.items():
        print(heading)
        for kind, count, good, exact_good, difflib_good, sampled in rows:
            if (kind in quote_set.GENUINE) != (group == "genuine"):
                continue
            print(
                f"{kind:<20}{count:>8}  {pct(good, count):>8}  {pct(exact_good, count):>8}  "
                f"{pct(difflib_good, sampled):>8} of {sampled}"
            )
        n, sampled = totals[group, "n"], totals[group, "difflib n"]
        print(
            f"{'all':<20}{n:>8}  {pct(totals[group, 'webtap'], n):>8}  "
            f"{pct(totals[group, 'exact'], n):>8}  "
            f"{pct(totals[group, 'difflib'], sampled):>8} of {sampled}"
        )
    quotes = sum(len(p["quotes"]) for p in pages)
    size = sum(len(p["text"]) for p in pages) / len(pages) / 1000
    print()
    print(f"pages {len(pages)}, quotes {quotes}, text {size:.1f} K characters a page on average")
    print(
        f"quotes/s, one thread, CPU time: webtap {quotes / webtap_seconds:,.0f} (an index per "
        f"page included); exact {quotes / exact_seconds:,.0f}; "
        f"difflib {difflib_count / difflib_seconds:,.1f}"
    )
    turned = ("changed_number", "negation_added", "negation_removed")
    serious = [slip for slip in slips if slip[0] in turned]
    print(
        f"webtap fabrications accepted: {len(slips)}; "
        f"with a changed number or negation: {len(serious)}"
    )
    for kind, quote, found in slips[:20]:
        print(f"  {kind}: {quote!r} -> {found!r}")
    if not args.no_exe:
        elapsed, cpu, count, answers = run_exe(pages)
        agree = all(
            answer["results"][n]["verified"] == results[number, n].verified
            for number, answer in enumerate(answers)
            for n in range(len(pages[number]["quotes"]))
        )
        print(
            f"webtap verify --jsonl: {count} quotes over {len(pages)} lines, startup included: "
            f"{elapsed:.2f} s wall, {count / elapsed:,.0f} quotes/s; {cpu:.2f} s of CPU, "
            f"{count / cpu:,.0f} quotes/s (wall time counts the other processes on the machine: "
            f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores); "
            f"same verdicts: {agree}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
