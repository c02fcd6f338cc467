"""What stands between a page's title heading and its body when it belongs to the piece.

Under a title a reader meets the standfirst (dek), the byline and the date line before the
body's first paragraph. Sites mark them by convention: class words (``standfirst``, ``dek``,
``subtitle``, ``lede``, ``byline``, ``author``, ``dateline``, ...), ``<time>``,
``rel="author"``, schema.org's ``itemprop="author"``/``"datePublished"``/``"description"``;
a CMS may set the standfirst as a heading of sentences. The content's pruning drops most of
them (an author box, a post's meta line are boilerplate elsewhere on a page), so `opening`
copies them from the page as it was, before the content is taken out: only short marked
blocks, read in order from the heading up to the body's first prose, never navigation, a
share bar, or a picture with its caption and credit (the picture is left out of the
content, and what is said of it goes with it).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from typing import NamedTuple

from lxml import etree

from webtap.convert._boilerplate import NOT, name_verdict, name_words, share_links
from webtap.convert._html import drop, plain_text
from webtap.convert._prose import ALL, KIND, OWN, OWN_LINK

__all__ = ["opening"]

_TAGS = frozenset(("time", "address"))
_ITEMPROPS = frozenset((
    "author", "creator", "datePublished", "dateCreated", "dateModified", "description",
    "alternativeHeadline",
))  # fmt: skip
# The piece's own lead (a standfirst), then its byline, date line and caption.
_LEAD_LIST = """
    standfirst dek deck subtitle subheadline subhead subheading lede lead intro summary excerpt
"""
_LEAD_WORDS = frozenset(_LEAD_LIST.split())
_LEAD_ITEMPROPS = frozenset(("description", "alternativeHeadline"))
_META_LIST = "byline author authors dateline date published pubdate posted timestamp"
_WORDS = _LEAD_WORDS | frozenset(_META_LIST.split())
# A picture's box, named so: the picture is left out of the content, and what is said of
# it goes with it (a credit's ``photo-author`` is no byline). Not "caption", which names a
# size of type too (a standfirst set in ``caption-s5``).
_PICTURE_LIST = """
    img image images photo photos picture pictures foto fotos bild bilder figure thumbnail
    wpcaption gallery slideshow carousel bildunterschrift bilduntertitel bildtext
    bildnachweis fotonachweis bildquelle
"""
_PICTURE_WORDS = frozenset(_PICTURE_LIST.split())
_PICTURE_ITEMPROPS = frozenset(("image", "associatedMedia", "thumbnail", "photo"))
_HEADINGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))
# Never part of an opening however they are named: pictures, controls, navigation.
_SKIPPED = frozenset((
    "img", "picture", "svg", "video", "audio", "iframe", "figure", "figcaption", "button",
    "nav", "form", "aside", "footer", "script", "style", "noscript", "template",
))  # fmt: skip
_INLINE = frozenset(("time", "span", "a", "b", "strong", "em", "i", "small", "cite", "abbr"))
# What a link to a page's own comments section has after its "#".
_COMMENT_ANCHORS = ("comment", "disqus", "respond", "reply", "kommentar", "coment")
_MAX_LINKS = 3  # a byline links its authors, a meta line a topic too; more is a list of links
_MAX_PART = 400  # characters: a longer marked block is no standfirst but the body itself
_MAX_LINE = 200  # a container this short holding a marked part is a meta line, taken whole
_MAX_OPENING = 1200  # characters read past the heading before giving up on the body's start
_PARAGRAPH = 25  # characters of its own prose that make a block the body's first paragraph
_DEK = 80  # characters of sentences that make a heading after the title its standfirst
_SENTENCE_END = re.compile(r"\w[.!?…][\"'”’»)]*(?:\s|$)")


class _Body(NamedTuple):
    """Where reading stops: the body's first block, inside its wrappers."""

    first: etree._Element
    wrappers: set[etree._Element]


