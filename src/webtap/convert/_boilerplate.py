"""What a block's names and first words say about it: boilerplate, not the article.

Class and id names are read as whole words (split at ``-``, ``_``, spaces and camelCase) against
boilerplate words in the languages pages are written in; a block's opening label ("You may also
like", "Leia também") announces related links. ``webtap.convert._extract`` weighs these verdicts
against how much prose an element holds.
"""

from __future__ import annotations

import re

from lxml import etree

__all__ = [
    "ALWAYS", "BY_ID", "CONSENT", "LABEL", "MAYBE", "NAMES", "NOT", "SHARE_LINK", "announces",
    "boilerplate_words", "name_verdict", "name_words", "share_links",
]  # fmt: skip

LABEL = 50  # characters of a label that announces related links ("You may also like")
# Whole words in a class or id that mark boilerplate, in the languages pages are written in.
# Comment sections are boilerplate however big they are (long discussions outweigh short
# posts); any other boilerplate word on an element holding a large share of the page's text
# names a layout wrapper around the content (``l-sidebar-fixed l-article-body-segment``).
# Plugins glue words into one name (Jetpack's ``jp-relatedposts``, YARPP's ``yarpp``).
_COMMENT_LIST = """
    comment comments commentlist commentaire commentaires comentario comentarios
    comentários kommentar kommentare commenti commento reacties komentarz komentarze disqus
    respond commentform postcomment addcomment
"""
_COMMENT_WORDS = frozenset(_COMMENT_LIST.split())
# Consent banners and preference centres (and the platforms that serve most of them): never
# content, however much prose their cookie descriptions hold.
_CONSENT_LIST = "cookie cookies consent gdpr onetrust cookiebot didomi usercentrics cookieyes"
_CONSENT_WORDS = frozenset(_CONSENT_LIST.split())
_BOILERPLATE_LIST = """
    reactions reply replies
    share shares sharing sharebar sharedaddy social socials addthis sociable shariff
    compartir compartilhar compartilhe partager partage teilen condividi udostepnij
    related relacionados relacionadas relacionado relacionada similar similares correlati
    verwandte aehnliche ähnliche connexes similaires powiazane podobne polecane
    relatedposts relatedlinks relatedarticles relatedstories yarpp
    recommended recommendations recommendation empfehlungen recirculation
    outbrain taboola trending popular mostread mostpopular mostviewed morestories
    upsell upsells crosssell crosssells crossselling
    newsletter newsletters subscribe subscription signup optin mailchimp abonnieren abonner
    inscreva suscribete suscripcion iscriviti
    sidebar sidebars seitenleiste marginalspalte marginalspalten aside playlist
    footer rodape rodapé fusszeile fußzeile piedepagina voettekst stopka
    breadcrumb breadcrumbs pager pagination paginacao paginacion pagineo
    ad ads advert adverts advertisement advertising advertisment sponsor sponsored
    publicidade publicidad werbung anzeige publicite publicité pubblicita pubblicità reklama
    dfp
    banner popup modal
    caption captions credit credits wpcaption gallery slideshow carousel
    bildunterschrift bilduntertitel bildtext bildnachweis fotonachweis bildquelle
    byline author authors autor autoren autorin auteur auteurs autore autori bio authorbox
    tags tagcloud taglist keywords
    postmeta postmetadata metainfo
    menu navbar navigation nav toolbar skip print noprint
    license licence lizenz licencja licencia licença copyright
"""
_BOILERPLATE_WORDS = frozenset(_BOILERPLATE_LIST.split()) | _COMMENT_WORDS | _CONSENT_WORDS
# Class names that file a post under a topic (WordPress's ``category-social``, ``tag-ads``).
_TAXONOMY = frozenset(("category", "tag", "tags", "cat"))
# Boilerplate named in several words, matched as consecutive words.
_BOILERPLATE_PHRASES = (
    ("pie", "de", "pagina"), ("pie", "pagina"), ("pied", "de", "page"), ("pied", "page"),
    ("piè", "di", "pagina"), ("barra", "lateral"), ("read", "more"), ("also", "read"),
    ("leia", "tambem"), ("leia", "também"), ("veja", "tambem"), ("veja", "também"),
    ("saiba", "mais"),
    ("mehr", "zum", "thema"), ("lesen", "sie", "auch"), ("post", "meta"), ("entry", "meta"),
    ("article", "meta"), ("entry", "utility"), ("meta", "info"), ("content", "meta"),
    ("wp", "caption"), ("image", "source"), ("img", "metadata"), ("more", "from"),
    ("cross", "sell"), ("cross", "sells"), ("cross", "selling"), ("up", "sell"), ("up", "sells"),
    ("no", "print"), ("not", "print"), ("hidden", "print"), ("hide", "print"),
)  # fmt: skip
_PHRASES = re.compile(
    r"\b(?:" + "|".join(" ".join(phrase) for phrase in _BOILERPLATE_PHRASES) + r")\b"
)
_PHRASE_STARTS = frozenset(phrase[0] for phrase in _BOILERPLATE_PHRASES)
# How blocks of related links, ads and comments announce themselves, in several languages.
_ANNOUNCEMENTS = (
    "you may also", "you might also", "you may like", "you might like", "related",
    "read more", "read also", "also read", "more from", "more in ", "more on ", "recommended",
    "sponsored", "advertisement", "most read", "most popular", "trending", "popular posts",
    "share this", "comments", "leave a comment", "leave a reply", "newsletter", "subscribe",
    "leia também", "leia mais", "saiba mais", "veja também", "você pode gostar", "mais lidas",
    "notícias relacionadas", "publicidade", "lesen sie auch", "mehr zum thema", "das könnte",
    "weitere artikel", "anzeige", "kommentare", "te puede interesar", "también te puede",
    "noticias relacionadas", "artículos relacionados", "lo más leído", "publicidad",
    "à lire aussi", "lire aussi", "sur le même sujet", "vous aimerez aussi", "à voir aussi",
    "publicité", "leggi anche", "potrebbe interessarti", "articoli correlati", "pubblicità",
    "lees ook", "gerelateerde", "auch interessant", "meistgelesen", "ähnliche artikel",
    "à lire également", "lire également", "voir aussi", "les plus lus", "articles similaires",
    "dans la même rubrique", "sur le même thème", "commentaires", "czytaj także", "czytaj też",
    "czytaj również", "przeczytaj także", "przeczytaj też", "przeczytaj również",
    "zobacz także", "zobacz też", "zobacz również", "polecamy", "najczęściej czytane",
    "podobne artykuły", "powiązane", "komentarze", "reklama", "more to explore",
    "more stories", "more articles", "weitere beiträge", "verwandte beiträge",
    "ähnliche beiträge", "zum weiterlesen", "mehr zu ", "mehr von ", "viel gelesen",
    "teilen sie", "schlagworte", "schlagwörter", "kommentieren", "vos réactions",
    "empfohlen", "entdecken sie", "lue myös", "lue seuraavaksi", "lue aiheesta", "katso myös",
    "read next", "up next", "don't miss", "keep reading", "latest news", "top stories",
    "customers also", "customers who", "people also", "frequently bought", "bought together",
    "recently viewed", "similar items", "similar products", "more like this",
    "complete the look", "shop the look", "others also", "inspired by your",
    "ideas based on your", "explore related", "sponsored products",
    "articles liés", "empfehlungen der redaktion", "empfehlungen aus der redaktion",
    "sigue leyendo", "seguí leyendo", "seguir leyendo", "lee también", "lea también",
    "weitere meldungen", "weitere nachrichten", "mehr nachrichten", "mehr themen",
    "redaktionstipp", "tipp der redaktion", "weitere themen", "das thema könnte",
    "síguenos", "siguenos", "follow us on", "lue lisää",
)  # fmt: skip
_START = 3  # characters every announcement has at least


