"""Threads without microdata: the posts of a forum thread or a comment tree found by their form.

Posts a page does not mark (phpBB's ``div.post``, a comment tree's ``tr.athing`` rows, a
board's message rows) are still siblings of one form: the same tag and first class, each a
container holding text. `find_records` finds the group of such siblings holding the most prose
on the page; `webtap.convert._extract` takes it for the content when it outweighs the content
found otherwise: one post out of the thread (the posts hold half as much again), or an item
elsewhere on the page (twice as much: the comments are the page's point, as on a link
aggregator's thread, where the submission is a title and the discussion is the content).
Comment sections are named so (``comment``): their names do not count against them here,
when the records are the comments; a comment section inside a record is not its prose.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from lxml import etree

from webtap.convert._boilerplate import ALWAYS, BY_ID, CONSENT, MAYBE
from webtap.convert._html import drop, head
from webtap.convert._labels import TEASERS, reads_on
from webtap.convert._prose import ALL, GOOD, KIND, LINK, PROSE, ProseCounts

__all__ = ["OUTWEIGH", "Records", "find_records", "records_root", "records_win"]

_MIN_RECORDS = 2
_MIN_PROSE = 400  # characters of prose the records need together
_TOP_SHARE = 0.7  # no record holds more than this share of the group's prose
_CONTAINERS = frozenset(("div", "article", "section", "li", "tr", "table", "dl", "tbody"))
OUTWEIGH = 1.5  # records beat content found in one of them holding this many times its prose
_POINT = 2.0  # ... content found elsewhere, this many times (comments as the page's point)
_NO_CONTENT = 0.3  # ... or, when nothing else was found, this share of the page's prose
_LINKS = 0.35  # records whose text is more than this share links are teasers, not posts
_DATED = 0.6  # share of the records that must show a date (posts are dated)
_HEAD = 400  # characters at a record's start where its date is looked for
# A date or a time as pages show them: 2024-09-11, 11.09.2024, 18:36, "Sep 11", "11. Sep",
# "3 hours ago" and its kin in the languages pages are written in. A numeric date may follow
# a word with no space between (a name and a date in two <span>: "marta28.09.19"). A string,
# compiled by `re`'s cache with the first page holding groups of records, not at import.
_MONTHS = (
    "jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|jän|mär|mai|okt|dez|janv|févr|avr|juin"
    "|juil|août|déc|ene|abr|ago|dic|sty|lut|kwi|maj|cze|lip|sie|wrz|paź|lis|gru|fev|set|out"
    "|gen|mag|giu|lug|ott"
)
_DATE = (
    r"\b\d{4}-\d{2}-\d{2}\b|(?<!\d)\d{1,2}[./]\d{1,2}[./]\d{2,4}\b|\b\d{1,2}:\d{2}\b"
    rf"|\b(?:{_MONTHS})[a-zé]*\.?\s+\d{{1,4}}\b|\b\d{{1,2}}\.?\s+(?:{_MONTHS})"
    r"|\b\d+\s*\w+\s+(?:ago|temu|fa|atrás)\b|\b(?:vor|il y a|hace|há)\s+\d+"
)  # (re.IGNORECASE)


class Records(NamedTuple):
    parent: etree._Element
    members: list[etree._Element]  # in document order
    prose: int


def find_records(page: ProseCounts) -> Records | None:
    """The largest group (by prose) of at least three sibling containers with the same tag
    and first class, each holding text, none holding most of it, mostly outside links."""
    stats = page.stats
    groups: dict[tuple[etree._Element, str, str], list[etree._Element]] = {}
    for el, counters in stats.items():
        if not counters[PROSE] or el.tag not in _CONTAINERS:
            continue
        parent = el.getparent()
        if parent is None:
            continue
        names = (el.get("class") or "").split()
        key = (parent, el.tag, names[0] if names else "")
        members = groups.get(key)
        if members is None:
            groups[key] = [el]
        else:
            members.append(el)
    best: Records | None = None
    for (parent, _tag, _first), members in groups.items():
        if len(members) < _MIN_RECORDS or (parent in stats and stats[parent][KIND] == CONSENT):
            continue
        among = _in_comments(parent, stats)
        held = [_prose(el, stats, among) for el in members]
        prose = sum(held)
        if prose < _MIN_PROSE or (best is not None and prose <= best.prose):
            continue
        if max(held) > _TOP_SHARE * prose:
            continue
        text = sum(stats[el][ALL] for el in members)
        if sum(stats[el][LINK] for el in members) > _LINKS * text:
            continue
        # The counts first; the links' and the dates' words only of a group that may win.
        if any(_teasers(el) for el in members):
            # A column of excerpts of other pieces beside a piece's column is no thread.
            continue
        if not _dated(members):
            continue
        best = Records(parent, members, prose)
    if best is None:
        return None
    order = {id(el): i for i, el in enumerate(best.parent)}
    return best._replace(members=sorted(best.members, key=lambda el: order[id(el)]))


def _in_comments(el: etree._Element, stats: dict[etree._Element, list]) -> bool:
    """Whether ``el`` is or sits in a comment section."""
    return any(
        (counters := stats.get(a)) is not None and counters[KIND] == ALWAYS
        for a in (el, *el.iterancestors())
    )


def _prose(el: etree._Element, stats: dict[etree._Element, list], among: bool) -> int:
    """A record's prose: a comment's counts (``among``: the records sit in a comment section,
    or it is named as one), but a comment section inside a record is not the record's own: a
    page builder's row holding an article's comments is a region of the layout, not a post."""
    counters = stats[el]
    return counters[PROSE] if among or counters[KIND] == ALWAYS else counters[GOOD]


def _dated(members: list[etree._Element]) -> bool:
    """Whether ``_DATED`` of the records show a date at their start; read until that is
    known (a date's pattern costs a record's head tens of microseconds)."""
    need = _DATED * len(members)
    dated = 0
    for i, el in enumerate(members):
        if dated >= need or dated + len(members) - i < need:
            break
        if re.search(_DATE, _head(el), re.IGNORECASE):
            dated += 1
    return dated >= need


def _head(el: etree._Element) -> str:
    """The first characters of an element's text, where a post shows its date."""
    return head(el, _HEAD)


