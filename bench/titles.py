"""The page's title heading in its main content: how often webtap keeps it.

    .venv/bin/python bench/titles.py [--data DIR] [--show N]

On ``html/articles/`` and ``html/modern/`` (see ``bench/main_content.py``), the pages with
exactly one ``<h1>``: the share whose main content holds that heading's words (target >= 98%),
the pages left and a reason for each; and main content's F1 against the references with the
title line and without it (the output's lines saying the heading removed), since the
references often leave titles out: a title kept is not a loss of precision worth counting;
and without the title's opening (`webtap.convert._opening`: standfirst, byline, date line,
caption), converted again with it turned off, as the references often leave bylines out.

A heading's words are those a reader sees: a ``<br>`` parts words, a ``<style>`` or
``<script>`` inside it says none. An ``<h1>`` that does not say the ``<title>`` (or
``og:title``) while another heading does is not the page's title heading (a site's name or
logo, a teaser of another story): such pages are counted apart, with whether the heading
saying the ``<title>`` leads the main content instead.
"""

from __future__ import annotations

import argparse
import copy
import re
import sys
from pathlib import Path
from unittest import mock

import lxml.html

from main_content import DEFAULT_DATA, Page, load_corpus, score, summary, words
from webtap.convert import _prose, _title, convert
from webtap.convert._title import is_logo

_UNSEEN = ("script", "style", "template")


def only_h1(html: str) -> tuple[lxml.html.HtmlElement, lxml.html.HtmlElement] | None:
    """The page's one ``<h1>`` with words in it, and the page, else None."""
    try:
        root = lxml.html.fromstring(html)
    except (ValueError, lxml.etree.ParserError):
        return None
    h1s = root.xpath("//body//h1")
    if len(h1s) != 1 or not seen_words(h1s[0]):
        return None
    return h1s[0], root


def seen_words(heading: lxml.html.HtmlElement) -> list[str]:
    """The words a reader sees in ``heading``."""
    shown = copy.deepcopy(heading)
    for el in list(shown.iter(*_UNSEEN)):
        el.drop_tree()
    for el in shown.iter("br"):
        el.tail = " " + (el.tail or "")
    return words(shown.text_content())


def says_title(heading: lxml.html.HtmlElement, titles: set[str]) -> int:
    """How many of the title's words ``heading`` says when they are most of its words (and
    two or more), else 0."""
    said = seen_words(heading)
    found = sum(w in titles for w in said)
    return found if found >= 2 and found >= 0.8 * len(said) else 0


def title_words(root: lxml.html.HtmlElement) -> set[str]:
    """The words of the page's ``<title>`` and ``og:title``."""
    texts = root.xpath("//title/text()|//meta[@property='og:title']/@content")
    return {w for text in texts for w in words(text)}


_CHROME = ("header", "nav")
_SEPARATORS = re.compile(r"\s[|\u2013\u2014\u00b7:-]\s|\s[|\u2013\u2014\u00b7]")


def real_title(
    h1: lxml.html.HtmlElement, root: lxml.html.HtmlElement
) -> lxml.html.HtmlElement | None:
    """The heading saying the ``<title>`` when the ``<h1>`` is not the page's title heading
    but a logo, a heading in the page's header outside its article, the site's name (the
    ``<title>``'s part across a separator, ``og:site_name``) or another story's teaser (in
    an ``<article>`` not holding the heading saying the ``<title>``)."""
    titles = title_words(root)
    saying = [
        (says_title(h, titles), i, h) for i, h in enumerate(root.xpath("//body//h2|//body//h3"))
    ]
    found, _, real = max(saying, key=lambda s: (s[0], -s[1]), default=(0, 0, None))
    if not found or real is None:
        return None
    ancestors = list(h1.iterancestors())
    tags = {a.tag for a in ancestors}
    said = seen_words(h1)
    names = root.xpath("//title/text()|//meta[@property='og:site_name']/@content")
    parts = [words(part) for name in names for part in _SEPARATORS.split(name)]
    teaser = any(a.tag == "article" and a not in real.iterancestors() for a in ancestors)
    chrome = not tags.isdisjoint(_CHROME) and "article" not in tags and "main" not in tags
    # A site's name is in its <title> too: a logo or a name says the title's words.
    if is_logo(h1) or said in parts or (not says_title(h1, titles) and (chrome or teaser)):
        return real
    return None


