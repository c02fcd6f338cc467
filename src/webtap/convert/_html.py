"""Parse HTML with libxml2 and prune the tree in C before the Markdown walk."""

from __future__ import annotations

import html as entities
import itertools
import json
import re
from collections.abc import Iterable, Iterator, Sequence
from urllib.parse import urljoin

from lxml import etree

from webtap.convert._boilerplate import name_verdict
from webtap.convert._schema import json_objects
from webtap.convert._thread import mark
from webtap.errors import ParseError

__all__ = [
    "TASK", "clean", "drop", "find_base", "find_title", "first_h1", "head", "heading_saying",
    "only_h1", "parse", "plain_text", "raw_text",
]  # fmt: skip

# libxml2 refuses to nest deeper than 2048 with XML_PARSE_HUGE (256 without) and stops
# parsing there; such documents are parsed again with the tags below this depth removed.
_FLATTEN_DEPTH = 1000

# Subtrees that carry no readable content (or that the spec says to strip).
_DROPPED = (
    "head", "title", "script", "style", "noscript", "template", "nav", "svg",
    "iframe", "frame", "frameset", "object", "applet", "canvas", "audio", "video",
    "map", "rt", "rp", "input", "button", "select", "textarea", "option", "optgroup",
    "datalist", "output", "progress", "meter", "link", "meta", "base", "param", "area",
    "colgroup", "col",
)  # fmt: skip

# Presentational inline tags whose content stays but whose tag means nothing in Markdown.
# Unwrapping them in C merges text nodes and leaves fewer nodes for the Python walk.
_UNWRAPPED = (
    "span", "font", "small", "big", "abbr", "acronym", "cite", "dfn", "time", "data",
    "label", "u", "ins", "mark", "bdi", "bdo", "wbr", "nobr", "var", "blink",
    "marquee", "tbody", "tfoot", "ruby",
    # Void elements libxml2's HTML 4 parser does not know: it nests everything that follows
    # them (up to their parent's end) inside them, so they are unwrapped, never dropped
    # (``source`` is left to the walk, which takes a ``<picture>``'s image from it).
    "track", "embed", "keygen",
)  # fmt: skip

# One pass per attribute name is much faster in libxml2 than one predicate over every
# element; the values are checked in Python on the few elements that carry them.
# Task-list checkboxes (``<li><input type=checkbox>``) are found in the same pass, and so are
# the panels that buttons open (``aria-controls``: an accordion's hidden panels are content).
_MARKS = (
    "//@hidden|//@aria-hidden|//@role|//@style|//li/input/@type|//li/p/input/@type"
    "|//@aria-controls|//template/@shadowrootmode|//template/@shadowroot|//@popover"
)
_MARKED = etree.XPath(_MARKS)
# Main content also reads microdata types (forum posts, what the page says it is), and the
# radio buttons in labels: a form's choices (a questionnaire's answers) are not its content.
_MARKED_TYPES = etree.XPath(_MARKS + "|//@itemtype|//label//input/@type")
_TEMPLATES = etree.XPath("//template[@id]")
_ITEM = 40  # characters an item set beside others of its kind holds at most
# Items of one kind side by side with nothing between them (a film's year, length and rating,
# each in a ``<span>`` of the same class that a style sets apart): unwrapped, their words
# would run together. Items are short and their parent holds nothing else; a paragraph's
# runs (an editor's ``<span class="s1">``, split anywhere, even inside a word) are not
# items, nor are single characters (the letters of a word split for an animation).
_ABUTTING = etree.XPath(
    "//span[following-sibling::node()[1][self::span] and following-sibling::*[1]/@class = @class]"
    "[string-length(normalize-space()) > 1"
    " and string-length(normalize-space(following-sibling::*[1])) > 1]"
    f"[not(parent::p) and not(../text()[normalize-space()]) and not(../*[not(self::span)"
    f" or string-length(normalize-space()) > {_ITEM}])]"
)
# The answers of a page's questions in its JSON-LD (schema.org ``FAQPage``, ``QAPage``).
_ANSWERS = ("acceptedAnswer", "suggestedAnswer")
_ANSWER_KEY = 40  # characters of an answer's start, spaces collapsed, that recognise it
_MARKUP = re.compile(r"<[^>]*>")
# Hidden in the page's style: off screen (``left: -9999px``, a text-indent as far, a clip to
# nothing) or zero-sized with its overflow hidden. Copies of text kept from the reader's eye.
_OFF_SCREEN = re.compile(
    r"(?:left|top|right|text-indent|margin-left):-\d{4,}|clip:rect\((?:0|1px)[ ,]*(?:0|1px)"
)
_ZERO_SIZE = re.compile(r"(?:^|;)(?:height|width):0(?:px)?(?:;|$)")
# Roles of hidden elements that stay hidden even when a button opens them: menus, dialogs and
# tooltips.
_OVERLAYS = frozenset(
    ("dialog", "alertdialog", "menu", "menubar", "navigation", "listbox", "tooltip")
)
# The page itself is never hidden. (Nor is a <main> by ``aria-hidden``: a page opening with a
# modal dialog, a consent banner, marks everything behind it so until the dialog is closed.)
_NEVER_HIDDEN = frozenset(("html", "body"))
# Words from which a link's text reads as a sentence rather than a label.
_SENTENCE_WORDS = 8
_TITLE = etree.XPath("//body//title[not(ancestor::svg)]")
_META = etree.XPath("//meta")
_BASE = etree.XPath("//base")
_OG_NAMES = frozenset(("og:title", "twitter:title"))
_WORD = re.compile(r"\w+")

