"""What a page says of itself: when it was published and changed, by whom, on what site, in
what language, its summary, its own URL and its lead image (a `Metadata`).

Read from the tree the converter parsed, before it prunes it (the head, the data scripts and
the attributes are still there): no second parse. Each field comes from the first source that
gives it, in order of trust:

1. JSON-LD (``@graph``, arrays, nested and referenced author and publisher objects); the
   article's own object before a web page's, a web page's before any other;
2. Open Graph and ``article:*`` (``article:published_time``, ``og:site_name``...);
3. other ``<meta>``: ``author``, ``date``, Dublin Core (``DC.*``, ``dcterms.*``),
   ``citation_*``, ``parsely-*``, ``sailthru.*`` and their kin;
4. the article's ``<time datetime>`` (one marked ``pubdate``, else the first in the
   article's header, after its title);
5. microdata (``itemprop="datePublished"``, ``itemprop="author"``);
6. the date line a reader sees by the title ("12 March 2024", "12.03.2024", "Par Jean
   Dupont"), only whole dates (`webtap.convert._dates`): "3 days ago" is none, and neither is
   the date in the site's header chrome, a copyright year, a date in a sentence or a photo's
   caption, nor an "Updated: ..." line.

Except for the publication's date and its author: the date line and the byline a reader sees
by the title come first, and the data after them. Where the two differ, the page shows its
reader one date and keeps another in its data (its CMS's first draft, a time in UTC a day
off, the account that uploaded it: "admin"); the reader's is the page's word.

Language comes from ``<html lang>``, else ``og:locale``, else a ``<meta>`` naming it (the
fetch adds the ``Content-Language`` header's after that). URLs are made absolute against the
page's.
"""

from __future__ import annotations

import functools
import json
import re
from collections import deque
from collections.abc import Iterator
from itertools import chain, islice
from urllib.parse import urljoin

from lxml import etree

from webtap.convert._dates import MONTHS, day_number, iso_date, spoken_date
from webtap.convert._html import find_title, heading_saying, plain_text
from webtap.convert._schema import json_objects
from webtap.convert._types import Metadata

__all__ = ["read_metadata"]

# <meta> names (property, name, itemprop or http-equiv; lower case) by field, in order.
_OPEN_GRAPH = {
    "published": ("article:published_time", "og:published_time", "og:article:published_time",
                  "article:published", "og:pubdate"),
    "modified": ("article:modified_time", "og:updated_time", "og:article:modified_time",
                 "article:modified"),
    "author": ("article:author", "og:article:author", "book:author"),
    "site_name": ("og:site_name",),
    "description": ("og:description", "twitter:description"),
    "canonical_url": ("og:url",),
    "image": ("og:image", "og:image:url", "og:image:secure_url", "twitter:image",
              "twitter:image:src"),
    "language": ("og:locale",),
}  # fmt: skip
_META = {
    "published": (
        "datepublished", "date", "pubdate", "publishdate", "publish-date", "publish_date",
        "publication_date", "pub_date", "dc.date", "dc.date.issued", "dc.date.created",
        "dc.date.published", "dcterms.issued", "dcterms.created", "dcterms.date",
        "citation_publication_date", "citation_date", "citation_online_date",
        "parsely-pub-date", "sailthru.date", "article.published", "article_date_original",
        "originalpublicationdate", "bt:pubdate", "date.release", "prism.publicationdate",
        "dateCreated".lower(), "creation_date", "created", "og:release_date",
    ),
    "modified": (
        "datemodified", "dc.date.modified", "dcterms.modified", "last-modified", "lastmod",
        "article.updated", "revised", "sailthru.lastmodified", "parsely-updated",
    ),
    "author": (
        "author", "parsely-author", "sailthru.author", "dc.creator", "dcterms.creator",
        "citation_author", "byl", "article.author", "creator",
    ),
    "site_name": ("application-name", "publisher", "dc.publisher", "citation_journal_title"),
    "description": ("description", "dc.description", "dcterms.abstract"),
    "language": ("content-language", "language", "dc.language", "citation_language"),
}  # fmt: skip
# A name that may be given more than once, each time for another author.
_LISTED = ("citation_author", "dc.creator", "author", "article:author", "parsely-author")

_ARTICLE = re.compile(r"Article$|Posting$|^Report$|^Recipe$|^Review$|^Thesis$|^Chapter$")
_PAGE = re.compile(r"Page$")
_NOT_THE_PIECE = frozenset((
    "Comment", "Answer", "Question", "Person", "Organization", "ImageObject", "BreadcrumbList",
    "ListItem", "SiteNavigationElement",
))  # fmt: skip
# What a page's object holds of other pieces than itself: a product's reviews, an article's
# comments, a list's items, the works it cites. Their authors and dates are not the page's.
_OTHER_PIECES = frozenset((
    "review", "reviews", "comment", "comments", "itemListElement", "citation", "mentions",
    "subjectOf",
))  # fmt: skip
_PAGE_RANK = 1  # `_rank` of a web page's object
_ANY_RANK = 2
# Patterns few pages need are strings, compiled by `re`'s cache with the first page that does
# (a compiled pattern costs the import a tenth of a millisecond or more, on every call of a
# tool): the dates of broken JSON-LD (one page in a hundred), the chrome's names (one in
# five: `_names_aside`), a heading's class naming a byline (one in a hundred).
_LD_DATE = r'"date(Published|Modified)"\s*:\s*"([^"]{4,40})"'

