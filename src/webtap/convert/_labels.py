"""Blocks inside the main content that say they are not it: related links set among its
paragraphs or after it, announced by a label ("Related", "Also read:", "Leia também",
"More to explore", ...), and a picture's caption known by its credit ("Foto: dpa").
`webtap.convert._extract` removes them with the rest of the boilerplate inside the
content."""

from __future__ import annotations

import itertools
import re

from lxml import etree

from webtap.convert._boilerplate import LABEL, announces
from webtap.convert._html import plain_text, raw_text
from webtap.convert._prose import ALL, LINK, LINKS, OWN, position
from webtap.convert._writer import HEADINGS

__all__ = [
    "TEASERS", "announced", "captions", "cards", "labelled_sections", "reading_times", "reads_on",
    "teaser_articles", "teaser_lists", "trailing",
]  # fmt: skip

_CARD = 300  # characters of a link card set inside the content ("Related: ...")
_CARD_TAGS = ("div", "aside", "section", "figure", "li", "p")
_LABEL_ENDS = frozenset(":»|-–—>")  # what ends a label set apart ("Also read:")
_SUBHEADINGS = ("h2", "h3", "h4", "h5", "h6")
# A link that only says to read the rest, in the languages pages are written in (its words,
# lower-cased, without the marks around them: "Weiter lesen »", "...mehr").
_READ_ON = frozenset((
    "read more", "read on", "continue reading", "keep reading", "more", "weiter lesen",
    "weiterlesen", "mehr lesen", "mehr", "weiter", "zum artikel", "leia mais", "continue lendo",
    "lire la suite", "lire plus", "la suite", "leer más", "seguir leyendo", "sigue leyendo",
    "leggi tutto", "continua a leggere", "czytaj dalej", "czytaj więcej", "lees meer",
    "verder lezen", "lue lisää",
))  # fmt: skip
TEASERS = 3  # links that only say to read on to other pages that make a block a list of them
_READ_TIME = 60  # characters of a line estimating the reading time
# "5 min read", "Lesezeit: 2 Minuten", "11 minut czytania", "Temps de lecture : 4 min".
_MINUTES = r"\d+\s*(?:min|mins|minute|minutes|minuten|minut|minuty|minutos|minuti|minuut)\.?"
_READ = (
    r"(?:estimated\s+)?(?:reading|read)\s+time|lesezeit|lesedauer|temps\s+de\s+lecture"
    r"|tiempo\s+de\s+lectura|tempo\s+de\s+leitura|tempo\s+di\s+lettura|czas\s+czytania|leestijd"
)
# Patterns few blocks need are strings, compiled by `re`'s cache with the first block that
# may match (each costs the import a millisecond or more, on every call of a tool): a line
# with a number of minutes, a block naming a picture's credit (`_CREDIT_HINTS`).
_READING_TIME = (
    rf"^\W{{0,3}}(?:(?:{_READ})\s*:?\s*(?:ca\.?\s*|about\s+)?{_MINUTES}"
    rf"|(?:ca\.?\s*)?{_MINUTES}\s*(?:read|reading|reading\s+time|lesezeit|lesen|czytania"
    r"|de\s+lecture|de\s+lectura|de\s+leitura|di\s+lettura|leestijd))\W{0,3}$"
)  # (re.IGNORECASE)
_CAPTION = 250  # characters of a picture's caption with its credit
_BOX = 300  # characters of a picture's box: the picture, its caption and its credit
_PICTURES = ("img", "picture")
# How pages credit a picture, in the languages they are written in: a label before the
# credit ("Foto: dpa", "Photograph by Jane Roe", "© Reuters") or one closing a caption
# ("The mayor at the pier. Photo: AFP", "(Jane Roe / iStock.com)"). A label alone says
# little (a docs page's "Image:" field): the credit must stand by a picture.
_CREDIT_WORDS = (
    "photo|photos|photograph|photography|foto|fotos|fotografie|fotografía|bild|bilder|abbildung"
    "|image|images|imagen|credit|credits|crédit|crédits|kuva|zdjęcie"
)
_CREDIT = (
    rf"^[\W_]{{0,3}}(?:©|\(c\)|copyright\b|fot\.|(?:{_CREDIT_WORDS})(?:\s+(?:photos?|credit))?\s*:"
    r"|(?:photo|photos|photograph|photographed|foto|fotos|bild|bilder|image)\s+(?:by|von|de|di|par)\b)"
    rf"|(?:©|\b(?:{_CREDIT_WORDS}|fot\.?)\s*:)\s*[^!?:]{{1,60}}$"
    r"|\((?:[^()]{1,40}/\s*)?(?:istock|getty|shutterstock|dpa|afp|reuters|imago|picture.alliance"
    r"|adobe.?stock|unsplash|pixabay|fotolia|depositphotos|epa|keystone)\b[^()]{0,30}\)[\W_]{0,3}$"
)  # (re.IGNORECASE)
# Every credit `_CREDIT` finds holds one of these (lower-cased), or "(" and an agency's name.
_CREDIT_HINTS = (
    "©", "(c)", "copyright", "fot", "photo", "bild", "image", "credit", "crédit", "kuva", "zdjęcie",
)  # fmt: skip
_AGENCIES = (
    "istock", "getty", "shutterstock", "dpa", "afp", "reuters", "imago", "picture", "adobe",
    "unsplash", "pixabay", "depositphotos", "epa", "keystone",
)  # fmt: skip


