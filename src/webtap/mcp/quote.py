"""MCP's ``verify_quote``: whether a quote stands on a page, for an agent about to cite it.

The page is read as ``web_fetch`` gives it to a model (:func:`webtap.fetch.given.text_of`), and the
quote located in it (:mod:`webtap.quotes`). The result is ``webtap verify --jsonl``'s for one
quote, ``{"verified", "start", "end", "exact", "score"}``, with ``nearest`` and
``differences`` when it is not verified, so that the agent can correct itself. A page that
cannot be read is an error result, as ``web_fetch``'s would be.
"""

from __future__ import annotations

from typing import Any

import mcp_types as types

from webtap.errors import InvalidInput
from webtap.fetch.given import text_of
from webtap.mcp.tool import ServedTool
from webtap.quotes import QuoteIndex
from webtap.tools import WEB_ANNOTATIONS, ToolResult, attempt

__all__ = ["NAME", "verify_quote_tool"]

NAME = "verify_quote"
TITLE = "Check a quote"
DESCRIPTION = (
    "Check that a quote stands on a web page before citing it: the page is read as web_fetch "
    "gives it, and the quote is verified only when every one of its words is there, in order "
    "(spaces, Markdown syntax, quote and dash forms, the first letter's case, a final full "
    "stop and an ellipsis joining pieces of one passage are forgiven; a changed number, "
    "negation, name or word order is not). Returns verified, the exact text where it stands "
    "with its character offsets (start, end), and, when not verified, the nearest passage "
    "and what differs."
)
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "url": {"type": "string", "description": "The page's http:// or https:// URL"},
        "quote": {"type": "string", "description": "The quote, as it would be cited"},
    },
    "required": ["url", "quote"],
    "additionalProperties": False,
}


def verify_quote_tool() -> ServedTool:
    return ServedTool(
        name=NAME,
        description=DESCRIPTION,
        input_schema=SCHEMA,
        run=_run,
        title=TITLE,
        annotations=types.ToolAnnotations.model_validate({"title": TITLE, **WEB_ANNOTATIONS}),
    )


def _run(arguments: dict[str, Any], timeout: float) -> ToolResult:
    return attempt(NAME, lambda: verify_quote(arguments))


def verify_quote(arguments: dict[str, Any]) -> dict[str, Any]:
    """The tool's answer for ``{"url", "quote"}``; raises the fetch's or the quote's error."""
    for field in ("url", "quote"):
        if not isinstance(arguments.get(field), str):
            raise InvalidInput(f"Invalid input: field '{field}' must be a string")
    match = QuoteIndex(text_of(arguments["url"])).locate(arguments["quote"])
    response: dict[str, Any] = match.result()
    if not match.verified:
        response["nearest"] = match.nearest
        response["differences"] = list(match.differences)
    return response
