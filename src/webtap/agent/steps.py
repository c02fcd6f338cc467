"""What one question did: the tool calls the model made, their results, and the answer."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = ["Answer", "Step", "ToolCall", "ToolReply"]


@dataclass(frozen=True)
class ToolCall:
    """A tool the model asked for."""

    id: str
    name: str
    input: dict[str, Any]


@dataclass(frozen=True)
class ToolReply:
    """What the loop answers the model for one tool call (its ``tool_result`` block), and a line
    for the person: ``content`` for the model, ``detail`` and ``event`` for the person. The run
    of the tool itself is a :class:`webtap.tools.ToolResult`."""

    call: ToolCall
    content: str
    is_error: bool = False
    detail: str = ""
    event: dict[str, Any] | None = None

    def block(self) -> dict[str, Any]:
        """The ``tool_result`` content block for the next user message."""
        block: dict[str, Any] = {
            "type": "tool_result",
            "tool_use_id": self.call.id,
            "content": self.content,
        }
        if self.is_error:
            block["is_error"] = True
        return block


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
                {**asdict(r.call), "is_error": r.is_error, "detail": r.detail}
                for r in self.tool_results
            ],
            "events": self.events,
            "usage": self.usage,
        }