def records_win(
    records: Records, chosen: list[etree._Element] | None, page: ProseCounts, article: bool
) -> bool:
    """Whether the records are the page's content rather than ``chosen`` (None: nothing was
    found): not when the chosen content holds them (an article's own list), nor when they
    are elsewhere on a page that says it is an ``article`` (its comments)."""
    stats = page.stats
    if not chosen:
        consent = [stats[el] for el in page.boilerplate if el in stats]
        total = max((c[PROSE] for c in stats.values()), default=0) - sum(
            c[PROSE] for c in consent if c[KIND] == CONSENT
        )
        return records.prose >= _NO_CONTENT * total
    outer = set(chosen)
    if records.parent in outer or any(a in outer for a in records.parent.iterancestors()):
        # The chosen content holds them: an article's own list, unless they are named as
        # comments and what the content says besides is little (a forum's page wrapper).
        good = sum(stats[el][GOOD] for el in chosen if el in stats)
        return not article and records.prose >= _POINT * good
    prose = sum(stats[el][PROSE] for el in chosen if el in stats)
    members = set(records.members)
    inside = any(
        el is records.parent or any(a in members for a in el.iterancestors()) for el in chosen
    )
    if not inside and article:
        return False
    return records.prose >= (OUTWEIGH if inside else _POINT) * prose


def _teasers(record: etree._Element) -> bool:
    """Whether a record holds ``TEASERS`` links or more that only say to read on ("weiter
    lesen", "Read more") to other pages: a list of excerpts of other pieces, not a post."""
    return sum(1 for a in record.iter("a") if reads_on(a)) >= TEASERS


def records_root(records: Records, page: ProseCounts) -> etree._Element:
    """A new ``<div>`` holding the records, each as a block, without their pictures and the
    link bars named like boilerplate inside them (reply, share: nothing but links; a byline
    stays)."""
    stats = page.stats
    doomed = []
    for member in records.members:
        for el in member.iter():
            counters = stats.get(el)
            if (
                counters is not None
                and counters[KIND] in (MAYBE, BY_ID)
                and counters[LINK] == counters[ALL]
            ):
                doomed.append(el)
    for member in records.members:
        doomed.extend(member.iter("img", "picture", "figcaption"))
    if doomed:
        drop(records.parent, doomed)
    wrapper = etree.Element("div")
    for member in records.members:
        member.tail = None
        if member.tag == "tr":
            for cell in member.iterchildren("td", "th"):
                cell.tag = "div"
        if member.tag in ("tr", "li", "tbody", "dl"):
            member.tag = "div"
        wrapper.append(member)
    return wrapper
