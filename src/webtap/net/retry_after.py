"""How long a server asks to be left alone: ``Retry-After`` and the numbers of rate headers.

One reading for every caller (the fetch's verdicts, the model's retries, the ask loop's rate
budget, the SQL functions' throttle), so that a header means the same wherever it arrives.
Light on purpose: no HTTP stack, and the date parser only for a header that is a date.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from email.utils import parsedate_to_datetime
from typing import Any

__all__ = ["header_number", "retry_after"]

_TOO_BIG = 1e9  # a number past this is not a count or a delay anyone meant


def header_number(value: str | None) -> float | None:
    """A header's value as a number: finite, not negative, below 1e9; else None."""
    if value is None:
        return None
    try:
        number = float(value)
    except ValueError:
        return None
    return number if 0 <= number < _TOO_BIG else None


def retry_after(headers: Mapping[str, Any] | Any) -> float | None:
    """Seconds the server asks to wait: ``retry-after-ms`` (the Anthropic API's, in
    milliseconds), else ``Retry-After`` as seconds or as an HTTP date (a date past is 0); None
    when neither says. ``headers`` is looked up by lower-case names."""
    milliseconds = header_number(headers.get("retry-after-ms"))
    if milliseconds is not None:
        return milliseconds / 1000
    raw = str(headers.get("retry-after") or "").strip()
    if not raw:
        return None
    seconds = header_number(raw)
    if seconds is not None:
        return seconds
    return _until_date(raw)


def _until_date(raw: str) -> float | None:
    try:
        when = parsedate_to_datetime(raw)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        return None
    return max(0.0, when.timestamp() - time.time())
