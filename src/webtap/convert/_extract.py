"""Main-content extraction: which part of a cleaned page is the page's own text.

One ``etree.iterwalk`` over the cleaned tree (the one the converter walks next) adds up, for
every block element, the text of its subtree: all of it, the part in links, and the part in
*good* blocks (prose: a paragraph of enough words that is not mostly link text). Link text is
text whose owner is an ``<a>``, so a product card wrapped whole in a link still counts as text.
An element whose class or id names boilerplate (``comments``, ``sidebar``, ``rodape``, ...,
matched as whole words) passes its text up as bad text. The content is the element with the
best ``good - bad`` balance, so it grows to take in sibling chunks of a split article body and
every section of a manual, and stops where menus, link lists and footers start to outweigh
what they add. Inside it, boilerplate (share bars, comments, newsletter boxes, related-post
lists, images and captions) is removed, never an element that holds most of the content.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from lxml import etree

__all__ = ["extract", "extract_root"]

# Text in these tags belongs to the enclosing block (``clean`` has unwrapped span, font, ...).
_INLINE = frozenset((
    "a", "b", "strong", "em", "i", "code", "kbd", "samp", "tt", "sup", "sub", "q", "s", "del",
    "strike", "br", "img", "source", "picture", "math",
))  # fmt: skip

_GOOD_CHARS = 25  # non-link characters a block needs to count as prose
_SHORT_WEIGHT = 0.3  # how much short non-link text (dates, labels, "Share") counts as bad
_LINK_WEIGHT = 1.0  # how much link text outside prose counts as bad
_MIN_CONTENT = 200  # an extraction with fewer characters of prose falls back to the page
_MIN_SHARE = 0.2  # ... as does one holding less than this share of the page's prose

# Whole words in a class or id that mark boilerplate, in the languages pages are written in.
_BOILERPLATE_LIST = """
    comment comments commentlist commentaire commentaires comentario comentarios comentarios
    comentários kommentar kommentare commenti commento reacties reactions disqus respond
    reply replies
    share shares sharing sharebar sharedaddy social socials addthis sociable shariff
    compartir compartilhar compartilhe partager partage teilen condividi
    related relacionados relacionadas relacionado relacionada similar similares correlati
    verwandte aehnliche ähnliche recommended recommendations recommendation empfehlungen
    outbrain taboola trending popular mostread mostpopular morestories
    newsletter newsletters subscribe subscription signup optin mailchimp abonnieren abonner
    inscreva suscribete suscripcion iscriviti
    sidebar sidebars seitenleiste aside
    footer rodape rodapé fusszeile fußzeile piedepagina voettekst stopka
    breadcrumb breadcrumbs pager pagination paginacao paginacion pagineo
    ad ads advert adverts advertisement advertising advertisment sponsor sponsored
    publicidade publicidad werbung anzeige publicite publicité pubblicita pubblicità dfp
    banner cookie cookies consent gdpr popup modal
    caption captions credit credits wpcaption gallery slideshow carousel
    byline author bio tags tagcloud taglist keywords
    menu navbar navigation nav toolbar skip print
