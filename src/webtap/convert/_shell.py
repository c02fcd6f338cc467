"""Pages whose text a script shows: what the server sent for readers without scripts, and the
facts of a page that holds no text of its own (a script shell), which `webtap.verdict` judges.

Some servers send a body that a script fills in: a mount point (``<div id="root">``), a
"Loading…" line, a ``<noscript>`` asking for JavaScript. Many still send the text somewhere a
reader without scripts can find it: in ``<noscript>`` (Discourse and Flarum put the whole
thread there for crawlers), in ``<template>`` fragments, or as structured data for search
engines (JSON-LD ``articleBody``, Next.js's ``__NEXT_DATA__`` page props). React's streamed
segments (``<div hidden id="S:0">``) are moved into place by ``_html.clean`` itself.

`hold` keeps those parts aside before ``clean`` drops them; `recover` gives the hidden markup
when the visible body is a shell, `structured` the structured data's text when nothing else
holds it, and `facts` what the page shows of being a shell, for `webtap.verdict` to judge
(`webtap.convert.Document.state`: the hook the headless-browser path and the verdicts read).
"""

from __future__ import annotations

import html as entities
import json
import re
from typing import NamedTuple

from lxml import etree

from webtap.convert._html import clean, parse
from webtap.convert._schema import json_objects
from webtap.convert._types import Facts
from webtap.verdict import MOUNT_ATTRIBUTES, MOUNT_IDS, MOUNT_TAGS, count_words

__all__ = ["Held", "facts", "hold", "recover", "structured"]

_MIN_HIDDEN = 200  # characters the hidden markup needs to replace the visible body
_SHELL_RATIO = 4  # ... holding this many times the visible body's text
_MORE = 3  # structured data replaces the Markdown when it holds this many times its words
_MIN_STRUCTURED = 80  # ... and at least this many words
_LONG_STRING = 200  # page props: strings this long (prose or HTML) are the page's text

# Elements a single-page application mounts its view on (`webtap.verdict.MOUNT_IDS`, ...).
_MOUNTS = etree.XPath(
    "//*["
    + " or ".join(
        [*(f"@id='{i}'" for i in sorted(MOUNT_IDS)), *(f"@{a}" for a in MOUNT_ATTRIBUTES)]
    )
    + "]"
    + "".join(f"|//{tag}" for tag in MOUNT_TAGS)
)
_CODE_SCRIPT = re.compile(
    r"<script(?![^>]*\btype\s*=\s*[\"']?(?:application/(?:ld\+)?json|text/template))[\s>]",
    re.IGNORECASE,
)
# JSON-LD fields holding a post's or article's text, its author and its date.
_BODY_KEYS = ("articleBody", "text", "commentText", "reviewBody")
_DATE_KEYS = ("datePublished", "dateCreated", "commentTime")
# The text of a block a reader sees with or without scripts (not the fallback, not code).
_SHOWN_TEXT = etree.XPath(
    ".//text()[not(ancestor::script or ancestor::noscript or ancestor::style"
    " or ancestor::template)]"
)
_LD_TYPE = re.compile(r'"@type"\s*:\s*\[?\s*"(?:https?://schema\.org/)?(\w+)"')


class Held(NamedTuple):
    """What ``clean`` is about to drop that may hold the page's text."""

    hidden: list[etree._Element]  # <noscript> and <template> elements, in document order
    data: list[str]  # JSON-LD and Next.js page props (``__NEXT_DATA__``), as sent
    types: frozenset[str]  # what the page says it is: JSON-LD @types, og:type ("og:article")


