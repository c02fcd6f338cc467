"""The page's title heading at the head of its main content.

A reader's eye starts at the title: the page's ``<h1>`` (or the heading saying the
``<title>``), even when the block that scored best starts below it (the body's ``<div>`` under
an ``<article>``'s heading). `title_heading` finds it before the content is taken out of the
page; `prepend` puts it before the content when the content does not hold it already.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from lxml import etree

from webtap.convert._prose import ProseCounts

__all__ = ["is_logo", "prepend", "title_heading"]

_H1 = etree.XPath("//body//h1")
_HEADINGS = ("h1", "h2", "h3")
# Where a site's logo sits: a heading there linking to the site's root is its name.
_CHROME = frozenset(("header", "nav", "footer", "aside"))
_ROLES = frozenset(("banner", "navigation", "contentinfo"))
_MAX_TITLE = 300  # characters: longer is no title but a block that happens to be a heading


def title_heading(
    body: etree._Element, page: ProseCounts, first: etree._Element
) -> etree._Element | None:
    """The heading saying the ``<title>``, else the page's only ``<h1>``, when it comes
    before ``first`` (the content's first block, still in the page) outside it and is no
    site's logo. The only ``<h1>`` is the title still when the heading saying the ``<title>``
    is in the content (a ``<title>`` worded for search engines, echoed by a subheading)."""
    h1s = _H1(body)
    candidates = [page.heading, h1s[0] if len(h1s) == 1 else None]
    for heading in candidates:
        if heading is None:
            continue
        text = _text(heading)
        if text and len(text) <= _MAX_TITLE and not is_logo(heading) and _precedes(heading, first):
            return heading
    return None


def prepend(wrapper: etree._Element, heading: etree._Element | None) -> etree._Element:
    """``wrapper`` (the content) with ``heading``'s text, as a heading, at its head when
    the content has text and no heading saying the same."""
    # A title alone is no content: an empty one stays empty for the verdict to judge.
    if heading is None or not _text(wrapper):
        return wrapper
    text = _text(heading)
    if any(_text(el) == text for el in wrapper.iter(*_HEADINGS)):
        return wrapper
    copy = etree.Element(heading.tag)
    copy.text = text
    wrapper.insert(0, copy)
    return wrapper


def _precedes(heading: etree._Element, first: etree._Element) -> bool:
    """Whether ``heading`` ends before ``first`` begins, in the page as it was."""
    if heading is first or first in heading.iterancestors() or heading in first.iterancestors():
        return False
    return _position(heading) < _position(first)


def _position(el: etree._Element) -> tuple[int, ...]:
    path = []
    parent = el.getparent()
    while parent is not None:
        path.append(parent.index(el))
        el, parent = parent, parent.getparent()
    return tuple(reversed(path))


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


def _text(el: etree._Element) -> str:
    return " ".join("".join(el.itertext()).split())