def _by_start(phrases: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """The phrases by their first ``_START`` characters."""
    starts: dict[str, tuple[str, ...]] = {}
    for phrase in phrases:
        starts[phrase[:_START]] = (*starts.get(phrase[:_START], ()), phrase)
    return starts


# A label is tried against the few announcements that start as it does, not all of them (a
# twentieth of the cost).
_ANNOUNCING = _by_start(_ANNOUNCEMENTS)
# A word before a boilerplate word that says the element is not that (``no-sidebar``).
_NEGATIONS = frozenset(("no", "not", "without", "has", "with", "hide", "show", "hidden"))
# A word after a boilerplate word that says it is a page state (``comments-open``).
_STATES = frozenset(("open", "closed", "enabled", "disabled", "allowed", "active"))
# An element with one of these words is content even if another word says boilerplate
# (``social-media-embed`` is a quoted post, not a share bar).
_CONTENT_WORDS = frozenset(
    ("articlebody", "articletext", "postbody", "entrycontent", "embed", "embedded")
)

_WORD = re.compile(r"[^\W_]+")
_CAMEL = re.compile(r"(?<=[a-zà-ÿ0-9])(?=[A-Z])")


# Links that share the page rather than lead anywhere (share bars without a telling class),
# or that open the page's source for editing (a manual's "Edit this page", a wiki's "[edit]").
SHARE_LINK = re.compile(
    r"^(?:whatsapp|fb-messenger|tg):|sharer|share\.php|/share\?|intent/tweet|pin/create|"
    r"sharearticle|shareArticle|^mailto:\?|addtoany\.com|addthis\.com"
    r"|/(?:-/)?edit/[^?#]+\.(?:md|mdx|rst|adoc|txt|ipynb)\b|[?&]action=edit\b",
    re.IGNORECASE,
)

# What every link SHARE_LINK matches holds (lower-cased): most links are let through on this.
_SHARE_HINTS = ("shar", "tweet", "pin/", "addt", "edit")
_SHARE_SCHEMES = ("whatsapp:", "fb-messenger:", "tg:", "mailto:?")


# Links that only lead back, to the top, the listing or the home page ("Zurück zur Übersicht",
# "nach oben", "Back to top", "Retour"), or that print the page ("Print recipe", "Rezept
# drucken"): the site's controls, whatever the page. A string, compiled by `re`'s cache with
# the first link that may be one (`_BACK_HINTS`), not at import on every call of a tool.
_BACK = (
    r"(?:[«‹<←↑^]\s*)?(?:zurück|nach oben|back|retour|torna|volver|voltar|powrót|wróć|terug)"
    r"(?:\s+(?:zu[rm]?|to|à|a|al|ao|do|naar)\b.{0,30})?\s*[»›>→↑]?"
    r"|(?:print|imprimer|imprimir|stampa|drukuj)(?:\s+\w+){0,2}|(?:\w+\s+)?drucken"
)  # (re.IGNORECASE)
# Every link `_BACK` matches holds one of these (lower-cased).
_BACK_HINTS = (
    "zurück", "nach oben", "back", "retour", "torna", "volver", "voltar", "powrót", "wróć",
    "terug", "print", "imprim", "stampa", "drukuj", "drucken",
)  # fmt: skip
_BACK_MAX = 40  # characters of such a link's text
# The first word of an anchor that names a page's comment section.
_COMMENT_ANCHORS = _COMMENT_WORDS | {"disqus", "responses", "discussion", "reactions"}
_HEADINGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))


