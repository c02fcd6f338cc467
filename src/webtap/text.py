"""Text from outside made safe to show: terminal controls and invisible characters taken out.

Every string that a tool, a page, a provider, a file name or a store hands to a terminal or to a
model goes through :func:`strip_controls` first: never a surprise for the person (decision: Exit
codes). Text that webtap hands a model from the web (a page's content and title, search titles and
snippets) also goes through :func:`strip_invisible`: characters a person never sees but a model
reads would let a page speak to the model behind the reader's back.
"""

from __future__ import annotations

import re
from functools import cache

__all__ = ["escape_c1", "strip_controls", "strip_invisible"]

# C0 controls but tab, line feed and carriage return; DEL; C1 controls. No text needs them, and
# a terminal obeys them: ESC ] 52 sets the clipboard, ESC [ 2 J clears the screen, and the
# single-byte CSI (U+009B) does what ESC [ does on terminals that honour C1 controls.
_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_C1_AND_DEL = re.compile("[\x7f-\x9f]")


def strip_controls(text: str) -> str:
    """``text`` without the control characters a page, a provider or a tool may hide in it."""
    return _CONTROLS.sub("", text)


def escape_c1(json_text: str) -> str:
    """JSON text with DEL and C1 controls written as ``\\u`` escapes.

    ``json.dumps(..., ensure_ascii=False)`` escapes C0 controls but leaves these raw; in JSON
    they can only stand inside strings, so the escape keeps the value and the terminal safe.
    """
    return _C1_AND_DEL.sub(lambda match: f"\\u{ord(match.group()):04x}", json_text)


# --- Invisible characters --------------------------------------------------------------------

_TAGS = "\U000e0000-\U000e007f"  # "ASCII smuggling": each one a letter only a model reads
_BIDI = "\u202a-\u202e\u2066-\u2069"  # embeddings, overrides, isolates: reorder what is shown
_ZERO_WIDTH = "\u200b\u2060-\u2064\ufeff"  # spaces, word joiner, invisible operators, BOM
_JOINERS = "\u200c\u200d"  # ZWNJ, ZWJ
_MARKS = "\u200e\u200f\u061c"  # LRM, RLM, ALM
_SELECTORS = "\ufe00-\ufe0f\U000e0100-\U000e01ef"  # variation selectors
_INVISIBLE = _ZERO_WIDTH + _JOINERS + _MARKS + _BIDI + _SELECTORS + _TAGS
# Where a joiner belongs: after a letter of a script that writes words with ZWJ/ZWNJ (Arabic,
# Persian, Syriac, Thaana, N'Ko; the Indic scripts; Tibetan, Myanmar, Khmer, Mongolian) or
# after an emoji, a skin tone or an emoji presentation selector (ZWJ sequences: 👨‍👩‍👧).
_JOINING = (
    "\u0600-\u07ff\u0860-\u08ff\ufb50-\ufdff\ufe70-\ufefc"
    "\u0900-\u0dff\u0f00-\u0fff\u1000-\u109f\u1780-\u18af\u1cd0-\u1cff\ua8e0-\ua8ff"
    "\u00a9\u00ae\u203c\u2049\u2122\u2139\u2194-\u21aa\u231a-\u23ff\u24c2\u25aa-\u25fe"
    "\u2600-\u27bf\u2934\u2935\u2b05-\u2b55\u3030\u303d\u3297\u3299\ufe0f\U0001f000-\U0001faff"
)
# The three subdivision flags Unicode recommends (England, Scotland, Wales): 🏴 + g b e n g +
# CANCEL TAG. The only tag sequences any platform draws, and they carry no text of their own.
_FLAG_REST = (
    "\U000e0062(?:\U000e0065\U000e006e\U000e0067|\U000e0073\U000e0063\U000e0074"
    f"|\U000e0077\U000e006c\U000e0073)\U000e007f(?![{_TAGS}])"
)

# One scan: the first step takes any invisible character (a character class, so the regex
# engine skips ordinary text in C); each branch then says, looking at the character it took
# and its neighbours, whether it goes. Nothing is kept by a replacement, so ``sub("")`` works.
_REMOVED = (
    f"[{_INVISIBLE}]"
    "(?:"
    # A run of tag characters, taken whole from its first character, unless it is one of the
    # flags above right after its black flag.
    f"(?<=[{_TAGS}])(?<![{_TAGS}][{_TAGS}])(?<!\U0001f3f4\U000e0067(?={_FLAG_REST}))[{_TAGS}]*"
    f"|(?<=[{_BIDI}{_ZERO_WIDTH}])"
    # A joiner: only one, and only where it belongs.
    f"|(?<=[{_JOINERS}])(?:(?<![{_JOINING}][{_JOINERS}])|(?=[{_INVISIBLE}]))"
    # A direction mark: the first of a run stays.
    f"|(?<=[{_MARKS}][{_MARKS}])"
    # A variation selector: one after its character stays; a run (data hidden in selectors)
    # goes whole.
    f"|(?<=[{_SELECTORS}])(?:(?<=[{_SELECTORS}][{_SELECTORS}])|(?=[{_SELECTORS}]))"
    ")"
)


def strip_invisible(text: str) -> str:
    """``text`` without the characters that would show a model what a person does not see.

    Taken out: Unicode tag characters (U+E0000–E007F, text only a model reads), bidirectional
    embeddings, overrides and isolates (U+202A–202E, U+2066–2069), zero-width spaces, word
    joiners, invisible operators and BOMs (U+200B, U+2060–2064, U+FEFF), and runs of joiners,
    direction marks or variation selectors. Kept, because real text needs them: a zero-width
    joiner or non-joiner in an emoji sequence or in a word of a script that writes with them
    (Persian, Hindi, ...), a single direction mark (U+200E, U+200F, U+061C), a single variation
    selector, and the England, Scotland and Wales flags. ``len(text) - len(result)`` is how
    many characters went.
    """
    if text.isascii() or _candidate().search(text) is None:  # most pages: nothing to look at
        return text
    return _removed().sub("", text)


# Compiled on first need: a tool call that meets only ASCII pays nothing, one that meets none
# of these characters pays the character class (0.2 ms), only the rest the whole (1 ms).
@cache
def _candidate() -> re.Pattern[str]:
    return re.compile(f"[{_INVISIBLE}]")


@cache
def _removed() -> re.Pattern[str]:
    return re.compile(_REMOVED)
