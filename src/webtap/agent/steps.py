"""What one question did: the tool calls the model made, their results, and the answer with
the quotes it rests on."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from webtap.snapshots import Snapshot

__all__ = ["Answer", "Citation", "Source", "Step", "ToolCall", "ToolReply"]


@dataclass(frozen=True)
class ToolCall:
    """A tool the model asked for. ``problem``: why the call cannot run as written (its
    arguments were not a JSON object); the model is told so as the call's error."""

    id: str
    name: str
    input: dict[str, Any]
    problem: str = ""

    def to_dict(self) -> dict[str, Any]:
        shown = {"id": self.id, "name": self.name, "input": self.input}
        return {**shown, "problem": self.problem} if self.problem else shown


class Source(NamedTuple):
    """What a tool read, as the model was given it: a snapshot, and the spans of its text a
    citation can point at (:func:`webtap.snapshots.blocks`)."""

    snapshot: Snapshot
    blocks: tuple[tuple[int, int], ...]


class Citation(NamedTuple):
    """A quote an answer rests on. ``start``/``end`` are code-point offsets into the snapshot's
    text (None when the quote is not there); ``answer_start``/``answer_end`` the stretch of
    the answer it supports."""

    url: str
    title: str
    quote: str
    verified: bool
    start: int | None
    end: int | None
    snapshot: str  # the snapshot's SHA-256
    answer_start: int = 0
    answer_end: int = 0

    def to_dict(self) -> dict[str, Any]:
        return self._asdict()


@dataclass(frozen=True)
class ToolReply:
    """What the loop answers the model for one tool call, and a line for the person:
    ``content`` for the model (the spec's text), ``detail`` and ``event`` for the person. With
    citations, ``sources`` is what the tool read (sent as citable documents in place of
    ``content``) and ``note`` what else the model needs to know (where a page goes on). The run
    of the tool itself is a :class:`webtap.tools.ToolResult`; each protocol writes the reply
    its own way (:class:`webtap.agent.messages_api.MessagesAPI`)."""

    call: ToolCall
    content: str
    is_error: bool = False
    detail: str = ""
    event: dict[str, Any] | None = None
    sources: tuple[Source, ...] = ()
    note: str = ""


Step = ToolCall | ToolReply


@dataclass(frozen=True)
class Answer:
    """The model's final text and how it got there."""

    text: str
    stop_reason: str
    model: str
    tool_results: tuple[ToolReply, ...] = ()  # the replies, in the order made
    model_calls: int = 1
    usage: dict[str, int] = field(default_factory=dict)
    citations: tuple[Citation, ...] = ()
    value: Any = None  # a typed answer's value (AskSettings.schema), checked against it
    value_sources: dict[str, Any] = field(default_factory=dict)  # per field: its quote, checked

    def data(self) -> Any:
        """A typed answer as one JSON value: the value, with ``_sources`` beside its fields
        when there are any (an object), as ``webtap ask --schema`` prints it."""
        if isinstance(self.value, dict) and self.value_sources:
            return {**self.value, "_sources": self.value_sources}
        return self.value

    @property
    def events(self) -> list[dict[str, Any]]:
        return [result.event for result in self.tool_results if result.event]

    def to_dict(self) -> dict[str, Any]:
        return {
            "answer": self.text,
            "stop_reason": self.stop_reason,
            "model": self.model,
            "model_calls": self.model_calls,
            "tool_calls": [
                {**r.call.to_dict(), "is_error": r.is_error, "detail": r.detail}
                for r in self.tool_results
            ],
            "events": self.events,
            "usage": self.usage,
            "citations": [citation.to_dict() for citation in self.citations],
            **({"value": self.data()} if self.value is not None else {}),
        }