# Where a page's date line is not: its chrome and what comes after the piece.
# A class or id naming a part of the page that is not the piece (a token, or a token's part
# between dashes: "comment-list", "site-footer"; not "has-sidebar", a layout's name, nor
# "elementor-widget-container": the Elementor page builder calls each of its blocks a widget).
_ASIDE = (
    r"(?<![\w-])(?!has-|with-|no-|elementor-)(?:[\w]+[-_])*(?:comments?|footer|sidebar|related|recommended"
    r"|newsletter|widget|breadcrumbs?|trending|popular|navbar|masthead|teaser)(?:[-_][\w-]*)?(?![\w-])"
)  # (re.I)
# (Every word `_ASIDE` may match holds one of these.)
_ASIDE_WORDS = re.compile(
    "comment|footer|sidebar|related|recommended|newsletter|widget|breadcrumb|trending|popular"
    "|navbar|masthead|teaser"
)
# A label naming the date after it as another's than the publication's: the last change's
# ("Updated: 3 May 2024"), a member's ("Joined"), a thread's last post's, an offer's end, an
# event's ("Termin: 21.02.2020").
# (Lower case, in a line whose spaces are single: a test cheaper than a pattern to compile.)
_OTHER_DATE = (
    "updated", "modified", "edited", "aktualisiert", "geändert", "mis à jour", "modifié",
    "actualizado", "aggiornato", "atualizado", "bijgewerkt", "zaktualizowano", "обновлено",
    "joined", "member since", "registered", "beigetreten", "mitglied seit", "registriert",
    "inscrit", "last post", "last reply", "last activity", "last seen", "last active",
    "letzter beitrag", "letzte antwort", "expire", "expiry", "valid until", "valid through",
    "gültig bis", "offer ends", "deadline", "termin", "event date", "veranstaltung",
)  # fmt: skip
_LABEL = 40  # characters of a line before a date line that may be its label ("Joined")
# A byline: its word ("By", "Von", "Par"...) at the line's start, after a separator, or after
# "Posted"/"Written" (and perhaps a date: "Posted on 3 May 2024 by"); the names follow.
_BYLINE = re.compile(
    r"(?:^|[|•·—–-]\s*|\b(?:posted|written|published|geschrieben|verfasst|veröffentlicht|publié"
    r"|publicado|pubblicato|opublikowano)\b[^|•·]{0,40}?\s)"
    r"(?:(?:by|von|par|por|di|door|av|przez|autor(?:ka)?|author)\b\s*:?|texte?\s*:)"
    r"\s*(?P<names>\S.*)",
    re.I,
)
_NAME_WORDS = 5  # words a person's name may have
# Capitalised words that begin a line of the byline's but are no name: labels, days.
_NOT_NAMES = frozenset((
    "published", "posted", "updated", "written", "sponsored", "advertisement", "share", "follow",
    "mon", "tue", "wed", "thu", "fri", "sat", "sun", "today", "yesterday", "biography", "bio",
    "profile", "about", "more", "contact", "email", "twitter", "facebook", "linkedin",
    "uncategorized", "allgemein", "category", "kategorie", "tags", "home", "menu", "source",
    "quelle", "foto", "fotos", "photo", "photos", "bild", "interview", "eine", "ein", "analyse",
    "kommentar", "text", "texte", "texto", "testo", "tekst", "текст", "escribe",
))  # fmt: skip
_VOWEL = re.compile("[AEIOUY]")
# What an author's name may come after in a page's data: "By Jo Bloggs", "Text: Jo Bloggs".
_NAMED = re.compile(r"^(?:(?:by|von|par|por)\s+|(?:texte?|текст|texto|testo|tekst)\s*:\s*)", re.I)
_PARTICLES = frozenset(
    ("de", "van", "von", "der", "den", "la", "le", "da", "di", "du", "del", "bin")
)
_JOINERS = frozenset(("and", "und", "et", "y", "i", "e", "en", "och", "og", "&", ","))
# Words that end a byline's names ("By Jo Bloggs On 3 May", "Von Max Muster Veröffentlicht
# am", "Von Yuval Harari Die Digitalisierung..."): capitalised, they are no name's part.
_AFTER_NAMES = frozenset((
    "on", "at", "am", "um", "em", "w", "op", "vom", "last", "date", "datum", "stand",
    "veröffentlicht",
    "publié", "publicado", "pubblicato", "die", "das", "the", "monday", "tuesday", "wednesday",
    "thursday", "friday", "saturday", "sunday", "montag", "dienstag", "mittwoch", "donnerstag",
    "freitag", "samstag", "sonntag", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi",
    "dimanche",
))  # fmt: skip
_DATE_ARTICLES = frozenset(("le", "la", "el", "il", "den", "du", "em", "de"))  # "Le 3 mars"
_HEADINGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))
_BYLINE_CLASS = r"byline|author|meta|credit"  # (re.I; hNews: "byline", "author")
# Words of a byline after the name: the writer's role, not the name ("Meg James Staff Writer").
_ROLES = frozenset((
    "staff", "senior", "writer", "editor", "reporter", "correspondent", "columnist", "contributor",
    "contributing", "journalist", "published", "updated", "posted", "photos", "photo", "director",
    "manager", "founder", "ceo", "head", "chief", "president", "executive", "associate",
    "professor", "lead", "analyst", "producer", "expert", "specialist", "strategist",
    "chefredakteur", "chefredakteurin", "redakteur", "redakteurin", "autorin", "korrespondent",
    "korrespondentin", "reporterin", "periodista", "redactor", "redactora", "journaliste",
    "rédacteur", "rédactrice", "giornalista", "redattore", "dziennikarz", "redaktor",
))  # fmt: skip
_DATE_LINE = 160  # characters a line holding a date may have to be a date line, not a sentence
_CLOSE = 10  # lines under the title that are its own (a byline, a date line), not a teaser's
# Share of an <h1>'s words the <title> holds for it to say the title (it may add a subtitle).
_SAYS = 0.5
_AFTER_TITLE = 60  # text nodes after the title a date line may be in
_BEFORE_TITLE = 8  # ... and before it (a kicker's date above the title)
_LONGEST = 300  # characters of a description or author kept
_DIGITS = re.compile(r"\d\d")
_INLINE = frozenset((
    "a", "abbr", "b", "cite", "code", "del", "em", "font", "i", "ins", "mark", "q", "s", "small",
    "span", "strong", "sub", "sup", "time", "u",
))  # fmt: skip
_LANGUAGE = re.compile(r"[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*")
_AMERICAN = ("en-us", "en")


