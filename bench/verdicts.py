"""The fetch classifier on real pages: how many get a verdict other than content, and its cost.

    .venv/bin/python bench/verdicts.py [--data /work/shared/data/html] [--show]

Every page of ``modern/`` (500) and ``articles/`` (181) is classified as if served with HTTP
200 and no headers, with its URL from ``ground-truth.json``: parsed with ``lxml.html``,
converted with ``webtap.convert.convert(main_content=True)``, then
``webtap.verdict.classify``. These are real pages that a reader wants, so every verdict other
than content is either a page that really is a wall (a paywall's teaser saved as it was) or a
false positive: each one is listed with its evidence, to be checked by reading the page.
``--show`` prints the start of each flagged page's Markdown. The time is the classifier's
own (reading the tree and deciding), per page, beside parsing the page.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from collections import Counter
from pathlib import Path

import lxml.html

from webtap.convert import convert
from webtap.verdict import classify, read_page

DATA = Path("/work/shared/data/html")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--show", action="store_true")
    args = parser.parse_args()
    counts: Counter[str] = Counter()
    flagged = []
    parse_time = classify_time = 0.0
    for folder in ("modern", "articles"):
        truth = json.loads((args.data / folder / "ground-truth.json").read_text())
        for path in sorted((args.data / folder / "html").glob("*.html.gz")):
            key = path.name.split(".")[0]
            html = gzip.decompress(path.read_bytes()).decode("utf-8", "replace")
            start = time.perf_counter()
            root = lxml.html.document_fromstring(html.encode("utf-8"))
            parse_time += time.perf_counter() - start
            document = convert(html, base_url=truth[key]["url"], main_content=True)
            start = time.perf_counter()
            verdict = classify(200, {}, read_page(root), document, url=truth[key]["url"])
            classify_time += time.perf_counter() - start
            counts[f"{folder}:{verdict.kind}"] += 1
            if verdict.kind != "content":
                flagged.append((folder, key, verdict, truth[key]["url"], document.markdown))
    pages = sum(counts.values())
    print(f"{pages} pages: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    print(f"not content: {len(flagged)}")
    for folder, key, verdict, url, markdown in flagged:
        print(f"  {folder}/{key[:12]} {verdict.kind}: {verdict.evidence} — {url}")
        if args.show:
            print("    " + markdown[:600].replace("\n", "\n    "))
    print(
        f"time per page: classify {classify_time / pages * 1000:.2f} ms, "
        f"lxml parse {parse_time / pages * 1000:.2f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
