"""Main-content extraction: which part of a cleaned page is the page's own text.

One ``etree.iterwalk`` over the cleaned tree (the one the converter walks next) adds up, for
every block element, its subtree's characters, the part in links (text whose owner is an
``<a>``: a product card wrapped whole in a link is not link text) and the part in prose, and
gives paragraphs' scores to their parent and grandparent as readability does. Elements whose
class or id names boilerplate (``comments``, ``sidebar``, ``rodape``, ..., whole words only)
are noted, unless they hold most of the page's prose (a layout wrapper around the content).
The content is the page's ``itemprop="articleBody"``, else the best candidate outside
boilerplate with the siblings that continue it (chunks of a split body), grown to their
parent when they fill it, and on reference pages to every entry of its kind. Inside it,
boilerplate (share bars, comments, newsletter boxes, related posts), images and captions are
removed. Nothing scoring, or too little found, gives None: the caller converts the page.
"""

from __future__ import annotations

from typing import NamedTuple

from lxml import etree

from webtap.convert._boilerplate import (
    ALWAYS,
    BY_ID,
    LABEL,
    MAYBE,
    NOT,
    SHARE_LINK,
    announces,
    name_verdict,
)
from webtap.convert._html import drop

__all__ = ["extract", "extract_root"]

# Text in these tags belongs to the enclosing block (``clean`` has unwrapped span, font, ...).
_INLINE = frozenset((
    "a", "b", "strong", "em", "i", "code", "kbd", "samp", "tt", "sup", "sub", "q", "s", "del",
    "strike", "br", "img", "source", "picture", "math",
))  # fmt: skip

_PARAGRAPH = 25  # characters a block needs of its own to count as a paragraph
_PROSE_SECTION = 500  # prose that keeps a section named like boilerplate (id="for-update-share")
_OWN_PROSE = 500  # characters of its own that make a block a candidate too (a layout cell)
_MIN_MARKED = 100  # characters an itemprop="articleBody" needs to be trusted
_MIN_CONTENT = 200  # an extraction with fewer characters falls back to the whole page
_MIN_SHARE = 0.15  # ... as does one holding less than this share of the page's prose
_WRAPPER_SHARE = 0.6  # an element with this share of the page's text is never boilerplate
_MAX_FILLS = 4  # how many levels siblings may fill their parent, upwards
_WIDEN_BELOW = 0.5  # ... while they hold less than this share of the page's prose
_FILL_ANY = 0.05  # what else a parent may hold, of any kind, to be taken ...
_FILL_SHARE = 0.25  # ... or of text mostly outside links, beside several chosen siblings
_WIDEN_SHARE = 1.0  # ... or, widening a reference page, as much as they hold

_BOILERPLATE_TAGS = frozenset(("aside", "footer", "figure", "figcaption", "form"))
_HEADINGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))
_SECTIONS = frozenset(("section", "article", "dl", "details"))
_NEVER_BOILERPLATE = frozenset(("html", "body", "main"))
# Tags left out of the content however little they hold: pictures and their captions.
_PICTURE_TAGS = ("img", "picture", "figcaption")
# Tags the converter reads only inside their parent (a cell, a row, an item): a chosen one is
# converted as a plain block.
_RETAGGED = frozenset(("td", "th", "tr", "thead", "li", "dt", "summary", "caption"))


def extract_root(root: etree._Element) -> etree._Element | None:
    """A new ``<div>`` holding the main content (moved out of ``root``), or None to convert
    the whole page (see `extract`)."""
    chosen = extract(root)
    if chosen is None:
        return None
    wrapper = etree.Element("div")
    for el in chosen:
        el.tail = None
        if el.tag in _RETAGGED:
            el.tag = "div"
        wrapper.append(el)
    return wrapper


