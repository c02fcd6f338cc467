"""The ask loop: a question to the Anthropic Messages API, with webtap's tools (spec 002).

::

    from webtap.agent import ask
    answer = ask("What is the current price?", context="Bitcoin")
    print(answer.text)

The user message is ``"Context: {context}\\n\\nQuestion: {question}"``. The model is offered
``web_search`` (the spec's exact definition, backed by Brave, SearXNG or Google) only when
that provider is set up, and ``web_fetch`` always (DESIGN 7). On ``tool_use`` the loop runs each
requested tool and answers with one user message of ``tool_result`` blocks, then calls again; a
failed search becomes ``is_error`` with the spec's text. After ``max_tool_calls`` tool calls (1
by default, the spec's constraint) the next call carries ``tool_choice: none``, so the model
must answer in text. Budgets bound each model call, each search and the whole question.

Failures raise :class:`~webtap.errors.WebtapError` subclasses with messages that name what went
wrong and what to do, and that never contain a key.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from webtap.errors import (
    APIError,
    AuthInvalid,
    ConfigError,
    NetworkError,
    RateLimit,
    WebtapError,
)
from webtap.keys import Credentials, Keys
from webtap.protocol import loads_json
from webtap.redact import LOOK, quote, redact, remember

__all__ = [
    "DEFAULT_BUDGETS",
    "DEFAULT_MAX_TOKENS",
    "DEFAULT_MAX_TOOL_CALLS",
    "DEFAULT_MODEL",
    "DEFAULT_SETTINGS",
    "SEARCH_TOOL",
    "SEARCH_UNAVAILABLE",
    "Answer",
    "AskSettings",
    "Budgets",
    "ModelNotFound",
    "Refused",
    "ToolCall",
    "ToolResult",
    "ask",
    "default_model",
    "format_search_results",
    "make_client",
    "user_message",
]

# A current model that the installed SDK does not list as deprecated (spec 002 named the model of
# its day); WEBTAP_MODEL overrides it for every front end, and --model / stps_set_model win.
DEFAULT_MODEL = "claude-sonnet-5-5"
MODEL_ENV = "WEBTAP_MODEL"
DEFAULT_MAX_TOKENS = 1000
DEFAULT_MAX_TOOL_CALLS = 1  # spec 002: "Single tool call limit (max 1 search per query)"
DEFAULT_MAX_RETRIES = 2  # the SDK's own retries of 408/409/429/5xx/529 and connection errors
DEFAULT_FETCH_LIMIT = 400  # lines of a page given to the model when it does not ask for a limit
MAX_TOOL_CALLS = 20

SEARCH_UNAVAILABLE = "Search unavailable. Please answer from your knowledge."
SEARCH_RESULTS = 5  # spec 002: "Top 5 web results"
DESCRIPTION_WIDTH = 200  # spec 002: "truncate to ~200 chars"
MAX_REPLY_BYTES = 32 * 1024 * 1024  # decoded; a 128k-token answer is a few MB of JSON

# Spec 002, "Tool Definition in Request", to the letter.
SEARCH_TOOL: dict[str, Any] = {
    "name": "web_search",
    "description": "Search the web for current information",
    "input_schema": {
        "type": "object",
        "properties": {"query": {"type": "string", "description": "Search query"}},
        "required": ["query"],
    },
}


@dataclass(frozen=True)
class Budgets:
    """Seconds: one model call, one search, and one whole question (spec 002, "Timeout")."""

    model_call: float = 30.0
    search: float = 10.0
    total: float = 90.0


DEFAULT_BUDGETS = Budgets()


@dataclass(frozen=True)
class AskSettings:
    """How one question is asked. ``model``: empty for :func:`default_model`.
    ``search_provider``: ``"brave"``, ``"searxng"``, ``"google"``, ``"none"``, or ``None`` for
    the first that is set up."""

    model: str = ""
    max_tokens: int = DEFAULT_MAX_TOKENS
    max_tool_calls: int = DEFAULT_MAX_TOOL_CALLS
    search_provider: str | None = None
    budgets: Budgets = DEFAULT_BUDGETS
    fetch_limit: int = DEFAULT_FETCH_LIMIT
    max_retries: int = DEFAULT_MAX_RETRIES
    store_events: bool = True


DEFAULT_SETTINGS = AskSettings()


@dataclass(frozen=True)
class ToolCall:
    """A tool the model asked for."""

    id: str
    name: str
    input: dict[str, Any]


@dataclass(frozen=True)
class ToolResult:
    """What a tool call gave: ``content`` for the model, ``detail`` for the person."""

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


Step = ToolCall | ToolResult


@dataclass(frozen=True)
class Answer:
    """The model's final text and how it got there."""

    text: str
    stop_reason: str
    model: str
    tool_results: tuple[ToolResult, ...] = ()
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


