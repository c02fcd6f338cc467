"""What locating a quote answers: where it stands in the text, or the nearest passage and why
not. Its own module, so that the exact lookup (:mod:`webtap.quotes._index`) and the nearest
passage (:mod:`webtap.quotes._nearest`) both import it, one way."""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["Match"]


class Match(NamedTuple):
    """Where a quote stands in a text, or why it does not.

    ``verified``: every word of the quote is in the text, in order (what a faithful copy
    changes forgiven). ``start``, ``end``: code-point offsets into the text, from the first
    matched character to the last, so that ``text[start:end] == exact``; ``None`` when not
    verified. ``score``: informational, never the decision: 1.0 when verified, else how much
    of the quote the nearest passage shares (0.0 to 1.0). For a quote not verified,
    ``nearest`` is that passage (``None`` when no word is shared) and ``differences`` says
    what differs, one short sentence each.
    """

    verified: bool
    start: int | None
    end: int | None
    exact: str | None
    score: float
    nearest: str | None = None
    differences: tuple[str, ...] = ()

    def result(self) -> dict[str, object]:
        """The five fields programs read (``webtap verify --jsonl``, MCP's ``verify_quote``)."""
        return {
            "verified": self.verified,
            "start": self.start,
            "end": self.end,
            "exact": self.exact,
            "score": round(self.score, 4),
        }