def hold(root: etree._Element) -> Held:
    """Keep ``<noscript>``, ``<template>`` and the data scripts aside (``clean`` detaches them
    from the tree; the references keep them alive). A declarative shadow root
    (``<template shadowrootmode>``) is not held: ``clean`` shows it where it stands. A
    ``<nav>`` that holds the page is renamed so that ``clean`` keeps it (`_unless_page`)."""
    hidden: list[etree._Element] = []
    data: list[str] = []
    types: set[str] = set()
    head = root.find("head")
    for el in head.iter("meta") if head is not None else ():
        if el.get("property") == "og:type":
            types.add("og:" + (el.get("content") or "").strip().lower())
    navs: list[etree._Element] = []
    for el in root.iter("noscript", "template", "script", "nav"):
        tag = el.tag
        if tag == "nav":
            navs.append(el)
        elif tag == "script":
            kind = el.get("type")
            if (kind == "application/ld+json" or el.get("id") == "__NEXT_DATA__") and el.text:
                data.append(el.text)
                if kind == "application/ld+json":
                    types.update(_LD_TYPE.findall(el.text))
        elif tag == "template" and (
            el.get("shadowrootmode") is not None or el.get("shadowroot") is not None
        ):
            continue
        elif len(el) or (el.text and not el.text.isspace()):
            hidden.append(el)
    if navs:
        _unless_page(navs, root)
    hidden = [el for el in hidden if not _in_place(el)]
    if len(hidden) > 1:
        held = set(hidden)
        hidden = [el for el in hidden if not any(a in held for a in el.iterancestors())]
    return Held(hidden, data, frozenset(types))


def _in_place(el: etree._Element) -> bool:
    """Whether a ``<noscript>`` is the text of the block it stands in, and is then kept
    there as a block: it holds ``_MIN_HIDDEN`` characters or more and the block shows
    nothing else, only the script that would write the same text (Blogger's post body:
    ``<div class="post-body"><script>…</script><noscript><p>…``)."""
    parent = el.getparent()
    if el.tag != "noscript" or parent is None or _chars(el) < _MIN_HIDDEN:
        return False
    if any(text.strip() for text in _SHOWN_TEXT(parent)):
        return False
    el.tag = "div"
    return True


def _unless_page(navs: list[etree._Element], root: etree._Element) -> None:
    """A ``<nav>`` holding the page's ``<h1>`` and most of its text is the page, not its
    navigation (markup a browser nests otherwise, such as a list left open in a header,
    nests the whole page in it for libxml2): it is kept as a block instead of dropped."""
    page = 0
    for nav in navs:
        if nav.find(".//h1") is None or any(a.tag == "nav" for a in nav.iterancestors()):
            continue
        if not page:
            body = root.find("body")
            page = _chars(root if body is None else body)
        if _chars(nav) * 2 > page:
            nav.tag = "div"


def _chars(el: etree._Element) -> int:
    return int(el.xpath("string-length(normalize-space())"))


def recover(root: etree._Element, held: Held, microdata: bool = False) -> etree._Element | None:
    """A new cleaned ``<html>`` holding the page's ``<noscript>`` and ``<template>`` markup,
    when the visible body is a script shell beside it (it holds a quarter or less of their
    text); None otherwise, and always when the hidden markup is small (a tracking pixel, an
    "enable JavaScript" line, a font's style sheet)."""
    if not held.hidden or sum(_chars(el) for el in held.hidden) < _MIN_HIDDEN:
        return None
    html = etree.Element("html")
    shown = etree.SubElement(html, "body")
    for el in held.hidden:
        el.tag = "div"
        shown.append(el)
    clean(html, microdata)
    hidden = _chars(shown)
    if hidden < _MIN_HIDDEN:
        return None
    body = root.find("body")
    if _chars(root if body is None else body) * _SHELL_RATIO > hidden:
        return None
    return html


