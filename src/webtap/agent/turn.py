"""One reply of the model, whatever protocol carried it: its text, the tools it asked for, why
it stopped, what it cost, and the passages it cited."""

from __future__ import annotations

from typing import Any, NamedTuple

from webtap.agent.steps import ToolCall

__all__ = ["CitedSpan", "ModelTurn", "ToolSpec"]


class ToolSpec(NamedTuple):
    """A tool offered to the model: each protocol writes it its own way."""

    name: str
    description: str
    parameters: dict[str, Any]  # a JSON Schema object


class CitedSpan(NamedTuple):
    """A passage the model says a stretch of its answer rests on, as the provider located it:
    the ``source`` index among the sources sent (in the order sent), and the blocks
    ``[first, end)`` of that source's content it quoted (``cited_text``: their text)."""

    answer_start: int  # code points into the answer text
    answer_end: int
    source: int
    first: int
    end: int
    cited_text: str


class ModelTurn(NamedTuple):
    """What one model call answered. ``stop_reason`` in the Messages API's words
    (``end_turn``, ``tool_use``, ``max_tokens``, ``refusal``, ...); ``raw`` is what the
    protocol needs to send this turn back in the history."""

    text: str
    calls: tuple[ToolCall, ...]
    stop_reason: str
    usage: dict[str, int]
    raw: Any
    cited: tuple[CitedSpan, ...] = ()
