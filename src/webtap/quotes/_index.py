"""Locating a quote in a text: every word of the quote, in order, on the page.

A :class:`QuoteIndex` reads a text once (:mod:`webtap.quotes._tokens`) into its words, joined
with single spaces into one string, case-folded, with each word's place in that string and in
the text. A quote read the same way is then looked up with ``str.find`` on whole words (a
scan in C, no sliding window); each place found is checked for case, and the pieces an
ellipsis joins are chained, each after the one before within :data:`MAX_GAP` words. Only a
quote that fails takes the slower path, the nearest passage (:mod:`webtap.quotes._nearest`).

There is no similarity threshold: a quote is verified only when all its words are there in
order. One word swapped is a different claim, so it is refused, however close the rest.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence
from itertools import accumulate
from typing import NamedTuple

from webtap.errors import InvalidInput
from webtap.quotes._match import Match
from webtap.quotes._nearest import nearest
from webtap.quotes._negations import is_negation
from webtap.quotes._tokens import Words, ellipsis_pieces, read, same_word

__all__ = ["MAX_GAP", "Match", "QuoteIndex", "locate"]

MAX_GAP = 80
"""Words the page may have between two pieces of a quote that an ellipsis joins: the pieces of
one passage (a paragraph or two), not of the page. None of them may be a negation."""


_STARTS = 64  # places of an ellipsis quote's first piece tried, for the one with the least gap


class _Joined(NamedTuple):
    """Some of a text's words joined by single spaces, with a space at each end: ``at[k]`` is
    where the k-th of them starts in ``string``, ``number[k]`` its number among all the words."""

    string: str
    at: list[int]
    number: Sequence[int]


def _join(folded: list[str], number: Sequence[int]) -> _Joined:
    words = [folded[k] for k in number] if isinstance(number, list) else folded
    at = list(accumulate(map(len, words), lambda position, n: position + n + 1, initial=1))
    at.pop()
    return _Joined(" " + " ".join(words) + " ", at, number)


class _Piece(NamedTuple):
    """A piece of a quote (the part between two ellipses): its words, and the same without
    those a page may leave out."""

    full: Words
    lean: list[int]


class QuoteIndex:
    """A text read once, for locating many quotes in it.

    >>> index = QuoteIndex("The tide came in **slowly**, and the harbour filled.")
    >>> index.locate("“the tide came in slowly…the harbour filled”").exact
    'The tide came in **slowly**, and the harbour filled'
    >>> index.locate("The tide came in quickly").verified
    False
    """

    def __init__(self, text: str) -> None:
        if not text.strip():
            raise InvalidInput("the text to look in is empty; give the page's text")
        self.text = text
        self.words = read(text)
        everything = range(len(self.words.folded))
        self._full = _join(self.words.folded, everything)
        optional = self.words.optional
        self._lean = (
            _join(self.words.folded, [k for k in everything if k not in optional])
            if optional
            else self._full
        )
        self._positions: dict[str, list[int]] | None = None

    def locate(self, quote: str, *, explain: bool = True) -> Match:
        """Where ``quote`` stands in the text (:class:`Match`). An empty quote, or one
        without a word, is an :class:`~webtap.errors.InvalidInput`. ``explain=False`` leaves
        a refused quote's ``differences`` out (its score and nearest passage stay), for
        programs that read only the verdict."""
        pieces = _pieces(quote)
        # An ellipsis the text has itself, copied: the pieces stand together. Looked for first,
        # so that a first piece found earlier on the page does not win with a gap.
        tries = [[_together(pieces)], pieces] if len(pieces) > 1 else [pieces]
        ways = [(self._full, False)]
        if self._lean is not self._full:
            ways.append((self._lean, True))
        for chain in tries:
            for joined, lean in ways:
                found = self._chain(chain, joined, lean)
                if found is not None:
                    start = self.words.starts[found[0]]
                    end = self.words.ends[found[1]]
                    return Match(True, start, end, self.text[start:end], 1.0)
        return nearest(self, [piece.full for piece in pieces], explain=explain)

    def find_words(self, folded: list[str]) -> int | None:
        """The index of the first word of the first place where these case-folded words stand
        together, in this order; ``None`` when they do not."""
        found = self._full.string.find(" " + " ".join(folded) + " ")
        return None if found < 0 else bisect_left(self._full.at, found + 1)

    def positions(self) -> dict[str, list[int]]:
        """Each folded word's indices in the text: built on the first quote that fails."""
        if self._positions is None:
            positions: dict[str, list[int]] = {}
            for k, word in enumerate(self.words.folded):
                positions.setdefault(word, []).append(k)
            self._positions = positions
        return self._positions

    def _chain(self, pieces: list[_Piece], joined: _Joined, lean: bool) -> tuple[int, int] | None:
        """The first and last word (indices among all) of the place where every piece stands
        in order, each after the one before with a gap an ellipsis may stand for; of several,
        the one with the fewest words left out."""
        needles = [_needle(piece, lean) for piece in pieces]
        if any(not words for words, _ in needles):
            return None
        best: tuple[int, int, int] | None = None  # (words left out, first, last)
        search_from = 0
        for _ in range(_STARTS if len(pieces) > 1 else 1):
            first = self._find(needles[0], pieces[0], joined, search_from, lean)
            if first is None:
                break
            k, last = first
            left_out = 0
            for needle, piece in zip(needles[1:], pieces[1:], strict=True):
                after = joined.at[last + 1] - 1 if last + 1 < len(joined.at) else len(joined.string)
                following = self._find(needle, piece, joined, after, lean)
                if following is None:
                    return _span(best)  # nowhere after this place, so after no later one either
                next_k, next_last = following
                gap = (joined.number[last] + 1, joined.number[next_k])
                if not self._elidable(*gap):
                    break
                left_out += gap[1] - gap[0]
                last = next_last
            else:
                if best is None or left_out < best[0]:
                    best = (left_out, joined.number[k], joined.number[last])
                if left_out == 0:
                    break
            search_from = joined.at[k]  # a later place for the first piece
        return _span(best)

    def _elidable(self, start: int, end: int) -> bool:
        """Whether an ellipsis may stand for the text's words ``start``..``end`` (excluded):
        at most :data:`MAX_GAP` of them, and no negation (leaving out a "not" is no elision)."""
        return end - start <= MAX_GAP and not any(
            is_negation(word) for word in self.words.folded[start:end]
        )

    def _find(
        self,
        needle: tuple[list[str], str],
        piece: _Piece,
        joined: _Joined,
        offset: int,
        lean: bool,
    ) -> tuple[int, int] | None:
        """The first place at or after ``offset`` in ``joined.string`` where the piece's words
        stand with their case (the first letter forgiven): (first, last) among ``joined``'s
        words."""
        words, string = needle
        cased = piece.full.cased
        order = piece.lean if lean else range(len(cased))
        while True:
            found = joined.string.find(string, offset)
            if found < 0:
                return None
            k = bisect_left(joined.at, found + 1)
            if self._same_case(cased, order, joined, k):
                return k, k + len(words) - 1
            offset = found + 1

    def _same_case(self, cased: list[str], order: Iterable[int], joined: _Joined, k: int) -> bool:
        page = self.words.cased
        return all(
            same_word(cased[q], page[joined.number[k + n]], first=n == 0)
            for n, q in enumerate(order)
        )