# A checkbox starting a list item is renamed to this; the walk writes it as "[ ]"/"[x]".
TASK = "webtap-task"
# Hidden elements are renamed to this, then stripped with the dropped tags in one C pass.
_HIDDEN = "webtap-hidden"

_TAG = re.compile(rb"<(/?)([A-Za-z][A-Za-z0-9:-]*)[^>]*?(/?)>")
# A message PHP printed into the page where its server ran into an error ("<b>Warning</b>:
# include(...): failed to open stream ... in <b>/home/.../page.php</b> on line <b>38</b>"):
# the server's words to its developer, never the page's.
# (A pattern's text, compiled by `re`'s cache on the first page that holds one: few do.)
_PHP_MESSAGE = (
    rb"(?s)(?:<br\s*/?>\s*)?<b>(?:Warning|Notice|Deprecated|Strict Standards"
    rb"|(?:Catchable )?Fatal error|Parse error)</b>:.{0,1000}? on line <b>\d+</b>(?:<br\s*/?>)?"
)
# Void elements as libxml2's HTML 4 parser sees them: it nests what follows an <embed>,
# <source>, <track> or <wbr> inside it, so those count as opening tags here.
_VOID = frozenset(b"area base br col hr img input link meta param".split())


def parse(html: str | bytes) -> etree._Element | None:
    """The document's root element, or None when there is nothing to parse."""
    if isinstance(html, str):
        data = html.encode("utf-8", "replace")  # a lone surrogate becomes "?"
        encoding: str | None = "utf-8"
    else:
        data = bytes(html)
        try:
            # Valid UTF-8 is almost always meant as UTF-8, whatever a stale <meta> says;
            # anything else goes to libxml2 to sniff a BOM or <meta charset>.
            data.decode("utf-8")
            encoding = "utf-8"
        except UnicodeDecodeError:
            encoding = None
    if not data or data.isspace():
        return None
    end = data.find(b"</html>")
    if end != -1 and (data.find(b"<div", end) != -1 or data.find(b"<p>", end) != -1):
        # Markup after "</html>" (two pages pasted together, a footer printed late): libxml2
        # drops it, a browser puts it in the body. Without the early end tags, so do we.
        data = data.replace(b"</body>", b"").replace(b"</html>", b"")
    if b" on line <b>" in data:
        data = re.sub(_PHP_MESSAGE, b"", data)
    root, too_deep = _parse_once(data, encoding)
    if too_deep:
        root, _ = _parse_once(_flatten(data), encoding)
    return root


def _parse_once(data: bytes, encoding: str | None) -> tuple[etree._Element | None, bool]:
    # collect_ids=False: no table of ids (nothing here looks an element up by its id).
    parser = etree.HTMLParser(
        encoding=encoding,
        remove_comments=True,
        remove_pis=True,
        huge_tree=True,
        no_network=True,
        collect_ids=False,
    )
    try:
        try:
            root = etree.fromstring(data, parser)
        except ValueError:
            root = etree.fromstring(data.replace(b"\x00", b""), parser)
    except (ValueError, etree.LxmlError) as exc:
        raise ParseError(f"libxml2 could not parse the page as HTML: {exc}") from exc
    too_deep = any("depth" in entry.message for entry in parser.error_log)
    return root, too_deep


