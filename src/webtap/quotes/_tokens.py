"""Text as the words a quote is compared by: each word normalised, with its span in the text.

The same reading serves the page and the quote, so that whatever it forgives it forgives on
both sides alike. What it forgives is what it leaves out or maps together:

- everything that is not a word is a separator: spaces and line breaks however many, Markdown
  syntax (emphasis, list and heading marks, table pipes, quote marks), punctuation, quotes and
  dashes of every form, a final full stop;
- a link's destination ``[text](url)``, an HTML tag, are not read at all; an HTML entity is
  read as the character it stands for;
- a word is normalised by NFKC (ligatures, full-width forms, no-break spaces), without the
  invisible characters a word may hide (soft hyphen, zero-width joiners), with one apostrophe
  for ’ ʼ ‘ and one minus for − ‐ – before a number.

What it keeps apart is what carries meaning: every word (a negation is a word: ``don't`` is not
``do``), every number with its separators and sign (``3.5`` is not ``35``, ``−5`` is not ``5``),
and units and currencies, which are words of their own (``%``, ``°``, ``$``, ``€``...).
Han, kana, Thai, Lao, Khmer and Myanmar script, written without spaces between words, are read
one character at a time, so that a quote may start anywhere in a sentence.

Some words of a page are *optional* (:attr:`Words.optional`): a copy may leave them out, and a
quote matches with them or without them: an ordered list's numbers, an image's alt text,
footnote marks such as ``[1]`` and a code fence's language.
"""

from __future__ import annotations

import html
import re
import unicodedata
from bisect import bisect_left
from itertools import accumulate
from typing import NamedTuple

from webtap.quotes._marks import MARKS

__all__ = ["Words", "ellipsis_pieces", "read", "same_word"]

# Scripts written without spaces between words: each character is a word.
_UNSPACED = (
    "\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u2e80-\u2fdf\u3005-\u3007\u3021-\u3029"
    "\u3031-\u3035\u3038-\u303c\u3040-\u30ff\u3100-\u312f\u31a0-\u31ff\u3400-\u4dbf"
    "\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f\U00020000-\U0003134f"
)
# Invisible inside a word: soft hyphen, zero-width space and joiners, word joiner, BOM.
_HIDDEN = "\u00ad\u200b\u200c\u200d\u2060\ufeff"
_APOSTROPHES = "'\u2019\u02bc\u2018"
_MINUSES = "\\-\u2212\u2010\u2011\u2012\u2013"
# Units and currencies: a word each.
_UNITS = "%\u2030\u2031\u00b0\u00b1$\u00a2-\u00a5\u20a0-\u20cf"

_LETTER = f"[^\\W_{_UNSPACED}]"
# A word goes on over letters, combining marks, hidden characters before more of it, a
# separator between digits (3.5, 1,000, 10:30) and an apostrophe before a letter (don't,
# l'eau). Each alternative starts with its character class and looks around only then: the
# scan stays in C's fast loops.
_ON = (
    f"(?:{_LETTER}++|[{MARKS}]++"
    f"|[{_HIDDEN}]++(?=[{_APOSTROPHES}]?{_LETTER})"
    f"|[.,:](?<=\\d[.,:])(?=\\d)"
    f"|[{_APOSTROPHES}](?=[{_HIDDEN}]*{_LETTER}))*+"
)
_WORD = re.compile(
    f"{_LETTER}{_ON}|[{_UNSPACED}{_UNITS}]"
    # a sign when a minus stands right before a number, not after a word or a number
    f"|[{_MINUSES}](?<![\\w.,][{_MINUSES}])(?=\\d){_LETTER}{_ON}"
)

_SPLIT = re.compile(f"({_WORD.pattern})")

# Read as nothing: a Markdown link's destination with the "]" before it, an HTML tag.
_DESTINATION = re.compile(r"\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+\"[^\"]*\")?\)")
# Emphasis inside a word, "fa**t**", is hidden too: the word reads as it shows.
_INNER_EMPHASIS = re.compile(r"(?<=[^\W_])(?:\*{1,3}|~~)(?=[^\W_])")
_TAG = re.compile(r"</?[A-Za-z][\w-]*(?:\s[^<>]*)?/?>")
_CODE = re.compile(r"(`+[^`]*?`+)")
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")

# Optional words: a list item's number, an image's alt text, a footnote mark, a fence's language.
_OPTIONAL = re.compile(
    r"(?m)^[ \t>]*(\d{1,9})[.)](?=[ \t])"
    r"|!\[([^\]\n]*)\]"
    r"|\[(\^?\d{1,4}|\^[^\]\s]{1,32})\](?!\()"  # a footnote mark, not a link's text
    r"|^[ \t]*(?:```|~~~)[ \t]*([^\s`]+)"
)