def read_metadata(root: etree._Element, base: str | None) -> Metadata:
    """The page's `Metadata`, from its tree as parsed (before `webtap.convert._html.clean`).
    ``base``: the URL its links resolve against."""
    found = _Sources(root)
    metas, ld = found.metas, _LinkedData(found.scripts)
    language = _language(root.get("lang") or root.get("xml:lang") or "") or _language(
        _first(_named(metas, _OPEN_GRAPH["language"]), _named(metas, _META["language"]),
               ld.get("language"))
    )  # fmt: skip
    title = _title(found.headings, find_title(root))
    lines = _Lines(title)
    # The reader's date and byline first: where the data says another, the page shows this one.
    given = (
        _date(ld.get("published"), metas, "published")
        or _time_date(found.times, title)
        or _microdata_date(found.microdata(), "datePublished")
    )
    month_first = _american(language)
    seen, close = _seen_date(lines, month_first)
    published = given
    if (
        seen
        and given[:10] != seen
        and (close or not given or _day_off(given, seen))
        # (unless the line is 05/08/2019, which the data reads the other way: the same day)
        and given[:10] != _seen_date(lines, not month_first)[0]
    ):
        published = seen
    modified = _date(ld.get("modified"), metas, "modified") or _microdata_date(
        found.microdata(), "dateModified"
    )
    author = (
        _seen_author(lines)
        or _author(ld.get("author", people=True))
        or _author(_named(metas, _OPEN_GRAPH["author"]))
        or _author(_named(metas, _META["author"]))
        or _microdata_author(found.microdata())
        or _author(ld.get("author"))
    )
    site = _first(_named(metas, _OPEN_GRAPH["site_name"]), ld.site_name(),
                  _named(metas, _META["site_name"]))  # fmt: skip
    description = _first(ld.get("description", _PAGE_RANK),
                         _named(metas, _OPEN_GRAPH["description"]),
                         _named(metas, _META["description"]))  # fmt: skip
    canonical = found.canonical or _absolute(_named(metas, _OPEN_GRAPH["canonical_url"]), None)
    image = _first(_named(metas, _OPEN_GRAPH["image"]), ld.get("image"), found.images) or (
        _microdata_text(found.microdata(), "image")
    )
    return Metadata(
        published=published,
        modified=modified,
        author=author,
        site_name=_clean(site),
        language=language,
        description=_clean(description),
        canonical_url=_absolute(canonical, base),
        image=_absolute(image, base),
    )


class _Sources:
    """What in the tree may say something of the page, gathered in one walk in C over the
    elements that may (``<meta>``, ``<link>``, JSON-LD, ``<time>``, ``<h1>``, ``<h2>``);
    microdata's elements, a last resort, in a second walk only when asked."""

    def __init__(self, root: etree._Element) -> None:
        self.root = root
        self.metas: dict[str, list[str]] = {}
        self.canonical = ""
        self.images: list[str] = []
        self.scripts: list[str] = []
        self.times: list[etree._Element] = []
        self.headings: list[etree._Element] = []
        self._microdata: list[etree._ElementUnicodeResult] | None = None
        for el in root.iter("meta", "link", "script", "time", "h1", "h2"):
            tag = el.tag
            if tag == "script":  # (the most of them)
                # (the type first: the text of a page's scripts is most of its weight)
                kind = el.get("type")
                if kind and kind.strip().lower() == "application/ld+json" and el.text:
                    self.scripts.append(el.text)
            elif tag == "meta":
                _meta(el, self.metas)
            elif tag == "link":
                self._link(el)
            elif tag == "time":
                self.times.append(el)
            else:
                self.headings.append(el)

    def _link(self, el: etree._Element) -> None:
        rel = (el.get("rel") or "").lower().split()
        if "canonical" in rel and not self.canonical:
            self.canonical = (el.get("href") or "").strip()
        elif "image_src" in rel:
            self.images.append((el.get("href") or "").strip())

    def microdata(self) -> list[etree._ElementUnicodeResult]:
        """Every ``itemprop`` of the page, in its order, each knowing its element."""
        if self._microdata is None:
            self._microdata = _ITEMPROPS(self.root)
        return self._microdata


# (The attributes, not their owners: two thirds the cost of ``//*[@itemprop]``, which libxml2
# tests as a predicate on every element, and no element made in Python but those asked for.)
_ITEMPROPS = etree.XPath("//*/@itemprop")


# --- <meta> ------------------------------------------------------------------------------------


def _meta(el: etree._Element, metas: dict[str, list[str]]) -> None:
    content = (el.get("content") or "").strip()
    if not content:
        return
    for attribute in ("property", "name", "itemprop", "http-equiv"):
        name = el.get(attribute)
        if name:
            metas.setdefault(name.strip().lower(), []).append(content)


def _named(metas: dict[str, list[str]], names: tuple[str, ...]) -> list[str]:
    """The values of the first of ``names`` the page gives: every value of a name that may
    be given once per author, else the first."""
    for name in names:
        values = metas.get(name)
        if values:
            return values if name in _LISTED else values[:1]
    return []


def _date(ld_dates: list[str], metas: dict[str, list[str]], field: str) -> str:
    """The first of JSON-LD's, Open Graph's and the other ``<meta>`` dates that reads."""
    for values in (ld_dates, _named(metas, _OPEN_GRAPH[field]), *_each(metas, _META[field])):
        for value in values:
            day = iso_date(value)
            if day:
                return day
    return ""


def _each(metas: dict[str, list[str]], names: tuple[str, ...]) -> Iterator[list[str]]:
    for name in names:
        if name in metas:
            yield metas[name][:1]


# --- JSON-LD -----------------------------------------------------------------------------------