def share_links(top: etree._Element, comments: bool = True) -> list[etree._Element]:
    """The links under ``top`` that share the page or edit its source (`SHARE_LINK`), those
    that only lead back or print it (`_BACK`: the whole text of a link), and, with
    ``comments``, those that lead to the page's comments (`_to_comments`: "12 comments",
    "Join the discussion"). Links to the comments of several pages are a listing's counts
    beside its stories: only those within the page (``#comments``) go then."""
    found = []
    counts: list[etree._Element] = []
    for a in top.iter("a"):
        href = a.get("href")
        if not href:
            continue
        low = href.lower()
        if (
            any(hint in low for hint in _SHARE_HINTS) or low.startswith(_SHARE_SCHEMES)
        ) and SHARE_LINK.search(href):
            found.append(a)
            continue
        text = a.text if len(a) == 0 else "".join(a.itertext())  # (an icon beside it)
        if text and len(text) <= _BACK_MAX and not _titled(a):
            if _back(text.strip()):
                found.append(a)
            elif comments and _to_comments(a, low):
                counts.append(a)
    if counts:
        pages = {(a.get("href") or "").partition("#")[0] for a in counts} - {""}
        found.extend(a for a in counts if len(pages) < 2 or a.get("href", "").startswith("#"))
    return found