_BOLD = ("b", "strong")


def cards(
    top: etree._Element, stats: dict[etree._Element, list], gone: set[etree._Element]
) -> list[etree._Element]:
    """Small link cards inside the content, anywhere in it, that say they are not the article
    ("Related", "Read also": a teaser set between two paragraphs): a block of at most
    ``_CARD`` characters, a fair share of them in links, that starts with such a label."""
    found = []
    for el in top.iterdescendants(_CARD_TAGS):
        counters = stats.get(el)
        if counters is None or el in gone or counters[ALL] > _CARD or not announces(el):
            continue
        if counters[LINKS]:
            if counters[LINK] * 4 >= counters[ALL] and (el.tag != "p" or _label_apart(el)):
                found.append(el)
            continue
        # The label in a block of its own ("<p><b>Also read:</b></p>"), the link after it.
        after = el.getnext()
        linked = stats.get(after) if after is not None else None
        if (
            counters[ALL] <= LABEL
            and _label_apart(el, whole=True)
            and linked is not None
            and after not in gone
            and 0 < linked[ALL] <= _CARD
            and linked[LINK] == linked[ALL]
        ):
            found.extend((el, after))
    return found


def _label_apart(paragraph: etree._Element, whole: bool = False) -> bool:
    """Whether a paragraph's opening label stands apart from a sentence: set in a tag of its
    own (``<b>Related</b>``, a "Read more" button) or closed by a colon or a mark ("Also
    read: <a>"); "Read more about <a>...</a>" is a sentence. With ``whole``, the label is
    all the paragraph says ("Also read:", "Related")."""
    if whole:
        text = plain_text(paragraph)
        return bool(text) and (text[-1] in _LABEL_ENDS or text.count(" ") < 3)
    text = (paragraph.text or "").strip()
    return not text or text[-1] in _LABEL_ENDS


def announced(
    top: etree._Element, stats: dict[etree._Element, list], gone: set[etree._Element]
) -> list[etree._Element]:
    """The block in the content's second half that announces related links ("Related posts",
    "Leia também", ...) and, when it is only a label (a heading, a short paragraph), the
    link-dense blocks after it; ``gone``: children already on their way out, not counted."""
    children = [el for el in top.iterchildren("*") if el not in gone]
    for i, el in enumerate(children):
        if i < len(children) // 2 or not announces(el):
            continue
        found = [el]
        counters = stats.get(el)
        if el.tag in HEADINGS or (counters is not None and counters[ALL] <= LABEL):
            for after in children[i + 1 :]:
                counters = stats.get(after)
                if counters is not None and counters[LINK] * 2 < counters[ALL]:
                    break
                found.append(after)
        return found
    return []