class _LinkedData:
    """The page's JSON-LD objects, the piece's own first (an article's, then a web page's)."""

    def __init__(self, scripts: list[str]) -> None:
        self.objects: list[tuple[int, dict]] = []
        self.dates: dict[str, list[str]] = {"published": [], "modified": []}
        ids: dict[str, dict] = {}
        ranked: list[tuple[int, int, dict]] = []
        for text in scripts:
            value = _loads(text)
            if value is None:  # broken JSON: its dates, at least, as they are written
                for kind, when in re.findall(_LD_DATE, text):
                    self.dates["published" if kind == "Published" else "modified"].append(when)
                continue
            for obj in json_objects(value, others=_OTHER_PIECES):
                if isinstance(obj.get("@id"), str) and len(obj) > 1:
                    ids.setdefault(obj["@id"], obj)
                rank = _rank(obj)
                if rank is not None:
                    ranked.append((rank, len(ranked), obj))
        self.ids = ids
        self.objects = [(rank, obj) for rank, _, obj in sorted(ranked, key=lambda item: item[:2])]

    def get(self, field: str, rank: int = _ANY_RANK, people: bool = False) -> list[str]:
        """The values the objects give ``field``, the piece's first (only objects of ``rank``
        or better: `_rank`); ``people``: not an organisation (a site named as the author of its
        pages, when a byline names a person)."""
        if self.dates.get(field):
            return self.dates[field]
        keys = _LD_KEYS[field]
        for kind, obj in self.objects:
            if kind > rank:
                break
            values = [v for k in keys for v in self._values(obj.get(k), field, people)]
            if values:
                return values
        return []

    def site_name(self) -> list[str]:
        """The publisher's name of the piece or its page, else the web site's."""
        for kind, obj in self.objects:
            if kind > _PAGE_RANK:
                break
            names = self._values(obj.get("publisher") or obj.get("isPartOf"), "site_name")
            if names:
                return names
        for _, obj in self.objects:
            if obj.get("@type") == "WebSite":
                return self._values(obj.get("name"), "site_name")
        return []

    def _values(self, value: object, field: str, people: bool = False) -> list[str]:
        """Text of a JSON-LD value: a string, an object's name (or url, for an image), each
        of a list's; an object that only refers to another (``{"@id": ...}``) is that one."""
        if isinstance(value, str):
            return [value] if value.strip() else []
        if isinstance(value, list):
            return [v for item in value[:10] for v in self._values(item, field, people)][:10]
        if isinstance(value, dict):
            if set(value) <= {"@id", "@type"} and value.get("@id") in self.ids:
                value = self.ids[str(value["@id"])]
            if people and value.get("@type") in ("Organization", "NewsMediaOrganization"):
                return []
            name = value.get("url" if field == "image" else "name")
            if field == "image" and name is None:
                name = value.get("contentUrl")
            return self._values(name, field) if isinstance(name, str | list) else []
        return []


_LD_KEYS = {
    "published": ("datePublished", "dateCreated", "uploadDate"),
    "modified": ("dateModified",),
    "author": ("author", "creator"),
    "description": ("description",),
    "image": ("image", "thumbnailUrl"),
    "language": ("inLanguage",),
}


def _loads(text: str) -> object | None:
    text = text.strip()
    if text.startswith("<!--"):
        text = text[4:].rsplit("-->", 1)[0]
    try:
        return json.loads(text.rstrip(";"), strict=False)
    except ValueError:
        return None


def _rank(obj: dict) -> int | None:
    """0 for an article's object, 1 for a web page's, 2 for another that may speak of the
    page; None for one that does not (a comment, a person, a breadcrumb)."""
    kinds = obj.get("@type")
    if isinstance(kinds, str):
        return _rank_of((kinds,))
    if not isinstance(kinds, list | dict):  # (none, or a number: no type)
        return None
    return _rank_of(tuple(k for k in kinds if isinstance(k, str)))


@functools.lru_cache(maxsize=256)  # (the same few types on every page: Article, Person...)
def _rank_of(names: tuple[str, ...]) -> int | None:
    if any(_ARTICLE.search(kind) for kind in names):
        return 0
    if any(_PAGE.search(kind) for kind in names):
        return 1
    if not names or any(kind in _NOT_THE_PIECE for kind in names):
        return None
    return 2


# --- The tree: <time>, microdata, the date line ------------------------------------------------


def _time_date(times: list[etree._Element], title: etree._Element | None) -> str:
    """The date of the ``<time>`` marked ``pubdate`` or ``datePublished``, else of the first
    in the piece's head (after its title, not in its chrome or comments)."""
    for el in times:
        marked = (
            el.get("pubdate") is not None
            or "datepublished" in (el.get("itemprop") or "").lower()
            or "publish" in (el.get("class") or "").lower()
        )
        if marked:
            day = iso_date(el.get("datetime") or el.text or "")
            if day:
                return day
    if title is None:
        return ""
    near = _near(title)
    for el in times:
        if el.get("datetime") and _in(el, near) and not _aside(el):
            day = iso_date(el.get("datetime") or "")
            if day:
                return day
    return ""


def _microdata_date(props: list[etree._ElementUnicodeResult], name: str) -> str:
    for el in _props(props, name):
        day = iso_date(el.get("content") or el.get("datetime") or plain_text(el))
        if day:
            return day
    return ""


def _microdata_text(props: list[etree._ElementUnicodeResult], name: str) -> list[str]:
    for el in _props(props, name):
        value = el.get("content") or el.get("src") or el.get("href")
        if value:
            return [value]
    return []


def _microdata_author(props: list[etree._ElementUnicodeResult]) -> str:
    for el in _props(props, "author"):
        if not _aside(el):
            named = [p for p in el.iter() if "name" in (p.get("itemprop") or "").split()]
            value = (named[0].get("content") or plain_text(named[0])) if named else ""
            author = _author([value or el.get("content") or plain_text(el)])
            if author:
                return author
    return ""


def _props(props: list[etree._ElementUnicodeResult], name: str) -> Iterator[etree._Element]:
    """The elements whose ``itemprop`` (`_Sources.microdata`) names ``name``, in the page's
    order; not a ``<meta>``, ``<link>`` or ``<script>`` (their values are read with the
    others)."""
    for prop in props:
        if name in prop.split():
            el = prop.getparent()
            if el.tag not in ("meta", "link", "script"):
                yield el


