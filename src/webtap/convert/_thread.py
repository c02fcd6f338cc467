"""Discussion threads: every post of a forum thread, Q&A page or comment thread, in order,
each under a line with its author and date.

Forum software says what its posts are: schema.org microdata (``itemtype`` ending in
``DiscussionForumPosting``, ``Comment``, ``Answer``, ``Question``, ...) with the post's text
(``itemprop="text"``), its author (``itemprop="author"``, a ``name`` inside) and its date
(``datePublished``, ``dateCreated``, a ``<time>``). A post the page left unmarked (the first
post, often) is found beside the marked ones: a sibling of the same tag and first class, whose
text, author and date sit where its marked siblings have theirs. On a Q&A page, the comments
under a question or an answer are left out (the answers are the content).

Authors and dates live in elements that ``clean`` unwraps (``<span itemprop="name">``,
``<time>``, ``<meta content>``), so `mark` reads them before it does and keeps them in
attributes of the post (``data-webtap-*``); `find_posts` reads the cleaned tree, and
`thread_root` moves the posts into the tree the walk converts. `webtap.convert._extract`
decides whether they are the page's content.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from lxml import etree

__all__ = ["Post", "Thread", "find_posts", "mark", "microdata_types", "thread_root"]

_POST_TYPES = frozenset((
    "DiscussionForumPosting", "Comment", "Answer", "Question", "SocialMediaPosting",
    "UserComments",
))  # fmt: skip
# Types that make the page a discussion (its posts are the content, however short).
_DISCUSSION_TYPES = frozenset(
    ("DiscussionForumPosting", "Question", "Answer", "QAPage", "SocialMediaPosting")
)
_QUESTION_TYPES = frozenset(("Question", "Answer"))
_REPLY_TYPES = frozenset(("Comment", "Answer", "UserComments"))
_TEXT_PROPS = frozenset(("text", "articleBody", "commentText"))
_DATE_PROPS = frozenset(("datePublished", "dateCreated", "commentTime", "uploadDate"))
_MIN_POSTS = 2
_MIN_TEXT = 200  # characters of text all posts together need
_NAME = 60  # longer than this, an author's text is not a name
_ITEMPROP = etree.XPath(".//*[@itemprop]")
_POSTS = etree.XPath("//*[@data-webtap-post]")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")

# Attributes `mark` leaves for `find_posts`.
_POST = "data-webtap-post"  # on a post: its schema.org type, "" when unmarked
_AUTHOR = "data-webtap-author"
_DATE = "data-webtap-date"
_TEXT = "data-webtap-text"  # on an unmarked post's text: where its marked siblings have theirs
_THREAD = "data-webtap-thread"  # on the root: "discussion" when the page says it is one
_TYPES = "data-webtap-types"  # on the root: the microdata's types


class Post(NamedTuple):
    element: etree._Element  # the post
    body: list[etree._Element]  # its text: the elements to convert
    author: str
    date: str
    kind: str  # its schema.org type; "" for an unmarked sibling of marked posts


class Thread(NamedTuple):
    posts: list[Post]  # in document order
    declared: bool  # the page says it is a discussion (a forum post, a question)
    replies_only: bool  # every post is a reply: the thread's opening is elsewhere
    chars: int  # text in the posts' bodies


def mark(root: etree._Element, itemtypes: list[str]) -> None:
    """Before ``clean``: note the posts among the elements with ``itemtypes`` (attribute
    values from the page), with their authors and dates, and their unmarked siblings; and on
    the root, the types the page's microdata names (``data-webtap-types``: a type named on
    several items carries a ``*``)."""
    items: dict[etree._Element, str] = {}
    declared = False
    counts: dict[str, int] = {}
    for value in itemtypes:
        for url in value.split():
            kind = url.rstrip("/").rsplit("/", 1)[-1]
            counts[kind] = counts.get(kind, 0) + 1
            if kind in _POST_TYPES:
                items[value.getparent()] = kind
                break
            if kind in _DISCUSSION_TYPES:
                declared = True
    root.set(_TYPES, " ".join(k if n == 1 else k + "*" for k, n in counts.items()))
    if len(items) < _MIN_POSTS:
        return
    # Comments on a question or an answer are not the answers.
    marked = [
        el
        for el, kind in items.items()
        if kind != "Comment" or not any(items.get(a) in _QUESTION_TYPES for a in el.iterancestors())
    ]
    declared = declared or any(items[el] in _DISCUSSION_TYPES for el in marked)
    root.set(_THREAD, "discussion" if declared else "posts")
    inside = set(items)
    props = {el: _props(el, inside) for el in marked}
    for el in marked:
        author, date, _ = props[el]
        _note(el, items[el], author, date)
    for el in marked:
        _mark_siblings(el, props[el], inside)


def _props(
    post: etree._Element, items: set[etree._Element]
) -> tuple[str, str, dict[str, etree._Element]]:
    """A marked post's author and date, and its first element of each property (``text``,
    ``author``, date), from its own properties (not those of the posts nested in it)."""
    found: dict[str, etree._Element] = {}
    for prop in _ITEMPROP(post):
        if _nested(prop, post, items):
            continue
        for name in prop.get("itemprop", "").split():
            if name in _TEXT_PROPS:
                name = "text"
            elif name in _DATE_PROPS:
                name = "date"
            found.setdefault(name, prop)
    author = _author(found["author"]) if "author" in found else ""
    time = next((t for t in post.iter("time") if not _nested(t, post, items)), None)
    date = _date(found.get("date"), time)
    return author, date, found


def _note(el: etree._Element, kind: str, author: str, date: str) -> None:
    el.set(_POST, kind)
    if author:
        el.set(_AUTHOR, _CONTROL.sub("", author))
    if date:
        el.set(_DATE, _CONTROL.sub("", date))


def _mark_siblings(
    post: etree._Element,
    props: tuple[str, str, dict[str, etree._Element]],
    items: set[etree._Element],
) -> None:
    """Siblings of a marked post with the same tag and first class but no mark (a forum's
    first post), not inside another post: their text, author and date where the marked one
    has its own."""
    first = _first_class(post)
    parent = post.getparent()
    if not first or parent is None or parent in items:
        return
    if any(a in items for a in parent.iterancestors()):
        return
    found = props[2]
    for other in parent.iterchildren(post.tag):
        if other in items or other.get(_POST) is not None or _first_class(other) != first:
            continue
        text = _follow(other, _path(post, found["text"])) if "text" in found else None
        if text is not None:
            text.set(_TEXT, "1")
        author = _follow(other, _path(post, found["author"])) if "author" in found else None
        _note(
            other,
            "",
            _author(author) if author is not None else "",
            _date(None, next(other.iter("time"), None)),
        )


def _first_class(el: etree._Element) -> str:
    names = (el.get("class") or "").split()
    return names[0] if names else ""


def _path(top: etree._Element, part: etree._Element) -> list[tuple[str, str]]:
    """The (tag, first class) of each element from below ``top`` down to ``part``."""
    path = []
    while part is not None and part is not top:
        path.append((part.tag, _first_class(part)))
        part = part.getparent()
    return path[::-1] if part is top else []


def _follow(top: etree._Element, path: list[tuple[str, str]]) -> etree._Element | None:
    """The first element under ``top`` reached by ``path``: a child with the first tag and
    first class, then one of its children with the second, ..."""
    frontier = [top]
    for tag, first in path:
        frontier = [c for el in frontier for c in el.iterchildren(tag) if _first_class(c) == first]
        if not frontier:
            return None
    return frontier[0] if path else None


def _nested(prop: etree._Element, post: etree._Element, items: set[etree._Element]) -> bool:
    """Whether ``prop`` belongs to a post nested in ``post``."""
    for ancestor in prop.iterancestors():
        if ancestor is post:
            return False
        if ancestor in items:
            return True
    return False


def _author(el: etree._Element) -> str:
    """An author's name: its ``name`` property, else its first line of text (a profile card
    goes on with titles and counts), else its ``content``."""
    for prop in _ITEMPROP(el):
        if "name" in prop.get("itemprop", "").split():
            name = _text(prop) or (prop.get("content") or "").strip()
            if name:
                return name
    for text in el.itertext():
        name = " ".join(text.split())
        if name:
            return name if len(name) <= _NAME else ""
    return (el.get("content") or "").strip()[:_NAME]


def _date(prop: etree._Element | None, time: etree._Element | None) -> str:
    """A post's date as the page shows it (its date property's text, else its first
    ``<time>``'s), else as an attribute gives it."""
    for el in (prop, time):
        if el is not None:
            text = _text(el)
            if text and len(text) <= _NAME:
                return text
    for el in (prop, time):
        if el is not None:
            value = el.get("datetime") or el.get("content") or el.get("title")
            if value and value.strip():
                return value.strip()
    return ""