def _span(best: tuple[int, int, int] | None) -> tuple[int, int] | None:
    return None if best is None else (best[1], best[2])


def _pieces(quote: str) -> list[_Piece]:
    if not quote.strip():
        raise InvalidInput("the quote is empty; give the words to look for")
    pieces = []
    for text in ellipsis_pieces(quote):
        words = read(text, page=False)
        if words.folded:
            lean = [k for k in range(len(words.folded)) if k not in words.optional]
            pieces.append(_Piece(words, lean))
    if not pieces:
        raise InvalidInput(f"the quote {quote[:40]!r} has no words to look for")
    return pieces


def _together(pieces: list[_Piece]) -> _Piece:
    """The pieces as one, as if their ellipses were not there."""
    words = Words(
        [w for piece in pieces for w in piece.full.cased],
        [w for piece in pieces for w in piece.full.folded],
        [],
        [],
        frozenset(),
    )
    lean, offset = [], 0
    for piece in pieces:
        lean += [offset + k for k in piece.lean]
        offset += len(piece.full.folded)
    return _Piece(words, lean)


def _needle(piece: _Piece, lean: bool) -> tuple[list[str], str]:
    folded = piece.full.folded
    words = [folded[k] for k in piece.lean] if lean else folded
    return words, " " + " ".join(words) + " "


def locate(quote: str, text: str) -> Match:
    """Where ``quote`` stands in ``text``: see :class:`QuoteIndex` (to look for many quotes in
    one text, make the index once)."""
    return QuoteIndex(text).locate(quote)
