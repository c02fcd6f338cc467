"""For a quote that is not in the text: the nearest passage, and what differs.

The passage is found by votes, not by a sliding window: each word of the quote that occurs in
the text (and is not one of its most common words) votes for where the quote would start if
it were there; the place with most votes, widened a little, is then aligned word by word with
``difflib`` to name what was changed, left out or put in.
"""

from __future__ import annotations

from collections import Counter
from difflib import SequenceMatcher
from typing import Protocol

from webtap.quotes._match import Match
from webtap.quotes._negations import is_negation
from webtap.quotes._tokens import Words, same_word

__all__ = ["Indexed", "nearest"]

_COMMON = 32  # a word found more often than this in the text casts no vote
_SHOWN = 6  # differences named, at most


class Indexed(Protocol):
    """What the nearest passage reads of a text read once (a
    :class:`~webtap.quotes._index.QuoteIndex`, which looks this way up first)."""

    text: str
    words: Words

    def find_words(self, folded: list[str]) -> int | None: ...

    def positions(self) -> dict[str, list[int]]: ...


def nearest(index: Indexed, pieces: list[Words], *, explain: bool = True) -> Match:
    cased = [word for piece in pieces for word in piece.cased]
    folded = [word for piece in pieces for word in piece.folded]
    start = _best_start(index, folded)
    if start is None:
        return Match(False, None, None, None, 0.0, None, ("no word of the quote is in the text",))
    page = index.words
    slack = max(3, len(folded) // 3)
    # The words a copy may leave out are left out of the comparison, so never named.
    window = [
        k
        for k in range(max(0, start - slack), min(len(page.folded), start + len(folded) + slack))
        if k not in page.optional
    ]
    blocks = [
        block
        for block in SequenceMatcher(
            None, folded, [page.folded[k] for k in window], autojunk=False
        ).get_matching_blocks()
        if block.size
    ]
    if not blocks:
        return Match(False, None, None, None, 0.0, None, ("no passage of the text is near it",))
    # The passage runs from the first word matched to the last, and on over as many words as
    # the quote has unmatched at either end (what it changed there, not what it left out).
    head = blocks[0].b - min(blocks[0].a, blocks[0].b)
    tail_left = len(folded) - (blocks[-1].a + blocks[-1].size)
    tail = min(len(window) - 1, blocks[-1].b + blocks[-1].size - 1 + tail_left)
    chosen = window[head : tail + 1]
    matched = sum(
        same_word(cased[block.a + n], page.cased[window[block.b + n]], first=block.a + n == 0)
        for block in blocks
        for n in range(block.size)
    )
    passage = [page.cased[k] for k in chosen]
    score = 2 * matched / (len(folded) + len(passage))
    text = index.text[page.starts[chosen[0]] : page.ends[chosen[-1]]]
    differences = _differences(cased, passage) if explain else ()
    return Match(False, None, None, None, score, text, differences)


def _best_start(index: Indexed, folded: list[str]) -> int | None:
    """Where the quote would start in the text's words: where its first or second half stands
    as it is (most changed quotes change one place), else where most of its rarer words
    point."""
    half = len(folded) // 2
    if half >= 3:
        for words, shift in ((folded[:half], 0), (folded[half:], half)):
            place = index.find_words(words)
            if place is not None:
                return max(0, place - shift)
    positions = index.positions()
    found = [(i, positions[word]) for i, word in enumerate(folded) if word in positions]
    if not found:
        return None
    rare = [(i, where) for i, where in found if len(where) <= _COMMON] or found
    votes: Counter[int] = Counter()
    for i, where in rare:
        votes.update(k - i for k in where[:_COMMON])
    return max(0, votes.most_common(1)[0][0])


def _differences(quote: list[str], passage: list[str]) -> tuple[str, ...]:
    said: list[str] = []
    matcher = SequenceMatcher(None, [w.casefold() for w in quote], [w.casefold() for w in passage])
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        ours, theirs = " ".join(quote[i1:i2]), " ".join(passage[j1:j2])
        if tag == "equal":
            said += [
                f"“{q}” where the text has “{p}” (case)"
                for n, (q, p) in enumerate(zip(quote[i1:i2], passage[j1:j2], strict=True), i1)
                if not same_word(q, p, first=n == 0)
            ]
        elif tag == "replace":
            kind = _kind(quote[i1:i2], passage[j1:j2])
            said.append(f"“{ours}” where the text has “{theirs}”{kind}")
        elif tag == "delete":
            said.append(f"“{ours}” is not in the text{_kind(quote[i1:i2], [])}")
        else:
            said.append(f"the quote leaves out “{theirs}”{_kind([], passage[j1:j2])}")
    if not said:
        said.append("every word is in the text, but not together in this order")
    return tuple(said[:_SHOWN]) + (("…",) if len(said) > _SHOWN else ())


def _kind(ours: list[str], theirs: list[str]) -> str:
    """What kind of change it is, when it is one that turns a claim around."""
    if any(any(c.isdigit() for c in w) for w in ours + theirs):
        return " (a number)"
    if any(map(is_negation, {w.casefold() for w in ours} ^ {w.casefold() for w in theirs})):
        return " (a negation)"
    return ""