def labelled_sections(
    top: etree._Element,
    stats: dict[etree._Element, list],
    gone: set[etree._Element],
    body: etree._Element | None = None,
) -> list[etree._Element]:
    """Sections deeper in the content's second half that a heading announces as something
    else ("You may also like", "Recently viewed", "Czytaj także") and that are mostly links:
    a product's shelf of other products, a story's list of other stories. The section is the
    largest block that starts with the heading; prose under such a heading (a review headed
    "Comments") stays. A label in a block of its own (a section's header, a divider) announces
    the link-dense blocks after it (`_after_label`). ``body``: the block found as the
    article's body inside ``top`` (a page of sections): what comes after it is past the
    article, wherever it stands in the page."""
    headings = [h for h in (*_subheadings(top), *_bold_labels(top)) if announces(h)]
    if not headings:
        return []
    total = len(raw_text(top))
    found = []
    for heading in headings:
        section = heading
        parent = section.getparent()
        while parent is not None and parent is not top and _starts(parent, section):
            section, parent = parent, parent.getparent()
        if any(el in gone for el in section.iterancestors()) or (
            _before(top, section) * 2 < total and not _past(section, body)
        ):
            continue
        counters = stats.get(section)
        if section is heading or (counters is not None and counters[ALL] <= LABEL):
            found.extend(_after_label(top, heading, stats))
        elif counters is not None and _linked(section, counters) * 2 >= counters[ALL]:
            found.append(section)
    return found


def _past(el: etree._Element, body: etree._Element | None) -> bool:
    """Whether ``el`` comes after ``body`` ends, in document order."""
    if body is None or body is el or body in el.iterancestors() or el in body.iterancestors():
        return False
    return position(el) > position(body)


def _bold_labels(top: etree._Element) -> list[etree._Element]:
    """Paragraphs that are a short label set in bold and nothing else (``<p><strong>Read
    also:</strong></p>``): a heading in all but its tag."""
    found = []
    for p in top.iterdescendants("p"):
        if (
            len(p) == 1
            and p[0].tag in _BOLD
            and not (p.text or "").strip()
            and not (p[0].tail or "").strip()
        ):
            label = plain_text(p[0])
            if label and len(label) <= LABEL:
                found.append(p)
    return found


def _after_label(
    top: etree._Element, heading: etree._Element, stats: dict[etree._Element, list]
) -> list[etree._Element]:
    """The block holding only a label (the heading, its header, a divider around it) and the
    blocks right after it that are mostly links or link cards; nothing when none follows."""
    label = heading
    parent = label.getparent()
    while parent is not None and parent is not top:
        counters = stats.get(parent)
        if counters is None or counters[ALL] > LABEL:
            break
        label, parent = parent, parent.getparent()
    after = []
    for el in label.itersiblings():
        counters = stats.get(el)
        if counters is None:
            continue
        if _linked(el, counters) * 2 < counters[ALL]:
            break
        after.append(el)
    return [label, *after] if after else []


def _linked(el: etree._Element, counters: list) -> int:
    """Characters of ``el``'s text in links: link text, and the text of cards wrapped whole
    in a link (a teaser's title and excerpt), which the walk does not count as link text,
    or of teasers whose linked title heads an excerpt (`_teasers`)."""
    if counters[LINK] * 2 >= counters[ALL]:
        return counters[LINK]
    links = sum(len(text.strip()) for a in el.iter("a") for text in a.itertext())
    return max(links, _teasers(el))


def _teasers(el: etree._Element) -> int:
    """Characters of the teaser cards in ``el``, when it holds two or more: each the largest
    block holding one heading that links elsewhere (a story's title) and the excerpt, date
    and byline under it."""
    cards = []
    for heading in _subheadings(el):
        if not _links_away(heading):
            continue
        card = heading
        parent = card.getparent()
        while parent is not None and parent is not el and len(_subheadings(parent, 2)) == 1:
            card, parent = parent, parent.getparent()
        cards.append(card)
    if len(cards) < 2:
        return 0
    return sum(len(text.strip()) for card in cards for text in card.itertext())


def _subheadings(el: etree._Element, most: int | None = None) -> list[etree._Element]:
    """The headings below the title's level under ``el``, in document order (the first
    ``most`` of them): lxml's iteration in C, where an XPath went through ``el`` once a
    level."""
    return list(itertools.islice(el.iterdescendants(*_SUBHEADINGS), most))


def _links_away(heading: etree._Element) -> bool:
    """Whether a heading's text is a link: ``<h3><a>`` or ``<a><h3>``."""
    text = raw_text(heading).strip()
    if not text:
        return False
    linked = sum(len(t.strip()) for a in heading.iter("a") for t in a.itertext())
    return linked * 2 >= len(" ".join(text.split())) or any(
        a.tag == "a" for a in heading.iterancestors()
    )