def _flatten(data: bytes) -> bytes:
    """Remove the tags nested deeper than ``_FLATTEN_DEPTH``, keeping their text."""
    depth = 0
    out: list[bytes] = []
    pos = 0
    for match in _TAG.finditer(data):
        closing, name, selfclosing = match.group(1), match.group(2).lower(), match.group(3)
        if name in _VOID or selfclosing:
            continue
        if closing:
            depth = max(depth - 1, 0)
            keep = depth < _FLATTEN_DEPTH
        else:
            keep = depth < _FLATTEN_DEPTH
            depth += 1
        if not keep:
            out.append(data[pos : match.start()])
            pos = match.end()
    out.append(data[pos:])
    return b"".join(out)


def find_title(root: etree._Element) -> str:
    """``<title>``, else og:title / twitter:title, whitespace collapsed ("" when none)."""
    head = root.find("head")
    titles = head.iter("title") if head is not None else ()
    # A <title> outside <head> (invalid, but it happens) is looked for only if need be.
    for el in itertools.chain(titles, _lazy(_TITLE, root)):
        title = plain_text(el)
        if title:
            return title
    for meta in head.iter("meta") if head is not None else _META(root):
        if meta.get("property", meta.get("name")) in _OG_NAMES:
            title = " ".join((meta.get("content") or "").split())
            if title:
                return title
    return ""


def _lazy(xpath: etree.XPath, root: etree._Element) -> Iterator[etree._Element]:
    yield from xpath(root)


def first_h1(root: etree._Element) -> str:
    """The text of the first non-empty ``<h1>`` (call after `clean`)."""
    for el in root.iter("h1"):
        title = plain_text(el)
        if title:
            return title
    return ""


def only_h1(el: etree._Element) -> etree._Element | None:
    """The page's ``<h1>`` in its ``<body>`` (XPath's ``//body//h1``, in ``el``'s document)
    when it has one and no other: lxml's iteration in C finds them, where an XPath goes
    through every node twice."""
    root = el.getroottree().getroot()
    found = None
    for h1 in root.iter("h1"):
        if next(h1.iterancestors("body"), None) is not None:
            if found is not None:
                return None
            found = h1
    return found


def heading_saying(
    headings: Iterable[etree._Element], title: str, share: float = 0.8
) -> etree._Element | None:
    """Of ``headings``, the one that says most of the page title's words and little else
    (``share`` of its words or more are the title's: a title often adds the site's name, and
    the site's name may be a heading of its own). One in an ``<aside>`` says it only when no
    other does: a teaser of the page among the most read, its kicker adding the site's name."""
    if not title:
        return None
    words = set(_WORD.findall(title.lower()))
    best, most = None, (False, 1)
    for el in headings:
        heading = _WORD.findall(raw_text(el).lower())
        found = sum(w in words for w in heading)
        rank = (next(el.iterancestors("aside"), None) is None, found)
        if found > 1 and rank > most and found >= share * len(heading):
            best, most = el, rank
    return best


def find_base(root: etree._Element, base_url: str | None) -> str | None:
    """The URL relative links resolve against: ``<base href>`` joined to ``base_url``."""
    head = root.find("head")
    for base in head.iter("base") if head is not None else _BASE(root):
        href = (base.get("href") or "").strip()
        if href and not href.lower().startswith(("javascript:", "data:")):
            try:
                return urljoin(base_url, href) if base_url else href
            except ValueError:
                break
    return base_url or None