def extract(root: etree._Element) -> list[etree._Element] | None:
    """The elements that hold the page's main content, in document order, after removing
    the boilerplate inside them; None when nothing scores or the content found is too small
    to trust (the caller then converts the whole page)."""
    body = root.find("body")
    if body is None:
        body = root
    page = _walk(body)
    if page.best is None or page.best is body:
        return None
    chosen = _marked(body, page)
    trusted = chosen is not None
    if chosen is None:
        # The best block, with the siblings that continue it, becomes their parent when
        # they fill it. While that holds a minority of the page's prose (a manual: one
        # function's entry among a hundred), the parent in turn looks for its siblings.
        chosen = _fill(_with_siblings(page.best, page), page)
        for _ in range(_MAX_FILLS):
            if _good(chosen, page) >= _WIDEN_BELOW * page.good:
                break
            filled = _fill(_with_siblings(chosen[0], page, alike_only=True), page, alone=True)
            if filled == chosen:
                break
            chosen = filled
    else:
        chosen = _fill(chosen, page)
    total = sum(page.stats[el][_ALL] for el in chosen)
    good = _good(chosen, page)
    if total < (_MIN_MARKED if trusted else _MIN_CONTENT) or (
        not trusted and good < _MIN_SHARE * page.good
    ):
        return None
    _prune(chosen, page, good)
    return chosen


def _good(elements: list[etree._Element], page: _Page) -> int:
    return sum(page.stats[el][_GOOD] for el in elements)


# A block's counters while the walk is in it, then its subtree's totals.
_ALL, _LINK, _GOOD, _OWN, _OWN_LINK, _COMMAS, _SCORE, _KIND, _LINKED = range(9)


class _Page(NamedTuple):
    best: etree._Element | None  # the top-scoring candidate outside boilerplate
    best_score: float
    good: int  # characters of prose outside links and boilerplate, in the whole page
    stats: dict[etree._Element, list]  # every block that holds text: its counters
    boilerplate: list[etree._Element]


def _walk(body: etree._Element) -> _Page:
    """One walk over the tree: every block's counters, the best candidate, the boilerplate.

    A block (any element not in ``_INLINE``) owns its text and its inline elements' text.
    A block owning ``_PARAGRAPH`` characters or more is a paragraph: like readability, its
    score (1, plus its commas, plus one per 100 characters up to 3) goes to its parent block
    and half of it to its grandparent, so the container with the most paragraphs of its own
    scores highest; a candidate's score is then scaled by its share of text outside links.
    """
    inline = _INLINE
    boilerplate_tags = _BOILERPLATE_TAGS
    kinds = _KINDS
    if len(kinds) > _KINDS_MAX:
        kinds.clear()
    blocks: list[list] = []
    stats: dict[etree._Element, list] = {}
    maybe: list[etree._Element] = []  # boilerplate by name, unless it wraps the content
    always: list[etree._Element] = []  # comment sections
    candidates: list[tuple[float, etree._Element]] = []
    inside = 0  # open comment sections: nothing in them is a candidate
    linked = 0  # open <a> elements: blocks in them (cards, teasers) are not prose
    articles = 0  # open <article> elements
    frame: list = []
    for event, el in etree.iterwalk(body, events=("start", "end")):
        tag = el.tag
        if event == "start":
            if tag in inline:
                if tag == "a":
                    linked += 1
                text = el.text
                if text and blocks:
                    n = len(text.strip())
                    if n:
                        frame = blocks[-1]
                        frame[_OWN] += n
                        frame[_COMMAS] += text.count(",") + text.count("\uff0c")
                        if tag == "a":
                            frame[_OWN_LINK] += n
                continue
            cls = el.get("class")
            ident = el.get("id")
            if cls is None and ident is None:
                kind = NOT
            else:
                known = kinds.get((cls, ident))
                if known is None:
                    known = kinds[cls, ident] = name_verdict(cls, ident)
                kind = known
            if tag in boilerplate_tags:
                kind = kind or MAYBE
            elif tag == "article":
                # An article inside an article is a related post or a comment (HTML5).
                kind = kind or (MAYBE if articles else NOT)
                articles += 1
            elif tag in _NEVER_BOILERPLATE:
                kind = NOT
            if kind == ALWAYS:
                inside += 1
            text = el.text
            if text:
                n = len(text.strip())
                commas = text.count(",") + text.count("\uff0c") if n else 0
            else:
                n = commas = 0
            blocks.append([0, 0, 0, n, 0, commas, 0.0, kind, linked])
            continue
        if tag in inline:
            if tag == "a":
                linked -= 1
        else:
            if tag == "article":
                articles -= 1
            frame = blocks.pop()
            own = frame[_OWN]
            if own:
                own_link = frame[_OWN_LINK]
                frame[_ALL] += own
                frame[_LINK] += own_link
                if own >= _PARAGRAPH:
                    plain = own - own_link
                    if plain >= _PARAGRAPH and own_link * 2 <= own and not frame[_LINKED]:
                        frame[_GOOD] += plain
                    if blocks:
                        score = 1 + frame[_COMMAS] + min(own / 100, 3)
                        if own >= _OWN_PROSE:
                            frame[_SCORE] += score  # text straight in a cell or a div
                        blocks[-1][_SCORE] += score
                        if len(blocks) > 1:
                            blocks[-2][_SCORE] += score / 2
            kind = frame[_KIND]
            if kind == ALWAYS:
                inside -= 1
                always.append(el)
                frame[_GOOD] = 0
            elif not inside:
                if kind:
                    maybe.append(el)
                if frame[_SCORE] and frame[_ALL]:
                    candidates.append((frame[_SCORE] * (1 - frame[_LINK] / frame[_ALL]), el))
            if frame[_ALL]:
                stats[el] = frame
            if blocks:
                parent = blocks[-1]
                parent[_ALL] += frame[_ALL]
                parent[_LINK] += frame[_LINK]
                parent[_GOOD] += frame[_GOOD]
        tail = el.tail
        if tail and blocks:
            n = len(tail.strip())
            if n:
                frame = blocks[-1]
                frame[_OWN] += n
                frame[_COMMAS] += tail.count(",") + tail.count("\uff0c")
    good = frame[_GOOD] if frame else 0  # the last block closed is the body
    boilerplate = _boilerplate(maybe, stats, good)
    best, best_score = _best(candidates, set(boilerplate))
    return _Page(best, best_score, good, stats, [*boilerplate, *always])


