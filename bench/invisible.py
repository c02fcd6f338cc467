"""Throughput of :func:`webtap.text.strip_invisible`, the pass over every page a model reads.

    .venv/bin/python bench/invisible.py [--data DIR] [--repeat N]

Reads ``DIR/articles/html/*.html.gz`` (default ``/work/shared/data/html``), converts each page
to Markdown once, and times, best of ``--repeat`` runs, one thread, in MB/s of UTF-8:

- ``strip_invisible`` on the Markdown (what ``web_fetch`` runs it on) and on the whole HTML;
- the same on the pages with an invisible character every 200 characters, and on Persian text
  (a zero-width non-joiner in many words, all of them kept): the slow path's cost;
- beside ``strip_controls`` (one character class, the pass every page already takes) and the
  converter itself, so the ratio says what the pass adds to a fetch.
"""

from __future__ import annotations

import argparse
import gzip
import re
import time
from collections.abc import Callable
from pathlib import Path

DEFAULT_DATA = Path("/work/shared/data/html")
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*>")
PERSIAN = "من می\u200cخواهم این کتاب\u200cها را بخوانم و آن\u200cها را به دوستانم بدهم. "


def best_seconds(action: Callable[[str], object], texts: list[str], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for text in texts:
            action(text)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    paths = sorted((args.data / "articles" / "html").glob("*.html.gz"))
    if not paths:
        raise SystemExit(f"no pages in {args.data / 'articles' / 'html'} (see the data README)")

    from webtap.convert import convert
    from webtap.text import strip_controls, strip_invisible

    html = [
        _XML_DECLARATION.sub("", gzip.decompress(p.read_bytes()).decode("utf-8", "replace"))
        for p in paths
    ]
    started = time.perf_counter()
    markdown = [convert(page).markdown for page in html]
    convert_seconds = time.perf_counter() - started
    sprinkled = [
        "\u200b".join(page[i : i + 200] for i in range(0, len(page), 200)) for page in markdown
    ]
    persian = [PERSIAN * 2000] * 20

    def mb(texts: list[str]) -> float:
        return sum(len(t.encode("utf-8")) for t in texts) / 1e6

    print(f"{len(paths)} pages: {mb(html):.1f} MB of HTML, {mb(markdown):.1f} MB of Markdown")
    print(f"  webtap.convert (for scale)          {mb(html) / convert_seconds:8.1f} MB/s of HTML")
    rows = [
        ("strip_controls, Markdown", strip_controls, markdown),
        ("strip_invisible, Markdown", strip_invisible, markdown),
        ("strip_invisible, HTML", strip_invisible, html),
        ("strip_invisible, one per 200 chars", strip_invisible, sprinkled),
        ("strip_invisible, Persian (kept)", strip_invisible, persian),
    ]
    for name, action, texts in rows:
        seconds = best_seconds(action, texts, args.repeat)
        print(f"  {name:36} {mb(texts) / seconds:8.1f} MB/s")
    removed = sum(len(a) - len(strip_invisible(a)) for a in markdown)
    kept = sum(len(a) - len(strip_invisible(a)) for a in persian)
    print(f"  characters taken out of the real pages: {removed}; of the Persian text: {kept}")
    share = best_seconds(strip_invisible, markdown, args.repeat) / convert_seconds
    print(f"  strip_invisible adds {share:.2%} to converting the pages")


if __name__ == "__main__":
    main()
