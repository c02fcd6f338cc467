"""Publication dates and authors: webtap beside htmldate (fast and extensive) and trafilatura.

    .venv/bin/python bench/dates.py [--data DIR]

``bench/data/dates.json`` holds every article page of ``DIR/html/articles/`` (181) and the
``article`` pages of ``DIR/html/modern/`` (225) whose publication date a reader sees, annotated
by reading each page (its byline, its date line; "how" quotes what the page shows):
``{"articles/<id>": {"published": "YYYY-MM-DD", "author": ..., "how": ...}}``. The others are
in ``bench/data/dates_left_out.json`` with the reason (no date shown, only "2 days ago", only
an "Updated" date: not the publication's), and counted at the end of the run. For each reader,
in one run over the same pages:

- date accuracy: the share of pages whose date is the annotated day exactly (a page given no
  date counts as wrong);
- author: the share of pages with an annotated author whose every word the reader's author
  holds (case and accents aside), among those pages;
- ms per page: the reader's own cost, one thread, in CPU time (``time.process_time``), over
  the pages read once each (htmldate keeps caches of the strings it has read: a second run
  over the same pages would time its caches, not its reading). The machine's other work
  moves these by 10-30 %: compare readers within one run.

webtap's cost is what reading the metadata adds to the converter's parse (``read_metadata`` on
the tree ``webtap.convert._html.parse`` made just before, off the clock), and, beside it, the whole
conversion with the metadata read. htmldate and trafilatura are given the decoded page and
its URL, as a caller would give them, and parse it themselves (on the clock); htmldate with
``original_date=True`` (the publication date, not the last change) in both modes. Given a URL
that holds a date (``/2019/11/18/``), htmldate answers with it without parsing the page, which
is most of its speed here: the row "no URL" is htmldate parsing and reading every page.

Targets (issue 32): webtap's accuracy at least htmldate extensive's, at 5x its speed or more.
htmldate and trafilatura are installed only for this bench (``pip install htmldate
trafilatura``): they are not webtap's dependencies.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
import unicodedata
import warnings
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import shared_data

ANNOTATIONS = Path(__file__).resolve().parent / "data" / "dates.json"
LEFT_OUT = ANNOTATIONS.with_name("dates_left_out.json")  # article pages read, and why left out
Reader = Callable[[str, str], tuple[str, str]]  # (html, url) -> (date, author)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    shared_data.add_argument(parser)
    args = parser.parse_args()
    annotated = json.loads(ANNOTATIONS.read_text())
    pages = _pages(args.data, annotated)
    readers = _readers()
    print(f"{len(pages)} annotated pages ({ANNOTATIONS.relative_to(Path.cwd())})\n")
    print(f"{'reader':<32} {'date':>7} {'author':>7} {'ms/page':>8}")
    for name, read in readers.items():
        dates = authors = authored = 0
        found, ms = _read_all(read, pages)
        for key, (date, author) in found.items():
            truth = annotated[key]
            dates += date[:10] == truth["published"]
            if truth.get("author"):
                authored += 1
                authors += _same_author(author, truth["author"])
        print(
            f"{name:<32} {dates / len(pages):>7.3f} {authors / max(authored, 1):>7.3f} {ms:>8.2f}"
        )
    print(f"\n(author: {authored} pages with a visible author)")
    _print_left_out()
    return 0


def _print_left_out() -> None:
    """How many of the article pages read show no date a reader could take as the
    publication's, by reason."""
    if not LEFT_OUT.exists():
        return
    reasons = json.loads(LEFT_OUT.read_text()).values()
    counts = {
        "show no date": sum(r.startswith(("no date", "no whole", "ambiguous")) for r in reasons),
        "show only a relative date": sum(r.startswith("relative") for r in reasons),
        "show only a last-updated or review date": sum(r.startswith("only") for r in reasons),
    }
    print(
        f"{len(reasons)} article pages read and left out: "
        + ", ".join(f"{n} {what}" for what, n in counts.items())
    )


def _pages(data: Path, annotated: dict) -> dict[str, tuple[str, str]]:
    pages = {}
    truths = {
        kind: json.loads((shared_data.need(data, f"html/{kind}") / "ground-truth.json").read_text())
        for kind in ("articles", "modern")
    }
    for key in annotated:
        kind, page = key.split("/")
        raw = gzip.decompress((data / "html" / kind / "html" / f"{page}.html.gz").read_bytes())
        pages[key] = (raw.decode("utf-8", "replace"), truths[kind][page]["url"])
    return pages


def _readers() -> dict[str, Reader]:
    from webtap.convert import convert
    from webtap.convert._html import find_base
    from webtap.convert._metadata import read_metadata

    def webtap_metadata(html: str, url: str) -> tuple[str, str]:
        metadata = read_metadata(_PARSED[html], find_base(_PARSED[html], url))
        return metadata.published, metadata.author

    def webtap_convert(html: str, url: str) -> tuple[str, str]:
        metadata = convert(html, url, main_content=True).metadata
        return metadata.published, metadata.author

    readers: dict[str, Reader] = {}
    readers["webtap (metadata on the parse)"] = webtap_metadata
    readers["webtap convert (with metadata)"] = webtap_convert
    try:
        import htmldate
        import trafilatura
    except ImportError:
        print("htmldate and trafilatura are not installed: pip install htmldate trafilatura\n")
        return readers
    warnings.filterwarnings("ignore")

    def htmldate_reader(extensive: bool, with_url: bool = True) -> Reader:
        def read(html: str, url: str) -> tuple[str, str]:
            found = htmldate.find_date(
                html, url=url if with_url else None, original_date=True,
                extensive_search=extensive,
            )  # fmt: skip
            return found or "", ""

        return read

    def trafilatura_reader(html: str, url: str) -> tuple[str, str]:
        found = trafilatura.extract_metadata(html, default_url=url)
        if found is None:
            return "", ""
        return found.date or "", found.author or ""

    readers["htmldate fast"] = htmldate_reader(False)
    readers["htmldate extensive"] = htmldate_reader(True)
    readers["htmldate extensive, no URL"] = htmldate_reader(True, with_url=False)
    readers["trafilatura extract_metadata"] = trafilatura_reader
    return readers


class _ParsedPages(dict):
    """Pages parsed as the converter parses them (the tree it has anyway), by their text."""

    def __missing__(self, html: str) -> object:
        from webtap.convert._html import parse

        self[html] = root = parse(html)
        return root


_PARSED = _ParsedPages()


def _read_all(
    read: Reader, pages: dict[str, tuple[str, str]]
) -> tuple[dict[str, tuple[str, str]], float]:
    """What ``read`` finds on each page, and its ms per page."""
    found = {}
    spent = 0.0
    for key, (html, url) in pages.items():
        if read.__name__ == "webtap_metadata":
            # The converter's parse, made off the clock just before, as the converter reads
            # the metadata from the tree it has just made (a tree parsed long before is read
            # from memory, not the processor's cache: 0.1 ms a page more, for its first walk).
            _PARSED.clear()
            _PARSED[html]
        started = time.process_time()
        found[key] = read(html, url)
        spent += time.process_time() - started
    return found, 1000 * spent / len(pages)


def _same_author(found: str, truth: str) -> bool:
    def words(text: str) -> set[str]:
        plain = unicodedata.normalize("NFKD", text.casefold())
        plain = "".join(c for c in plain if not unicodedata.combining(c))
        return {w.strip(".,") for w in plain.replace(",", " ").split() if w.strip(".,")}

    return bool(found) and words(truth) <= words(found)


if __name__ == "__main__":
    sys.exit(main())