def _boilerplate(
    maybe: list[etree._Element], stats: dict[etree._Element, list], good: int
) -> list[etree._Element]:
    """The elements named as boilerplate that are: not those holding most of the page's
    prose, which wrap the content (``l-sidebar-fixed l-article-body-segment``)."""
    found = []
    for el in maybe:
        counters = stats.get(el)
        if counters is not None and counters[_GOOD] >= _WRAPPER_SHARE * good:
            counters[_KIND] = NOT
        else:
            found.append(el)
    return found


def _best(
    candidates: list[tuple[float, etree._Element]], boilerplate: set[etree._Element]
) -> tuple[etree._Element | None, float]:
    """The top-scoring candidate that is not boilerplate nor inside boilerplate."""
    candidates.sort(key=lambda c: c[0], reverse=True)
    for score, el in candidates:
        if el not in boilerplate and not any(a in boilerplate for a in el.iterancestors()):
            return el, score
    return None, 0.0


# One pass over the attribute (fast in libxml2), its values checked in Python.
_ITEMPROP = etree.XPath("//@itemprop")


def _marked(body: etree._Element, page: _Page) -> list[etree._Element] | None:
    """The elements the page itself marks as the article's body (schema.org's
    ``itemprop="articleBody"``), the outermost ones, when they hold some text."""
    stats = page.stats
    marked = [
        el
        for value in _ITEMPROP(body)
        if value == "articleBody" and (el := value.getparent()) in stats and not stats[el][_KIND]
    ]
    if not marked:
        return None
    outer = set(marked)
    marked = [el for el in marked if not any(a in outer for a in el.iterancestors())]
    if sum(stats[el][_ALL] for el in marked) < _MIN_MARKED:
        return None
    return marked


def _with_siblings(
    best: etree._Element, page: _Page, *, alike_only: bool = False
) -> list[etree._Element]:
    """The best candidate and the siblings that continue it: chunks of a split body (same
    tag and class), blocks scoring a fifth of it, and stray prose paragraphs; with
    ``alike_only``, only the first kind (a manual's entries and sections)."""
    stats = page.stats
    parent = best.getparent()
    # A chunk wrapped alone (``<div class=grid><div class=body>``): its wrapper is the chunk.
    while parent is not None and parent.tag not in ("body", "html"):
        counters = stats.get(parent)
        if counters is None or counters[_ALL] != stats[best][_ALL]:
            break
        best, parent = parent, parent.getparent()
    if parent is None:
        return [best]
    cls = best.get("class")
    threshold = max(10.0, page.best_score * 0.2)
    chosen = []
    for el in parent.iterchildren("*"):
        if el is best:
            chosen.append(el)
            continue
        counters = stats.get(el)
        if counters is None or counters[_KIND]:
            continue
        density = counters[_LINK] / counters[_ALL]
        if announces(el):
            continue
        alike = el.tag == best.tag and el.get("class") == cls and counters[_GOOD] > 0
        if alike_only:
            # Without a class, only sectioning tags say that siblings are of a kind.
            if alike and (cls or el.tag in _SECTIONS):
                chosen.append(el)
        elif (
            (alike and cls)
            or counters[_SCORE] * (1 - density) >= threshold
            or (counters[_GOOD] >= 80 and density < 0.25)
        ):
            chosen.append(el)
    return chosen