def _seen_date(lines: _Lines, month_first: bool) -> tuple[str, bool]:
    """The date on the line a reader sees by the title: among the text after it (and a little
    before it, in the same block), a short line, not in the page's chrome or comments, and not
    labelled as another date than the publication's (in the line or the two before it); and
    whether the line is close to the title (among the first under it, or above it), where a
    date line is the piece's and not a teaser's further down."""
    for at, text, parent in lines.holding(_DIGITS):
        if len(text) > _DATE_LINE:
            continue
        # (the date first: most lines with digits hold none, and it is cheaper to read than
        # the line's place in the page)
        day = spoken_date(text, month_first)
        if (
            day
            and not _aside(parent, lines.asides)
            and not _in_sentence(parent)
            and not _other_date(text, lines.labels(at))
        ):
            return day, at < _CLOSE or at >= len(lines.after)
    return "", False


def _day_off(given: str, seen: str) -> bool:
    """Whether the date a page's data gives is a day off the one its reader sees: the data's
    time is in another zone (UTC) than the site's, and the reader's day is the page's."""
    first, second = day_number(given), day_number(seen)
    return first is not None and second is not None and abs(first - second) == 1


def _other_date(line: str, labels: list[str]) -> bool:
    """Whether the date in ``line`` is labelled as not the publication's: by the words
    before its first digit, or by one of the short ``labels`` before the line."""
    digit = _DIGITS.search(line)
    before = line[: digit.start()] if digit else line
    texts = [text.lower() for text in (before, *labels) if text]
    return any(label in text for text in texts for label in _OTHER_DATE)


def _in_sentence(el: etree._Element) -> bool:
    """Whether ``el``'s text is a phrase of a paragraph's sentences (a date the piece speaks
    of: "valid until 3 December"), not a line of its own: its ``<p>`` is longer than a line;
    or of a figure's caption (the photograph's date)."""
    for node in _upwards(el):
        if node.tag in ("figure", "figcaption"):
            return True
        if node.tag == "p":
            return len(plain_text(node)) > _DATE_LINE
        if node.tag not in _INLINE:
            return False
    return False


def _seen_author(lines: _Lines) -> str:
    """The names on a byline by the title: read in the line that holds the byline's word ("By
    Jane Doe and Max Muster", "Von Max Muster", "Posted on 3 May 2024 by Jo Bloggs"); else,
    close to the title and before such a line, a line of names alone that the markup names as
    the author's (``<span class="author">``, ``rel="author"``, hCard's ``fn``) or that follows
    the byline's word alone ("Posted by" | "Jo Bloggs")."""
    found, names = len(lines.after) + _BEFORE_TITLE, ""
    for at, text, parent in lines.holding(_BY_WORD, _BY_WORD_FOLDED):
        names = _byline(text, parent, lines)
        if names:
            found = at
            break
    named = False  # the line before is the byline's word alone: names follow
    for at, written, parent in lines.close():
        if at >= found:
            break
        text = _line(written)
        if _BY_END.search(text):  # "By", "Posted by", "Written By"
            named = True
            continue
        if not _BY_START.sub("", text[:_NAME_LINE])[:1].isupper():
            named = False
            continue  # (no name's line: names are capitalised)
        marked = _marked_author(parent)
        line = text if named else ""
        if marked is not None:
            # Its whole text, unless it holds more than names (a box of the author's).
            whole = _line_of(marked)
            line = whole if len(whole) <= _NAME_LINE else text
        if line and len(line) <= _NAME_LINE and not _aside(parent, lines.asides):
            seen = _names(_BY_START.sub("", line), whole=True)
            if seen:
                return seen if marked is None else _author([seen, *_co_authors(lines, at, marked)])
        named = False
    return names


def _co_authors(lines: _Lines, at: int, first: etree._Element) -> Iterator[str]:
    """The names in the lines after line ``at`` (of ``first``'s names) that the markup
    names as the author's too, each in an element of its own like ``first``, joined by ","
    or "and"."""
    for written, parent in lines.after[at + 1 : at + 1 + _NAME_LINES]:
        text = _line(written)
        if text.strip(" ,&").lower() in ("", *_JOINERS):
            continue
        marked = _marked_author(parent)
        if marked is None or marked is first or _kind(marked) != _kind(first):
            return  # (the publication's name, the author's role: marked otherwise, or not)
        names = _names(_BY_START.sub("", text), whole=True)
        if not names:
            return
        yield names


def _kind(el: etree._Element) -> tuple[str, str | None]:
    return el.tag, el.get("class")


def _byline(text: str, parent: etree._Element, lines: _Lines) -> str:
    """The names of a byline in ``text`` by its word, or ""."""
    if len(text) > _DATE_LINE or not (_BYLINE.search(text) or _BY_ALONE.match(text)):
        return ""
    if _in_sentence(parent):  # "... according to data by AM Best."
        return ""
    block = _block(parent)
    if block.tag in _HEADINGS and not re.search(_BYLINE_CLASS, block.get("class") or "", re.I):
        return ""  # "Von Risiken und Nebenwirkungen": a heading, unless named a byline
    line = " ".join(" ".join(block.itertext()).split())
    found = _BYLINE.search(line) if len(line) <= _DATE_LINE else _BYLINE.search(text)
    if found and not _aside(parent, lines.asides):
        return _names(found["names"])
    return ""


def _marked_author(el: etree._Element) -> etree._Element | None:
    """The element that the markup names as holding ``el``'s author's name: ``el`` or one
    of the few around it up to the piece's block, with a class or id naming the author,
    ``rel="author"`` or ``itemprop="author"``. (Its whole text is the name: a name's last
    letter may be set in an element of its own.)"""
    for node in islice(_upwards(el), _AUTHOR_DEPTH):
        if node.tag in ("article", "main", "body", "header") or node.tag in _HEADINGS:
            return None
        names = f"{node.get('class') or ''} {node.get('id') or ''} {node.get('rel') or ''}"
        if node.get("itemprop") == "author" or (
            _AUTHOR_CLASS.search(names)
            and any(_AUTHOR_CLASS.search(n) for n in names.split() if not n.startswith(_NOT_A))
        ):
            return node
    return None


