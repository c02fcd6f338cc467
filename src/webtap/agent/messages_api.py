"""The Anthropic Messages API: how the ask loop's conversation is written for it and read back
(decision: Model names): one adapter per protocol; the loop knows no provider.

A tool result is the spec's text (``tool_result`` with a string ``content``). With citations on,
what a tool read goes back as ``search_result`` blocks with citations enabled, one text block per
paragraph, list item or table row (:func:`webtap.snapshots.blocks`), so that the API's own
citations (``search_result_location``: a source and a range of its blocks, ``cited_text`` always
copied from what was sent) say which passage each stretch of the answer rests on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from webtap.agent.client import response_hooks
from webtap.agent.endpoint import ANTHROPIC_ENDPOINT, Endpoint
from webtap.agent.rate import RateHeaders, model_budget, seconds_until
from webtap.agent.reply import parse_reply
from webtap.agent.retry import ModelCall, send
from webtap.agent.settings import DEFAULT_MAX_RETRIES, DEFAULT_TIME_LIMITS, TimeLimits
from webtap.agent.steps import Source, ToolCall, ToolReply
from webtap.agent.turn import CitedSpan, ModelTurn, ToolSpec

if TYPE_CHECKING:
    from webtap.budget.rate import RateBudget

__all__ = ["MessagesAPI", "anthropic_client"]


class MessagesAPI:
    """The Messages API through an ``anthropic.Anthropic`` client (or a scripted fake)."""

    name = "the Anthropic API"
    # The account's request limit, as the API's answers say it.
    rate_headers = RateHeaders(
        "anthropic-ratelimit-requests-limit",
        "anthropic-ratelimit-requests-remaining",
        "anthropic-ratelimit-requests-reset",
        seconds_until,
    )

    def __init__(
        self, client: Any, *, citations: bool = False, endpoint: Endpoint = ANTHROPIC_ENDPOINT
    ) -> None:
        self.client = client
        self.citations = citations
        self.endpoint = endpoint

    @classmethod
    def make_client(
        cls,
        where: Endpoint,
        *,
        time_limits: TimeLimits,
        on_response: Callable[[Any], None] | None = None,
    ) -> Any:
        """An ``anthropic.Anthropic`` client of ``where``'s key, making one attempt a call
        (webtap's :func:`~webtap.agent.retry.send` retries); the SDK reads
        ``ANTHROPIC_BASE_URL`` itself."""
        import anthropic  # the SDK at the first model call (see webtap.agent)

        return anthropic.Anthropic(
            api_key=where.key,
            max_retries=0,
            timeout=time_limits.model_call,
            http_client=anthropic.DefaultHttpxClient(
                event_hooks={"response": response_hooks(where, on_response)}
            ),
        )

    @property
    def sdk(self) -> Any:
        import anthropic  # the SDK at the first model call (see webtap.agent)

        return anthropic

    def budget(self) -> RateBudget | None:
        """The key's shared budget; a client without a key of its own (a fake) has none."""
        key = getattr(self.client, "api_key", None)
        return model_budget(key, self.endpoint.provider) if isinstance(key, str) and key else None

    def post(self, request: dict[str, Any], timeout: float, retries: int) -> Any:
        """One attempt, its raw response."""
        return self.client.messages.with_raw_response.create(
            **request,
            timeout=timeout,
            # Number the attempts as the SDK would, for the API's own accounting.
            extra_headers={"x-stainless-retry-count": str(retries)},
        )

    # --- the request ---------------------------------------------------------------------------

    def opening(self, prompt: str) -> list[dict[str, Any]]:
        """The conversation's first message: the spec's user message."""
        return [{"role": "user", "content": prompt}]

    def request(
        self,
        *,
        model: str,
        max_tokens: int,
        messages: list[dict[str, Any]],
        tools: list[ToolSpec],
        tools_off: bool,
        force: str | None = None,
    ) -> dict[str, Any]:
        """A request; ``tools_off``: the tools stay listed (the history holds tool_use blocks)
        but none may be called; ``force``: the one tool the model must call."""
        request: dict[str, Any] = {"model": model, "max_tokens": max_tokens, "messages": messages}
        if tools:
            request["tools"] = [
                {"name": t.name, "description": t.description, "input_schema": t.parameters}
                for t in tools
            ]
            if force:
                request["tool_choice"] = {"type": "tool", "name": force}
            elif tools_off:
                request["tool_choice"] = {"type": "none"}
        return request

    def call(self, request: dict[str, Any], call: ModelCall, max_retries: int) -> ModelTurn:
        """One model call (its retries within the question's deadline), read into a turn."""
        return self.turn(parse_reply(send(self, request, call, max_retries)))

    # --- the reply -----------------------------------------------------------------------------

    def turn(self, reply: dict[str, Any]) -> ModelTurn:
        content = reply["content"]
        text = ""
        cited: list[CitedSpan] = []
        for block in content:
            if block.get("type") != "text":
                continue
            start = len(text)
            text += block.get("text", "")
            cited += _cited(block.get("citations"), start, len(text))
        calls = tuple(
            ToolCall(
                str(block.get("id", "")),
                str(block.get("name", "")),
                block["input"] if isinstance(block.get("input"), dict) else {},
            )
            for block in content
            if block.get("type") == "tool_use"
        )
        usage = reply.get("usage")
        return ModelTurn(
            text=text,
            calls=calls,
            stop_reason=reply.get("stop_reason") or "end_turn",
            usage=_counts(usage if isinstance(usage, dict) else {}),
            raw=content,
            cited=tuple(cited),
        )

    # --- the history ---------------------------------------------------------------------------

    def assistant(self, turn: ModelTurn) -> dict[str, Any]:
        return {"role": "assistant", "content": turn.raw}

    def results(self, replies: list[ToolReply], note: str = "") -> list[dict[str, Any]]:
        """The user message that answers a turn's tool calls, one ``tool_result`` each, and
        ``note`` after them (a user's words for the model)."""
        content: list[dict[str, Any]] = [self.tool_result(reply) for reply in replies]
        if note:
            content.append({"type": "text", "text": note})
        return [{"role": "user", "content": content}]

    def tool_result(self, reply: ToolReply) -> dict[str, Any]:
        block: dict[str, Any] = {
            "type": "tool_result",
            "tool_use_id": reply.call.id,
            "content": self._content(reply),
        }
        if reply.is_error:
            block["is_error"] = True
        return block

    def citable(self, reply: ToolReply) -> tuple[Source, ...]:
        """The sources of ``reply`` sent as documents the model can cite, in the order sent
        (what ``search_result_index`` counts): all of them, or none when citations are off or
        one has no text (the API refuses an empty document; the spec's text goes instead)."""
        if not self.citations or not all(source.blocks for source in reply.sources):
            return ()
        return reply.sources

    def _content(self, reply: ToolReply) -> str | list[dict[str, Any]]:
        sources = self.citable(reply)
        if not sources:
            return reply.content
        blocks: list[dict[str, Any]] = [
            {
                "type": "search_result",
                "source": source.snapshot.url,
                "title": source.snapshot.title or source.snapshot.url,
                "content": [
                    {"type": "text", "text": source.snapshot.text[start:end]}
                    for start, end in source.blocks
                ],
                "citations": {"enabled": True},
            }
            for source in sources
        ]
        if reply.note:
            blocks.append({"type": "text", "text": reply.note})
        return blocks


def _cited(citations: Any, start: int, end: int) -> list[CitedSpan]:
    """The ``search_result_location`` citations of one text block (others are not webtap's)."""
    if not isinstance(citations, list):
        return []
    found = []
    for citation in citations:
        if not isinstance(citation, dict) or citation.get("type") != "search_result_location":
            continue
        index, first, last = (
            _count(citation.get("search_result_index")),
            _count(citation.get("start_block_index")),
            _count(citation.get("end_block_index")),
        )
        if index is None or first is None or last is None:
            continue
        cited_text = citation.get("cited_text")
        cited_text = cited_text if isinstance(cited_text, str) else ""
        found.append(CitedSpan(start, end, index, first, last, cited_text))
    return found


def _count(value: Any) -> int | None:
    """A JSON count (not a bool, not negative), or None."""
    return value if type(value) is int and value >= 0 else None


def _counts(usage: dict[str, Any]) -> dict[str, int]:
    counts = {}
    for name in ("input_tokens", "output_tokens"):
        value = usage.get(name)
        if type(value) is int and 0 <= value < 2**53:  # a count, not a bool or 1e300
            counts[name] = value
    return counts


def anthropic_client(
    api_key: str,
    *,
    time_limits: TimeLimits = DEFAULT_TIME_LIMITS,
    max_retries: int = DEFAULT_MAX_RETRIES,
    on_response: Callable[[Any], None] | None = None,
) -> Any:
    """An ``anthropic.Anthropic`` client; it honours ``ANTHROPIC_BASE_URL``.

    The SDK makes one attempt per call (``max_retries=0``): webtap's own loop retries
    (:func:`webtap.agent.retry.send`), ``AskSettings.max_retries`` times, so that the
    question's deadline bounds every attempt and wait whatever the SDK's version does.
    ``max_retries`` is accepted for callers that pass their settings' value here. Safe to
    share between threads: one client serves every row of a SQL query.
    """
    del max_retries  # webtap's loop's business (retry.send), not the SDK's
    where = ANTHROPIC_ENDPOINT._replace(key=api_key)
    return MessagesAPI.make_client(where, time_limits=time_limits, on_response=on_response)