class Refused(APIError):
    """The model declined to answer (``stop_reason: refusal``)."""


class ModelNotFound(APIError):
    """The API does not serve the model asked for (404 ``not_found_error``): never retried."""


def default_model() -> str:
    """``WEBTAP_MODEL`` when set, else :data:`DEFAULT_MODEL`."""
    return os.environ.get(MODEL_ENV, "").strip() or DEFAULT_MODEL


def user_message(question: str, context: str = "") -> str:
    """The spec's user message."""
    return f"Context: {context}\n\nQuestion: {question}"


def make_client(
    api_key: str,
    *,
    budgets: Budgets = DEFAULT_BUDGETS,
    max_retries: int = DEFAULT_MAX_RETRIES,
    on_response: Callable[[Any], None] | None = None,
) -> Any:
    """An ``anthropic.Anthropic`` client; it honours ``ANTHROPIC_BASE_URL``.

    The SDK makes one attempt per call (``max_retries=0``): webtap's own loop retries
    (:func:`_send`), ``AskSettings.max_retries`` times, so that the question's budget bounds
    every attempt and wait whatever the SDK's version does. ``max_retries`` is accepted for
    callers that pass their settings' value here. Safe to share between threads: one client
    serves every row of a SQL query. ``on_response`` sees every HTTP response (its headers
    carry the account's rate limits).
    """
    import anthropic

    from webtap.net import capping_hook

    del max_retries  # webtap's loop's business (_send), not the SDK's
    # The SDK reads replies itself: the hook decodes them capped, as every body from outside.
    hooks: list[Callable[[Any], None]] = [] if on_response is None else [on_response]
    hooks.append(capping_hook(MAX_REPLY_BYTES, _reply_too_large))
    return anthropic.Anthropic(
        api_key=api_key,
        max_retries=0,
        timeout=budgets.model_call,
        http_client=anthropic.DefaultHttpxClient(event_hooks={"response": hooks}),
    )


def _reply_too_large() -> APIError:
    return APIError(
        f"The Anthropic API sent a reply larger than {MAX_REPLY_BYTES // (1024 * 1024)} MB; "
        "no message is that large. Check ANTHROPIC_BASE_URL, or try again later."
    )


@dataclass(frozen=True)
class _Budget:
    """What every attempt of one model call must respect (see :func:`_send`)."""

    deadline: float  # time.monotonic() by which the whole question must be done
    total: float
    model_call: float
    secrets: tuple[str, ...]
    model: str | None = None  # named when the API does not serve it


RETRY_STATUSES = frozenset({408, 409, 429})  # and every 5xx, 529 (overloaded) included
MAX_RETRY_AFTER = 60.0  # seconds: a server's longer retry-after is not waited for


def _send(client: Any, request: dict[str, Any], budget: _Budget, max_retries: int) -> bytes:
    """One model call: the first attempt and up to ``max_retries`` retries, inside the budget.

    A retry follows a connection failure, a timeout, or a 408/409/429/5xx answer (unless the
    server says ``x-should-retry: false``), after the server's ``retry-after(-ms)`` (up to
    60 s) or else an exponential back-off (0.5 s doubling to 8 s, less up to 25 % jitter).
    An attempt gets no more time than the question has left, none starts once the budget is
    spent, and no retry is made whose wait would outlast it: the failure is reported then.
    """
    import anthropic

    retries = 0
    while True:
        remaining = budget.deadline - time.monotonic()
        if remaining <= 0:
            raise _spent(budget)
        timeout = min(budget.model_call, remaining)
        try:
            with translate_api_errors(
                list(budget.secrets), budget.model_call, retries, model=budget.model
            ):
                try:
                    raw = client.messages.with_raw_response.create(
                        **request,
                        timeout=timeout,
                        # Number the attempts as the SDK would, for the API's own accounting.
                        extra_headers={"x-stainless-retry-count": str(retries)},
                    )
                    return raw.http_response.content
                except anthropic.APITimeoutError:
                    if timeout < budget.model_call:
                        raise _spent(budget) from None  # the budget ended it, not the call
                    wait = _retry_wait(None, retries)
                    if retries >= max_retries or wait >= budget.deadline - time.monotonic():
                        raise
                except anthropic.APIConnectionError as exc:
                    if isinstance(exc.__cause__, WebtapError):
                        raise exc.__cause__ from None  # the reply was too large: no retry
                    wait = _retry_wait(None, retries)
                    if retries >= max_retries or wait >= budget.deadline - time.monotonic():
                        raise
                except anthropic.APIStatusError as exc:
                    if retries >= max_retries or not _should_retry(exc.response):
                        raise
                    wait = _retry_wait(exc.response.headers, retries)
                    if wait >= budget.deadline - time.monotonic():
                        raise _OutOfTime(exc) from None
        except _OutOfTime as out:
            with translate_api_errors(
                list(budget.secrets), budget.model_call, retries, True, model=budget.model
            ):
                raise out.error from None
        time.sleep(wait)
        retries += 1