def opening(
    heading: etree._Element, first: etree._Element, stats: dict[etree._Element, list]
) -> list[etree._Element]:
    """Copies of the marked blocks after ``heading`` and before the body: ``first`` (the
    content's first block) or, when the heading is inside it, the first paragraph of prose.
    ``stats``: the prose walk's counters (a block's own text, its verdict as boilerplate)."""
    until = _Body(first, set(first.iterancestors()))
    title = plain_text(heading)
    parts: list[etree._Element] = []
    seen = 0
    for el in _following(heading, first):
        taken, stop = _read(el, until, title, stats)
        parts.extend(taken)
        seen += _size(el, stats)
        if stop or seen > _MAX_OPENING:
            break
    return [_copy(el, stats) for el in parts]


def _following(heading: etree._Element, first: etree._Element) -> Iterator[etree._Element]:
    """The subtrees after ``heading`` in document order, up to the end of ``first`` when the
    heading is inside it."""
    el: etree._Element | None = heading
    while el is not None and el is not first:
        yield from el.itersiblings()
        el = el.getparent()


def _read(
    el: etree._Element, until: _Body, title: str, stats: dict
) -> tuple[list[etree._Element], bool]:
    """The marked blocks in ``el``, and whether the body starts in it (reading stops)."""
    if el is until.first:
        return [], True
    if el in until.wrappers:
        # The body's frame (an article's, a column's) holds before the body its lead (a
        # standfirst) beside the picture's caption and a byline of the body's own apparatus,
        # which the content leaves out with the rest of the frame.
        return [part for part in _children(el, until, title, stats)[0] if _lead(part)], True
    if not isinstance(el.tag, str) or el.tag in _SKIPPED or _pictured(el):
        return [], False
    size = _size(el, stats)
    if not size:
        return [], False
    if _marked(el):
        if size > _MAX_PART:
            return [], True
        if _headed(el) or _links(el) > _MAX_LINKS:
            return [], False  # an author's box, a teaser, a list of cards: no byline
        return [el], False
    if el.tag in _HEADINGS:
        if size <= _MAX_PART and _dek(el):
            return [el], False  # a standfirst a CMS sets as a heading of sentences
        if size <= _MAX_PART and (_subtitle(el, title) or _sentence(el)):
            return [el], True  # the title's subtitle, a short standfirst: the opening ends
        # A second heading starts a section; the title's echo does not.
        return [], size > _MAX_PART or plain_text(el) != title
    counters = stats.get(el)
    if counters is not None and counters[KIND]:
        return [], False  # breadcrumbs, a share bar, a related story: not the piece
    if _repeated(el):
        return [], True  # a run of alike blocks (a grid's cards, a list's entries) is the body
    if (
        size <= _MAX_LINE
        and not _headed(el)
        and _links(el) <= _MAX_LINKS
        and not share_links(el, comments=False)
        and any(_marked(d) for d in el.iterdescendants())
    ):
        return [el], False  # a meta line: "By Jane Doe | 20 November 2019"
    if counters is not None and counters[OWN] - counters[OWN_LINK] >= _PARAGRAPH:
        return [], True
    return _children(el, until, title, stats)


def _children(
    el: etree._Element, until: _Body, title: str, stats: dict
) -> tuple[list[etree._Element], bool]:
    """The marked blocks in ``el``'s children, read in order up to the body's start."""
    parts: list[etree._Element] = []
    for child in el.iterchildren():
        taken, stop = _read(child, until, title, stats)
        parts.extend(taken)
        if stop:
            return parts, True
    return parts, False


def _marked(el: etree._Element) -> bool:
    """Whether markup says ``el`` is a standfirst, a byline or a date."""
    if not isinstance(el.tag, str):
        return False
    if _pictured(el):
        return False
    if el.tag in _TAGS or el.get("rel") == "author" or el.get("itemprop") in _ITEMPROPS:
        return True
    names = el.get("class")
    return names is not None and not _WORDS.isdisjoint(name_words(names))


def _pictured(el: etree._Element) -> bool:
    """Whether markup says ``el`` is a picture's box, caption or credit: a schema.org
    image (``itemprop="image"``, an ``ImageObject``) or a class naming one."""
    if el.get("itemprop") in _PICTURE_ITEMPROPS or "ImageObject" in (el.get("itemtype") or ""):
        return True
    names = el.get("class")
    return names is not None and not _PICTURE_WORDS.isdisjoint(name_words(names))


