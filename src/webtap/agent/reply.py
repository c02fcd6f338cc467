"""A Messages API reply, checked once for the fields the loop relies on."""

from __future__ import annotations

from typing import Any

from webtap.errors import APIError
from webtap.protocol import loads_json
from webtap.redact import LOOK, quote

__all__ = ["parse_reply"]


def parse_reply(body: bytes) -> dict[str, Any]:
    """A Messages API response body, checked for the fields the loop relies on."""
    try:
        reply = loads_json(body)
    except (ValueError, UnicodeDecodeError):
        # Redacted before the cut (webtap.redact): an endpoint may echo the key it was sent.
        # More bytes than quote looks at, whatever the encoding (UTF-8: 4 bytes a character at
        # most), so that its look, not this slice, is the cut.
        start = quote(body[: 4 * (LOOK + 1)].decode("utf-8", "replace"), 60)
        raise APIError(
            f"The Anthropic API returned a malformed response (not JSON, starting {start!r}). "
            "Check ANTHROPIC_BASE_URL, or try again later."
        ) from None
    problem: str | None
    if (
        not isinstance(reply, dict)
        or reply.get("type") != "message"
        or not isinstance(reply.get("content"), list)
        or not all(isinstance(block, dict) for block in reply["content"])
    ):
        problem = "not a message with content blocks"
    else:
        problem = _shape_problem(reply)
    if problem:
        raise APIError(
            f"The Anthropic API returned a malformed response ({problem}). "
            "Check ANTHROPIC_BASE_URL, or try again later."
        )
    return reply


# What the loop reads from each kind of block, and the JSON type it must be.
_BLOCK_FIELDS: dict[str, dict[str, type]] = {
    "text": {"text": str},
    "tool_use": {"id": str, "name": str, "input": dict},
}


def _shape_problem(reply: dict[str, Any]) -> str | None:
    """Which field the loop relies on has the wrong type, or None: checked once, here."""
    stop_reason = reply.get("stop_reason")
    if stop_reason is not None and not isinstance(stop_reason, str):
        return "'stop_reason' is not a string"
    for index, block in enumerate(reply["content"]):
        kind = block.get("type")
        if not isinstance(kind, str):
            return f"content[{index}] has no string 'type'"
        for name, expected in _BLOCK_FIELDS.get(kind, {}).items():
            if not isinstance(block.get(name), expected):
                what = "an object" if expected is dict else "a string"
                return f"content[{index}] is a {kind} block whose '{name}' is not {what}"
    return None
