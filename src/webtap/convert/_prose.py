"""The prose walk: how much text, link text and prose each block of a cleaned page holds.

One ``etree.iterwalk`` over the cleaned tree (the one the converter walks next) adds up, for
every block element, its subtree's characters, the part in links (text whose owner is an
``<a>``: a product card wrapped whole in a link is not link text) and the part in prose, and
gives paragraphs' scores to their parent and grandparent as readability does. Elements whose
class or id names boilerplate (``comments``, ``sidebar``, ``rodape``, ..., whole words only)
are noted, unless they hold most of the page's prose (a layout wrapper around the content)
and the best candidate does not hold them (a post's footer with a long author box).
`webtap.convert._extract` chooses the content from these counters.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from lxml import etree

from webtap.convert._boilerplate import (
    ALWAYS,
    CONSENT,
    MAYBE,
    NAMES,
    NOT,
    boilerplate_words,
    name_verdict,
    name_words,
)
from webtap.convert._html import heading_saying

NESTED = 4  # an <article> in an <article>: a related post or a comment, unless it is the body

__all__ = [
    "ALL", "COMMAS", "GOOD", "KIND", "KINDS", "LINK", "LINKED", "LINKS", "OWN", "OWN_LINK",
    "PROSE", "SCORE", "ProseCounts", "forget", "position", "walk",
]  # fmt: skip

# Text in these tags belongs to the enclosing block (``clean`` has unwrapped span, font, ...).
_INLINE = frozenset((
    "a", "b", "strong", "em", "i", "code", "kbd", "samp", "tt", "sup", "sub", "q", "s", "del",
    "strike", "br", "img", "source", "picture", "math",
))  # fmt: skip

_HEADINGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))
_PARAGRAPH = 25  # characters a block needs of its own to count as a paragraph
_OWN_PROSE = 500  # characters of its own that make a block a candidate too (a layout cell)
_WRAPPER_SHARE = 0.6  # an element with this share of the page's text is never boilerplate
_COLUMN_SHARE = 0.1  # ... nor siblings named alike holding it together, each this share at least
_BOILERPLATE_TAGS = frozenset(("aside", "footer", "figure", "figcaption", "form"))
_NEVER_BOILERPLATE = frozenset(("html", "body", "main"))
_NEAR_TITLE = 0.5  # a candidate near the title heading wins scoring this share of the best
_WORD = re.compile(r"\w+")
_ID_WORD = re.compile(r"[\W_]+")

# A block's counters while the walk is in it, then its subtree's totals: all its characters,
# those in links, its prose outside boilerplate (GOOD) and anywhere (PROSE, comment sections
# included), its own text and own link text, commas, score, name verdict, inside a link,
# how many links it holds.
ALL, LINK, GOOD, OWN, OWN_LINK, COMMAS, SCORE, KIND, LINKED, PROSE, LINKS = range(11)


class ProseCounts(NamedTuple):
    """What the walk found: the best candidate, the page's prose, every block's counters."""

    best: etree._Element | None  # the top-scoring candidate outside boilerplate
    best_score: float
    good: int  # characters of prose outside links and boilerplate, in the whole page
    stats: dict[etree._Element, list]  # every block that holds text: its counters
    boilerplate: list[etree._Element]
    heading: etree._Element | None  # the title heading: an h1, h2, headline saying the <title>


def walk(body: etree._Element, title: str = "") -> ProseCounts:
    """One walk over the tree: every block's counters, the best candidate, the boilerplate.

    A block (any element not in ``_INLINE``) owns its text and its inline elements' text.
    A block owning ``_PARAGRAPH`` characters or more is a paragraph: like readability, its
    score (1, plus its commas, plus one per 100 characters up to 3) goes to its parent block
    and half of it to its grandparent, so the container with the most paragraphs of its own
    scores highest; a candidate's score is then scaled by its share of text outside links.
    """
    inline = _INLINE
    boilerplate_tags = _BOILERPLATE_TAGS
    kinds = KINDS
    if len(kinds) > KINDS_MAX:
        kinds.clear()
    blocks: list[list] = []
    stats: dict[etree._Element, list] = {}
    maybe: list[etree._Element] = []  # boilerplate by name, unless it wraps the content
    always: list[etree._Element] = []  # comment sections
    candidates: list[tuple[float, etree._Element]] = []
    inside = 0  # open comment sections: nothing in them is a candidate
    linked = 0  # open <a> elements: blocks in them (cards, teasers) are not prose
    articles = 0  # open <article> elements
    headings: list[etree._Element] = []  # <h1>, <h2>, headlines: where the title heading may be
    listings: list[etree._Element] = []  # <pre>: code that keeps a column named "aside"
    frame: list = []
    for event, el in etree.iterwalk(body, events=("start", "end")):
        tag = el.tag
        if event == "start":
            if tag in inline:
                if tag == "a":
                    linked += 1
                    if blocks:
                        blocks[-1][LINKS] += 1
                text = el.text
                if text and blocks:
                    n = len(text.strip())
                    if n:
                        frame = blocks[-1]
                        frame[OWN] += n
                        frame[COMMAS] += text.count(",") + text.count("\uff0c")
                        if tag == "a":
                            frame[OWN_LINK] += n
                continue
            if tag == "h1" or tag == "h2":
                headings.append(el)
            elif tag in _HEADINGS and el.get("itemprop") == "headline":
                headings.append(el)  # schema.org's headline, whatever its level
            elif tag == "pre":
                listings.append(el)
            cls = el.get("class")
            ident = el.get("id")
            if ident is not None and tag in _HEADINGS and _anchor(el, ident):
                ident = None
            if cls is None and ident is None:
                kind = NOT
            else:
                known = kinds.get((cls, ident))
                if known is None:
                    known = kinds[cls, ident] = name_verdict(cls, ident)
                kind = known
            if tag in boilerplate_tags:
                # A figure holding a table or a code listing (WordPress's wp-block-table,
                # Jekyll's highlight) shows data, not a picture.
                if not kind and (tag != "figure" or next(el.iter("table", "pre"), None) is None):
                    kind = MAYBE
            elif tag == "article":
                # An article inside an article is a related post or a comment (HTML5).
                kind = kind or (NESTED if articles else NOT)
                articles += 1
            elif tag in _NEVER_BOILERPLATE:
                kind = NOT
            if kind in (ALWAYS, CONSENT):
                inside += 1
            text = el.text
            if text:
                n = len(text.strip())
                commas = text.count(",") + text.count("\uff0c") if n else 0
            else:
                n = commas = 0
            blocks.append([0, 0, 0, n, 0, commas, 0.0, kind, linked, 0, 0])
            continue
        if tag in inline:
            if tag == "a":
                linked -= 1
        else:
            if tag == "article":
                articles -= 1
            frame = blocks.pop()
            own = frame[OWN]
            if own:
                own_link = frame[OWN_LINK]
                frame[ALL] += own
                frame[LINK] += own_link
                if own >= _PARAGRAPH:
                    plain = own - own_link
                    if plain >= _PARAGRAPH and own_link * 2 <= own and not frame[LINKED]:
                        frame[GOOD] += plain
                        frame[PROSE] += plain
                    if blocks and not inside:  # a comment's paragraphs score nothing
                        score = 1 + frame[COMMAS] + min(own / 100, 3)
                        if own >= _OWN_PROSE:
                            frame[SCORE] += score  # text straight in a cell or a div
                        blocks[-1][SCORE] += score
                        if len(blocks) > 1:
                            blocks[-2][SCORE] += score / 2
            kind = frame[KIND]
            if kind in (ALWAYS, CONSENT):
                inside -= 1
                always.append(el)
                frame[GOOD] = 0
            elif not inside:
                if kind:
                    maybe.append(el)
                if frame[SCORE] and frame[ALL]:
                    candidates.append((frame[SCORE] * (1 - frame[LINK] / frame[ALL]), el))
            if frame[ALL]:
                stats[el] = frame
            if blocks:
                parent = blocks[-1]
                parent[ALL] += frame[ALL]
                parent[LINK] += frame[LINK]
                parent[GOOD] += frame[GOOD]
                parent[PROSE] += frame[PROSE]
                parent[LINKS] += frame[LINKS]
        tail = el.tail
        if tail and blocks and not tail.isspace():
            frame = blocks[-1]
            frame[OWN] += len(tail.strip())
            frame[COMMAS] += tail.count(",") + tail.count("\uff0c")
    good = frame[GOOD] if frame else 0  # the last block closed is the body
    wrappers: list[tuple[etree._Element, int]] = []
    heading = heading_saying(headings, title)
    boilerplate = _boilerplate(maybe, stats, good, _code(listings, maybe, stats), wrappers)
    best, best_score = _best(candidates, set(boilerplate), heading, stats)
    if best is not None and wrappers:
        regions = _regions(wrappers, best, heading, stats)
        if regions:
            boilerplate.extend(regions)
            wrappers = [wrapper for wrapper in wrappers if wrapper[0] not in regions]
            best, best_score = _best(candidates, set(boilerplate), heading, stats)
    if best is not None and wrappers:
        boilerplate.extend(_inside(wrappers, best, stats))
    return ProseCounts(best, best_score, good, stats, [*boilerplate, *always], heading)


def _anchor(heading: etree._Element, ident: str) -> bool:
    """Whether a heading's id is the anchor a table of contents links to, made of the
    heading's own words ("nav_nur_die_folie__1" on "Nur die Folie bleibt zurück"): it names
    the place, not a kind of block, as ``id="comments"`` over "No responses" does."""
    named = [w for w in _ID_WORD.split(ident.lower()) if w]
    said = set(_WORD.findall("".join(heading.itertext()).lower()))
    found = sum(w in said for w in named)
    return found >= 2 and found * 2 >= len(named)


def _boilerplate(
    maybe: list[etree._Element],
    stats: dict[etree._Element, list],
    good: int,
    code: dict[etree._Element, int],
    wrappers: list[tuple[etree._Element, int]],
) -> list[etree._Element]:
    """The elements named as boilerplate that are: not those holding most of the page's
    prose, which wrap the content (``l-sidebar-fixed l-article-body-segment``), nor those
    whose text is mostly ``code`` (a manual's examples in a column beside the text they
    show, named like an aside), nor an ``<article>`` holding most of the prose of the
    ``<article>`` it is in (a post's body in a post, not a related post), nor the columns
    of a layout that hold it together (`_columns`)."""
    found = []
    columns = _columns(maybe, stats, good)
    for el in maybe:
        counters = stats.get(el)
        if counters is None:
            found.append(el)
        elif (
            el in columns
            or code.get(el, 0) * 2 > counters[ALL]
            or (counters[KIND] == NESTED and _body_of_article(el, counters, stats))
        ):
            counters[KIND] = NOT
        elif counters[GOOD] >= _WRAPPER_SHARE * good:
            wrappers.append((el, counters[KIND]))
            counters[KIND] = NOT
        else:
            found.append(el)
    return found


def _regions(
    wrappers: list[tuple[etree._Element, int]],
    best: etree._Element,
    heading: etree._Element | None,
    stats: dict[etree._Element, list],
) -> list[etree._Element]:
    """The elements kept as layout wrappers that are the region their name says: they hold
    the best candidate but not the page's title heading, and their names are each one
    boilerplate word and nothing else (``id="sidebar"``, where a wrapper's name says how it
    lays the content out: ``l-sidebar-fixed``). A sidebar's feed widget may outweigh a short
    post; the best candidate is then looked for outside it."""
    if heading is None:
        return []
    found = []
    for el, kind in wrappers:
        names = [*(el.get("class") or "").split(), *(el.get("id") or "").split()]
        if (
            names
            and el in best.iterancestors()
            and el not in heading.iterancestors()
            and all(len(name_words(name)) == 1 and name_verdict(name, None) for name in names)
        ):
            stats[el][KIND] = kind
            found.append(el)
    return found


def _inside(
    wrappers: list[tuple[etree._Element, int]],
    best: etree._Element,
    stats: dict[etree._Element, list],
) -> list[etree._Element]:
    """The elements kept as layout wrappers (named like boilerplate, holding most of the
    page's prose) that the best candidate holds: a wrapper holds the content, so one inside
    it is what it was named (a post's footer whose author box outweighs a short post), and
    the pruning judges it by where the content starts, as any big boilerplate block."""
    found = []
    for el, kind in wrappers:
        if best in el.iterancestors():
            stats[el][KIND] = kind
            found.append(el)
    return found


def _columns(
    maybe: list[etree._Element], stats: dict[etree._Element, list], good: int
) -> set[etree._Element]:
    """Siblings that share a boilerplate word in their names and together hold as much of
    the page's prose as a layout wrapper does: a row of the layout's columns, named for how
    they print or show (``col-md-6 print-full`` beside ``col-sm-6 print-full``, a recipe's
    steps each a ``tip-print-step``), not blocks of boilerplate."""
    groups: dict[tuple[etree._Element | None, str], list[etree._Element]] = {}
    for el in maybe:
        counters = stats.get(el)
        if counters is None or counters[KIND] != MAYBE or counters[GOOD] < _COLUMN_SHARE * good:
            continue
        for word in boilerplate_words(el):
            groups.setdefault((el.getparent(), word), []).append(el)
    found: set[etree._Element] = set()
    for members in groups.values():
        if len(members) > 1 and sum(stats[el][GOOD] for el in members) >= _WRAPPER_SHARE * good:
            found.update(members)
    return found


def _code(
    listings: list[etree._Element],
    maybe: list[etree._Element],
    stats: dict[etree._Element, list],
) -> dict[etree._Element, int]:
    """The characters of code listings (``<pre>``) inside each element named like
    boilerplate: one climb from each listing, not a search of each element."""
    code: dict[etree._Element, int] = {}
    if not listings or not maybe:
        return code
    named = set(maybe)
    for pre in listings:
        counters = stats.get(pre)
        if counters is None or counters[KIND]:
            continue
        for el in pre.iterancestors():
            if el in named:
                code[el] = code.get(el, 0) + counters[ALL]
    return code


def _body_of_article(el: etree._Element, counters: list, stats: dict[etree._Element, list]) -> bool:
    outer = next(el.iterancestors("article"), None)
    around = stats.get(outer) if outer is not None else None
    return around is not None and counters[GOOD] * 2 >= around[GOOD] > 0


def _best(
    candidates: list[tuple[float, etree._Element]],
    boilerplate: set[etree._Element],
    heading: etree._Element | None,
    stats: dict[etree._Element, list],
) -> tuple[etree._Element | None, float]:
    """The top-scoring candidate that is not boilerplate nor inside boilerplate; or, when it
    comes before the page's title ``heading`` (a list of teasers above a short article), the
    best one holding or following the heading that scores at least ``_NEAR_TITLE`` of it."""
    candidates.sort(key=lambda c: c[0], reverse=True)
    first: tuple[etree._Element | None, float] = (None, 0.0)
    for score, el in candidates:
        if first[0] is not None and score < _NEAR_TITLE * first[1]:
            break
        if el in boilerplate or any(a in boilerplate for a in el.iterancestors()):
            continue
        if heading is None or not _before(el, heading):
            return _titled_story(el, score, candidates, boilerplate, heading, stats)
        if first[0] is None:
            first = (el, score)
    return first


def _titled_story(
    el: etree._Element,
    score: float,
    candidates: list[tuple[float, etree._Element]],
    boilerplate: set[etree._Element],
    heading: etree._Element | None,
    stats: dict[etree._Element, list],
) -> tuple[etree._Element, float]:
    """``el``, or when it sits in another story than the page's title ``heading`` (stories
    appended one after another as the reader scrolls: sibling wrappers of one tag and class,
    each under a headline of the title's tag), the best candidate in the title's story."""
    if heading is None or heading in el.iterancestors():
        return el, score
    mine = set(el.iterancestors())
    top = next((a for a in heading.iterancestors() if a in mine), None)
    if top is None:
        return el, score
    story = next(a for a in (heading, *heading.iterancestors()) if a.getparent() is top)
    other = next(a for a in (el, *el.iterancestors()) if a.getparent() is top)
    if (
        story.tag != other.tag
        or not story.get("class")
        or story.get("class") != other.get("class")
        or next(other.iter(heading.tag), None) is None
    ):
        return el, score
    for found, candidate in candidates:
        # The title's story may be an <article> nested in the page's own (NESTED), as the
        # stories after it are.
        if (story is candidate or story in candidate.iterancestors()) and not any(
            a in boilerplate and (a not in stats or stats[a][KIND] != NESTED)
            for a in (candidate, *candidate.iterancestors())
        ):
            return candidate, found
    return el, score


def _before(el: etree._Element, heading: etree._Element) -> bool:
    """Whether ``el`` ends before ``heading`` begins, in document order."""
    return el not in heading.iterancestors() and position(el) < position(heading)


def position(el: etree._Element) -> tuple[int, ...]:
    """``el``'s place in document order: its index under each ancestor, from the root."""
    path = []
    parent = el.getparent()
    while parent is not None:
        path.append(parent.index(el))
        el, parent = parent, parent.getparent()
    return tuple(reversed(path))


# Class/id verdicts, shared by every page (sites repeat their class names); cleared when big.
KINDS: dict[tuple[str | None, str | None], int] = {}
KINDS_MAX = 50_000


def forget() -> None:
    """Forget the class and id names read on earlier pages: the state of a fresh process,
    which the fetch tool is (benchmarks call it before each page)."""
    KINDS.clear()
    NAMES.clear()