def _one_attempt_per_call(client: Any) -> Any:
    """``client`` with the SDK's retries off: a caller's own client too, so that there is one
    retry loop (:func:`_send`) and one budget, not the SDK's retries inside webtap's."""
    if getattr(client, "max_retries", 0) and callable(getattr(client, "with_options", None)):
        return client.with_options(max_retries=0)
    return client


class _OutOfTime(Exception):
    """A retryable failure whose retry would outlast the question's budget."""

    def __init__(self, error: Exception) -> None:
        self.error = error


def _should_retry(response: Any) -> bool:
    said = response.headers.get("x-should-retry", "").strip().lower()
    if said in ("true", "false"):
        return said == "true"
    return response.status_code in RETRY_STATUSES or response.status_code >= 500


def _retry_wait(headers: Any, retries: int) -> float:
    """Seconds before retry number ``retries + 1``: the server's ``retry-after-ms`` or
    ``retry-after`` (seconds or an HTTP date) when it gives one up to 60 s, else webtap's
    back-off, 0.5 s doubling to 8 s, less up to 25 % jitter."""
    if headers is not None:
        wait = _retry_after(headers)
        if wait is not None and 0 <= wait <= MAX_RETRY_AFTER:
            return wait
    return min(0.5 * 2.0**retries, 8.0) * (1 - 0.25 * random.random())


def _retry_after(headers: Any) -> float | None:
    try:
        return float(headers.get("retry-after-ms", "")) / 1000
    except ValueError:
        pass
    value = headers.get("retry-after", "")
    try:
        return float(value)
    except ValueError:
        pass
    from email.utils import parsedate_to_datetime

    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    return when.timestamp() - time.time() if when.tzinfo else None


