"""The common search result and the plain text it carries."""

from __future__ import annotations

import html
import re
from typing import Any, NamedTuple

from webtap.text import strip_controls, strip_invisible

__all__ = ["SearchResult", "clean_text", "success_response"]

# Only real tags (a letter after "<"), so plain text such as "a < b > c" survives.
_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9:-]*(?:\s[^<>]*)?/?>")
_SPACE = re.compile(r"\s+")


class SearchResult(NamedTuple):
    """One search result in the tools' common shape (spec 000, "Response Format").

    A NamedTuple, not a dataclass: importing ``dataclasses`` (and ``inspect``) costs a tool
    call some 10 ms."""

    title: str
    url: str
    snippet: str

    def to_dict(self) -> dict[str, str]:
        return self._asdict()


def clean_text(value: Any) -> str:
    """Provider markup to plain text: tags removed, entities decoded, whitespace collapsed,
    controls and invisible characters (:func:`webtap.text.strip_invisible`) taken out.

    Tags go first so that an encoded ``&lt;b&gt;`` stays the visible text ``<b>``; invisible
    characters go before whitespace is collapsed, so that no space is left doubled where they were.
    """
    if not isinstance(value, str):
        return ""
    text = strip_invisible(html.unescape(_TAG.sub("", value)))
    return strip_controls(_SPACE.sub(" ", text).strip())


def success_response(results: list[SearchResult]) -> dict[str, Any]:
    """The tool's success response: ``{success, results, count}``."""
    return {
        "success": True,
        "results": [result.to_dict() for result in results],
        "count": len(results),
    }