def _lead(el: etree._Element) -> bool:
    """Whether markup says ``el`` is the piece's lead: a standfirst, a summary (not the lead
    picture's caption, ``c-lead-media__credit``)."""
    if el.tag in _TAGS or el.tag == "figure" or next(el.iterancestors("figure"), None) is not None:
        return False
    if el.get("itemprop") in _LEAD_ITEMPROPS:
        return True
    names = el.get("class")
    return names is not None and not _LEAD_WORDS.isdisjoint(name_words(names))


def _subtitle(el: etree._Element, title: str) -> bool:
    """Whether a heading is the title's subtitle: a heading after it in the ``<hgroup>`` that
    groups them (HTML's markup for a title with its subtitle)."""
    parent = el.getparent()
    return (
        parent is not None
        and parent.tag == "hgroup"
        and any(plain_text(h) == title for h in el.itersiblings(*_HEADINGS, preceding=True))
    )


def _sentence(el: etree._Element) -> bool:
    """Whether a heading is written as a sentence (it ends in a full stop): a standfirst set
    as a heading, not a section's title."""
    return plain_text(el).endswith(".")


def _copy(el: etree._Element, stats: dict) -> etree._Element:
    """``el`` copied as a paragraph of the content, without its pictures, controls and share
    links (a byline's share buttons)."""
    doomed = {d for d in el.iterdescendants() if _unwanted(d, stats)}
    doomed.update(share_links(el))
    doomed.update(a for a in el.iter("a") if _to_comments(a))
    made = copy.deepcopy(el)
    made.tail = None
    pairs = zip(el.iterdescendants(), made.iterdescendants(), strict=True)
    drop(made, [*(mine for theirs, mine in pairs if theirs in doomed), *made.iter(*_SKIPPED)])
    if made.tag == "a":  # a byline's link to its author: kept a link, in a paragraph
        paragraph = etree.Element("p")
        paragraph.append(made)
        return paragraph
    if made.tag in _INLINE or made.tag in _HEADINGS or made.tag in _TAGS:
        made.tag = "p"  # a standfirst marked up as a heading is not a section's heading
    for heading in made.iter(*_HEADINGS):
        heading.tag = "p"
    return made


def _unwanted(el: etree._Element, stats: dict) -> bool:
    """A picture, a control, or boilerplate that is not itself marked (breadcrumbs in a
    meta line)."""
    if not isinstance(el.tag, str):
        return False
    counters = stats.get(el)
    if el.tag in _SKIPPED:
        return True
    if counters is None:  # a link or a span the walk counts with its block: its own names
        return name_verdict(el.get("class"), el.get("id")) != NOT and not _marked(el)
    return bool(counters[KIND]) and not _marked(el)


def _size(el: etree._Element, stats: dict) -> int:
    """The characters in ``el``: the prose walk's count of a block, read of an inline one."""
    counters = stats.get(el)
    return counters[ALL] if counters is not None else len(plain_text(el))


def _headed(el: etree._Element) -> bool:
    """Whether ``el`` holds a heading other than a standfirst's (`_dek`)."""
    return any(not _dek(h) for h in el.iterdescendants(*_HEADINGS))


def _dek(heading: etree._Element) -> bool:
    """Whether a heading is a standfirst set as one: sentences (``_DEK`` characters or
    more, one ended), where a section's heading names a topic in a few words."""
    text = plain_text(heading)
    return len(text) >= _DEK and _SENTENCE_END.search(text) is not None


def _repeated(el: etree._Element) -> bool:
    """Whether a sibling next to ``el`` has its tag and class."""
    cls = el.get("class")
    if not cls:
        return False
    return any(
        sib is not None and sib.tag == el.tag and sib.get("class") == cls
        for sib in (el.getprevious(), el.getnext())
    )


def _links(el: etree._Element) -> int:
    return sum(1 for _ in el.iter("a"))


def _to_comments(link: etree._Element) -> bool:
    """Whether ``link`` goes to the page's comments (a count in a meta line: "2 comments")."""
    fragment = (link.get("href") or "").partition("#")[2].lower()
    return any(word in fragment for word in _COMMENT_ANCHORS)