_ALT = 2  # the group of _OPTIONAL that is an image's alt text
_ORDINAL = re.compile(r"\d[.)][ \t]")  # what a list item's number needs, found fast

# An ellipsis in a quote joins two pieces of one passage: … ... . . . [...] […] (...) (…)
_ELLIPSIS = re.compile(r"[\[(]\s*(?:…|\.(?:\s?\.){2,})\s*[\])]|…|\.(?:\s?\.){2,}")

_NORMAL = str.maketrans(
    {
        **dict.fromkeys(map(ord, _HIDDEN), None),
        **dict.fromkeys(map(ord, _APOSTROPHES), "'"),
        **dict.fromkeys(map(ord, _MINUSES.replace("\\", "")), "-"),
    }
)


class Words(NamedTuple):
    """A text's words: ``cased[i]`` as written (normalised), ``folded[i]`` case-folded, at
    ``starts[i]``:``ends[i]`` in the text; ``optional``: the indices a copy may leave out."""

    cased: list[str]
    folded: list[str]
    starts: list[int]
    ends: list[int]
    optional: frozenset[int]


def read(text: str, *, page: bool = True) -> Words:
    """The words of ``text``, spans into ``text`` itself. ``page``: a page's words, of which an
    image's alt text is optional too; a quote's alt text is words it claims, never left out."""
    scrubbed = _scrub(text)
    # Words and what is between them alternate in the split, so their ends are running sums.
    parts = _SPLIT.split(scrubbed)
    raw = parts[1::2]
    offsets = list(accumulate(map(len, parts)))
    starts, ends = offsets[0:-1:2], offsets[1::2]
    if scrubbed.isascii():
        cased = raw
        folded = [word.lower() for word in raw]
    else:
        cased = [word if word.isascii() else _normal(word) for word in raw]
        folded = [word.casefold() for word in cased]
    return Words(cased, folded, starts, ends, _optional(scrubbed, starts, page))


def _normal(word: str) -> str:
    word = unicodedata.normalize("NFKC", word.translate(_NORMAL))
    return word.replace(" ", "") if " " in word else word


def _scrub(text: str) -> str:
    """``text`` with what is not read blanked out and entities decoded, every character where it
    was: a tag becomes spaces, a link's destination soft hyphens (invisible inside a word), an
    entity its character after soft hyphens, so that a word's span is its span in ``text``."""
    if "](" in text:
        # Hidden, not blank: "[Boeing](url)'s" reads as the one word "Boeing's" it shows.
        text = _DESTINATION.sub(_hide, text)
    if "<" in text:
        text = _blank_tags(text)
    if "*" in text or "~" in text:
        text = _INNER_EMPHASIS.sub(_hide, text)
    if "&" in text:
        text = _ENTITY.sub(_decoded, text)
    return text


def _blank_tags(text: str) -> str:
    """HTML tags blanked out, but not in a code span, where a tag is what the text says."""
    if "`" not in text:
        return _TAG.sub(_blank, text)
    parts = _CODE.split(text)
    parts[::2] = [_TAG.sub(_blank, part) for part in parts[::2]]
    return "".join(parts)


def _blank(match: re.Match[str]) -> str:
    return " " * len(match.group())


def _hide(match: re.Match[str]) -> str:
    return "\u00ad" * len(match.group())


def _decoded(match: re.Match[str]) -> str:
    entity = match.group()
    character = html.unescape(entity)
    if len(character) != 1:  # unknown: left as written
        return entity
    if character.isspace():
        return " " * len(entity)
    return "\u00ad" * (len(entity) - 1) + character


def _optional(scrubbed: str, starts: list[int], page: bool) -> frozenset[int]:
    if not ("[" in scrubbed or "`" in scrubbed or "~" in scrubbed) and not _ORDINAL.search(
        scrubbed
    ):
        return frozenset()
    optional: set[int] = set()
    for match in _OPTIONAL.finditer(scrubbed):
        group = next(g for g in range(1, 5) if match.group(g) is not None)
        if group == _ALT and not page:
            continue
        first = bisect_left(starts, match.start(group))
        last = bisect_left(starts, match.end(group))
        optional.update(range(first, last))
    return frozenset(optional)


def ellipsis_pieces(quote: str) -> list[str]:
    """The pieces of a quote that an ellipsis joins (one piece when there is none), read after
    what is not read is gone (a link's destination may hold "...")."""
    return [piece for piece in _ELLIPSIS.split(_scrub(quote)) if piece.strip()]


def same_word(word: str, there: str, *, first: bool = False) -> bool:
    """The same word as written, case included; for the ``first`` word of a quote or of a piece,
    but its first letter's case."""
    return word == there or (
        first and word[1:] == there[1:] and word[:1].casefold() == there[:1].casefold()
    )