def _fill(
    chosen: list[etree._Element], page: _Page, *, alone: bool = False
) -> list[etree._Element]:
    """Several chosen siblings (or one, when ``alone``) become their parent when what else
    it holds is small and not links: the headings and short paragraphs between a manual's
    sections, its title; one element only a tiny rest: a definition's term."""
    parent = chosen[0].getparent()
    if len(chosen) < (1 if alone else 2) or parent is None or parent.tag in ("body", "html"):
        return chosen
    stats = page.stats
    counters = stats.get(parent)
    if counters is None or counters[_KIND]:
        return chosen
    inside = set(chosen)
    size = sum(stats[el][_ALL] for el in chosen)
    rest = rest_links = 0
    for el in parent.iterchildren("*"):
        other = stats.get(el)
        if el not in inside and other is not None and not other[_KIND]:
            rest += other[_ALL]
            rest_links += other[_LINK]
    rest += counters[_OWN]  # the parent's own text (it includes its own links)
    # A little more of anything (a manual's local table of contents), or more of prose.
    # A manual's index table is all links but small beside its entries.
    # Widening a manual (``alone``), the other entries may be as big as the chosen ones.
    share = _WIDEN_SHARE if alone else _FILL_SHARE
    if rest <= _FILL_ANY * size or (
        len(chosen) > 1
        and rest <= share * size
        and (rest_links * 2 <= rest or rest_links <= _FILL_ANY * size)
    ):
        return [parent]
    return chosen


# Class/id verdicts, shared by every page (sites repeat their class names); cleared when big.
_KINDS: dict[tuple[str | None, str | None], int] = {}
_KINDS_MAX = 50_000


def _prune(chosen: list[etree._Element], page: _Page, content_good: int) -> None:
    """Remove boilerplate inside the chosen elements; never one holding most of the content
    (it is then a wrapper with an unlucky name, an ancestor of the real content).

    What goes is collected first and removed in one pass (`webtap.convert._html.drop`): one
    strip of the tree, however many elements a page loses."""
    inside = set(chosen)
    stats = page.stats
    doomed: list[etree._Element] = []
    for el in page.boilerplate:
        counters = stats.get(el)
        if counters is not None and (
            counters[_GOOD] * 2 > content_good
            or (
                counters[_KIND] == BY_ID
                and counters[_GOOD] >= _PROSE_SECTION
                and counters[_GOOD] >= 0.8 * counters[_ALL]
            )
        ):
            continue
        if any(ancestor in inside for ancestor in el.iterancestors()):
            doomed.append(el)
    gone = set(doomed)
    for top in chosen:
        doomed.extend(_announced(top, stats, gone))
        doomed.extend(a for a in top.iter("a") if SHARE_LINK.search(a.get("href") or ""))
        doomed.extend(top.iter(*_PICTURE_TAGS))
    if doomed:
        drop(chosen[0].getroottree().getroot(), doomed)


def _announced(
    top: etree._Element, stats: dict[etree._Element, list], gone: set[etree._Element]
) -> list[etree._Element]:
    """The block in the content's second half that announces related links ("Related posts",
    "Leia também", ...) and, when it is only a label (a heading, a short paragraph), the
    link-dense blocks after it; ``gone``: children already on their way out, not counted."""
    children = [el for el in top.iterchildren("*") if el not in gone]
    for i, el in enumerate(children):
        if i < len(children) // 2 or not announces(el):
            continue
        found = [el]
        counters = stats.get(el)
        if el.tag in _HEADINGS or (counters is not None and counters[_ALL] <= LABEL):
            for after in children[i + 1 :]:
                counters = stats.get(after)
                if counters is not None and counters[_LINK] * 2 < counters[_ALL]:
                    break
                found.append(after)
        return found
    return []