# What every byline holds (`_BYLINE`, `_BY_ALONE`): its word, a word of its own (not "di" in
# "edit", nor "by" in "nearby"), perhaps in another; a test cheaper than the byline's pattern,
# which nine lines in ten that hold the letters fail. (Each word's first letter first, then
# the boundary before it looked back at: sre scans for the first letters at C speed.) In lower
# case, for ASCII text (where lower() is what re.I folds: twice as fast), and folded.
_BY_WORDS = (
    r"b(?<=\bb)y\b|v(?<=\bv)on\b|p(?<=\bp)(?:ar|or|rzez)\b|d(?<=\bd)(?:i|oor)\b"
    r"|a(?<=\ba)(?:v|utor(?:ka)?|uthor)\b|t(?<=\bt)exte?\s*:"
)
_BY_WORD = re.compile(_BY_WORDS)
_BY_WORD_FOLDED = re.compile(_BY_WORDS, re.I)
_BY_ALONE = re.compile(r"\s*(?:by|von|par|por|door|przez|autor(?:ka)?)\s*:?\s*$", re.I)
# A line that is the byline's word, alone or after a verb ("By", "Posted by", "Veröffentlicht
# von"): names follow. ("Sort by", "Defined by" are no byline's.)
_BY_END = re.compile(
    r"^\s*(?:(?:posted|written|published|geschrieben|verfasst|veröffentlicht|erstellt|publié"
    r"|écrit|publicado|escrito|pubblicato|scritto|opublikowano|napisane)\s+)?"
    r"(?:by|von|par|por|da|door|przez|autor(?:ka)?|author)\s*:?\s*$",
    re.I,
)
# A line of names that starts with it ("By: Jo Bloggs").
_BY_START = re.compile(r"^(?:by|von|par|por|door|przez|autor(?:ka)?|author|text)\s*:?\s+", re.I)
# A class or id naming a byline's names: a token, or a token's part between dashes
# ("author", "article-author__name", "post_author_name", "creator-name", "byline__author",
# "article-reporter"); hCard's "fn" (a formatted name) and ``rel="author"``.
_AUTHOR_CLASS = re.compile(
    r"(?:^|[\s_-])(?:author|byline|creator|reporter|writer)s?(?:[\s_-]|$)|(?:^|\s)fn(?:\s|$)", re.I
)
_NOT_A = ("has-", "with-", "no-", "is-")  # a layout's name for a block holding one ("has-byline")
_NAME_LINES = 8  # lines after a byline's first name that may hold more names
_AUTHOR_DEPTH = 4  # the element and its ancestors a byline's class may be on
_NAME_LINE = 80  # characters of a line of names (with a role or a date after them)


def _block(el: etree._Element) -> etree._Element:
    """The line ``el`` is a part of: its nearest ancestor that is not inline text."""
    for node in _upwards(el):
        if node.tag not in _INLINE:
            return node
    return el


def _names(text: str, whole: bool = False) -> str:
    """The people's names a byline begins with, joined by ", ": capitalised words, joined by
    "," or "and" (in the page's language); the first other word (a date, a role, "on") ends
    them. ``whole``: the line is nothing but names, perhaps with a date, a role or a mark
    after them ("Jane Doe | 3 May"), not a phrase that begins with a capital ("Follow the
    author of this article")."""
    names: list[list[str]] = [[]]
    words = re.findall(r"[^\s,&]+|[,&]", text)
    ended = False  # by a word that ends a byline's names (a date, a role, "on")
    consumed = False  # every word of the text
    for at, word in enumerate(words):
        lower = word.lower()
        bare = lower.strip(".,:;")
        if bare in _DATE_ARTICLES and at + 1 < len(words) and words[at + 1][:1].isdigit():
            ended = True
            break  # "Par Kab Niang Le 17/02/2020": the date's article
        if lower in _JOINERS:
            if not names[-1]:
                if len(names) > 1 and words[at - 1] in _JOINERS:
                    continue  # ", and"
                break
            names.append([])
        elif bare in MONTHS and not (bare == "may" and len(names[-1]) == 1):
            ended = True
            break  # a date ("Tom May" is a name)
        elif bare in _AFTER_NAMES:
            ended = True
            break  # "By Jo Bloggs On 3 May", "Von Max Muster Am 3. Mai"
        elif bare in _ROLES and (len(names[-1]) > 1 or len(names) > 1):
            ended = True
            if len(names) > 1 and names[-1]:
                names.pop()  # "Tom Krisher, AP Auto Writer": the role's first words
            break  # "Meg James Staff Writer", "Dan Burstein, Senior Director"
        elif "/" in word:
            break  # "PAP/ Jan Kowalski": a picture agency's credit
        elif word[:1].isupper() or (lower in _PARTICLES and names[-1]):
            word = word.rstrip(",;:")
            if len(word) > 3 and word.endswith(".") and not word[-2].isupper():
                word = word[:-1]  # a sentence's full stop, not an initial's ("J.O.", "Ph.D.")
            names[-1].append(word)
            if len(names[-1]) > _NAME_WORDS:
                return ""
        else:
            ended = not word[:1].isalpha()  # a date's digits, a mark ("|", "-", "·")
            break
    else:
        ended = consumed = True
    if whole and not (ended and (len(names) > 1 or len(names[0]) > 1 or consumed)):
        return ""  # (a word alone is a name when it is the whole line: "Newsdesk", "admin")
    if whole and any(w.lower().strip(".,:;") in _NOT_NAMES for name in names for w in name):
        return ""
    if len(names[0]) > 1:  # "Von Markus Balser, Berlin": a place, not another's name
        names = [names[0], *(name for name in names[1:] if len(name) > 1)]
    return _author([" ".join(name) for name in names if name])


