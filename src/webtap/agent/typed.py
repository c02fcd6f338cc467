"""A typed answer (issue 29): the value the model gives through a forced ``answer`` tool whose
input schema is the caller's, checked against that schema, and each top-level field's source.

Once the web tools have run and the model has answered in text, it is asked once more, with
the ``answer`` tool forced, to give its answer as data. The value is validated
(:func:`webtap.answer_schema.check`); one that does not fit is sent back with the validation
error and asked for again once, then given up (:class:`NoFit`): never returned as if it fitted.

With citations on, the tool's schema asks for ``_sources`` beside the value: for each top-level
field, the URL it read it from and the exact words it rests on. Each quote is checked against
the snapshot of that URL as the model was given it; the result sits beside the value as
``_sources`` (:func:`sourced`), and with ``unsupported="null"`` a nullable field whose quote does
not stand in what was read becomes null.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from webtap.agent.turn import ToolSpec
from webtap.answer_schema import Mismatch, check, is_nullable
from webtap.errors import APIError
from webtap.quotes import locate

if TYPE_CHECKING:
    from webtap.agent.steps import Source

__all__ = [
    "ANSWER_TOOL",
    "ASK_FOR_DATA",
    "ASK_FOR_SOURCES",
    "NoFit",
    "answer_tool",
    "fields_of",
    "mismatch_reply",
    "sourced",
    "split",
]

ANSWER_TOOL = "answer"
SOURCES = "_sources"
ASK_FOR_DATA = (
    "Now give your answer as data: call the answer tool once, with a value that fits its "
    "schema. Use null for what you could not find."
)
ASK_FOR_SOURCES = (
    " For each field you fill, give in _sources the URL you read it from and the exact words "
    "of that page it rests on, copied, not paraphrased."
)


class NoFit(APIError):
    """The model's value did not fit the schema, even when asked again with the error."""


def fields_of(schema: dict[str, Any]) -> list[str]:
    """The top-level fields of an object schema (none for any other)."""
    properties = schema.get("properties")
    return list(properties) if isinstance(properties, dict) else []


def answer_tool(schema: dict[str, Any], *, with_sources: bool) -> ToolSpec:
    """The forced tool: its input is the answer. A non-object schema is wrapped as
    ``{"value": ...}`` (a tool's input is an object); with sources, ``_sources`` beside it."""
    fields = fields_of(schema) if schema.get("type") == "object" else []
    if fields and not with_sources:
        return ToolSpec(ANSWER_TOOL, "Give the answer as data.", schema)
    inner: dict[str, Any] = (
        schema if fields else {"type": "object", "properties": {"value": schema}}
    )
    properties: dict[str, Any] = dict(inner.get("properties", {}))
    required = list(inner.get("required", []) if fields else ["value"])
    if with_sources:
        source = {
            "type": "object",
            "properties": {"url": {"type": "string"}, "quote": {"type": "string"}},
            "required": ["url", "quote"],
        }
        names = fields or ["value"]
        properties[SOURCES] = {
            "type": "object",
            "properties": {name: source for name in names},
            "additionalProperties": False,
        }
    wrapped = {**inner, "type": "object", "properties": properties, "required": required}
    return ToolSpec(ANSWER_TOOL, "Give the answer as data.", wrapped)


def split(given: dict[str, Any], schema: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """The tool's input as (the value, the sources the model claimed); the value is checked
    against ``schema`` (:class:`Mismatch` when it does not fit)."""
    claimed = given.get(SOURCES)
    claimed = claimed if isinstance(claimed, dict) else {}
    wrapped = not (schema.get("type") == "object" and fields_of(schema))
    value = given.get("value") if wrapped else {k: v for k, v in given.items() if k != SOURCES}
    check(value, schema)
    return value, claimed


def sourced(
    value: Any,
    claimed: dict[str, Any],
    schema: dict[str, Any],
    sources: Sequence[Source],
    *,
    unsupported: str = "keep",
) -> tuple[Any, dict[str, Any]]:
    """Each claimed source checked against the snapshot of its URL that this question read;
    returns the value (nullable fields left without a verified quote nulled, with
    ``unsupported="null"``) and ``_sources``: per field, ``url``, ``quote``, ``verified``,
    ``start``, ``end``, ``snapshot``."""
    checked: dict[str, Any] = {}
    for name, claim in claimed.items():
        if not isinstance(claim, dict):
            continue
        url, quote = str(claim.get("url") or ""), str(claim.get("quote") or "")
        checked[name] = _verify(url, quote, sources)
    if unsupported == "null" and isinstance(value, dict):
        properties = schema.get("properties", {})
        value = dict(value)
        for name in value:
            supported = checked.get(name, {}).get("verified", False)
            if value[name] is not None and not supported and is_nullable(properties.get(name, {})):
                value[name] = None
    return value, checked


def _verify(url: str, quote: str, sources: Sequence[Source]) -> dict[str, Any]:
    """A claimed source: found in the latest snapshot of ``url`` this question read (else in
    any it read: a model may name a page by another spelling of its URL), or not."""
    mine = [source for source in sources if source.snapshot.url == url]
    for source in [*reversed(mine), *sources]:
        if not quote.strip():
            break
        match = locate(quote, source.snapshot.text)
        if match.verified:
            snapshot = source.snapshot
            return _result(snapshot.url, quote, True, match.start, match.end, snapshot.hash)
    snapshot_hash = mine[-1].snapshot.hash if mine else None
    return _result(url, quote, False, None, None, snapshot_hash)


def _result(
    url: str, quote: str, verified: bool, start: int | None, end: int | None, snapshot: str | None
) -> dict[str, Any]:
    return {
        "url": url,
        "quote": quote,
        "verified": verified,
        "start": start,
        "end": end,
        "snapshot": snapshot,
    }


def mismatch_reply(error: Mismatch) -> str:
    """What the model is told when its value did not fit."""
    return (
        f"The value does not fit the schema. {error.message} Call answer again with a value "
        "that fits."
    )