def leads(heading: lxml.html.HtmlElement, markdown: str) -> bool:
    """Whether ``markdown``'s first line is ``heading`` (after a kicker line at most)."""
    lines = [line for line in markdown.splitlines() if line.strip()][:2]
    return any(line.startswith("#") and words(line) == seen_words(heading) for line in lines)


def _without_title(markdown: str, title: str) -> str:
    return "\n".join(line for line in markdown.splitlines() if " ".join(words(line)) != title)


def _reason(h1: lxml.html.HtmlElement, trimmed: bool, markdown: str) -> str:
    if not trimmed:
        return "whole page converted"
    if is_logo(h1):
        return "a logo: a header's heading linking to the site's root"
    if len(h1.text_content()) > 300:
        return "a long heading"
    if any(el.get("aria-hidden") == "true" for el in h1.iter()):
        shown = [el for el in h1.iter() if el.get("aria-hidden") != "true"]
        if " ".join(words(" ".join(el.text or "" for el in shown))) in " ".join(words(markdown)):
            return "kept without its part hidden from assistive technology (aria-hidden)"
    return "heading after the content, or dropped with boilerplate"


def run(folder: Path, show: int) -> None:
    pages: list[Page] = load_corpus(folder)
    held, left, apart, apart_led = 0, [], [], 0
    with_title, without_title, without_opening = [], [], []
    for page in pages:
        found = only_h1(page.html)
        if found is None:
            continue
        h1, root = found
        _prose.forget()
        doc = convert(page.html, main_content=True)
        title = " ".join(seen_words(h1))
        real = real_title(h1, root)
        if title in " ".join(words(doc.markdown)):
            held += 1
        elif real is not None:
            led = leads(real, doc.markdown)
            apart_led += led
            said = " ".join(seen_words(real))[:40]
            apart.append((page.id, title[:40], f"{said!r} {'leads' if led else 'does not lead'}"))
        else:
            left.append((page.id, title[:60], _reason(h1, doc.trimmed, doc.markdown)))
        if real is not None:
            title = " ".join(seen_words(real))
        with_title.append(score(doc.markdown, page))
        without_title.append(score(_without_title(doc.markdown, title), page))
        _prose.forget()
        with mock.patch.object(_title, "opening", lambda *_: []):
            bare = convert(page.html, main_content=True).markdown
        without_opening.append(score(bare, page))
    total = held + len(left)
    print(
        f"{folder.name}: title heading in main content on {held}/{total} pages with one <h1>"
        f" that is their title heading ({held / max(total, 1):.1%}); {len(apart)} more pages'"
        f" one <h1> is not (another heading says the <title>), which leads on {apart_led}"
    )
    rows = (
        ("with the title line and its opening", with_title),
        ("without the title line", without_title),
        ("without the opening (standfirst, byline, ...)", without_opening),
    )
    for name, scores in rows:
        precision, recall, f1, _ = summary(scores)
        found = sum(s.found for s in scores) / max(len(scores), 1)
        leaked = sum(s.leaked for s in scores) / max(len(scores), 1)
        print(
            f"  F1 {name}: {f1:.3f} (precision {precision:.3f}, recall {recall:.3f};"
            f" 'with' snippets found {found:.1%}, 'without' {leaked:.1%})"
        )
    for key, title, why in left[:show]:
        print(f"  left: {key}: {title!r}: {why}")
    for key, title, why in apart[:show]:
        print(f"  apart: {key}: h1 {title!r}; the title heading {why}")


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
