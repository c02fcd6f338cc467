"""Keys out of everything webtap quotes: one redaction, applied before any cut.

A provider's or the Anthropic API's error body, a DuckDB error that echoes a statement, an
exception's text: each may carry a key, in any of the encodings a key takes on its way (raw,
URL-encoded as ``%2B`` or ``+``, JSON-escaped as ``\\u002b`` or ``\\/``, HTML-escaped as
``&amp;``, SQL-quoted as ``''``). :func:`redact` finds every one of them, mixed too; :func:`quote`
redacts *then* cuts, so a key that straddles the cut cannot leave its first characters behind.

Keys are known two ways: passed in, and :func:`remember`-ed by the code that resolved them
(process-wide: a key never stops being secret), so a quote made far from the key still hides it.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

__all__ = ["LOOK", "MASK", "MIN_SECRET", "quote", "redact", "redact_value", "remember"]

MASK = "***"
MIN_SECRET = 4
"""The one length from which a string is a key, everywhere webtap hides keys (here, and the SQL
side's own). Four, not more: a password in a SearXNG address (``http://user:pass@host``) can
be that short and is still a secret, and a key typed into SQL was always hidden from four
characters. Not fewer: only values the user configured are secrets, and masking every one-,
two- or three-character run of a message that happens to match one would garble it for a
credential nobody uses."""

_known: set[str] = set()
_lock = threading.Lock()


def remember(secrets: Iterable[str | None]) -> None:
    """Treat ``secrets`` as keys in every later :func:`redact` of this process."""
    fresh = {s for s in secrets if isinstance(s, str) and len(s) >= MIN_SECRET}
    if fresh - _known:
        with _lock:
            _known.update(fresh)


def redact(text: str, secrets: Iterable[str | None] = (), *, same_length: bool = False) -> str:
    """``text`` with every encoding of every secret (given or remembered) masked.

    ``same_length`` masks with as many ``*`` as the match is long, so that a caret under a
    DuckDB error still points at the right place.
    """
    keys = {s for s in secrets if isinstance(s, str) and len(s) >= MIN_SECRET} | _known
    for key in sorted(keys, key=len, reverse=True):
        if key in text or _might_hold(text, key):
            mask = (lambda m: "*" * len(m.group())) if same_length else MASK
            text = _pattern(key).sub(mask, text)
    return text


LOOK = 4096
"""Characters of a body :func:`quote` reads: a body may be megabytes, a quote is a line."""


def quote(text: str, width: int, secrets: Iterable[str | None] = ()) -> str:
    """A body quoted in a message: redacted first, whitespace runs made one space, then cut to
    ``width`` characters (with "..." when cut).

    Only the first :data:`LOOK` characters are read, and that look ends at whitespace: a key
    cut in two there is no longer recognisable, and collapsing a body padded with whitespace
    could bring its cut end into the quote."""
    if len(text) > LOOK:
        head = text[:LOOK]
        last = _LAST_TOKEN.search(head)
        text = head[: last.start()] if last else head
    text = " ".join(redact(text, secrets).split())
    return text if len(text) <= width else text[: max(width - 3, 0)] + "..."


# The whitespace before the last (possibly cut) run of non-whitespace.
_LAST_TOKEN = re.compile(r"\s\S*\Z")


def redact_value(value: Any, secrets: Iterable[str | None] = ()) -> Any:
    """:func:`redact` through the strings of a JSON-like value (an event, an error body)."""
    secrets = list(secrets)
    if isinstance(value, str):
        return redact(value, secrets)
    if isinstance(value, dict):
        return {redact_value(k, secrets): redact_value(v, secrets) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [redact_value(item, secrets) for item in value]
    return value


def _might_hold(text: str, key: str) -> bool:
    # A cheap test before the regex: an encoded key still holds its longest alphanumeric run.
    runs = re.findall(r"[A-Za-z0-9]+", key)
    return bool(runs) and max(runs, key=len) in text


_HTML = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;|&#39;|''"}


@lru_cache(maxsize=256)
def _pattern(key: str) -> re.Pattern[str]:
    """A pattern matching ``key`` with each of its characters in any encoding."""
    parts = []
    for char in key:
        if char.isalnum() and char.isascii():
            parts.append(re.escape(char))
            continue
        code = ord(char)
        forms = [re.escape(char), f"(?i:%(?:25)?{code:02x})", f"(?i:\\\\u{code:04x})"]
        if char == " ":
            forms.append(r"\+")
        if char == "/":
            forms.append(r"\\/")
        if char in '"\\':
            forms.append(re.escape("\\" + char))
        if char in _HTML:
            forms.extend(re.escape(form) for form in _HTML[char].split("|"))
        forms.append(f"&#(?:{code}|(?i:x{code:x}));")
        parts.append("(?:" + "|".join(forms) + ")")
    return re.compile("".join(parts))
