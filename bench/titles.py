"""The page's title heading in its main content: how often webtap keeps it.

    .venv/bin/python bench/titles.py [--data DIR] [--show N]

On ``html/articles/`` and ``html/modern/`` (see ``bench/main_content.py``), the pages with
exactly one ``<h1>``: the share whose main content holds that heading's words (target >= 98%),
the pages left and a reason for each; and main content's F1 against the references with the
title line and without it (the output's lines saying the heading removed), since the
references often leave titles out: a title kept is not a loss of precision worth counting.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import lxml.html

from main_content import DEFAULT_DATA, Page, load_corpus, score, summary, words
from webtap.convert import _prose, convert
from webtap.convert._title import is_logo


def only_h1(html: str) -> lxml.html.HtmlElement | None:
    """The page's one ``<h1>`` with words in it, else None."""
    try:
        root = lxml.html.fromstring(html)
    except (ValueError, lxml.etree.ParserError):
        return None
    h1s = root.xpath("//body//h1")
    if len(h1s) != 1 or not words(h1s[0].text_content()):
        return None
    return h1s[0]


def _without_title(markdown: str, title: str) -> str:
    return "\n".join(line for line in markdown.splitlines() if " ".join(words(line)) != title)


def _reason(h1: lxml.html.HtmlElement, trimmed: bool) -> str:
    if not trimmed:
        return "whole page converted"
    if is_logo(h1):
        return "a logo: a header's heading linking to the site's root"
    if len(h1.text_content()) > 300:
        return "a long heading"
    return "heading after the content, or dropped with boilerplate"


def run(folder: Path, show: int) -> None:
    pages: list[Page] = load_corpus(folder)
    held, left = 0, []
    with_title, without_title = [], []
    for page in pages:
        h1 = only_h1(page.html)
        if h1 is None:
            continue
        _prose.forget()
        doc = convert(page.html, main_content=True)
        title = " ".join(words(h1.text_content()))
        if title in " ".join(words(doc.markdown)):
            held += 1
        else:
            left.append((page.id, title[:60], _reason(h1, doc.trimmed)))
        with_title.append(score(doc.markdown, page))
        without_title.append(score(_without_title(doc.markdown, title), page))
    total = held + len(left)
    print(
        f"{folder.name}: title heading in main content on {held}/{total} pages with one <h1>"
        f" ({held / max(total, 1):.1%})"
    )
    for name, scores in (("with the title line", with_title), ("without it", without_title)):
        precision, recall, f1, _ = summary(scores)
        print(f"  F1 {name}: {f1:.3f} (precision {precision:.3f}, recall {recall:.3f})")
    for key, title, why in left[:show]:
        print(f"  left: {key}: {title!r}: {why}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the shared data folder")
    parser.add_argument("--show", type=int, default=20, help="pages left to list, per corpus")
    args = parser.parse_args(argv)
    for name in ("articles", "modern"):
        run(args.data / "html" / name, args.show)
    return 0


if __name__ == "__main__":
    sys.exit(main())