class _Lines:
    """The text by the page's title, nearest first (after it, then before it in its block),
    each as written with the element it is the text or the tail of (the caller asks `_aside`
    of those it may take). The lines after the title walked at once (the date line's reader
    and the byline's go through them all on most pages); the text before the title only when
    a reader of them gets there."""

    def __init__(self, title: etree._Element | None) -> None:
        self.title = title
        self.after = list(islice(_after(title), _AFTER_TITLE)) if title is not None else []
        self._before: list[tuple[str, etree._Element]] | None = None
        # The lines after the title that may be a date line or a byline (`_short`), each after
        # a NUL (no text holds one), and in lower case.
        self._joined: str | None = None
        self._lower = ""
        self.asides: dict[etree._Element, bool] = {}  # `_aside`'s answers

    def holding(
        self, pattern: re.Pattern[str], folded: re.Pattern[str] | None = None
    ) -> Iterator[tuple[int, str, etree._Element]]:
        """The lines that hold ``pattern``, nearest first, each with its place among them all
        and its text, spaces collapsed (a pattern that a line's spaces do not change the
        answer of). ``folded``: ``pattern`` for any case, where ``pattern`` is in lower case
        and looks in the text in lower case (where lower() is what re.I folds: faster).
        (The lines after the title in one search each, not a search of each line: most hold
        none.)"""
        if self._joined is None:
            short = [w if len(w) <= _DATE_LINE else _short(w) for w, _ in self.after]
            self._joined = "\0" + "\0".join(short)
        text = self._joined
        if folded is not None:
            self._lower = self._lower or text.lower()
            if len(self._lower) == len(text) and "ı" not in self._lower:
                text = self._lower
            else:  # ("İ" is two characters in lower case, and re.I takes "ı" for "i")
                pattern = folded
        at, start = -1, 0
        while (found := pattern.search(text, start)) is not None:
            at += text.count("\0", start, found.start())
            written, el = self.after[at]
            yield at, _line(written), el
            start = text.find("\0", found.end())  # the next line
            if start < 0:
                break
        for at, (written, el) in enumerate(self.before(), len(self.after)):
            if (folded or pattern).search(written):
                yield at, _line(written), el

    def close(self) -> Iterator[tuple[int, str, etree._Element]]:
        """The lines close to the title (`_CLOSE` after it, then those before it in its
        block), each with its place among them all, as written."""
        for at, (written, el) in enumerate(self.after[:_CLOSE]):
            yield at, written, el
        for at, (written, el) in enumerate(self.before(), len(self.after)):
            yield at, written, el

    def before(self) -> list[tuple[str, etree._Element]]:
        if self._before is None:
            self._before = _before(self.title, _near(self.title)) if self.title is not None else []
        return self._before

    def labels(self, at: int) -> list[str]:
        """The texts of the two lines before line ``at`` that are short enough to be a label
        of it (`_LABEL`), else ``""``."""
        seen = self.after if at <= len(self.after) else [*self.after, *self.before()]
        texts = [_line(written) for written, _ in seen[max(at - 2, 0) : at]]
        return ["", "", *(text if len(text) <= _LABEL else "" for text in texts)][-2:]


def _short(written: str) -> str:
    """A line as written if it may be a date line or a byline (no longer than `_DATE_LINE`
    once its spaces are collapsed), else ``""``: a paragraph is searched for neither."""
    # (A paragraph's start says it is longer, collapsed, than a line: its whole text is not.)
    text = _line(written[: 2 * _DATE_LINE])
    if len(text) <= _DATE_LINE and len(written) > 2 * _DATE_LINE:
        text = _line(written)
    return text if len(text) <= _DATE_LINE else ""


def _line(written: str) -> str:
    """A text as a reader sees it: its spaces collapsed."""
    return " ".join(written.split())


def _after(el: etree._Element) -> Iterator[tuple[str, etree._Element]]:
    """The shown texts after ``el`` (not in it), in the page's order."""
    node: etree._Element | None = el
    while node is not None:
        tail = node.tail
        if tail and not tail.isspace():
            yield tail, node
        for sibling in node.itersiblings():
            yield from _shown(sibling)
        node = node.getparent()


def _before(title: etree._Element, block: etree._Element) -> list[tuple[str, etree._Element]]:
    """The last shown texts of ``block`` before its ``title`` (`_BEFORE_TITLE`), nearest
    first."""
    return list(reversed(deque(_shown(block, title), maxlen=_BEFORE_TITLE)))


def _shown(
    top: etree._Element, stop: etree._Element | None = None
) -> Iterator[tuple[str, etree._Element]]:
    """The shown texts in ``top`` as written, in the page's order, each with the element it is
    the text or the tail of: up to ``stop`` (not its text nor what follows), else to ``top``'s
    own tail. (Each element once, in C's order, its tail kept until the elements in it are
    read: a third cheaper than `etree.iterwalk`, which stops at each element twice; as it, no
    comment nor its tail.)"""
    entered: list[etree._Element] = []  # the elements whose tails are still to come
    for inner in top.iter(etree.Element):
        parent = inner.getparent()
        while entered and entered[-1] is not parent:
            done = entered.pop()
            tail = done.tail
            if tail and not tail.isspace():
                yield tail, done
        if inner is stop:
            return
        text = inner.text
        if text and not text.isspace() and inner.tag not in _UNSHOWN:
            yield text, inner
        entered.append(inner)
    while entered:
        done = entered.pop()
        tail = done.tail
        if tail and not tail.isspace():
            yield tail, done


def _line_of(block: etree._Element) -> str:
    """The shown text of ``block`` as one line: its blocks' texts parted by a space, its
    inline elements' joined as they stand ("Molly Woo<span>d</span>" is "Molly Wood")."""
    parts: list[str] = []
    for event, node in etree.iterwalk(block, events=("start", "end")):
        if not isinstance(node.tag, str) or node.tag in _UNSHOWN:
            text = node.tail if event == "end" else None
        elif event == "start":
            text = node.text
        else:
            text = node.tail if node is not block else None
        if node.tag not in _INLINE:
            parts.append(" ")
        if text:
            parts.append(text)
    return " ".join("".join(parts).split())


_UNSHOWN = frozenset(("script", "style", "noscript", "template"))