def _spent(budget: _Budget) -> NetworkError:
    return NetworkError(f"Gave up: the question took longer than its {budget.total:g} s budget.")


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
    ``on_step`` sees each :class:`ToolCall` before it runs and its :class:`ToolResult` after.
    """
    settings = replace(
        settings,
        model=model or settings.model or default_model(),
        max_tokens=settings.max_tokens if max_tokens is None else max_tokens,
        max_tool_calls=settings.max_tool_calls if max_tool_calls is None else max_tool_calls,
    )
    _check(settings)
    credentials = credentials or Keys().resolve()
    api_key = credentials.require_anthropic()
    owned = client is None
    if owned:
        client = make_client(api_key, budgets=settings.budgets, max_retries=settings.max_retries)
    loop = _Loop(settings, credentials, client, search_client, on_step, session_id)
    try:
        return loop.run(user_message(question, context))
    finally:
        if owned:
            client.close()


def _check(settings: AskSettings) -> None:
    from webtap.errors import InvalidInput

    if not settings.model.strip():
        raise InvalidInput("The model name is empty; give one such as " + DEFAULT_MODEL)
    if not settings.model.isprintable():
        raise InvalidInput(
            f"The model name {settings.model!r} contains control characters; give one such as "
            + DEFAULT_MODEL
        )
    if not 1 <= settings.max_tokens <= 128_000:
        raise InvalidInput(f"max_tokens must be between 1 and 128000 (got {settings.max_tokens})")
    if not 0 <= settings.max_tool_calls <= MAX_TOOL_CALLS:
        raise InvalidInput(
            f"max_tool_calls must be between 0 and {MAX_TOOL_CALLS} (got {settings.max_tool_calls})"
        )


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
        self.client = _one_attempt_per_call(client)
        self.search_client = search_client
        self.on_step = on_step
        self.session_id = session_id
        self.provider = credentials.search_provider(settings.search_provider)
        self.deadline = time.monotonic() + settings.budgets.total
        self.results: list[ToolResult] = []
        self.usage = {"input_tokens": 0, "output_tokens": 0}
        self.model_calls = 0

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
        budgets = self.settings.budgets
        secrets = self.credentials.secrets()
        remember(secrets)  # every quote of a reply hides them, wherever it is cut
        budget = _Budget(
            self.deadline, budgets.total, budgets.model_call, tuple(secrets), self.settings.model
        )
        remaining = self.deadline - time.monotonic()
        if remaining <= 0:
            raise _spent(budget)
        self.model_calls += 1
        body = _send(self.client, request, budget, self.settings.max_retries)
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
        if call.name not in ("web_search", "web_fetch") or (
            call.name == "web_search" and not self.provider
        ):
            result = ToolResult(call, f"Unknown tool '{call.name}'.", True, "unknown tool")
            return result.block()
        if len(self.results) >= self.settings.max_tool_calls:
            # The model asked for several tools at once; the ones past the limit are refused.
            result = ToolResult(
                call,
                "Tool call limit reached. Please answer with what you have.",
                True,
                "over the tool call limit",
            )
            return result.block()
        if self.on_step:
            self.on_step(call)
        result = self.search(call) if call.name == "web_search" else self.fetch(call)
        self.results.append(result)
        if result.event:
            self.store(result.event)
        if self.on_step:
            self.on_step(result)
        return result.block()

    def search(self, call: ToolCall) -> ToolResult:
        query = call.input.get("query")
        if not isinstance(query, str) or not query.strip():
            return ToolResult(
                call,
                "Missing required parameter 'query': give the search query as a string.",
                True,
                "missing query",
            )
        try:
            results = self.run_search(query)
        except WebtapError as exc:
            detail = redact(exc.message, self.credentials.secrets())
            return ToolResult(call, SEARCH_UNAVAILABLE, True, detail, exc.event)
        except Exception as exc:  # a provider bug must not end the question
            detail = redact(f"{type(exc).__name__}: {exc}", self.credentials.secrets())
            return ToolResult(call, SEARCH_UNAVAILABLE, True, detail)
        shown = min(len(results), SEARCH_RESULTS)
        return ToolResult(call, format_search_results(results), False, f"{shown} results")

    def run_search(self, query: str) -> list[Any]:
        from webtap.search import brave_search, google_search, searxng_search
        from webtap.search.budget import TurnDeadline

        # The search may wait for its turn in the key's shared rate budget as long as the
        # question has time; then it has its own budget, its one retry included.
        left = max(self.deadline - time.monotonic(), 0.1)
        deadline = TurnDeadline(self.settings.budgets.search, wait=left)
        creds = self.credentials
        if self.provider == "google":
            return google_search(
                query,
                num=SEARCH_RESULTS,
                api_key=creds.google_api_key,
                engine_id=creds.google_cse_id,
                client=self.search_client,
                deadline=deadline,
            )
        if self.provider == "searxng":
            return searxng_search(
                query,
                count=SEARCH_RESULTS,
                url=creds.searxng,
                client=self.search_client,
                deadline=deadline,
            )
        return brave_search(
            query,
            count=SEARCH_RESULTS,
            api_key=creds.brave,
            client=self.search_client,
            deadline=deadline,
        )

    def fetch(self, call: ToolCall) -> ToolResult:
        from webtap import tools

        request = dict(call.input)
        request.setdefault("limit", self.settings.fetch_limit)
        response = tools.call("web_fetch", request)
        event = response.pop("_event", None)
        if not response.get("success"):
            error = f"{response.get('error', 'unknown error')} ({response.get('error_code')})"
            return ToolResult(call, f"Fetch failed: {error}", True, error, event)
        page = {key: value for key, value in response.items() if key != "success"}
        lines = str(page.get("content", "")).count("\n") + 1
        detail = f"{page.get('title') or page.get('url')} ({lines} lines)"
        return ToolResult(call, json.dumps(page, ensure_ascii=False), False, detail, event)

    def store(self, event: dict[str, Any]) -> None:
        if not self.settings.store_events:
            return
        try:
            from webtap.store import record_event

            record_event(event, session_id=self.session_id)
        except Exception:  # the answer matters more than the record of a warning
            pass


def format_search_results(results: list[Any]) -> str:
    """The spec's text for the model: the top 5, numbered, title, URL, description."""
    if not results:
        return "Search Results:\n\nNo results found."
    entries = []
    for number, result in enumerate(results[:SEARCH_RESULTS], start=1):
        entries.append(
            f"{number}. {result.title}\n   {result.url}\n   {shorten(result.snippet)}".rstrip()
        )
    return "Search Results:\n\n" + "\n\n".join(entries)