"""
_BOILERPLATE_WORDS = frozenset(_BOILERPLATE_LIST.split())
# Boilerplate named in several words, matched as consecutive words.
_BOILERPLATE_PHRASES = (
    ("pie", "de", "pagina"), ("pie", "pagina"), ("pied", "de", "page"), ("pied", "page"),
    ("piè", "di", "pagina"), ("barra", "lateral"), ("read", "more"), ("also", "read"),
    ("leia", "tambem"), ("leia", "também"), ("veja", "tambem"), ("veja", "também"),
    ("mehr", "zum", "thema"), ("lesen", "sie", "auch"), ("post", "meta"), ("entry", "meta"),
    ("article", "meta"), ("wp", "caption"), ("more", "from"),
)  # fmt: skip
# A word before a boilerplate word that says the element is not that (``no-sidebar``).
_NEGATIONS = frozenset(("no", "not", "without", "has", "with", "hide", "show", "hidden"))
_BOILERPLATE_TAGS = frozenset(("aside", "footer", "figure", "figcaption", "form"))
# Tags left out of the content however little they hold: pictures and their captions.
_PICTURE_TAGS = ("img", "picture", "figcaption")
# An element with one of these words is content even if another word says boilerplate.
_CONTENT_WORDS = frozenset(("articlebody", "articletext", "postbody", "entrycontent"))

_WORD = re.compile(r"[^\W_]+")
_CAMEL = re.compile(r"(?<=[a-zà-ÿ0-9])(?=[A-Z])")


# Tags the converter reads only inside their parent (a cell, a row, an item): a chosen one is
# converted as a plain block.
_RETAGGED = frozenset(("td", "th", "tr", "thead", "li", "dt", "summary", "caption"))


def extract_root(root: etree._Element) -> etree._Element | None:
    """A new ``<div>`` holding the main content (moved out of ``root``), or None to convert
    the whole page (see `extract`)."""
    chosen = extract(root)
    if chosen is None:
        return None
    wrapper = etree.Element("div")
    for el in chosen:
        el.tail = None
        if el.tag in _RETAGGED:
            el.tag = "div"
        wrapper.append(el)
    return wrapper


def extract(root: etree._Element) -> list[etree._Element] | None:
    """The elements that hold the page's main content, in document order, after removing
    the boilerplate inside them; None when nothing scores or the content found is too small
    to trust (the caller then converts the whole page)."""
    body = root.find("body")
    if body is None:
        body = root
    scores = _score(body)
    if scores is None:
        return None
    best, best_stats, page_good, boilerplate = scores
    if best is None or best is body or best_stats[2] < _MIN_CONTENT:
        return None
    if best_stats[2] < _MIN_SHARE * page_good:
        return None
    chosen = [best, *_split_siblings(best)]
    _prune(chosen, boilerplate, best_stats[2])
    return chosen


_Stats = list  # [all chars, link chars, good chars, bad weight]


def _score(
    body: etree._Element,
) -> tuple[etree._Element | None, _Stats, int, list[tuple[etree._Element, int]]] | None:
    """One walk: the best-balanced element, its stats, the page's good characters and the
    boilerplate elements found (with the good characters each holds)."""
    inline = _INLINE
    kinds: dict[tuple[str | None, str | None], bool] = {}
    blocks: list[list] = []  # per open block: [all, link, good, bad, own, own link, raw good]
    boilerplate: list[tuple[etree._Element, int]] = []
    best: etree._Element | None = None
    best_value = 0.0
    best_stats: _Stats = [0, 0, 0, 0.0]
    frame: list = []
    for event, el in etree.iterwalk(body, events=("start", "end")):
        tag = el.tag
        if event == "start":
            if tag in inline:
                if tag == "a":
                    text = el.text
                    if text:
                        n = len(text.strip())
                        if n:
                            frame = blocks[-1]
                            frame[4] += n
                            frame[5] += n
                    continue
            else:
                blocks.append([0, 0, 0, 0.0, 0, 0, 0])
            text = el.text
            if text and blocks:
                n = len(text.strip())
                if n:
                    blocks[-1][4] += n
            continue
        if tag not in inline:
            frame = blocks.pop()
            own, own_link = frame[4], frame[5]
            if own:
                frame[0] += own
                frame[1] += own_link
                plain = own - own_link
                if (plain >= _GOOD_CHARS and own_link * 2 <= own) or tag == "pre":
                    frame[2] += own
                    frame[6] += own
                else:
                    frame[3] += _LINK_WEIGHT * own_link + _SHORT_WEIGHT * plain
            key = (el.get("class"), el.get("id"))
            kind = kinds.get(key)
            if kind is None:
                kind = kinds[key] = _is_boilerplate(*key)
            if kind or tag in _BOILERPLATE_TAGS:
                boilerplate.append((el, frame[2]))
                frame[3] += frame[2]
                frame[2] = 0
            else:
                value = frame[2] - frame[3]
                if value > best_value:
                    best, best_value = el, value
                    best_stats = frame[:4]
            if blocks:
                parent = blocks[-1]
                parent[0] += frame[0]
                parent[1] += frame[1]
                parent[2] += frame[2]
                parent[3] += frame[3]
                parent[6] += frame[6]
        tail = el.tail
        if tail and blocks:
            n = len(tail.strip())
            if n:
                blocks[-1][4] += n
    # The last frame closed is the body's; its raw good text counts boilerplate's too.
    if not frame or frame[6] == 0:
        return None
    return best, best_stats, frame[6], boilerplate


def _is_boilerplate(cls: str | None, ident: str | None) -> bool:
    """Whether a class/id names boilerplate, word by word (``PageBuilder-pageRow`` holds no
    "pager", ``elementor-widget-container`` no sidebar word)."""
    if not cls and not ident:
        return False
    words = _words(f"{cls or ''} {ident or ''}")
    if any(w in _CONTENT_WORDS for w in words):
        return False
    previous = ""
    for word in words:
        if word in _BOILERPLATE_WORDS and previous not in _NEGATIONS:
            return True
        previous = word
    if len(words) > 1:
        for phrase in _BOILERPLATE_PHRASES:
            if _has_phrase(words, phrase):
                return True
    return False


def _words(names: str) -> list[str]:
    """Lower-case words of class/id names, split at ``-``, ``_``, spaces and camelCase;
    each name also counts joined (``articleBody`` gives article, body and articlebody)."""
    words: list[str] = []
    for name in names.split():
        parts = _WORD.findall(_CAMEL.sub(" ", name))
        words.extend(p.lower() for p in parts)
        if len(parts) > 1:
            words.append("".join(parts).lower())
    return words


def _has_phrase(words: list[str], phrase: tuple[str, ...]) -> bool:
    size = len(phrase)
    return any(tuple(words[i : i + size]) == phrase for i in range(len(words) - size + 1))


def _split_siblings(best: etree._Element) -> list[etree._Element]:
    """Siblings of the content with its tag and class: the other chunks of a split body."""
    cls = best.get("class")
    parent = best.getparent()
    if not cls or parent is None:
        return []
    return [
        el
        for el in parent.iterchildren(best.tag)
        if el is not best and el.get("class") == cls and "".join(el.itertext()).strip()
    ]


def _prune(
    chosen: list[etree._Element],
    boilerplate: Iterable[tuple[etree._Element, int]],
    content_good: int,
) -> None:
    """Remove boilerplate inside the chosen elements; never one holding most of the content
    (it is then a wrapper with an unlucky name, an ancestor of the real content)."""
    inside = set(chosen)
    for el, good in boilerplate:
        if good * 2 > content_good:
            continue
        for ancestor in el.iterancestors():
            if ancestor in inside:
                _remove(el)
                break
    for top in chosen:
        for el in list(top.iter(*_PICTURE_TAGS)):
            _remove(el)


def _remove(el: etree._Element) -> None:
    """Remove an element, keeping its tail text."""
    parent = el.getparent()
    if parent is None:
        return
    tail = el.tail
    if tail and tail.strip():
        previous = el.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail
    parent.remove(el)
