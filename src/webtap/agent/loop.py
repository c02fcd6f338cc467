"""The conversation of one question: model call, tools, model call, until text."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from webtap.agent.api_errors import Refused
from webtap.agent.client import anthropic_client, one_attempt_per_call
from webtap.agent.prompt import (
    SEARCH_RESULTS,
    SEARCH_TOOL,
    SEARCH_UNAVAILABLE,
    format_search_results,
    user_message,
)
from webtap.agent.reply import parse_reply
from webtap.agent.retry import ModelCall, send, spent
from webtap.agent.settings import DEFAULT_SETTINGS, AskSettings, check_settings, default_model
from webtap.agent.steps import Answer, Step, ToolCall, ToolReply
from webtap.credentials import Credentials, Keys
from webtap.errors import APIError, InvalidInput
from webtap.net import Deadline
from webtap.redact import redact, remember
from webtap.tools import ToolResult, attempt
from webtap.tools import call as call_tool

__all__ = ["ask"]


def ask(
    question: str,
    context: str = "",
    *,
    model: str | None = None,
    max_tokens: int | None = None,
    max_tool_calls: int | None = None,
    settings: AskSettings = DEFAULT_SETTINGS,
    credentials: Credentials | None = None,
    client: Any = None,
    search_client: Any = None,
    on_step: Callable[[Step], None] | None = None,
    session_id: str | None = None,
) -> Answer:
    """Answer ``question`` in ``context`` with the model and webtap's tools.

    ``credentials`` default to :meth:`Keys.resolve` (environment, ``~/.stps``, credentials
    file). ``client`` is an ``anthropic.Anthropic`` (made from the key when omitted).
    ``on_step`` sees each :class:`ToolCall` before it runs and its :class:`ToolReply` after.
    """
    settings = replace(
        settings,
        model=model or settings.model or default_model(),
        max_tokens=settings.max_tokens if max_tokens is None else max_tokens,
        max_tool_calls=settings.max_tool_calls if max_tool_calls is None else max_tool_calls,
    )
    check_settings(settings)
    credentials = credentials or Keys().resolve()
    api_key = credentials.require_anthropic()
    owned = client is None
    if owned:
        client = anthropic_client(
            api_key, time_limits=settings.time_limits, max_retries=settings.max_retries
        )
    loop = _Loop(settings, credentials, client, search_client, on_step, session_id)
    from webtap.fetch.render import keep_browser

    try:
        with keep_browser():  # the question's fetches render in one browser, closed at its end
            return loop.run(user_message(question, context))
    finally:
        if owned:
            client.close()


class _Loop:
    """One question's conversation: model call, tools, model call, until text."""

    def __init__(
        self,
        settings: AskSettings,
        credentials: Credentials,
        client: Any,
        search_client: Any,
        on_step: Callable[[Step], None] | None,
        session_id: str | None,
    ) -> None:
        self.settings = settings
        self.credentials = credentials
        self.client = one_attempt_per_call(client)
        self.search_client = search_client
        self.on_step = on_step
        self.session_id = session_id
        self.provider = credentials.search_provider(settings.search_provider)
        self.deadline = Deadline(settings.time_limits.total)  # the whole question's
        self.results: list[ToolReply] = []
        self.usage = {"input_tokens": 0, "output_tokens": 0}
        self.model_calls = 0
        # URLs whose fetch was refused for good (a bot wall, robots.txt): asked again in the
        # same question, they get the same answer without another request.
        self.refused: dict[str, ToolResult] = {}

    def tools(self) -> list[dict[str, Any]]:
        from webtap.protocol import load_schema

        fetch = load_schema("web_fetch")
        tools = [SEARCH_TOOL] if self.provider else []
        tools.append(
            {
                "name": "web_fetch",
                "description": fetch["description"],
                "input_schema": fetch["parameters"],
            }
        )
        return tools

    def run(self, prompt: str) -> Answer:
        messages: list[dict[str, Any]] = [{"role": "user", "content": prompt}]
        tools = self.tools() if self.settings.max_tool_calls > 0 else []
        while True:
            limit_reached = len(self.results) >= self.settings.max_tool_calls
            request: dict[str, Any] = {
                "model": self.settings.model,
                "max_tokens": self.settings.max_tokens,
                "messages": messages,
            }
            if tools:
                # Still listed once the limit is reached: the history holds tool_use blocks.
                request["tools"] = tools
                if limit_reached:
                    request["tool_choice"] = {"type": "none"}
            reply = self.call_model(request)
            content = reply["content"]
            stop_reason = reply.get("stop_reason") or "end_turn"
            text = "".join(
                block.get("text", "") for block in content if block.get("type") == "text"
            )
            if stop_reason == "refusal":
                raise Refused(
                    "The model declined to answer this question (stop_reason: refusal). "
                    "Rephrase the question or its context."
                )
            uses = [block for block in content if block.get("type") == "tool_use"]
            if stop_reason != "tool_use" or not uses:
                return self.answer(text, stop_reason)
            known = {tool["name"] for tool in tools}
            if limit_reached or not any(use.get("name") in known for use in uses):
                # Spec 002: "Unknown tool name: Ignore, return text response".
                if text.strip():
                    return self.answer(text, stop_reason)
                names = ", ".join(sorted({str(use.get("name")) for use in uses}))
                if limit_reached:
                    raise APIError(
                        f"The model asked for more tool calls ({names}) than the limit of "
                        f"{self.settings.max_tool_calls} and gave no text answer. Raise "
                        "max_tool_calls, or try again."
                    )
                raise APIError(
                    f"The model asked for a tool webtap does not offer ({names}) and gave no "
                    "text answer. Try again, or rephrase the question."
                )
            messages.append({"role": "assistant", "content": content})
            messages.append({"role": "user", "content": [self.run_tool(use) for use in uses]})

    def answer(self, text: str, stop_reason: str) -> Answer:
        return Answer(
            text=text,
            stop_reason=stop_reason,
            model=self.settings.model,
            tool_results=tuple(self.results),
            model_calls=self.model_calls,
            usage=dict(self.usage),
        )

    def call_model(self, request: dict[str, Any]) -> dict[str, Any]:
        secrets = self.credentials.secrets()
        remember(secrets)  # every quote of a reply hides them, wherever it is cut
        call = ModelCall(
            self.deadline,
            self.settings.time_limits.model_call,
            tuple(secrets),
            self.settings.model,
        )
        if self.deadline.expired:
            raise spent(self.deadline)
        self.model_calls += 1
        body = send(self.client, request, call, self.settings.max_retries)
        reply = parse_reply(body)
        usage = reply.get("usage")
        if isinstance(usage, dict):
            for name in self.usage:
                value = usage.get(name)
                if type(value) is int and 0 <= value < 2**53:  # a count, not a bool or 1e300
                    self.usage[name] += value
        return reply

    def run_tool(self, use: dict[str, Any]) -> dict[str, Any]:
        raw_input = use.get("input")
        call = ToolCall(
            str(use.get("id", "")),
            str(use.get("name", "")),
            raw_input if isinstance(raw_input, dict) else {},
        )
        provider = self.provider  # the search offered, if any
        if call.name not in ("web_search", "web_fetch") or (
            call.name == "web_search" and not provider
        ):
            return ToolReply(call, f"Unknown tool '{call.name}'.", True, "unknown tool").block()
        if len(self.results) >= self.settings.max_tool_calls:
            # The model asked for several tools at once; the ones past the limit are refused.
            reply = ToolReply(
                call,
                "Tool call limit reached. Please answer with what you have.",
                True,
                "over the tool call limit",
            )
            return reply.block()
        if self.on_step:
            self.on_step(call)
        # Both tools the same way: a webtap.tools.ToolResult, then the reply made of it.
        if call.name == "web_search" and provider:
            reply = self.search_reply(call, self.search(call, provider))
        else:
            reply = self.fetch_reply(call, self.fetch(call))
        self.results.append(reply)
        if reply.event and self.settings.store_events:
            from webtap.host.events import keep_event

            keep_event(reply.event, self.session_id)
        if self.on_step:
            self.on_step(reply)
        return reply.block()

    def search(self, call: ToolCall, provider: str) -> ToolResult:
        query = call.input.get("query")
        if not isinstance(query, str) or not query.strip():
            problem = "Missing required parameter 'query': give the search query as a string."
            return ToolResult(call.name, failure=InvalidInput(problem))
        # In process the answer keeps its SearchResult objects: the spec's text is made of them.
        return attempt(call.name, lambda: {"results": self.run_search(query, provider)})

    def search_reply(self, call: ToolCall, outcome: ToolResult) -> ToolReply:
        if outcome.failure is None:
            results = outcome.result["results"]
            shown = min(len(results), SEARCH_RESULTS)
            return ToolReply(call, format_search_results(results), False, f"{shown} results")
        detail = redact(outcome.failure.message, self.credentials.secrets())
        if isinstance(outcome.failure, InvalidInput):  # the model's mistake: it must see it
            return ToolReply(call, detail, True, detail, outcome.event)
        # Spec 002: any other failed search is this one text; the person sees why.
        return ToolReply(call, SEARCH_UNAVAILABLE, True, detail, outcome.event)

    def run_search(self, query: str, provider: str) -> list[Any]:
        from webtap.budget.rate import TurnDeadline
        from webtap.search import search

        # The search may wait for its turn in the key's shared rate budget as long as the
        # question has time; then it has its own time limit, its one retry included.
        left = max(self.deadline.remaining(), 0.1)
        deadline = TurnDeadline(self.settings.time_limits.search, wait=left)
        return search(
            query,
            provider,
            SEARCH_RESULTS,
            credentials=self.credentials.for_provider(provider),
            client=self.search_client,
            deadline=deadline,
        )

    def fetch(self, call: ToolCall) -> ToolResult:
        url = call.input.get("url")
        earlier = self.refused.get(url) if isinstance(url, str) else None
        if earlier is not None:
            return earlier
        request = dict(call.input)
        request.setdefault("limit", self.settings.fetch_limit)
        outcome = call_tool("web_fetch", request)
        failure = outcome.failure
        if isinstance(url, str) and failure is not None and failure.code in _FOR_GOOD:
            self.refused[url] = outcome
        return outcome

    def asked(self, url: str) -> bool:
        """Whether an earlier fetch in this question asked for ``url``."""
        return any(
            reply.call.name == "web_fetch" and reply.call.input.get("url") == url
            for reply in self.results
        )

    def fetch_reply(self, call: ToolCall, outcome: ToolResult) -> ToolReply:
        if outcome.failure is not None:
            error = f"{outcome.failure.explained} ({outcome.failure.code})"
            url = call.input.get("url")
            if isinstance(url, str) and self.refused.get(url) is outcome and self.asked(url):
                error += (
                    " This URL was refused earlier in this conversation; it was not fetched again."
                )
            return ToolReply(call, f"Fetch failed: {error}", True, error, outcome.event)
        page = {key: value for key, value in outcome.result.items() if key != "success"}
        lines = str(page.get("content", "")).count("\n") + 1
        detail = f"{page.get('title') or page.get('url')} ({lines} lines)"
        return ToolReply(call, json.dumps(page, ensure_ascii=False), False, detail, outcome.event)


# Fetch failures that no retry of the same URL can turn into content: a bot wall, robots.txt
# (their advice is never "retryable"; the "14 identical retries" of issue 22).
_FOR_GOOD = frozenset(("BLOCKED", "ROBOTS_DISALLOWED"))