def _starts(parent: etree._Element, child: etree._Element) -> bool:
    """Whether ``child`` is the first thing ``parent`` shows (no text before it)."""
    if (parent.text or "").strip():
        return False
    for el in parent.iterchildren("*"):
        if el is child:
            return True
        if raw_text(el).strip():
            return False
    return False


def _before(top: etree._Element, target: etree._Element) -> int:
    """Characters of text in ``top`` before ``target`` (whitespace included, as in
    ``itertext``)."""
    ancestors = set(target.iterancestors())
    count = 0
    for el in top.iter():
        if el is target:
            break
        count += len(el.text or "")
        if el not in ancestors:
            count += len(el.tail or "")
    return count


def captions(
    top: etree._Element, stats: dict[etree._Element, list], gone: set[etree._Element]
) -> list[etree._Element]:
    """Pictures' captions and credits inside the content: a short block of its own text
    (``_CAPTION`` characters, no nested block) that credits a picture (`_CREDIT`) and
    stands by one, in the picture's box or right after it. The box goes whole (the caption
    beside the credit): the picture is left out of the content, and what is said of it
    goes with it."""
    found: list[etree._Element] = []
    for el in top.iterdescendants():
        counters = stats.get(el)
        if (
            counters is None
            or counters[ALL] > _CAPTION
            or counters[OWN] < counters[ALL]
            or el in gone
            or (found and found[-1] in el.iterancestors())
            or not _credit(raw_text(el))
        ):
            continue
        box = _box(el, top, stats)
        if box is not None:
            found.append(box)
        elif _after_picture(el, top, stats):
            found.append(el)
    return found


def _box(
    el: etree._Element, top: etree._Element, stats: dict[etree._Element, list]
) -> etree._Element | None:
    """The largest block holding ``el`` and a picture with no more than ``_BOX`` characters
    and no heading: the picture's box."""
    box = None
    a: etree._Element | None = el
    while a is not None and a is not top:
        counters = stats.get(a)
        if counters is None or counters[ALL] > _BOX or next(a.iter(*HEADINGS), None) is not None:
            break
        if next(a.iter(*_PICTURES), None) is not None:
            box = a
        a = a.getparent()
    return box


def _after_picture(
    el: etree._Element, top: etree._Element, stats: dict[etree._Element, list]
) -> bool:
    """Whether the first thing before ``el`` that shows anything is a picture without
    text (in its parent, or before a short parent that ``el`` opens)."""
    node = el
    while node is not top:
        for before in node.itersiblings(preceding=True):
            if (before.tail or "").strip():
                return False
            if not isinstance(before.tag, str):
                continue
            if raw_text(before).strip():
                return False
            if before.tag in _PICTURES or next(before.iter(*_PICTURES), None) is not None:
                return True
        parent = node.getparent()
        counters = stats.get(parent) if parent is not None else None
        if parent is None or (parent.text or "").strip() or counters is None:
            return False
        if counters[ALL] > _BOX:
            return False
        node = parent
    return False


def reading_times(top: etree._Element, stats: dict[etree._Element, list]) -> list[etree._Element]:
    """Blocks under ``top`` that only estimate the time the piece takes to read ("5 min
    read", "Lesezeit: 2 Minuten"): what the page says of its length, not what it says."""
    return [
        el
        for el in top.iterdescendants()
        if (counters := stats.get(el)) is not None
        and counters[ALL] <= _READ_TIME
        and _reading_time(raw_text(el))
    ]


def _reading_time(text: str) -> bool:
    """Whether a block's text (as the page has it) only estimates a reading time: every
    estimate names minutes, which the text's spacing cannot part."""
    return "min" in text.lower() and (
        re.match(_READING_TIME, " ".join(text.split()), re.IGNORECASE) is not None
    )


def _credit(text: str) -> bool:
    """Whether a block's text (as the page has it) credits a picture (`_CREDIT`): what every
    credit holds (`_CREDIT_HINTS`), which holds no space, is looked for first."""
    low = text.lower()
    if not any(hint in low for hint in _CREDIT_HINTS) and not (
        "(" in low and any(agency in low for agency in _AGENCIES)
    ):
        return False
    return re.search(_CREDIT, " ".join(text.split()), re.IGNORECASE) is not None