def clean(root: etree._Element, microdata: bool = False, data: Sequence[str] = ()) -> None:
    """Drop what never becomes Markdown and unwrap presentational tags, all in C.

    Text is never written from Python: lxml refuses to store a string holding a control
    character (``\x0c``) that libxml2 itself parsed into the page, so hidden elements are
    renamed and then stripped by libxml2, which joins their tails to the text around them.
    With ``microdata`` (main content), forum posts' authors and dates are read first from
    their microdata, before the ``<span>`` and ``<time>`` holding them are unwrapped, and
    the labels of named radio buttons (a questionnaire's answers, a delivery option) are
    left out with them: a form's choices, not what the page says.
    ``data``: the page's JSON-LD as sent (`webtap.convert._shell.hold` keeps it): a hidden
    answer it gives to one of the page's questions (an accordion's closed panel) is shown.
    """
    hidden: list[etree._Element] = []
    controlled: set[str] = set()
    itemtypes: list[str] = []
    for attribute in (_MARKED_TYPES if microdata else _MARKED)(root):
        name = attribute.attrname
        el = attribute.getparent()
        if name == "type":
            kind = attribute.lower()
            if microdata and kind == "radio" and el.get("name"):
                # One answer of a named group, in its label (not a variant's link: that
                # leads to a page of its own).
                label = next(el.iterancestors("label"), None)
                if label is not None and next(label.iter("a"), None) is None:
                    hidden.append(label)
                    continue
            if kind == "checkbox":
                _task_marker(el)
        elif name == "aria-controls":
            controlled.update(attribute.split())
        elif name in ("shadowrootmode", "shadowroot"):
            el.tag = "div"  # a declarative shadow root: shown where it stands
        elif name == "itemtype":
            itemtypes.append(attribute)
        elif (
            _hides(name, attribute)
            and el.tag not in _NEVER_HIDDEN
            and (name != "aria-hidden" or not _seen_anyway(el))
        ):
            hidden.append(el)
    if itemtypes:
        # Forum posts' authors and dates, read before their <span> and <time> are unwrapped.
        mark(root, itemtypes)
    answers = _answers(data) if hidden and data else frozenset()
    segments = []
    for el in hidden:
        if el.tag == _HIDDEN or _shown(el, controlled) or (answers and _answer(el, answers)):
            continue
        if (el.get("id") or "").startswith("S:") and el.get("hidden") is not None:
            segments.append(el)
        else:
            if el.tail is None and el.get("aria-hidden") is not None and _separator(el):
                el.tail = " "  # what parted the words on screen still parts them
            el.tag = _HIDDEN
    if segments:
        _place_segments(root, segments)
    for el in _ABUTTING(root):
        el.tail = " "  # (it had none: the next item follows at once)
    etree.strip_elements(root, _HIDDEN, *_DROPPED, with_tail=False)
    etree.strip_tags(root, *_UNWRAPPED)


def drop(root: etree._Element, elements: Iterable[etree._Element]) -> None:
    """Remove ``elements`` (under ``root``) with what they hold, keeping their tails.

    The one way to remove an element from a parsed page: libxml2 joins the tail to the text
    before it, which lxml refuses to do from Python when the text holds a control character.
    """
    for el in elements:
        if el is not root:
            el.tag = _HIDDEN
    etree.strip_elements(root, _HIDDEN, with_tail=False)


def _hides(name: str, value: str) -> bool:
    """Whether an attribute hides its element (``hidden``, ``aria-hidden="true"``,
    ``display: none``, off screen, zero-sized) or marks it as navigation
    (``role="navigation"``, like ``<nav>``)."""
    if name == "hidden":
        return value.strip().lower() != "until-found"  # found by the browser's search: shown
    if name == "popover":
        return True  # shown only when a script or a button opens it, over the page
    if name == "aria-hidden":
        return value.strip().lower() == "true"
    if name == "role":
        return value.strip().lower() == "navigation"
    style = value.lower()
    if "none" not in style and "hidden" not in style and "-" not in style and "rect" not in style:
        return False
    style = style.replace(" ", "")
    return (
        "display:none" in style
        or "visibility:hidden" in style
        or _OFF_SCREEN.search(style) is not None
        or ("overflow:hidden" in style and _ZERO_SIZE.search(style) is not None)
    )


def _seen_anyway(el: etree._Element) -> bool:
    """Whether an element hidden only from assistive technology (``aria-hidden``) is one a
    sighted reader sees and reads: a ``<main>`` (see ``_NEVER_HIDDEN``), a link whose text is
    a sentence, or what a link's ``aria-label`` speaks for (`_labelled`). Lists of teasers
    link each one's summary a second time and hide that link from screen readers, which
    already heard the title's; the summary is visible all the same. Icons, "scroll to top"
    and share buttons are a few words, and stay out."""
    if el.tag == "main":
        return True
    if el.tag == "a" and len("".join(el.itertext()).split()) >= _SENTENCE_WORDS:
        return True
    return _labelled(el)


def _answers(data: Sequence[str]) -> frozenset[str]:
    """The starts (`_key`) of the answers the page's JSON-LD gives to its questions
    (``acceptedAnswer``, ``suggestedAnswer``)."""
    scripts = [text for text in data if any(name in text for name in _ANSWERS)]
    if not scripts:
        return frozenset()
    found: set[str] = set()
    for text in scripts:
        try:
            value = json.loads(text)
        except ValueError:
            continue
        for node in json_objects(value):
            for name in _ANSWERS:
                given = node.get(name)
                for answer in given if isinstance(given, list) else [given]:
                    said = answer.get("text") if isinstance(answer, dict) else None
                    if isinstance(said, str):
                        found.add(_key(entities.unescape(_MARKUP.sub(" ", said))))
    found.discard("")
    return frozenset(found)