def _back(text: str) -> bool:
    """Whether a link's whole text only leads back or prints the page (`_BACK`)."""
    low = text.lower()
    return any(hint in low for hint in _BACK_HINTS) and (
        re.fullmatch(_BACK, text, re.IGNORECASE) is not None
    )


def _to_comments(a: etree._Element, href: str) -> bool:
    """Whether a short link leads to the page's comment section: its target is the section
    (``#comments``, ``#respond``, ``#disqus_thread``; not one comment's ``#comment-12``), or
    it leads within the page and its own name says comments (``class="comment-count"``; a
    commenter's name linked to a profile leads elsewhere)."""
    fragment = href.partition("#")[2]
    if not fragment:
        return False
    named = _WORD.findall(_CAMEL.sub(" ", fragment).lower().replace("_", " "))
    if not named or any(word.isdigit() for word in named):
        return False
    if named[0] in _COMMENT_ANCHORS:
        return True
    names = a.get("class")
    return (
        href.startswith("#") and names is not None and not _COMMENT_WORDS.isdisjoint(_words(names))
    )


def _titled(a: etree._Element) -> bool:
    """Whether a link is a heading's or holds one: a title ("Back to the Future")."""
    parent = a.getparent()
    return (parent is not None and parent.tag in _HEADINGS) or any(
        child.tag in _HEADINGS for child in a
    )


NOT, MAYBE, ALWAYS, BY_ID, CONSENT = 0, 1, 2, 3, 5  # verdicts on an element's class and id

# The words of each class or id name that may name boilerplate (`_words`), shared by every
# page (a site repeats its names in many combinations); cleared when big.
NAMES: dict[str, list[str]] = {}
NAMES_MAX = 50_000


def name_verdict(cls: str | None, ident: str | None) -> int:
    """`MAYBE` when the class names boilerplate (kept if it turns out to wrap the content),
    `ALWAYS` for comment sections, `BY_ID` when only the id does: manuals derive ids from
    headings (``id="sql-for-update-share"``), so such a section is kept if it is prose."""
    # Most names hold no boilerplate word at all: both read at once, for none (a prefix
    # such as ``print:`` or a phrase across the two can only make this look further).
    names = (cls or "") if not ident else ident if not cls else f"{cls} {ident}"
    quick = _WORD.findall(names if names.islower() else _CAMEL.sub(" ", names).lower())
    if _BOILERPLATE_WORDS.isdisjoint(quick) and (
        _PHRASE_STARTS.isdisjoint(quick) or not _PHRASES.search(" ".join(quick))
    ):
        return NOT
    # The one name read above needs no second look, unless a prefix is to go.
    verdict = _verdict(cls, not ident and ":" not in cls) if cls else NOT
    if verdict in (ALWAYS, CONSENT) or not ident:
        return verdict
    by_id = _verdict(ident, not cls and ":" not in ident)
    if by_id in (ALWAYS, CONSENT):
        return by_id
    return verdict or (by_id and BY_ID)


