"""The conversation of one question: model call, tools, model call, until text."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from webtap import answer_schema
from webtap.agent import typed
from webtap.agent.api_errors import Refused
from webtap.agent.citations import from_spans
from webtap.agent.client import one_attempt_per_call
from webtap.agent.models import Model, adapter, endpoint, make_client, parse_model
from webtap.agent.prompt import (
    SEARCH_RESULTS,
    SEARCH_TOOL,
    SEARCH_UNAVAILABLE,
    format_search_results,
    shorten,
    user_message,
)
from webtap.agent.retry import ModelCall, spent
from webtap.agent.settings import DEFAULT_SETTINGS, AskSettings, check_settings, default_model
from webtap.agent.steps import Answer, Source, Step, ToolCall, ToolReply
from webtap.agent.turn import ModelTurn, ToolSpec
from webtap.answer_schema import Mismatch
from webtap.budget.rate import TurnDeadline
from webtap.credentials import Credentials, Keys
from webtap.errors import APIError, InvalidInput
from webtap.fetch.render import keep_browser
from webtap.host.events import keep_event
from webtap.net import Deadline
from webtap.protocol import load_schema
from webtap.redact import redact, remember
from webtap.search import search
from webtap.snapshots import Snapshots, blocks
from webtap.tools import ToolResult, attempt
from webtap.tools import call as call_tool

if TYPE_CHECKING:
    from webtap.agent.chat_api import ChatAPI
    from webtap.agent.messages_api import MessagesAPI

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
    citations: bool | None = None,
    schema: str | dict[str, Any] | None = None,
) -> Answer:
    """Answer ``question`` in ``context`` with the model and webtap's tools.

    ``model`` is named ``provider:model`` (:mod:`webtap.agent.models`; a bare name is
    Anthropic's). ``credentials`` default to :meth:`Keys.resolve` (environment, ``~/.stps``,
    credentials file). ``client`` is the SDK client of the model's protocol (an
    ``anthropic.Anthropic`` or an ``openai.OpenAI``), made from the key when omitted.
    ``on_step`` sees each :class:`ToolCall` before it runs and its :class:`ToolReply` after.
    ``citations`` (default: the settings'): the answer's :attr:`Answer.citations`, each quote
    checked against the snapshot of what the model read. ``schema`` (a JSON Schema, its JSON
    text, or a DuckDB type): the answer's :attr:`Answer.value` is data that fits it.
    """
    settings = replace(
        settings,
        model=model or settings.model or default_model(),
        max_tokens=settings.max_tokens if max_tokens is None else max_tokens,
        max_tool_calls=settings.max_tool_calls if max_tool_calls is None else max_tool_calls,
        citations=settings.citations if citations is None else citations,
        schema=settings.schema if schema is None else answer_schema.parse(schema),
    )
    check_settings(settings)
    chosen = parse_model(settings.model)
    credentials = credentials or Keys().resolve()
    where = endpoint(chosen, credentials)
    owned = client is None
    if owned:
        client = make_client(where, time_limits=settings.time_limits)
    api = adapter(where, one_attempt_per_call(client), citations=settings.citations)
    loop = _Loop(settings, credentials, api, search_client, on_step, session_id, chosen)
    try:
        with keep_browser():  # the question's fetches render in one browser, closed at its end
            return loop.run(user_message(question, context))
    finally:
        loop.snapshots.close()
        if owned:
            client.close()


class _Loop:
    """One question's conversation: model call, tools, model call, until text."""

    def __init__(
        self,
        settings: AskSettings,
        credentials: Credentials,
        api: MessagesAPI | ChatAPI,
        search_client: Any,
        on_step: Callable[[Step], None] | None,
        session_id: str | None,
        model: Model,
    ) -> None:
        self.settings = settings
        self.model = model
        self.credentials = credentials
        self.api = api
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
        self.snapshots = Snapshots()
        self.sources: list[Source] = []  # every source sent as a citable document, in order
        self.read: list[Source] = []  # every source this question read

    def tools(self) -> list[ToolSpec]:
        fetch = load_schema("web_fetch")
        search = SEARCH_TOOL
        tools = (
            [ToolSpec(search["name"], search["description"], search["input_schema"])]
            if self.provider
            else []
        )
        tools.append(ToolSpec("web_fetch", fetch["description"], fetch["parameters"]))
        return tools

    def run(self, prompt: str) -> Answer:
        messages = self.api.opening(prompt)
        tools = self.tools() if self.settings.max_tool_calls > 0 else []
        while True:
            limit_reached = len(self.results) >= self.settings.max_tool_calls
            turn = self.ask_model(messages, tools, tools_off=limit_reached)
            text, stop_reason, uses = turn.text, turn.stop_reason, turn.calls
            if stop_reason == "refusal":
                raise Refused(
                    "The model declined to answer this question (stop_reason: refusal). "
                    "Rephrase the question or its context."
                )
            if stop_reason != "tool_use" or not uses:
                return self.finish(turn, messages, tools)
            known = {tool.name for tool in tools}
            if limit_reached or not any(use.name in known for use in uses):
                # Spec 002: "Unknown tool name: Ignore, return text response".
                if text.strip():
                    return self.finish(turn, messages, tools)
                names = ", ".join(sorted({use.name for use in uses}))
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
            messages.append(self.api.assistant(turn))
            messages += self.api.results([self.run_tool(use) for use in uses])

    def finish(
        self, turn: ModelTurn, messages: list[dict[str, Any]], tools: list[ToolSpec]
    ) -> Answer:
        """The answer: the model's text, and with a schema, its value as data (typed)."""
        schema = self.settings.schema
        if schema is None:
            return self.answer(turn)
        with_sources = self.settings.citations
        messages.append(self.api.assistant(turn))
        ask = typed.ASK_FOR_DATA + (typed.ASK_FOR_SOURCES if with_sources else "")
        messages += self.api.results([_not_run(call) for call in turn.calls], note=ask)
        offered = [*tools, typed.answer_tool(schema, with_sources=with_sources)]
        problem = Mismatch("The model did not call the answer tool.")
        for _ in range(2):  # the value, and once more with what was wrong with it
            given = self.ask_model(messages, offered, force=typed.ANSWER_TOOL)
            calls = [call for call in given.calls if call.name == typed.ANSWER_TOOL]
            if calls:
                try:
                    value, claimed = typed.split(calls[0].input, schema)
                except Mismatch as exc:
                    problem = exc
                else:
                    value, sources = typed.sourced(
                        value, claimed, schema, self.read, unsupported=self.settings.unsupported
                    )
                    return replace(self.answer(turn), value=value, value_sources=sources)
            messages.append(self.api.assistant(given))
            replies = [
                ToolReply(call, typed.mismatch_reply(problem), True, problem.message)
                if call.name == typed.ANSWER_TOOL
                else _not_run(call)
                for call in given.calls
            ]
            messages += self.api.results(
                replies, note="" if calls else typed.mismatch_reply(problem)
            )
        raise typed.NoFit(
            f"The model's answer did not fit the schema, also when asked again: {problem.message}"
        )

    def answer(self, turn: ModelTurn) -> Answer:
        return Answer(
            text=turn.text,
            stop_reason=turn.stop_reason,
            model=self.settings.model,
            tool_results=tuple(self.results),
            model_calls=self.model_calls,
            usage=dict(self.usage),
            citations=from_spans(turn.cited, self.sources),
        )

    def ask_model(
        self,
        messages: list[dict[str, Any]],
        tools: list[ToolSpec],
        *,
        tools_off: bool = False,
        force: str | None = None,
    ) -> ModelTurn:
        """One model call on the conversation so far, written by the protocol's adapter."""
        request = self.api.request(
            model=self.model.name,
            max_tokens=self.settings.max_tokens,
            messages=messages,
            tools=tools,
            tools_off=tools_off,
            force=force,
        )
        return self.call_model(request)

    def call_model(self, request: dict[str, Any]) -> ModelTurn:
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
        turn = self.api.call(request, call, self.settings.max_retries)
        for name, value in turn.usage.items():
            if name in self.usage:
                self.usage[name] += value
        return turn

    def run_tool(self, call: ToolCall) -> ToolReply:
        provider = self.provider  # the search offered, if any
        if call.name not in ("web_search", "web_fetch") or (
            call.name == "web_search" and not provider
        ):
            return ToolReply(call, f"Unknown tool '{call.name}'.", True, "unknown tool")
        if len(self.results) >= self.settings.max_tool_calls:
            # The model asked for several tools at once; the ones past the limit are refused.
            reply = ToolReply(
                call,
                "Tool call limit reached. Please answer with what you have.",
                True,
                "over the tool call limit",
            )
            return reply
        if self.on_step:
            self.on_step(call)
        if call.problem:  # garbled arguments: the model is told, and the call counts
            reply = ToolReply(call, f"Error: {call.problem}", True, call.problem)
            self.results.append(reply)
            if self.on_step:
                self.on_step(reply)
            return reply
        # Both tools the same way: a webtap.tools.ToolResult, then the reply made of it.
        if call.name == "web_search" and provider:
            reply = self.search_reply(call, self.search(call, provider))
        else:
            reply = self.fetch_reply(call, self.fetch(call))
        self.results.append(reply)
        if reply.event and self.settings.store_events:
            keep_event(reply.event, self.session_id)
        self.sources += self.api.citable(reply)
        if self.on_step:
            self.on_step(reply)
        return reply

    def search(self, call: ToolCall, provider: str) -> ToolResult:
        query = call.input.get("query")
        if not isinstance(query, str) or not query.strip():
            problem = "Missing required parameter 'query': give the search query as a string."
            return ToolResult(call.name, failure=InvalidInput(problem))
        # In process the answer keeps its SearchResult objects: the spec's text is made of them.
        return attempt(call.name, lambda: {"results": self.run_search(query, provider)})

    def search_reply(self, call: ToolCall, outcome: ToolResult) -> ToolReply:
        if outcome.failure is None:
            results = outcome.result["results"][:SEARCH_RESULTS]
            sources = tuple(
                self.source(result.url, result.title, shorten(result.snippet)) for result in results
            )
            text = format_search_results(results)
            return ToolReply(call, text, False, f"{len(results)} results", sources=sources)
        detail = redact(outcome.failure.message, self.credentials.secrets())
        if isinstance(outcome.failure, InvalidInput):  # the model's mistake: it must see it
            return ToolReply(call, detail, True, detail, outcome.event)
        # Spec 002: any other failed search is this one text; the person sees why.
        return ToolReply(call, SEARCH_UNAVAILABLE, True, detail, outcome.event)

    def run_search(self, query: str, provider: str) -> list[Any]:
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
        content = str(page.get("content", ""))
        lines = content.count("\n") + 1
        detail = f"{page.get('title') or page.get('url')} ({lines} lines)"
        url = str(page.get("url") or call.input.get("url") or "")
        source = self.source(url, str(page.get("title") or ""), content)
        # With citations the page goes as a document; what else the model needs (its URL, the
        # lines it holds, where it goes on) as a note beside it.
        note = {key: value for key, value in page.items() if key != "content"}
        return ToolReply(
            call,
            json.dumps(page, ensure_ascii=False),
            False,
            detail,
            outcome.event,
            sources=(source,),
            note=json.dumps(note, ensure_ascii=False),
        )

    def source(self, url: str, title: str, text: str) -> Source:
        """``text`` as read from ``url``, kept (a snapshot) and cut into citable blocks."""
        source = Source(self.snapshots.take(url, title, text), tuple(blocks(text)))
        self.read.append(source)
        return source


def _not_run(call: ToolCall) -> ToolReply:
    return ToolReply(call, "Not run: give your answer now.", True, "not run")


# Fetch failures that no retry of the same URL can turn into content: a bot wall, robots.txt
# (their advice is never "retryable"; the "14 identical retries" of issue 22).
_FOR_GOOD = frozenset(("BLOCKED", "ROBOTS_DISALLOWED"))
