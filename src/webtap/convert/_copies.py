"""Layout copies: the same block laid out again for another screen, folded to its first.

A site builder writes an article, a product's heading or a whole section once per screen size
(``hidden md:block`` beside ``md:hidden``, ``d-lg-none``, ``only-mobile``) and its style sheet
shows one. The markup says which blocks are copies: sibling elements of one tag whose text is
the same, word for word, and that differ in a screen's names (a builder's unique ids,
``elementor-element-41b7f84``, are no such sign). An author's repeats are not copies: twenty
identical paragraphs, a chorus, a repeated clause are siblings alike in their markup too, in
one flow of text, and are all kept. (A copy hidden by an inline style is gone already:
`webtap.convert._html.clean`.)

The blocks an author repeats (sibling blocks alike in their text and their markup) are
named for `webtap.convert._markdown`, whose fold of a templated page's repeated blocks keeps
them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from lxml import etree

from webtap.convert._html import drop, raw_text

__all__ = ["authors_repeats", "fold_copies", "words_key"]

_TEXT = etree.XPath("normalize-space(.)")
_WORD = re.compile(r"\w+")
_SPACE = b" \t\n\r\x0b\x0c"  # what normalize-space folds
_MIN_TEXT = 30  # characters a block needs for a second copy of it to be a layout's
# What tells one screen's block from another's: a copy differs from its original in these.
_LAYOUT_ATTRIBUTES = ("class", "id", "media")
_SCREEN = re.compile(
    r"mobile|desktop|tablet|phone|hidden|visible|hide|show|none|only|print|screen|small|large"
    r"|(?:^|[-_:])(?:xs|sm|md|lg|xl|xxl)(?:[-_:]|$)",
    re.I,
)


def fold_copies(root: etree._Element) -> int:
    """Drop every element that copies an earlier sibling for another screen (see the module's
    docstring); how many were dropped."""
    copies = [child for child, original in _alike(root) if _for_another_screen(child, original)]
    drop(root, copies)  # an element inside a dropped copy goes with it
    return len(copies)


def authors_repeats(root: etree._Element) -> frozenset[str]:
    """The words of every block an author repeats (sibling blocks alike in their text and
    their markup, in one flow: twenty identical paragraphs, a chorus, a clause), lower-cased
    and joined by spaces: what a fold of repeated Markdown blocks must keep."""
    # Each block inside a repeat too: Markdown writes a chorus's lines as blocks of their own.
    # (Its words are read from its text as the page has it: spacing parts no word.)
    return frozenset(
        words_key(raw_text(el))
        for child, original in _alike(root)
        if child.tag == original.tag and _attributes(child) == _attributes(original)
        for el in child.iter()
        if isinstance(el.tag, str)
    )


def _alike(root: etree._Element) -> Iterator[tuple[etree._Element, etree._Element]]:
    """Each element with the text of an earlier sibling (of ``_MIN_TEXT`` characters or
    more), with the first such sibling of the same tag (else the first such sibling)."""
    # Reading a block's words at each level of the tree cost more than the parse: a block's
    # raw text is read first (C's serializer, cheaper than normalize-space), a block shorter
    # than ``_MIN_TEXT`` is passed by with all it holds, and the words of a block are read
    # only when a sibling has as many letters as it (copies have the same letters).
    stack = [root]
    while stack:
        parent = stack.pop()
        children = [child for child in parent if isinstance(child.tag, str)]
        if len(children) < 2:
            stack.extend(children)
            continue
        letters: dict[int, list[etree._Element]] = {}
        for child in children:
            raw = etree.tostring(child, method="text", encoding="utf-8", with_tail=False)
            if len(raw) < _MIN_TEXT:  # its text, and all of its blocks', is shorter
                continue
            if len(raw) >= 2 * _MIN_TEXT:  # (a copy and its original inside: twice as long)
                stack.append(child)
            letters.setdefault(len(raw.translate(None, _SPACE)), []).append(child)
        candidates = {id(c) for same in letters.values() if len(same) > 1 for c in same}
        if candidates:
            yield from _same_text(c for c in children if id(c) in candidates)


def _same_text(
    children: Iterable[etree._Element],
) -> Iterator[tuple[etree._Element, etree._Element]]:
    seen: dict[str, list[etree._Element]] = {}
    for child in children:
        text = _TEXT(child)
        if len(text) < _MIN_TEXT:
            continue
        originals = seen.setdefault(text, [])
        if originals:
            same = [
                o for o in originals if o.tag == child.tag and _attributes(o) == _attributes(child)
            ]
            yield child, (same or originals)[0]
        originals.append(child)


def _attributes(el: etree._Element) -> tuple[str | None, ...]:
    return tuple(el.get(name) for name in _LAYOUT_ATTRIBUTES)


def _for_another_screen(copy: etree._Element, original: etree._Element) -> bool:
    """Whether ``copy`` is ``original`` laid out for another screen: the same tag, other
    layout attributes (an author's repeated paragraphs carry the same ones)."""
    if copy.tag != original.tag:
        return False
    mine, theirs = _attributes(copy), _attributes(original)
    if mine == theirs:
        return False
    # Names only one of them has; a builder's unique ids (elementor-element-41b7f84) say
    # nothing of a screen, its responsive names do (hidden md:block, d-lg-none, only-mobile).
    differ = set(" ".join(filter(None, mine)).split()) ^ set(" ".join(filter(None, theirs)).split())
    return any(_SCREEN.search(name) for name in differ) or (
        (copy.get("hidden") is None) != (original.get("hidden") is None)
    )


def words_key(text: str) -> str:
    """A block's words, lower-cased and joined by spaces (Markdown's marks left out): the key
    :func:`authors_repeats` gives."""
    return " ".join(_WORD.findall(text.lower()))