def _text(el: etree._Element) -> str:
    return " ".join("".join(el.itertext()).split())


def _chars(el: etree._Element) -> int:
    return int(el.xpath("string-length(normalize-space())"))


def microdata_types(root: etree._Element) -> frozenset[str]:
    """The types `mark` found in the page's microdata (``Product``, or ``Product*`` when
    several items have it)."""
    return frozenset((root.get(_TYPES) or "").split())


def find_posts(root: etree._Element, declared: bool = False) -> Thread | None:
    """After ``clean``: the thread's posts that `mark` noted, with their text, or None when
    there are fewer than two with text. ``declared``: the page's structured data says it is
    a discussion."""
    top = root.getroottree().getroot()
    if top.get(_THREAD) is None:
        return None
    elements = _POSTS(root)
    if len(elements) < _MIN_POSTS:
        return None
    inside = set(elements)
    posts = []
    for el in elements:
        body = [prop for prop in _texts(el) if not _nested(prop, el, inside) and _chars(prop)]
        body = [b for b in body if not any(a in body for a in b.iterancestors())]
        if not body and _chars(el):
            body = [el]
        if body:
            posts.append(Post(el, body, el.get(_AUTHOR, ""), el.get(_DATE, ""), el.get(_POST, "")))
    # A post whose text is the whole element holds the posts nested in it.
    whole = {p.element for p in posts if p.body == [p.element]}
    posts = [p for p in posts if not any(a in whole for a in p.element.iterancestors())]
    # Posts have authors (or dates): questions and answers without are a FAQ.
    if len(posts) < _MIN_POSTS or 2 * sum(1 for p in posts if p.author or p.date) < len(posts):
        return None
    chars = sum(_chars(el) for p in posts for el in p.body)
    if chars < _MIN_TEXT:
        return None
    replies_only = all(p.kind in _REPLY_TYPES for p in posts)
    declared = declared or top.get(_THREAD) == "discussion"
    return Thread(posts, declared, replies_only, chars)


def _texts(post: etree._Element) -> list[etree._Element]:
    """A post's text elements: its ``text`` properties, or where `mark` found its text."""
    return [
        el
        for el in post.iter()
        if el.get(_TEXT) is not None
        or any(n in _TEXT_PROPS for n in (el.get("itemprop") or "").split())
    ]


def thread_root(thread: Thread, lead: list[etree._Element]) -> etree._Element:
    """A new ``<div>`` holding ``lead`` (the text the thread answers, when it is not a post),
    then each post: a line with its author and date, then its text."""
    wrapper = etree.Element("div")
    for el in lead:
        el.tail = None
        wrapper.append(el)
    for post in thread.posts:
        if post.author or post.date:
            line = etree.SubElement(wrapper, "p")
            if post.author:
                strong = etree.SubElement(line, "strong")
                strong.text = post.author
                strong.tail = f" · {post.date}" if post.date else None
            else:
                line.text = post.date
        for el in post.body:
            el.tail = None
            if el.tag in ("td", "th", "tr", "li", "dt", "summary", "caption"):
                el.tag = "div"
            wrapper.append(el)
    etree.strip_elements(wrapper, "img", "picture", "figcaption", with_tail=False)
    return wrapper