def _verdict(names: str, suspect: bool = False) -> int:
    """Whether class or id names name boilerplate, word by word: ``PageBuilder-pageRow``
    holds no "pager", ``elementor-widget-container`` no sidebar word, ``no-sidebar`` says
    there is none, ``comments-open`` is a page state. A utility class's variant prefix says
    when it applies, not what the element is: ``print:break-inside-avoid``, ``md:hidden``.
    ``suspect``: the names are known to hold a boilerplate word or phrase."""
    if suspect:
        return _exact(_words(names))
    if ":" in names:
        names = " ".join(name.rpartition(":")[2] for name in names.split())
    quick = _WORD.findall(names if names.islower() else _CAMEL.sub(" ", names).lower())
    if _BOILERPLATE_WORDS.isdisjoint(quick) and (
        _PHRASE_STARTS.isdisjoint(quick) or not _PHRASES.search(" ".join(quick))
    ):
        return NOT  # most names: no boilerplate word at all
    return _exact(_words(names))


def _exact(words: list[str]) -> int:
    """The verdict on the words of names that hold a boilerplate word or phrase."""
    if not _CONTENT_WORDS.isdisjoint(words):
        return NOT
    found = _BOILERPLATE_WORDS.intersection(words)
    if found and _NEGATIONS.isdisjoint(words) and _STATES.isdisjoint(words):
        # No word before or after one of them says otherwise: the strongest is the verdict.
        consent = not _CONSENT_WORDS.isdisjoint(found)
        comment = not _COMMENT_WORDS.isdisjoint(found)
        if not (consent and comment):  # (both: the first one says)
            return CONSENT if consent else ALWAYS if comment else MAYBE
    verdict = NOT
    previous = ""
    for i, word in enumerate(words):
        if (
            word in _BOILERPLATE_WORDS
            and previous not in _NEGATIONS
            and (i + 1 == len(words) or words[i + 1] not in _STATES)
        ):
            if word in _CONSENT_WORDS:
                return CONSENT
            if word in _COMMENT_WORDS:
                return ALWAYS
            verdict = MAYBE
        previous = word
    if verdict or (len(words) > 1 and _PHRASES.search(" ".join(words))):
        return MAYBE
    return NOT


def boilerplate_words(el: etree._Element) -> frozenset[str]:
    """The boilerplate words in an element's class and id (``banner`` in ``banner-layer``)."""
    names = f"{el.get('class') or ''} {el.get('id') or ''}"
    return _BOILERPLATE_WORDS.intersection(_words(names))


def name_words(names: str) -> list[str]:
    """The words of class or id names as the verdicts read them (`_words`)."""
    return _words(names)


def _words(names: str) -> list[str]:
    """Lower-case words of class/id names, split at ``-``, ``_``, spaces and camelCase;
    each name also counts joined (``articleBody`` gives article, body and articlebody)."""
    read = NAMES
    if len(read) > NAMES_MAX:
        read.clear()
    words: list[str] = []
    for name in names.split():
        found = read.get(name)
        if found is None:
            found = _WORD.findall((name if name.islower() else _CAMEL.sub(" ", name)).lower())
            if len(found) > 1:
                found = [] if found[0] in _TAXONOMY else [*found, "".join(found)]
            read[name] = found
        words += found
    return words


def announces(el: etree._Element) -> bool:
    """Whether a block starts with a short label saying it is not the article ("You may
    also like", "Leia também", "Sponsored", ...); a paragraph that merely starts with
    "Related" is not a label."""
    for text in el.itertext():
        label = " ".join(text.split()).lower()
        if label:
            return len(label) <= LABEL and label.startswith(_ANNOUNCING.get(label[:_START], ()))
    return False
