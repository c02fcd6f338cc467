"""Quotes checked against the text they claim to come from.

    >>> from webtap.quotes import QuoteIndex, locate
    >>> text = "The harbour *never* froze in 1963, and the boats went out."
    >>> match = locate("the harbour never froze in 1963.", text)
    >>> match.verified, match.exact
    (True, 'The harbour *never* froze in 1963')
    >>> locate("The harbour froze in 1963.", text).differences
    ('the quote leaves out “never” (a negation)',)

:func:`locate` finds one quote; a :class:`QuoteIndex` reads a text once for many quotes (a
snapshot's citations); a :class:`Checker` answers ``webtap verify --jsonl``'s requests, each
text read once, a URL's text asked of the ``text_of`` it is given (``webtap.fetch.given.text_of``).
Either answers a :class:`Match`: verified or not, the span as
code-point offsets into the text (``text[start:end] == exact``), a score for information, and
for a quote not verified the nearest passage and what differs.

A quote is verified only when every one of its words is in the text, in order. Forgiven, on
both sides alike (:mod:`webtap.quotes._tokens`): spaces and line breaks, Markdown syntax
present or absent (links as their text, emphasis, list and heading marks, table pipes),
typography (quotes and apostrophes, dashes, ``...`` for ``…``, no-break spaces, soft hyphens,
ligatures, HTML entities), the first letter's case, a final full stop, a quote that starts or
ends inside a sentence, and an ellipsis (``…``, ``...``, ``[...]``) joining pieces of one
passage, each found after the one before within :data:`MAX_GAP` words. Refused: any other
word changed, put in or left out (a number, a negation, a name, a unit), words in another
order, a passage from elsewhere.
"""

from __future__ import annotations

from webtap.quotes._checker import Checker, TextOf
from webtap.quotes._index import MAX_GAP, QuoteIndex, locate
from webtap.quotes._match import Match

__all__ = ["MAX_GAP", "Checker", "Match", "QuoteIndex", "TextOf", "locate"]
