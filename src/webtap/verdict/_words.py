"""Words, counted one way for every script, and every limit in words that says whether a page
holds content.

A word is a run of letters and digits (``\\w+``: "don't" is two, "e-mail" two, a lone "-" or
"|" none), except in the scripts written without spaces between words: there two characters
make one word, and a last odd one another (Chinese words average under two characters;
"中文" is one word, "日本語のテキスト" four). Those are Han ideographs and Japanese kana;
Hangul is written with spaces and counts by its runs, as does any other script (a Thai run
is one word). The converter (its facts and its own choices), the classifier (a page's visible
words) and the Markdown-version step all count with :func:`count_words`.
"""

from __future__ import annotations

import re
from functools import cache
from itertools import islice

__all__ = [
    "EMPTY_WORDS",
    "FEW_WORDS",
    "SHELL_WORDS",
    "THIN_PAGE",
    "THIN_WORDS",
    "WORD_CAP",
    "count_words",
    "markdown_words",
]

WORD_CAP = 500  # words counted, of a page or its Markdown: past this no rule applies
THIN_PAGE = 400  # visible words under which the markup of walls and forms is read
FEW_WORDS = 60  # Markdown words under which a page may be a script shell (if it shows signs)
SHELL_WORDS = 30  # visible and Markdown words under which a page's own marks make it a shell
EMPTY_WORDS = 50  # visible words under which a converter's "empty" is believed
THIN_WORDS = 150  # Markdown words under which content is thin: its Markdown version is worth it

_WORD = re.compile(r"\w+")
# Markdown's link and image targets: an address is no words of the page.
_LINK_TARGET = re.compile(r"\]\([^)]*\)")
# Han (with its extensions, compatibility ideographs and iteration marks), the letters of
# hiragana and katakana (with katakana's phonetic extensions and half-width forms).
_UNSPACED = (
    "\u3005-\u3007\u3041-\u3096\u309d-\u309f\u30a1-\u30fa\u30fc-\u30ff\u31f0-\u31ff"
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f\U00020000-\U0003ffff"
)
_UNSPACED_FROM = "\u3005"  # text of characters all below this needs only `_WORD`


@cache
def _tokens() -> re.Pattern[str]:
    # Compiled on the first text that needs it: its character classes cost a fresh process
    # about 1.5 ms, which a page in a Latin, Greek or Cyrillic script need not pay.
    return re.compile(rf"(?:(?![{_UNSPACED}])\w)+|[{_UNSPACED}]{{1,2}}")


def count_words(text: str, cap: int | None = None) -> int:
    """The words in ``text`` (see the module's doc), counted up to ``cap`` when given."""
    pattern = _WORD if text.isascii() or max(text) < _UNSPACED_FROM else _tokens()
    if cap is None:
        return len(pattern.findall(text))
    return sum(1 for _ in islice(pattern.finditer(text), cap))


def markdown_words(markdown: str) -> int:
    """The words of Markdown, its link and image targets not counted, up to :data:`WORD_CAP`."""
    return count_words(_LINK_TARGET.sub("]", markdown), WORD_CAP)