def structured(held: Held, markdown: str) -> etree._Element | None:
    """The text the page ships as structured data, as a cleaned tree to convert, when it holds
    several times the words of ``markdown`` (nothing else on the page holds it): JSON-LD
    ``articleBody``/``text`` (a thread's posts each with its author and date), else the long
    strings of Next.js page props. None when there is none or it adds little."""
    if not held.data:
        return None
    have = count_words(markdown)
    pieces: list[str] = []
    props: list[str] = []
    for text in held.data:
        try:
            value = json.loads(text)
        except ValueError:
            continue
        if isinstance(value, dict) and "props" in value and "page" in value:
            props.extend(_long_strings(value["props"]))
        else:
            for author, date, body in _ld_posts(value):
                header = " · ".join(entities.escape(x) for x in (author, date) if x)
                if header:
                    pieces.append(f"<p><strong>{header}</strong></p>")
                pieces.append(_as_html(body))
    for chunk in (pieces, [_as_html(s) for s in props]):
        if not chunk:
            continue
        source = "".join(chunk)
        words = count_words(re.sub(r"<[^>]+>", " ", source))
        if words >= _MIN_STRUCTURED and words >= _MORE * have:
            root = parse(f"<html><body>{source}</body></html>")
            if root is not None:
                clean(root)
                return root
    return None


def _as_html(text: str) -> str:
    """A structured-data string as HTML: as it is if it holds tags, else a paragraph a line."""
    if "</" in text or "<br" in text:
        return f"<div>{text}</div>"
    lines = (line.strip() for line in text.splitlines())
    return "".join(f"<p>{entities.escape(line)}</p>" for line in lines if line)


def _ld_posts(value: object) -> list[tuple[str, str, str]]:
    """(author, date, text) of every JSON-LD item with a body, in order: an article's
    ``articleBody``, a thread's question and answers, a review's ``reviewBody``."""
    found: list[tuple[str, str, str]] = []
    for node in json_objects(value):
        body = next((node[k] for k in _BODY_KEYS if isinstance(node.get(k), str)), "")
        if body.strip():
            date = next((node[k] for k in _DATE_KEYS if isinstance(node.get(k), str)), "")
            found.append((_name(node.get("author")), date, body))
    return found


def _name(author: object) -> str:
    if isinstance(author, list) and author:
        author = author[0]
    if isinstance(author, dict):
        author = author.get("name")
    return author.strip() if isinstance(author, str) else ""


def _long_strings(value: object) -> list[str]:
    """Strings of page props long enough to be the page's text (prose with spaces, or HTML),
    in order, each once."""
    found: list[str] = []
    seen: set[str] = set()
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            if len(node) >= _LONG_STRING and node not in seen and node.count(" ") * 12 >= len(node):
                seen.add(node)
                found.append(node)
        elif isinstance(node, list):
            stack.extend(reversed(node))
        elif isinstance(node, dict):
            stack.extend(reversed(list(node.values())))
    return found


def facts(
    words: int, root: etree._Element, held: Held, source: str | bytes, recovered: bool
) -> Facts:
    """What the page shows of being a script shell, beside its Markdown's ``words``: the
    mount points left empty in its cleaned tree (``root``), its ``<noscript>`` text, whether
    it runs scripts (``source``: the page as sent) and whether its text was ``recovered``."""
    mounts = tuple(_mount_name(el) for el in _MOUNTS(root) if not _chars(el))
    # `recover` renamed to <div> those it showed: they are the page's text now.
    hidden = [el for el in held.hidden if el.tag == "noscript"]
    noscript = " ".join(" ".join(el.itertext()) for el in hidden)
    return Facts(words, mounts, noscript, _runs_scripts(source), recovered)


def _mount_name(el: etree._Element) -> str:
    """``#root``, ``app-root`` or ``[ng-version]``: what made ``el`` a mount point."""
    if el.get("id") in MOUNT_IDS:
        return f"#{el.get('id')}"
    if el.tag in MOUNT_TAGS:
        return str(el.tag)
    return next(f"[{a}]" for a in MOUNT_ATTRIBUTES if el.get(a) is not None)


def _runs_scripts(source: str | bytes) -> bool:
    """Whether the page as sent has a ``<script>`` that runs code (not a data block)."""
    if isinstance(source, bytes):
        source = source.decode("utf-8", "replace")
    return _CODE_SCRIPT.search(source) is not None
