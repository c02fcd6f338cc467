"""The page's title heading at the head of its main content, with what leads to the body.

A reader's eye starts at the title: the page's ``<h1>`` (or the heading saying the
``<title>``), even when the block that scored best starts below it (the body's ``<div>`` under
an ``<article>``'s heading) or the title sits in a block the content's pruning drops (an
article's ``<header>``, a page's banner). Then come the standfirst, the byline, the date line
(`webtap.convert._opening`). `title_heading` finds them before the content is taken out of
the page; `prepend` puts them before the content when the content does not hold them.
"""

from __future__ import annotations

import copy
from typing import NamedTuple
from urllib.parse import urlsplit

from lxml import etree

from webtap.convert._html import only_h1, plain_text, raw_text
from webtap.convert._opening import opening
from webtap.convert._prose import ProseCounts, position

__all__ = ["Lead", "is_logo", "prepend", "title_heading"]

_HEADINGS = ("h1", "h2", "h3")
# Where a site's logo sits: a heading there linking to the site's root is its name.
_CHROME = frozenset(("header", "nav", "footer", "aside"))
_ROLES = frozenset(("banner", "navigation", "contentinfo"))
_MAX_TITLE = 300  # characters: longer is no title but a block that happens to be a heading


class Lead(NamedTuple):
    """What leads the content, read from the page before the content is taken out of it."""

    heading: etree._Element  # a copy of the title heading
    element: etree._Element  # the title heading itself, where it stood in the page
    text: str  # its words
    opening: list[etree._Element]  # copies of its standfirst, byline, date line, caption


def title_heading(body: etree._Element, page: ProseCounts, first: etree._Element) -> Lead | None:
    """The heading saying the ``<title>``, else the page's only ``<h1>``, when it comes
    before ``first`` (the content's first block, still in the page) or inside it, and is no
    site's logo; with what stands between it and the body. The only ``<h1>`` is the title
    still when the heading saying the ``<title>`` is in the content (a ``<title>`` worded
    for search engines, echoed by a subheading)."""
    h1 = only_h1(body)
    # Inside the content, the heading saying the <title> may be a subheading echoing it.
    for heading, inside in ((page.heading, False), (h1, True), (page.heading, True)):
        if heading is None:
            continue
        text = plain_text(heading)
        if (
            text
            and len(text) <= _MAX_TITLE
            and not is_logo(heading)
            and _leads(heading, first, inside)
        ):
            made = copy.deepcopy(heading)
            made.tail = None
            etree.strip_tags(made, "a")  # the title's link is to the page itself, or its site
            return Lead(made, heading, text, opening(heading, first, page.stats))
    return None


def prepend(wrapper: etree._Element, lead: Lead | None) -> etree._Element:
    """``wrapper`` (the content) led by the title heading and its opening: the heading at
    its head unless a heading in it says the same; each part of the opening the content
    does not hold already right after the heading. Nothing when the content has no text."""
    # A title alone is no content: an empty one stays empty for the verdict to judge.
    if lead is None or not raw_text(wrapper).strip():
        return wrapper
    held = next((el for el in wrapper.iter(*_HEADINGS) if plain_text(el) == lead.text), None)
    if held is None:
        held = lead.heading
        wrapper.insert(0, held)
    if not lead.opening:
        return wrapper
    words = plain_text(wrapper)
    for part in reversed(lead.opening):
        if plain_text(part) not in words:
            held.addnext(part)
    return wrapper


def _leads(heading: etree._Element, first: etree._Element, inside: bool) -> bool:
    """Whether ``heading`` ends before ``first`` begins (or, with ``inside``, is inside it),
    in the page as it was."""
    if heading is first or heading in first.iterancestors():
        return False
    if first in heading.iterancestors():
        return inside
    return position(heading) < position(first)


def is_logo(heading: etree._Element) -> bool:
    """A heading in the page's header or navigation that links to the site's root."""
    if not any(a.tag in _CHROME or a.get("role") in _ROLES for a in heading.iterancestors()):
        return False
    for a in heading.iter("a"):
        href = (a.get("href") or "").strip()
        if href in ("", "#", "/", "./", "index.html") or (
            "//" in href and urlsplit(href).path in ("", "/")
        ):
            return True
    return False