def shorten(text: str, width: int = DESCRIPTION_WIDTH) -> str:
    """``text`` cut to about ``width`` characters on a word boundary, with "..."."""
    text = " ".join(text.split())
    if len(text) <= width:
        return text
    cut = text[:width]
    space = cut.rfind(" ")
    if space > width // 2:
        cut = cut[:space]
    return cut.rstrip(" ,.;:-") + "..."


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
_BLOCK_FIELDS = {
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


@contextmanager
def translate_api_errors(
    secrets: list[str],
    timeout: float,
    retries: int,
    out_of_time: bool = False,
    *,
    model: str | None = None,
) -> Iterator[None]:
    """The SDK's exceptions as webtap's, most specific first, with no key in any message.

    ``retries`` were made before the failure; ``out_of_time`` when another was due but the
    question's budget had no time left for it; ``model`` names the model in a 404's message.
    """
    import anthropic

    try:
        yield
    except WebtapError:
        raise
    except anthropic.NotFoundError as exc:
        said = _said(exc)
        if model is None or "model" not in said.lower():
            raise APIError(redact(f"The Anthropic API answered 404: {said}", secrets)) from None
        raise ModelNotFound(
            f"The Anthropic API does not serve the model {model!r} (404 not_found_error). "
            f"Choose another with --model, WEBTAP_MODEL or stps_set_model(), e.g. "
            f"{DEFAULT_MODEL}."
        ) from None
    except anthropic.AuthenticationError:
        raise AuthInvalid(
            "The Anthropic API rejected the API key (401 authentication_error). Check "
            "ANTHROPIC_API_KEY, ~/.stps/anthropic_api_key, or set it with stps_set_api_key()."
        ) from None
    except anthropic.PermissionDeniedError as exc:
        raise AuthInvalid(
            redact(f"The Anthropic API key may not do this (403): {_said(exc)}", secrets)
        ) from None
    except anthropic.RateLimitError as exc:
        after = _after(retries, out_of_time)
        raise RateLimit(
            redact(
                f"The Anthropic API is rate limiting this key (429), {after}: "
                f"{_said(exc)} Wait a minute and try again, or lower the concurrency.",
                secrets,
            )
        ) from None
    except anthropic.APIStatusError as exc:
        if exc.status_code == 529:  # by status: older SDKs have no OverloadedError class
            raise RateLimit(
                f"The Anthropic API is overloaded (529), {_after(retries, out_of_time)}. "
                "Try again in a few minutes."
            ) from None
        raise APIError(
            redact(
                f"The Anthropic API answered {exc.status_code} "
                f"({exc.type or 'error'}): {_said(exc)}",
                secrets,
            )
        ) from None
    except anthropic.APITimeoutError:
        raise NetworkError(f"The Anthropic API did not answer within {timeout:g} s.") from None
    except anthropic.APIConnectionError as exc:
        cause = exc.__cause__ or exc.__context__
        reason = f"{type(cause).__name__}: {cause}" if cause else str(exc)
        base_url = os.environ.get("ANTHROPIC_BASE_URL", "").strip()
        if base_url and not base_url.lower().startswith(("http://", "https://")):
            raise ConfigError(
                redact(
                    f"ANTHROPIC_BASE_URL must be an http:// or https:// URL (got {base_url!r}); "
                    "fix it, or unset it to use the Anthropic API.",
                    secrets,
                )
            ) from None
        advice = f"Check ANTHROPIC_BASE_URL ({base_url})" if base_url else "Check the network"
        raise NetworkError(
            redact(f"Could not reach the Anthropic API ({reason}). {advice}.", secrets)
        ) from None
    except anthropic.AnthropicError as exc:
        raise APIError(
            redact(f"The Anthropic API call failed: {type(exc).__name__}: {exc}", secrets)
        ) from None


def _after(retries: int, out_of_time: bool) -> str:
    """ "still after N retries", or why there were none: the question's budget."""
    if out_of_time and retries == 0:
        return "with no time left in the question's budget to retry"
    return f"still after {retries} retries"


def _said(exc: Any) -> str:
    """The API's own message, or the start of the body."""
    message = getattr(exc, "api_message", None)
    if isinstance(message, str) and message.strip():
        return message.strip().rstrip(".") + "."
    body = getattr(exc, "body", None)
    text = json.dumps(body) if isinstance(body, dict | list) else str(body or "no details")
    return quote(text, 200)
