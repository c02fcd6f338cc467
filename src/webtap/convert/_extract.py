"""Main-content extraction: which part of a cleaned page is the page's own text.

`webtap.convert._prose` counts every block's text, link text and prose and notes the blocks
named like boilerplate. A discussion's posts are its content (`webtap.convert._thread`). Else
the content is the page's ``itemprop="articleBody"``, else the best candidate outside
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
    CONSENT,
    MAYBE,
    announces,
    boilerplate_words,
    name_verdict,
    share_links,
)
from webtap.convert._html import drop, only_h1
from webtap.convert._labels import (
    announced,
    captions,
    cards,
    labelled_sections,
    reading_times,
    teaser_articles,
    teaser_lists,
    trailing,
)
from webtap.convert._product import Described, describing, within
from webtap.convert._prose import (
    ALL,
    GOOD,
    KIND,
    LINK,
    LINKED,
    LINKS,
    OWN,
    OWN_LINK,
    PROSE,
    SCORE,
    ProseCounts,
    walk,
)
from webtap.convert._records import OUTWEIGH as _RECORDS_OUTWEIGH
from webtap.convert._records import find_records, records_root, records_win
from webtap.convert._schema import ARTICLE_TYPES, DISCUSSION_TYPES, PRODUCT_TYPES
from webtap.convert._thread import Thread, find_posts, thread_root
from webtap.convert._title import prepend, title_heading

__all__ = ["extract", "extract_root"]


_PROSE_SECTION = 500  # prose that keeps a section named like boilerplate (id="for-update-share",
# or a variant of its siblings' class: "report__section--ads"): ads are not paragraphs of it
_MIN_MARKED = 100  # characters an itemprop="articleBody" needs to be trusted
_MIN_CONTENT = 200  # an extraction with fewer characters falls back to the whole page
_MIN_SHARE = 0.15  # ... as does one holding less than this share of the page's prose
_MAX_FILLS = 4  # how many levels siblings may fill their parent, upwards
_WIDEN_BELOW = 0.5  # ... while they hold less than this share of the page's prose
_FILL_ANY = 0.05  # what else a parent may hold, of any kind, to be taken ...
_FILL_SHARE = 0.25  # ... or of text mostly outside links, beside several chosen siblings
_WIDEN_SHARE = 1.0  # ... or, widening a reference page, as much as they hold

_SECTIONS = frozenset(("section", "article", "dl", "details"))
_LISTS = frozenset(("ol", "ul", "li"))
_HEADING = etree.XPath(".//h1|.//h2|.//h3|.//h4|.//h5|.//h6")
# Tags left out of the content however little they hold: pictures and their captions.
_PICTURE_TAGS = ("img", "picture", "figcaption")
# Tags the converter reads only inside their parent (a cell, a row, an item): a chosen one is
# converted as a plain block.
_RETAGGED = frozenset(("td", "th", "tr", "thead", "li", "dt", "summary", "caption"))
_FOCUSED = 0.6  # share of the page's prose the best block holds on an article-like page
_PIECE_SHARE = 0.6  # ... and of the prose of the <article> holding it and the title heading
_ARTICLE_FOCUSED = 0.4  # ... on a page declared an article
_MENU = 100  # characters of a block of links that is the page's chrome
_MENU_LINKS = 0.9  # ... its share in links
_MENU_SHARE = 0.3  # ... at most this share of the page's text (more: the page is a listing)
_MENU_ITEM = 25  # ... the characters of its links on average (a listing's titles are longer)
_LIGHT = 0.1  # share of a page's text its chrome needs to be left out
_HOLDING = 0.8  # share of the page's prose in the smallest block holding it
_HOLDING_TEXT = 0.5  # ... and the least share of all its text (else the prose is a sidebar's)
_CHROME_TAGS = frozenset(("header", "footer", "aside", "nav", "form"))
_MAIN = etree.XPath(".//main|.//*[@role='main']")
# The product's item (a top-level microdata or RDFa item of a Product type).
_PRODUCT_ITEM = etree.XPath(
    ".//*[@itemscope and contains(@itemtype, 'Product') and not(@itemprop)]"
    "|.//*[contains(@typeof, 'Product') and not(@property)]"
)
_OPENING = 0.15  # prose between the title and the best block that makes the page sections
_STANDFIRST = 150  # characters of prose of its own in a lead paragraph above the body
_PARAGRAPH = 25  # characters of its own that make a block a paragraph (as `_prose` counts)


def extract_root(
    root: etree._Element,
    *,
    types: frozenset[str] = frozenset(),
    title: str = "",
    described: Described | None = None,
) -> etree._Element | None:
    """A new ``<div>`` holding the main content (moved out of ``root``), or None to convert
    the whole page (see `extract`). ``types``: what the page says it is (schema.org types,
    ``og:article``); ``title``: the page's title, whose heading marks where the content is.

    A discussion's posts, when they are the page's content, come each under a line with its
    author and date (`webtap.convert._thread`). On a product page, and on a page whose text
    is spread over many sections (a service, a listing: the best block holds less than
    ``_FOCUSED`` of the page's prose, and the page does not say it is an article), the
    content is the page's ``<main>`` (else its body) without its boilerplate (`_broad`)."""
    body = root.find("body")
    if body is None:
        body = root
    thread = find_posts(body, not types.isdisjoint(DISCUSSION_TYPES))
    page = walk(body, title)
    product = not types.isdisjoint(PRODUCT_TYPES)
    # A product page's best block is its product, however much else the page holds.
    article = not types.isdisjoint(ARTICLE_TYPES)
    found = _choose(body, page, 0.0 if product else _MIN_SHARE, titled=article)
    if thread is not None:
        first = thread.posts[0].element if thread.posts else None
        heading = title_heading(body, page, first) if first is not None else None
        lead = _lead(thread, found)
        if lead is not None:
            return prepend(thread_root(thread, lead), heading)
    if types.isdisjoint(PRODUCT_TYPES) and not _holds_most(found, page, body):
        records = find_records(page)
        if (
            records is not None
            and not (found and _other_stories(found, records.members))
            and records_win(records, found and found.chosen, page, article)
        ):
            heading = title_heading(body, page, records.members[0])
            return prepend(records_root(records, page), heading)
    if found is None:
        found = _holding(body, page)
    if found is None:
        return _light(body, page)
    # Found before the content is pruned and moved: where the heading stood says whether it leads.
    heading = title_heading(body, found.page, found.chosen[0])
    # A product page is a page of sections (the offer, the description, the details, the
    # specifications, the reviews): its content is all of them, never its best block alone.
    if not found.marked and (
        product or _spread(types, found, page.good) or _below_title(found, types)
    ):
        chosen = _broad(body, found.chosen, page, reviews=product, described=described)
    else:
        chosen, page, good, _ = found
        lead = _standfirst(found, heading and heading.element)
        _prune(chosen, page, good, reviews=product, described=described)
        chosen = [*lead, *chosen]
    wrapper = etree.Element("div")
    for el in chosen:
        el.tail = None
        if el.tag in _RETAGGED:
            el.tag = "div"
        wrapper.append(el)
    drop(wrapper, trailing(wrapper, found.page.heading))
    return prepend(wrapper, heading)


def unchromed(root: etree._Element, title: str = "") -> etree._Element | None:
    """A new ``<div>`` holding the page's body without its chrome (`_light`), or None when
    little would go: what stands for a page whose main content came out too small to trust."""
    body = root.find("body")
    if body is None:
        body = root
    return _light(body, walk(body, title))


def _light(body: etree._Element, page: ProseCounts) -> etree._Element | None:
    """A page where no block stands out: its body without the page's chrome (``header``,
    ``footer`` and ``nav``-like blocks of links, consent banners, what comes before the
    title heading: a shop's menu of departments too big to read as chrome), pictures and
    share links; None (the whole page) when little would go."""
    stats = page.stats
    total = stats[body][ALL] if body in stats else 0
    doomed: list[etree._Element] = []
    for el, counters in stats.items():
        kind = counters[KIND]
        if el is body:
            continue
        if kind == CONSENT or (
            _MENU <= counters[ALL] <= _MENU_SHARE * total
            and counters[LINK] >= _MENU_LINKS * counters[ALL]
            and counters[LINK] <= _MENU_ITEM * counters[LINKS]
        ):
            doomed.append(el)
    doomed.extend(_before_title(body, page.heading, set()))
    gone = set(doomed)
    doomed = [el for el in doomed if not any(a in gone for a in el.iterancestors())]
    if sum(stats[el][ALL] for el in doomed if el in stats) < _LIGHT * total:
        return None
    doomed.extend(labelled_sections(body, stats, gone))
    doomed.extend(body.iter(*_PICTURE_TAGS))
    doomed.extend(share_links(body))
    drop(body, doomed)
    wrapper = etree.Element("div")
    wrapper.append(body)
    body.tag = "div"
    return wrapper


def _holding(body: etree._Element, page: ProseCounts) -> _Found | None:
    """When no block stands out (the prose is spread over many small blocks, entries of a
    guide each in a box of its own): the smallest block that holds ``_HOLDING`` of the page's
    prose, unless that is the body itself."""
    stats = page.stats
    if body not in stats:
        return None
    need = _HOLDING * page.good
    el = body
    while True:
        inner = next(
            (
                child
                for child in el.iterchildren("*")
                if (counters := stats.get(child)) is not None and counters[GOOD] >= need
            ),
            None,
        )
        if inner is None:
            break
        el = inner
    counters = stats[el]
    if (
        el is body
        or counters[KIND]
        or name_verdict(el.get("class"), el.get("id"))
        or el.tag in _CHROME_TAGS
        or counters[ALL] < _MIN_CONTENT
        or counters[ALL] < _HOLDING_TEXT * stats[body][ALL]
    ):
        return None
    return _Found([el], page, stats[el][GOOD], False)


def _holds_most(found: _Found | None, page: ProseCounts, body: etree._Element) -> bool:
    """Whether the content found holds so much of the page's prose that no group of records
    could outweigh it (they would need half as much again: `webtap.convert._records`)."""
    if found is None or body not in page.stats:
        return False
    return found.good * _RECORDS_OUTWEIGH >= page.stats[body][PROSE]


def _spread(types: frozenset[str], found: _Found, page_good: int) -> bool:
    """Whether the page's text is spread over sections rather than in one block: the best
    block holds less than ``_FOCUSED`` of its prose and the page does not say it is an
    article. A page declared an article (not a discussion) whose title heading leads the best
    block is never spread: the block is its article (`_led_by_title`)."""
    good = found.good
    if not types.isdisjoint(ARTICLE_TYPES):
        # A CMS may declare every page an article: its headline says which block is one.
        if types.isdisjoint(DISCUSSION_TYPES) and _led_by_title(found):
            return False
        return good < _ARTICLE_FOCUSED * page_good
    return good < _FOCUSED * page_good


def _led_by_title(found: _Found) -> bool:
    """Whether the best block is the piece the page is about: it holds the page's title
    heading (the one saying the ``<title>``), or starts right under it (less than
    ``_OPENING`` of its prose between). A news or blog post's body follows its headline; the
    prose elsewhere is teasers (related posts, most read, a sidebar), however much of the
    page's prose they hold."""
    heading = found.page.heading
    if heading is None:
        return False
    if any(el is heading or el in heading.iterancestors() for el in found.chosen):
        return True
    between = _prose_after(found, heading)
    return between is not None and between < _OPENING * found.good


def _below_title(found: _Found, types: frozenset[str]) -> bool:
    """Whether the page opens with sections of prose between its title heading and the
    block that scored best (a service's pitch above its questions and answers, a report's
    summary above its table): ``_OPENING`` of the block's prose or more, outside it, after the
    heading. The content is then the page's sections, as on a page whose text is spread. The
    title heading is the one saying the ``<title>``, else the page's only ``<h1>``; a page
    declared an article has its body where it says."""
    if not types.isdisjoint(ARTICLE_TYPES):
        return False
    heading = found.page.heading
    first = found.chosen[0]
    if heading is None:
        heading = only_h1(first)
    if heading is None or any(
        el is heading or el in heading.iterancestors() for el in found.chosen
    ):
        return False
    between = _prose_after(found, heading)
    return between is not None and between >= _OPENING * found.good


def _prose_after(found: _Found, heading: etree._Element) -> int | None:
    """The characters of prose outside links between ``heading`` and the best block, or None
    when the heading does not come before the block."""
    first = found.chosen[0]
    ancestors = set(first.iterancestors())
    top = next((a for a in heading.iterancestors() if a in ancestors), None)
    if top is None:
        return None
    stats = found.page.stats
    between = 0
    after = False
    for el in top.iter():
        if el is first:
            return between if after else None
        if el is heading:
            after = True
        elif after and (counters := stats.get(el)) is not None and not counters[KIND]:
            between += counters[OWN] - counters[OWN_LINK]
    return None


def _standfirst(found: _Found, heading: etree._Element | None) -> list[etree._Element]:
    """The paragraphs (``<p>``) between the page's title heading and the content found: the
    article's lead (a standfirst, a teaser, an excerpt), which CMSs set in the article's
    header, apart from its body. Each holds ``_STANDFIRST`` characters of prose of its own
    outside boilerplate (a byline, a date, a one-line subtitle hold less; a list of key
    points is no paragraph); all of them less than ``_OPENING`` of the content's prose (more:
    `_below_title`'s sections)."""
    first = found.chosen[0]
    ancestors = set(first.iterancestors())
    top = (
        None
        if heading is None
        else next((a for a in heading.iterancestors() if a in ancestors), None)
    )
    if heading is None or top is None:
        return []
    stats = found.page.stats
    lead: list[etree._Element] = []
    prose = 0
    after = False
    for el in top.iter():
        if el is first:
            break
        if el is heading:
            after = True
        counters = stats.get(el)
        if not after or el in ancestors or counters is None:
            continue
        own = counters[OWN] - counters[OWN_LINK]
        if (
            el.tag != "p"
            or own < _STANDFIRST
            or counters[GOOD] < own
            or _under(el, top, stats, heading, lead)
        ):
            continue
        lead.append(el)
        prose += own
    return lead if prose < _OPENING * found.good else []


def _under(
    el: etree._Element,
    top: etree._Element,
    stats: dict[etree._Element, list],
    heading: etree._Element,
    taken: list[etree._Element],
) -> bool:
    """Whether ``el`` (under ``top``) is or sits in boilerplate, the heading or a block
    taken already."""
    for a in (el, *el.iterancestors()):
        if a is top:
            return False
        counters = stats.get(a)
        if a is heading or a in taken or (counters is not None and counters[KIND]):
            return True
    return False


def _broad(
    body: etree._Element,
    chosen: list[etree._Element],
    page: ProseCounts,
    *,
    reviews: bool = False,
    described: Described | None = None,
) -> list[etree._Element]:
    """The page's ``<main>`` holding the chosen blocks (on a product page, the product's
    microdata or RDFa item holding them; else the body), without what is named like
    boilerplate, its footers, asides and forms (but those that hold the chosen blocks), and
    without pictures and share links. With ``reviews`` (a product page), sections named as
    comments stay: under a product, comments are its reviews."""
    keep = set(chosen)
    for el in chosen:
        keep.update(el.iterancestors())
    stats = page.stats
    # A product page's microdata or RDFa item holds all the product's properties: it bounds
    # the product's sections better than the page's <main>.
    top = next((el for el in _PRODUCT_ITEM(body) if el in keep), None) if reviews else None
    if top is None:
        top = next((el for el in _MAIN(body) if el in keep), body)
    described_blocks = describing(page, described)
    doomed = []
    for el in page.boilerplate:
        counters = stats.get(el)
        if el in keep or (
            counters is not None and counters[GOOD] * 2 > page.good and _wraps(el, page, [top])
        ):
            continue
        if reviews and counters is not None and counters[KIND] == ALWAYS:
            continue
        if within(el, described_blocks):
            continue
        if top is body or top in el.iterancestors():
            doomed.append(el)
    for el in top.iter("footer", "aside", "form"):
        counters = stats.get(el)
        if el not in keep and (counters is None or counters[GOOD] * 2 <= page.good):
            doomed.append(el)  # a form wrapping the whole page (ASP.NET's) stays
    doomed.extend(_before_title(top, page.heading, keep, frozenset(chosen)))
    gone = set(doomed)
    doomed.extend(el for el in labelled_sections(top, stats, gone, chosen[-1]) if el not in keep)
    # On a page of sections a card of links may be an offer or a shelf of its own: only
    # one set between two paragraphs of prose is a teaser inside a piece.
    doomed.extend(el for el in cards(top, stats, gone) if el not in keep and _amid_prose(el, stats))
    doomed.extend(el for el in captions(top, stats, gone) if el not in keep)
    doomed.extend(el for el in reading_times(top, stats) if el not in keep)
    doomed.extend(teaser_lists(top, keep))
    doomed.extend(top.iter(*_PICTURE_TAGS))
    doomed.extend(share_links(top))
    if doomed:
        drop(body, doomed)
    return [top]


def _amid_prose(el: etree._Element, stats: dict[etree._Element, list]) -> bool:
    """Whether the blocks right before and after ``el`` are paragraphs of prose."""
    for sibling in (el.getprevious(), el.getnext()):
        counters = stats.get(sibling) if sibling is not None else None
        if counters is None or counters[GOOD] < _PARAGRAPH:
            return False
    return True


def _before_title(
    top: etree._Element,
    heading: etree._Element | None,
    keep: set[etree._Element],
    spared: frozenset[etree._Element] = frozenset(),
) -> list[etree._Element]:
    """What comes before the page's title heading under ``top`` (tickers, promotions,
    breadcrumbs): the content starts at its title. Not inside the ``spared`` blocks."""
    if heading is None or top not in heading.iterancestors():
        return []
    found: list[etree._Element] = []
    el = next((a for a in (heading, *heading.iterancestors()) if a in spared), heading)
    while el is not top:
        found.extend(s for s in el.itersiblings(preceding=True) if s not in keep)
        el = el.getparent()
    return found


def _lead(thread: Thread, found: _Found | None) -> list[etree._Element] | None:
    """What goes before a thread's posts (the text they answer, when no post is the
    opening one), or None when the posts are not the page's content: the page does not say
    it is a discussion and the content found outside them is more than half their size (an
    article with comments under it)."""
    if found is None:
        return []
    chosen, page, good, _ = found
    posts = {post.element for post in thread.posts}
    inside = set(chosen)
    if any(el in posts or any(a in posts for a in el.iterancestors()) for el in chosen) or any(
        any(a in inside for a in post.iterancestors()) for post in posts
    ):
        return []  # the content found is a post, or holds the thread
    if not thread.declared and 2 * good > thread.chars:
        return None
    if not thread.replies_only:
        return []
    _prune(chosen, page, good)
    return chosen


def extract(root: etree._Element) -> list[etree._Element] | None:
    """The elements that hold the page's main content, in document order, after removing
    the boilerplate inside them; None when nothing scores or the content found is too small
    to trust (the caller then converts the whole page)."""
    body = root.find("body")
    if body is None:
        body = root
    found = _choose(body, walk(body))
    if found is None:
        return None
    chosen, page, good, _ = found
    _prune(chosen, page, good)
    return chosen


class _Found(NamedTuple):
    chosen: list[etree._Element]  # the elements that hold the main content
    page: ProseCounts  # the page's counters
    good: int  # the content's prose
    marked: bool  # the page marks it (itemprop="articleBody")


def _choose(
    body: etree._Element, page: ProseCounts, min_share: float = _MIN_SHARE, *, titled: bool = False
) -> _Found | None:
    """The main content found from the page's counters, or None when nothing scores or the
    content found is too small to trust. Changes nothing. With ``titled`` (a page declared
    an article), content the page's title heading leads (`_led_by_title`) is trusted however
    little of the page's prose it holds."""
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
            if _good(chosen, page) >= _WIDEN_BELOW * page.good and not _listed(chosen):
                break
            filled = _fill(_with_siblings(chosen[0], page, alike_only=True), page, alone=True)
            if filled == chosen or not _within(chosen, filled):
                break  # (widening never leaves a chosen block out)
            chosen = filled
        if len(chosen) == 1 and chosen[0] is not page.best:
            leading = _leading(chosen[0], page)
            if len(leading) > 1:
                chosen = _fill(leading, page)
        chosen = _titled_article(chosen, page) or chosen
    else:
        chosen = _fill(chosen, page)
    total = sum(page.stats[el][ALL] for el in chosen)
    good = _good(chosen, page)
    found = _Found(chosen, page, good, trusted)
    if total < (_MIN_MARKED if trusted else _MIN_CONTENT) or (
        # A little of the page's prose is a front page's story among many; not the article
        # the page's title names (the stories after it appended as the reader scrolls).
        not trusted and good < min_share * page.good and not (titled and _led_by_title(found))
    ):
        return None
    return found


def _within(inner: list[etree._Element], outer: list[etree._Element]) -> bool:
    """Whether every block of ``inner`` is, or is inside, a block of ``outer``."""
    tops = set(outer)
    return all(el in tops or any(a in tops for a in el.iterancestors()) for el in inner)


def _other_stories(found: _Found, members: list[etree._Element]) -> bool:
    """Whether records are stories (the one found, under the page's title heading, and
    others each under a headline of the title's tag), not a thread's posts."""
    heading = found.page.heading
    if heading is None or not _led_by_title(found):
        return False
    return all(
        member in heading.iterancestors() or next(member.iter(heading.tag), None) is not None
        for member in members
    )


def _titled_article(chosen: list[etree._Element], page: ProseCounts) -> list[etree._Element] | None:
    """The ``<article>`` that holds the page's title heading and the chosen blocks, when they
    hold less than ``_PIECE_SHARE`` of its prose: the piece is the article (HTML's
    self-contained composition), its sections beside the best one (a recipe's ingredients
    and preparation, a report's parts) included."""
    heading = page.heading
    if heading is None:
        return None
    stats = page.stats
    for article in heading.iterancestors("article"):
        counters = stats.get(article)
        if counters is None or counters[KIND]:
            return None
        if all(article in el.iterancestors() for el in chosen):
            if _good(chosen, page) < _PIECE_SHARE * counters[GOOD]:
                return [article]
            return None
    return None


def _listed(chosen: list[etree._Element]) -> bool:
    """Whether the content found is a list alone, or an item of one: part of a text (the
    agenda under a post's heading and lead-in lines), whose items' paragraphs made it score.
    A list whose items hold headings lays out posts or sections: each item is a text."""
    return len(chosen) == 1 and chosen[0].tag in _LISTS and not _HEADING(chosen[0])


def _variant(el: etree._Element, stats: dict[etree._Element, list]) -> bool:
    """Whether ``el`` shares a class with a sibling of its tag that is no boilerplate: one
    of a kind, in a variant its other class names (BEM's ``report__section--ads`` beside
    ``report__section``), not a block of another kind."""
    names = set((el.get("class") or "").split())
    parent = el.getparent()
    if not names or parent is None:
        return False
    for sibling in parent.iterchildren(el.tag):
        counters = stats.get(sibling)
        if (
            sibling is not el
            and counters is not None
            and not counters[KIND]
            and not names.isdisjoint((sibling.get("class") or "").split())
        ):
            return True
    return False


def _most(el: etree._Element, stats: dict[etree._Element, list], content_good: int) -> bool:
    """Whether ``el`` holds most of the content's prose (then it wraps the content)."""
    counters = stats.get(el)
    return counters is not None and counters[GOOD] * 2 > content_good


def _good(elements: list[etree._Element], page: ProseCounts) -> int:
    return sum(page.stats[el][GOOD] for el in elements)


# One pass over the attribute (fast in libxml2), its values checked in Python.
_ITEMPROP = etree.XPath("//@itemprop")


def _marked(body: etree._Element, page: ProseCounts) -> list[etree._Element] | None:
    """The elements the page itself marks as the article's body (schema.org's
    ``itemprop="articleBody"``), the outermost ones, when they hold some text, and
    ``_MIN_SHARE`` of the page's prose when they are the bodies of several items."""
    stats = page.stats
    marked = [
        el
        for value in _ITEMPROP(body)
        if value == "articleBody" and (el := value.getparent()) in stats and not stats[el][KIND]
    ]
    if not marked:
        return None
    outer = set(marked)
    marked = [el for el in marked if not any(a in outer for a in el.iterancestors())]
    if sum(stats[el][ALL] for el in marked) < _MIN_MARKED:
        return None
    if len({_item(el) for el in marked}) > 1 and _good(marked, page) < _MIN_SHARE * page.good:
        # Bodies of several items, little of the page's prose: teasers marked each as a
        # post with its excerpt (related posts' cards) beside the page's unmarked text.
        return None
    return marked


def _item(el: etree._Element) -> etree._Element | None:
    """The microdata item (``itemscope``) a property belongs to."""
    return next((a for a in el.iterancestors() if a.get("itemscope") is not None), None)


def _with_siblings(
    best: etree._Element, page: ProseCounts, *, alike_only: bool = False
) -> list[etree._Element]:
    """The best candidate and the siblings that continue it: chunks of a split body (same
    tag and class), blocks scoring a fifth of it, and stray prose paragraphs; with
    ``alike_only``, only the first kind (a manual's entries and sections)."""
    stats = page.stats
    best = _wrapped(best, stats)
    parent = best.getparent()
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
        if counters is None or counters[KIND]:
            continue
        density = counters[LINK] / counters[ALL]
        if announces(el):
            continue
        alike = el.tag == best.tag and el.get("class") == cls and counters[GOOD] > 0
        if alike_only:
            # Without a class, only sectioning tags say that siblings are of a kind.
            if alike and (cls or el.tag in _SECTIONS):
                chosen.append(el)
        elif (
            (alike and cls)
            or counters[SCORE] * (1 - density) >= threshold
            or (counters[GOOD] >= 80 and density < 0.25)
        ):
            chosen.append(el)
    return chosen


def _wrapped(block: etree._Element, stats: dict[etree._Element, list]) -> etree._Element:
    """``block``'s outermost wrapper holding nothing else (``<div class=grid><div
    class=body>``: the wrapper is the chunk), below the body."""
    parent = block.getparent()
    while parent is not None and parent.tag not in ("body", "html"):
        counters = stats.get(parent)
        if counters is None or counters[ALL] != stats[block][ALL]:
            break
        block, parent = parent, parent.getparent()
    return block


def _leading(block: etree._Element, page: ProseCounts) -> list[etree._Element]:
    """A block grown from the best one (its wrapper when it is alone in it) led by the
    siblings right before it that score a fifth of the best as it does (the article's first
    row in a table of its own, a live blog's lead entry above its entries), in order; blocks
    without prose between are stepped over, any other ends them."""
    stats = page.stats
    block = _wrapped(block, stats)
    threshold = max(10.0, page.best_score * 0.2)
    found: list[etree._Element] = [block]
    for el in block.itersiblings(preceding=True):
        counters = stats.get(el)
        if counters is None or (not counters[GOOD] and not counters[KIND]):
            continue
        density = counters[LINK] / counters[ALL]
        if counters[KIND] or announces(el) or counters[SCORE] * (1 - density) < threshold:
            break
        found.append(el)
    return found[::-1]


def _fill(
    chosen: list[etree._Element], page: ProseCounts, *, alone: bool = False
) -> list[etree._Element]:
    """Several chosen siblings (or one, when ``alone``) become their parent when what else
    it holds is small and not links: the headings and short paragraphs between a manual's
    sections, its title; one element only a tiny rest: a definition's term."""
    parent = chosen[0].getparent()
    if (
        len(chosen) < (1 if alone else 2)
        or parent is None
        or parent.tag in ("body", "html")
        # Blocks the page marks as its body may sit in several parents (an article's
        # sections, each in a wrapper of its own beside an ad): all of them stay.
        or any(el.getparent() is not parent for el in chosen)
    ):
        return chosen
    stats = page.stats
    counters = stats.get(parent)
    if counters is None or counters[KIND]:
        return chosen
    inside = set(chosen)
    size = sum(stats[el][ALL] for el in chosen)
    rest = rest_links = 0
    for el in parent.iterchildren("*"):
        other = stats.get(el)
        if el not in inside and other is not None and not other[KIND]:
            rest += other[ALL]
            rest_links += other[LINK]
    rest += counters[OWN]  # the parent's own text (it includes its own links)
    # A little more of anything (a manual's local table of contents), or more of prose.
    # A manual's index table is all links but small beside its entries.
    # Widening a manual (``alone``), the other entries may be as big as the chosen ones.
    share = _WIDEN_SHARE if alone else _FILL_SHARE
    if rest <= _FILL_ANY * size or (
        (len(chosen) > 1 or _listed(chosen))
        and rest <= share * size
        and (rest_links * 2 <= rest or rest_links <= _FILL_ANY * size)
    ):
        return [parent]
    return chosen


def _prune(
    chosen: list[etree._Element],
    page: ProseCounts,
    content_good: int,
    *,
    reviews: bool = False,
    described: Described | None = None,
) -> None:
    """Remove boilerplate inside the chosen elements; never one holding most of the content
    and where it starts (it is then a wrapper with an unlucky name: `_wraps`).

    What goes is collected first and removed in one pass (`webtap.convert._html.drop`): one
    strip of the tree, however many elements a page loses."""
    inside = {el for top in chosen for el in top.iterdescendants()}
    stats = page.stats
    described_blocks = describing(page, described)
    slides = _slides(chosen, stats, content_good)
    doomed: list[etree._Element] = []
    for el in page.boilerplate:
        if el in slides or el not in inside:
            continue
        counters = stats.get(el)
        if counters is not None and (
            (reviews and counters[KIND] == ALWAYS)
            or (counters[GOOD] * 2 > content_good and _wraps(el, page, chosen))
            or (
                counters[GOOD] >= _PROSE_SECTION
                and counters[GOOD] >= 0.8 * counters[ALL]
                and (counters[KIND] == BY_ID or (counters[KIND] == MAYBE and _variant(el, stats)))
            )
        ):
            continue
        if not within(el, described_blocks):
            doomed.append(el)
    gone = set(doomed)
    for top in chosen:
        # A label opens the block ("Subscribe" over a wrapper of the whole article): the
        # block still goes only when it is not most of the content.
        labelled = [
            *announced(top, stats, gone),
            *cards(top, stats, gone),
            *labelled_sections(top, stats, gone),
            *captions(top, stats, gone),
            *reading_times(top, stats),
            *teaser_articles(top, page.heading, stats),
        ]
        doomed.extend(el for el in labelled if not _most(el, stats, content_good))
        doomed.extend(share_links(top))
        doomed.extend(el for el in top.iter(*_PICTURE_TAGS) if el not in slides)
    if doomed:
        # Stripped where the content is, not over the whole page.
        for parent in {top.getparent() for top in chosen}:
            drop(chosen[0] if parent is None else parent, doomed)


def _slides(
    chosen: list[etree._Element], stats: dict[etree._Element, list], content_good: int
) -> set[etree._Element]:
    """The figures of a gallery whose captions carry its text (a slide's paragraphs under
    each picture), with those captions: when the figures hold most of the content's prose,
    they are its body, not pictures beside it. A figure named like boilerplate (an ad's
    frame) is not; its captions are named so by what they are."""
    figures = [
        figure
        for top in chosen
        for figure in top.iter("figure")
        if next(figure.iterancestors("figure"), None) is None
    ]
    held = sum(stats[figure][GOOD] for figure in figures if figure in stats)
    if not figures or held * 2 <= content_good:
        return set()
    return {
        el
        for figure in figures
        if not name_verdict(figure.get("class"), figure.get("id"))
        for el in (figure, *figure.iter("figcaption"))
    }


def _wraps(el: etree._Element, page: ProseCounts, tops: list[etree._Element]) -> bool:
    """Whether ``el``, named as boilerplate but holding most of the prose, is a wrapper of
    the content with an unlucky name: it holds where the content starts (its title heading,
    or the first paragraph under ``tops``), or the site names the title's own frame with the
    same word (a page builder's ``banner`` sections). Related posts, a teaser list or a
    cookie banner can outweigh a short article, but they come after its start."""
    start = [page.heading] if page.heading is not None else []
    opening = _opening(tops, page.stats)
    if opening is not None:
        start.append(opening)
    if any(s is el or el in s.iterancestors() for s in start):
        return True
    return not _framing(page).isdisjoint(boilerplate_words(el))


def _opening(
    tops: list[etree._Element], stats: dict[etree._Element, list]
) -> etree._Element | None:
    """The first block under ``tops`` with a paragraph of its own outside links."""
    for top in tops:
        for el in top.iter():
            counters = stats.get(el)
            if counters is None or counters[OWN] < _PARAGRAPH or counters[LINKED]:
                continue
            if counters[OWN_LINK] * 2 <= counters[OWN]:
                return el
    return None


def _framing(page: ProseCounts) -> frozenset[str]:
    """The boilerplate words naming the title heading's wrappers: the site's own words for
    frames of content, when it uses them there."""
    if page.heading is None:
        return frozenset()
    named = set(page.boilerplate)
    words: frozenset[str] = frozenset()
    for a in page.heading.iterancestors():
        if a in named:
            words |= boilerplate_words(a)
    return words
