"""What the classifier reads from a page, in one cheap pass over the tree as parsed.

The tree must be the page as it came (before the converter drops scripts, forms and the head):
the markers of a bot wall are in its scripts, iframes and element ids, and a login form is
made of the inputs the converter removes. XPath does the searching in C; the one Python loop
counts visible words and stops at :data:`WORD_CAP`, so a long article costs little more than a
challenge page (about 1 ms in all on the corpus' pages, a fraction of parsing them).
"""

from __future__ import annotations

import re
from typing import Any

from lxml import etree

from webtap.verdict._words import THIN_PAGE, WORD_CAP, count_words

__all__ = ["Signals", "read_page"]

# <noscript> is not skipped: webtap runs no scripts, so its text is what webtap's reader sees.
_SKIPPED = frozenset(("script", "style", "template", "head", "svg", "title"))
_SCRIPT_HEAD = 4000  # characters of each inline script searched for markers
_SCRIPT_BUDGET = 200_000  # characters of inline script kept in all

# Read from every page (compiled once):
_H1 = etree.XPath("(//h1)[position() <= 3]")
_LD_JSON = etree.XPath("//script[@type='application/ld+json']")
_FREE_META = etree.XPath("//meta[@itemprop='isAccessibleForFree']/@content")
# Read from thin pages only (compiled when used: most pages never need them):
_SCRIPTS = "//script"
_IFRAMES = "//iframe/@src"
_IDS = "//@id"
# Inputs and forms a reader sees: not in a subtree hidden by ``hidden`` or ``display: none``
# (a forum's login dialog waits there, hidden, on every thread).
_SHOWN = (
    "not(ancestor-or-self::*[@hidden or @aria-hidden='true'"
    " or contains(translate(@style, ' ', ''), 'display:none')])"
)
_INPUTS = f"//input[@type][{_SHOWN}]"
_FORM_ACTIONS = f"//form[{_SHOWN}]/@action"
_NOSCRIPT = "//noscript"
_CAPTCHA_CLASSES = (
    "//*[contains(@class, 'g-recaptcha') or contains(@class, 'h-captcha')"
    " or contains(@class, 'cf-turnstile')]"
)
_NOT_FREE = re.compile(r"""["']?isAccessibleForFree["']?\s*:\s*["']?false""", re.IGNORECASE)


class Signals:
    """The signals of one page (see :func:`read_page`)."""

    __slots__ = (
        "captcha",
        "form_actions",
        "headings",
        "ids",
        "iframes",
        "inputs",
        "noscript",
        "not_free",
        "scripts",
        "text",
        "title",
        "words",
    )

    def __init__(self) -> None:
        self.title = ""  # <title>, whitespace collapsed
        self.headings: list[str] = []  # the first <h1>s' text
        self.words = 0  # visible words, counted up to WORD_CAP
        self.text = ""  # the visible text counted, lower-case
        self.scripts = ""  # script src attributes and the heads of inline scripts, joined
        self.iframes: list[str] = []
        self.ids: frozenset[str] = frozenset()
        self.inputs: list[str] = []  # the type of each <input>, lower-case
        self.form_actions: list[str] = []
        self.noscript = ""  # <noscript> text, lower-case
        self.not_free = False  # schema.org isAccessibleForFree: false (a paywall's markup)
        self.captcha = False  # a reCAPTCHA, hCaptcha or Turnstile widget


def read_page(page: Any) -> Signals | None:
    """The :class:`Signals` of ``page``: an lxml tree (any element of it), HTML as ``str`` or
    ``bytes``, or None (no page: a non-HTML answer).

    The title, first headings, visible words and paywall markup are read from every page; the
    rest (scripts, iframes, ids, inputs, forms) only from a page under :data:`THIN_PAGE`
    visible words, the only pages the rules that read them apply to.
    """
    if page is None:
        return None
    if isinstance(page, (str, bytes)):
        page = _parse(page)
        if page is None:
            return Signals()
    root = page.getroottree().getroot()
    signals = Signals()
    title = root.find("head/title")
    if title is None:
        title = root.find(".//title")
    if title is not None:
        signals.title = _text(title)
    signals.headings = [_text(h) for h in _H1(root)]
    body = root.find("body")
    signals.words, signals.text = _visible(body if body is not None else root)
    free = _FREE_META(root)
    if free and str(free[0]).strip().lower() == "false":
        signals.not_free = True
    if signals.words >= THIN_PAGE:
        signals.not_free = signals.not_free or any(
            _NOT_FREE.search(script.text or "") for script in _LD_JSON(root)
        )
        return signals
    _read_scripts(root, signals)
    signals.iframes = [str(src) for src in root.xpath(_IFRAMES)]
    signals.ids = frozenset(str(i) for i in root.xpath(_IDS))
    signals.inputs = [str(i.get("type", "")).lower() for i in root.xpath(_INPUTS)]
    signals.form_actions = [str(a) for a in root.xpath(_FORM_ACTIONS)]
    signals.noscript = " ".join(_text(n) for n in root.xpath(_NOSCRIPT)).lower()
    signals.captcha = bool(root.xpath(_CAPTCHA_CLASSES))
    return signals


def _parse(html: str | bytes) -> Any:
    """The tree of a page given as text (UTF-8 when it decodes as such, else libxml2 sniffs
    the bytes), or None when there is nothing to parse."""
    data = html.encode("utf-8", "replace") if isinstance(html, str) else bytes(html)
    if not data.strip():
        return None
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        parser = _SNIFFING
    else:
        parser = _UTF8
    try:
        return etree.fromstring(data, parser)  # None for a page of comments alone
    except (etree.ParserError, ValueError):
        return None


# Plain etree parsers, as lxml.html's (which only add element classes no rule reads).
_UTF8 = etree.HTMLParser(encoding="utf-8")
_SNIFFING = etree.HTMLParser()


def _text(element: Any) -> str:
    """An element's text, whitespace collapsed (any lxml element: the converter's trees are
    plain ``etree`` ones, without ``lxml.html``'s ``text_content``)."""
    return " ".join("".join(element.itertext()).split())


def _read_scripts(root: Any, signals: Signals) -> None:
    parts: list[str] = []
    budget = _SCRIPT_BUDGET
    for script in root.xpath(_SCRIPTS):
        src = script.get("src")
        if src:
            parts.append(src)
        text = script.text
        if text and budget > 0:
            head = text[: min(_SCRIPT_HEAD, budget)]
            budget -= len(head)
            parts.append(head)
            kind = (script.get("type") or "").lower()
            if kind == "application/ld+json" and _NOT_FREE.search(text):
                signals.not_free = True
    signals.scripts = "\n".join(parts)


def _visible(root: Any) -> tuple[int, str]:
    """Visible words (up to :data:`~._words.WORD_CAP`) and their text, lower-case: the text outside
    scripts, styles, templates and comments, in document order."""
    words = 0
    pieces: list[str] = []
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack and words < WORD_CAP:
        element, closed = stack.pop()
        if closed or not isinstance(element.tag, str) or element.tag in _SKIPPED:
            text = element.tail if element is not root else None
        else:
            text = element.text
            stack.append((element, True))  # its tail comes after its children
            stack.extend((child, False) for child in reversed(element))
        if text and not text.isspace():
            pieces.append(text)
            words += count_words(text)
    return min(words, WORD_CAP), " ".join(" ".join(pieces).split()).lower()