def _key(text: str) -> str:
    return " ".join(text.split())[:_ANSWER_KEY].lower()


def _answer(el: etree._Element, answers: frozenset[str]) -> bool:
    """Whether a hidden element is an answer the page's JSON-LD gives: its text starts as
    the answer does (an accordion's closed panel under its question)."""
    return head(el, _ANSWER_KEY).lower() in answers  # as `_key` reads the JSON-LD's


def plain_text(el: etree._Element) -> str:
    """An element's text, each run of whitespace one space."""
    return " ".join(raw_text(el).split())


def raw_text(el: etree._Element) -> str:
    """An element's text as the page has it (``"".join(el.itertext())``): read by libxml2
    in one call, a fifth of ``itertext``'s cost."""
    return etree.tostring(el, method="text", encoding=str, with_tail=False)


def head(el: etree._Element, size: int) -> str:
    """The first ``size`` characters of an element's text, each run of whitespace one space,
    without reading the rest: at most four times as many characters as they were sent (a
    template's indentation comes before the words)."""
    parts: list[str] = []
    length = 0
    for text in el.itertext():
        parts.append(text)
        length += len(text)
        if length >= 4 * size:
            break
    return " ".join("".join(parts)[: 4 * size].split())[:size]


_SEPARATOR = re.compile(r"[^\w\s]{1,3}")


def _separator(el: etree._Element) -> bool:
    """Whether an element hidden from screen readers is a separator the eye reads between
    two items ("·", "|"): nothing but a mark or two, with an item after it."""
    if el.getnext() is None or el.getprevious() is None:
        return False
    return _SEPARATOR.fullmatch("".join(el.itertext()).strip()) is not None


def _labelled(el: etree._Element) -> bool:
    """Whether an ``aria-hidden`` element is what the eye reads of a link whose
    ``aria-label`` speaks for it instead (a rating shown as "4.5 (1,203)", labelled "4.5 out
    of 5 stars, 1,203 ratings"): the link shows nothing else, and every element in it is
    hidden from screen readers so. (A picture drawn in markup and labelled like an image is
    not a link: it stays out.)"""
    parent = el.getparent()
    if (
        parent is None
        or parent.tag != "a"
        or not (parent.get("aria-label") or "").strip()
        or (parent.text or "").strip()
    ):
        return False
    return all(
        (child.get("aria-hidden") or "").strip().lower() == "true"
        for child in parent.iterchildren("*")
    )


def _shown(el: etree._Element, controlled: set[str]) -> bool:
    """Whether a hidden element is the page's own content, one click away: a tab panel, or a
    panel a button opens (``aria-controls``), or the collapsing box around such a panel;
    neither a menu, a dialog nor a tooltip, nor named like boilerplate (a menu, a modal)."""
    role = (el.get("role") or "").strip().lower()
    if role == "tabpanel":
        return True
    if role in _OVERLAYS or el.tag == "nav":
        return False
    if el.get("id") not in controlled:
        child = next(el.iterchildren("*"), None)
        if (
            child is None
            or child.get("id") not in controlled
            or (child.get("role") or "").strip().lower() in _OVERLAYS
        ):
            return False
    return not name_verdict(el.get("class"), el.get("id"))


def _place_segments(root: etree._Element, segments: list[etree._Element]) -> None:
    """Streamed segments (React's ``<div hidden id="S:1">``, sent after the page) where the
    script would move them: before their placeholder ``<template id="B:1">`` (or ``P:1``);
    one without a placeholder stays where it is, shown."""
    placeholders = {el.get("id"): el for el in _TEMPLATES(root)}
    for segment in segments:
        number = segment.get("id", "")[2:]
        placeholder = placeholders.get("B:" + number)
        if placeholder is None:
            placeholder = placeholders.get("P:" + number)
        if placeholder is not None and segment not in placeholder.iterancestors():
            placeholder.addprevious(segment)


def _task_marker(checkbox: etree._Element) -> None:
    """A checkbox that starts a list item becomes GFM's ``[ ]`` / ``[x]`` (written by the
    walk's ``open_task``)."""
    parent = checkbox.getparent()
    if checkbox.tag != "input" or checkbox.getprevious() is not None or (parent.text or "").strip():
        return  # hidden, or not at the start
    checkbox.tag = TASK