def reads_on(a: etree._Element) -> bool:
    """Whether a link only says to read on ("weiter lesen", "Read more"), to another page."""
    href = (a.get("href") or "").strip()
    if not href or href.startswith(("#", "javascript:")):
        return False
    return _bare(plain_text(a)).lower() in _READ_ON


def _bare(text: str) -> str:
    """``text`` without the marks around its words ("» Weiter lesen «" says "Weiter lesen")."""
    start, end = 0, len(text)
    while start < end and not (text[start].isalnum() or text[start] == "_"):
        start += 1
    while end > start and not (text[end - 1].isalnum() or text[end - 1] == "_"):
        end -= 1
    return text[start:end]


def teaser_lists(top: etree._Element, keep: set[etree._Element]) -> list[etree._Element]:
    """The outermost blocks under ``top``, outside ``keep`` (the content found and its
    ancestors), holding ``TEASERS`` links or more that only say to read on: excerpts of
    other pieces (a column of news beside a piece), each cut short before its link."""
    counts: dict[etree._Element, int] = {}
    for a in top.iter("a"):
        if not reads_on(a):
            continue
        for ancestor in a.iterancestors():
            if ancestor is top or ancestor in keep:
                break
            counts[ancestor] = counts.get(ancestor, 0) + 1
    return [
        el
        for el, count in counts.items()
        if count >= TEASERS and (el.getparent() is top or el.getparent() in keep)
    ]


def teaser_articles(
    top: etree._Element, heading: etree._Element | None, stats: dict[etree._Element, list]
) -> list[etree._Element]:
    """The ``<article>`` elements under ``top`` beside the one holding the page's title
    heading that are mostly links: other pieces' teasers (a tile wrapped in its link), set
    in the piece's column around it (HTML5: each article stands on its own)."""
    own = None if heading is None else next(heading.iterancestors("article"), None)
    if own is None or top not in own.iterancestors():
        return []
    around = {own, *own.iterancestors()}
    found = []
    for el in top.iter("article"):
        if el in around or own in el.iterancestors():
            continue
        counters = stats.get(el)
        if counters is not None and _linked(el, counters) * 2 >= counters[ALL]:
            found.append(el)
    return found


# Tags whose text belongs to the block around them (``clean`` has unwrapped span, font, ...).
_INLINE = frozenset((
    "a", "b", "strong", "em", "i", "code", "kbd", "samp", "tt", "sup", "sub", "q", "s", "del",
    "strike", "br",
))  # fmt: skip
_TRAILING = 3  # headings removed from the content's end at most (a heading over a heading)


def trailing(top: etree._Element, title: etree._Element | None) -> list[etree._Element]:
    """The headings that end the content with nothing under them ("Related posts", "Share
    this:", "The map to save:"): what they headed (a list of stories, a share bar, a map, a
    video) was left out with the boilerplate or is shown by a script, so they head nothing.
    Such a heading is short (``LABEL`` characters: a pull quote set as a heading is a
    sentence of the text) and not a link (a teaser's title says where it leads); the page's
    ``title`` heading stays whatever follows it. An author's line ending in a colon ("See
    more photos:") is a sentence and stays, though the pictures it announces are gone."""
    found: list[etree._Element] = []
    gone: set[etree._Element] = set()
    for _ in range(_TRAILING):
        block = _ending(top, gone)
        if block is None or block is top or block is title or block.tag not in HEADINGS:
            break
        text = len(plain_text(block))
        linked = sum(len(t.strip()) for a in block.iter("a") for t in a.itertext())
        if text > LABEL or linked * 2 > text or any(a.tag == "a" for a in block.iterancestors()):
            break
        found.append(block)
        gone.add(block)
    return found


def _ending(top: etree._Element, gone: set[etree._Element]) -> etree._Element | None:
    """The block whose text ends ``top`` (its last words' nearest ancestor that is no inline
    tag), ``gone`` left aside; None when ``top`` holds no text."""
    el = top
    while True:
        last = None
        for child in reversed(el):
            if (child.tail or "").strip():
                break  # text after the child: ``el``'s own text ends it
            if isinstance(child.tag, str) and child not in gone and _text(child):
                last = child
                break
        if last is None:
            break
        el = last
    if el is top and not _text(top):
        return None
    while el is not top and el.tag in _INLINE:
        el = el.getparent()
    return el


def _text(el: etree._Element) -> bool:
    return any(text.strip() for text in el.itertext())
