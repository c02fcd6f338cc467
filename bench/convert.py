"""Throughput of webtap's HTML -> Markdown converter beside its peers, on real pages.

    .venv/bin/python bench/convert.py [--data DIR] [--repeat N] [--only NAME ...]

Reads ``DIR/html/articles/html/*.html.gz`` (news and blog pages) and ``DIR/html/docs/*.html``
(documentation pages); ``DIR`` defaults to ``../shared/data`` beside the repository (see
``bench/shared_data.py``). Every converter gets the same
decoded ``str`` pages, one thread, best of ``--repeat`` runs. Prints MB/s for each corpus and
for both together, how many times faster webtap is than each peer, and each one's time as a
multiple of libxml2's bare parse (``lxml.html.fromstring``), the floor for any lxml converter.
"""

from __future__ import annotations

import argparse
import gc
import gzip
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

import shared_data

DEFAULT_DATA = shared_data.DEFAULT / "html"  # what load() reads: the pages' folder
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*>")

Converter = Callable[[str], object]


def load(data: Path) -> dict[str, list[str]]:
    """The pages of each corpus, decoded, without an XML declaration (lxml refuses one in a
    ``str``; the PostgreSQL pages are XHTML and start with one)."""
    corpora = {
        "articles": sorted((data / "articles" / "html").glob("*.html.gz")),
        "docs": sorted((data / "docs").glob("*.html")),
    }
    pages: dict[str, list[str]] = {}
    for name, paths in corpora.items():
        if paths:
            pages[name] = [
                _XML_DECLARATION.sub("", _read(path).decode("utf-8", "replace"), count=1)
                for path in paths
            ]
    return pages


def _read(path: Path) -> bytes:
    raw = path.read_bytes()
    return gzip.decompress(raw) if path.suffix == ".gz" else raw


def converters() -> dict[str, Converter]:
    """Every converter that is installed, webtap and the bare parse first."""
    import lxml.html

    from webtap.convert import convert

    found: dict[str, Converter] = {
        "lxml.html.fromstring (parse only)": lxml.html.fromstring,
        "webtap.convert": convert,
    }
    try:
        from html_to_markdown import convert as h2m_convert

        found["html-to-markdown (Rust)"] = h2m_convert
    except ImportError:
        pass
    try:
        import html2text

        def run_html2text(html: str) -> str:
            handler = html2text.HTML2Text()
            handler.body_width = 0
            return handler.handle(html)

        found["html2text"] = run_html2text
    except ImportError:
        pass
    try:
        from markdownify import markdownify

        found["markdownify"] = markdownify
    except ImportError:
        pass
    return found


def best_time(convert: Converter, pages: list[str], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        for page in pages:
            convert(page)
        best = min(best, time.perf_counter() - start)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    shared_data.add_argument(parser)
    parser.add_argument("--repeat", type=int, default=3, help="runs per converter (best kept)")
    parser.add_argument(
        "--only", nargs="*", default=None, help="converters whose name contains one of these"
    )
    args = parser.parse_args(argv)
    pages = load(args.data / "html")
    if not pages:
        shared_data.need(args.data, "html/articles")
    pages["all"] = [page for corpus in list(pages.values()) for page in corpus]
    sizes = {name: sum(len(p.encode()) for p in corpus) / 1e6 for name, corpus in pages.items()}
    found = converters()
    if args.only:
        found = {
            name: fn
            for name, fn in found.items()
            if name.startswith(("lxml", "webtap")) or any(o in name for o in args.only)
        }
    for name, corpus in pages.items():
        print(f"\n{name}: {len(corpus)} pages, {sizes[name]:.1f} MB, best of {args.repeat}")
        times = {}
        for label, convert in found.items():
            times[label] = best_time(convert, corpus, args.repeat)
        _print_table(times, sizes[name])
    return 0


def _print_table(times: dict[str, float], megabytes: float) -> None:
    parse = times["lxml.html.fromstring (parse only)"]
    ours = times["webtap.convert"]
    print(f"{'converter':<36} {'MB/s':>7} {'seconds':>8} {'webtap is':>10} {'x parse':>8}")
    for label, seconds in sorted(times.items(), key=lambda item: item[1]):
        faster = "-" if label == "webtap.convert" else f"{seconds / ours:.1f}x"
        print(
            f"{label:<36} {megabytes / seconds:>7.1f} {seconds:>8.3f} {faster:>10} "
            f"{seconds / parse:>7.1f}x"
        )


if __name__ == "__main__":
    sys.exit(main())