def _title(headings: list[etree._Element], said: str) -> etree._Element | None:
    """The piece's title heading: the first ``<h1>`` with text in its article, else in its
    ``<main>``, else in the page; unless that ``<h1>`` does not say the page's title (``said``:
    its ``<title>``: half its words are not the title's) and another heading does (the
    site's name in the only ``<h1>``, the post's title in an ``<h2>``; a page with no
    ``<h1>`` at all).

    Not the converter's title, on purpose: `webtap.convert._html.find_title` and ``first_h1``
    give the document's title as text (its ``<title>``, else the first ``<h1>`` left by
    ``clean``), and `webtap.convert._title.title_heading` the heading put before the main
    content, judged by the content's first block, found long after this is read. Here it is
    an element of the tree as parsed, where a reader's eye meets the piece's date line and
    byline: an article's ``<h1>`` rather than a site's name in an ``<h1>`` above it."""
    shown = [el for el in headings if el.tag == "h1" and plain_text(el)]
    first = next(
        (el for container in ("article", "main") for el in shown
         if any(True for _ in el.iterancestors(container))),
        shown[0] if shown else None,
    )  # fmt: skip
    if said and (first is None or heading_saying((first,), said, _SAYS) is None):
        saying = heading_saying(headings, said)
        return first if saying is None else saying
    return first


def _near(title: etree._Element) -> etree._Element:
    """The block the title heads: its article, else its parent's parent."""
    for ancestor in title.iterancestors("article"):
        return ancestor
    parent = title.getparent()
    grand = parent.getparent() if parent is not None else None
    if grand is None or grand.tag in ("body", "html"):
        return parent if parent is not None else title
    return grand


def _upwards(el: etree._Element) -> Iterator[etree._Element]:
    """``el`` and its ancestors, nearest first, each made as the caller gets to it (the
    callers stop a few levels up: a tuple of them all would make each to the root)."""
    return chain((el,), el.iterancestors())


def _in(el: etree._Element, block: etree._Element) -> bool:
    return el is block or any(a is block for a in el.iterancestors())


def _aside(el: etree._Element, known: dict[etree._Element, bool] | None = None) -> bool:
    """Whether ``el`` is in the page's chrome or after the piece (a footer, comments,
    related links), by its tags or its classes. ``known``: the answers for elements asked
    before (an ancestor's holds for the elements under it), kept by the caller."""
    asked: list[etree._Element] = []
    answer = False
    for node in _upwards(el):
        if known is not None and node in known:
            answer = known[node]
            break
        asked.append(node)
        tag = node.tag
        if tag in ("body", "html"):  # its classes name the page's layout, not a part
            break
        if tag in ("footer", "aside", "nav"):
            answer = True
            break
        names = f"{node.get('class') or ''} {node.get('id') or ''}"
        if names != " " and _names_aside(names):
            answer = True
            break
        if tag in ("article", "main"):  # the piece itself: what holds it is not asked
            break
    if known is not None:
        known.update(dict.fromkeys(asked, answer))
    return answer


def _names_aside(names: str) -> bool:
    """Whether classes and ids (``names``) name a part of the page that is not the piece
    (`_ASIDE`). (Most name none of its words: looking for them in the lower case names spares
    the pattern's backtracking over every token. Only ASCII names: there lower case is what
    the pattern's case folding matches, not so for "ſ" or "ı".)"""
    if names.isascii() and not _ASIDE_WORDS.search(names.lower()):
        return False
    return re.search(_ASIDE, names, re.I) is not None


# --- Values ------------------------------------------------------------------------------------


def _first(*sources: list[str]) -> list[str]:
    for values in sources:
        kept = [v for v in values if v and v.strip()]
        if kept:
            return kept
    return []


def _clean(values: list[str], longest: int = _LONGEST) -> str:
    text = " ".join(values[0].split()) if values else ""
    return text if len(text) <= longest else text[: longest - 1].rstrip() + "…"


def _author(values: list[str]) -> str:
    """Authors' names, each once, joined by ", "; not a URL (``article:author`` often is a
    profile's), an e-mail address or a handle."""
    names: list[str] = []
    for value in values:
        for name in re.split(r"\s*(?:;|\||\band\b|\bund\b|\bet\b|\bi\b|&)\s*", value):
            name = " ".join(name.split()).strip(" ,")
            name = _NAMED.sub("", name)
            if not name or "://" in name or "@" in name or name.startswith("www."):
                continue
            if len(name) > 80 or not any(c.isalpha() for c in name):
                continue
            if name.isupper() and " " in name:  # "LISA MASCARO": the byline's type, not the name
                name = " ".join(map(_capitalised, name.split()))
            if name not in names:
                names.append(name)
    return _clean([", ".join(names)]) if names else ""


def _capitalised(word: str) -> str:
    """A word of a name in capitals, as the name is written: "MASCARO" is "Mascaro"; an
    initial, "AP" or "BBC" (two letters, or three without a vowel) stays."""
    if len(word) <= 2 or (len(word) == 3 and not _VOWEL.search(word)):
        return word
    return word.title()


def _language(value: str | list[str]) -> str:
    text = (value[0] if isinstance(value, list) and value else value) or ""
    text = str(text).strip().replace("_", "-").split(",")[0].strip()
    return text if _LANGUAGE.fullmatch(text) else ""


def _american(language: str | list[str]) -> bool:
    text = _language(language).lower()
    return text in _AMERICAN


def _absolute(values: str | list[str], base: str | None) -> str:
    text = (values[0] if isinstance(values, list) and values else values) or ""
    text = str(text).strip()
    if not text or text.lower().startswith(("javascript:", "data:")):
        return ""
    if not base or _PLAIN_URL.match(text):
        return text
    try:
        return urljoin(base, text)
    except ValueError:
        return ""


# An absolute URL that `urljoin` gives back as it is (most are): http(s), its host in ASCII,
# no ";" in its path, no empty query or fragment, no space nor control character. (A tenth of
# the cost of joining it.)
_PLAIN_URL = re.compile(
    r"https?://[\w.-]+(?::\d+)?(?:/[^\x00-\x20\x7f?#;]*)?(?:\?[^\x00-\x20\x7f#]+)?"
    r"(?:#[^\x00-\x20\x7f]+)?\Z",
    re.A,
)
