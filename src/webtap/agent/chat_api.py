"""OpenAI's Chat Completions with tools: how the ask loop's conversation is written for it and
read back (decision: Model names): one adapter a protocol. It serves OpenAI, Ollama, vLLM,
llama.cpp's server, LM Studio and the hosted presets of :data:`webtap.providers.MODEL_PROVIDERS`.

The tools go as ``functions`` with their schemas; each call's result goes back as a
``role: "tool"`` message with the call's id. What servers get wrong is taken in, not crashed
on (issue 30): arguments sent as an object or as a JSON string (or a string of one); arguments
that are not JSON (the model is told, as that call's error); a call without an id (one is made
up, and used for its result too); a call written into the text as
``<tool_call>{"name": ..., "arguments": ...}</tool_call>`` (Hermes, Qwen) when no
``tool_calls`` came; ``finish_reason: stop`` with calls present; a server or model that refuses
``tools`` (the question is answered without them, and stderr says so once).

Citations (issue 28): this protocol has no citation mechanism, so each source a tool read is
sent numbered in the tool message's text (:func:`source_text`), a system message asks for
quotes in one fixed form, ``[n: "exact words from source n"]`` (:data:`QUOTE_INSTRUCTION`),
and :func:`quoted_citations` takes those marks out of the answer, each a
:class:`~webtap.agent.turn.CitedSpan` whose quote :func:`webtap.agent.citations.from_spans`
locates and verifies in source ``n``'s snapshot.
"""

from __future__ import annotations

import itertools
import json
import re
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from webtap.agent.api_errors import ToolsUnsupported
from webtap.agent.client import response_hooks
from webtap.agent.endpoint import Endpoint
from webtap.agent.rate import RateHeaders, model_budget, seconds_within
from webtap.agent.retry import ModelCall, send
from webtap.agent.steps import Source, ToolCall, ToolReply
from webtap.agent.turn import CitedSpan, ModelTurn, ToolSpec
from webtap.errors import APIError
from webtap.protocol import loads_json
from webtap.redact import LOOK, quote

if TYPE_CHECKING:
    from webtap.agent.settings import TimeLimits
    from webtap.budget.rate import RateBudget

__all__ = ["QUOTE_INSTRUCTION", "ChatAPI", "quoted_citations", "source_text"]

QUOTE_INSTRUCTION = (
    "The tools give you sources, each numbered like [1]. After each claim you take from a "
    "source, cite it with the source's number and the exact words from that source that "
    'support the claim, in this form: [1: "exact words copied from source 1"]. Copy the words '
    "exactly as the source writes them, a sentence or less; quote only what the source says. "
    "Write nothing else in square brackets."
)

# A quote mark: [n: "words"] with straight or curly quotes; the spaces before it go with it.
_MARK = re.compile(r"\s*\[(\d{1,4})\s*:\s*(?:\"([^\"]+)\"|“([^”]+)”)\s*\]")
_TOOL_CALL = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|$)", re.DOTALL)
_SENTENCE_END = re.compile(r"[.!?](?=\s)|\n")
# Finish reasons in the Messages API's words (the loop's).
_STOPS = {"length": "max_tokens", "content_filter": "refusal"}


class ChatAPI:
    """Chat Completions through an ``openai.OpenAI`` client pointed at ``endpoint``."""

    rate_headers = RateHeaders(
        "x-ratelimit-limit-requests",
        "x-ratelimit-remaining-requests",
        "x-ratelimit-reset-requests",
        seconds_within,
    )

    def __init__(self, client: Any, *, citations: bool = False, endpoint: Endpoint) -> None:
        self.client = client
        self.citations = citations
        self.endpoint = endpoint
        self.name = endpoint.where
        self.tools_refused = False  # the server refused tools: the rest goes without them
        # OpenAI's newer models refuse max_tokens for max_completion_tokens; other servers may
        # not know the new name: the old one first, the new one once a server asks for it.
        self.completion_tokens = False
        self._ids = itertools.count(1)  # ids for calls that came without one
        self._numbered = 0  # sources sent so far: the next one's number is this plus one

    @classmethod
    def make_client(
        cls,
        where: Endpoint,
        *,
        time_limits: TimeLimits,
        on_response: Callable[[Any], None] | None = None,
    ) -> Any:
        """An ``openai.OpenAI`` client for ``where`` (its address and key, or a placeholder for
        a server without keys), one attempt a call, replies capped."""
        import openai  # the SDK at the first model call (see webtap.agent)

        return openai.OpenAI(
            api_key=where.key or "no-key",  # the SDK insists on one; Ollama ignores it
            base_url=where.base_url,
            max_retries=0,
            timeout=time_limits.model_call,
            http_client=openai.DefaultHttpxClient(
                event_hooks={"response": response_hooks(where, on_response)}
            ),
        )

    @property
    def sdk(self) -> Any:
        import openai  # the SDK at the first model call (see webtap.agent)

        return openai

    def budget(self) -> RateBudget | None:
        key = self.endpoint.key
        return model_budget(key, self.endpoint.provider) if key else None

    def post(self, request: dict[str, Any], timeout: float, retries: int) -> Any:
        return self.client.chat.completions.with_raw_response.create(
            **request, timeout=timeout, extra_headers={"x-stainless-retry-count": str(retries)}
        )

    # --- the request ---------------------------------------------------------------------------

    def opening(self, prompt: str) -> list[dict[str, Any]]:
        """The spec's user message; with citations, after the instruction to quote."""
        first = [{"role": "system", "content": QUOTE_INSTRUCTION}] if self.citations else []
        return [*first, {"role": "user", "content": prompt}]

    def request(
        self,
        *,
        model: str,
        max_tokens: int,
        messages: list[dict[str, Any]],
        tools: list[ToolSpec],
        tools_off: bool,
        force: str | None = None,
        response_format: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """A request; ``tools_off``: the tools stay listed (the history holds calls) but none
        may be called; ``force``: the one tool the model must call (a typed answer's)."""
        learned = _learned(self.endpoint.base_url, model)  # what this server said before
        self.tools_refused |= "no tools" in learned
        self.completion_tokens |= "max_completion_tokens" in learned
        limit = "max_completion_tokens" if self.completion_tokens else "max_tokens"
        request: dict[str, Any] = {"model": model, limit: max_tokens, "messages": messages}
        if tools and not self.tools_refused:
            request["tools"] = [
                {
                    "type": "function",
                    "function": {
                        "name": t.name,
                        "description": t.description,
                        "parameters": t.parameters,
                    },
                }
                for t in tools
            ]
            if force:
                request["tool_choice"] = {"type": "function", "function": {"name": force}}
            elif tools_off:
                request["tool_choice"] = "none"
        if response_format is not None:  # a typed answer's JSON schema, where served
            request["response_format"] = response_format
        return request

    def call(self, request: dict[str, Any], call: ModelCall, max_retries: int) -> ModelTurn:
        """One model call; a server that refuses tools before any was used is asked again
        without them (and stderr says so, once a process for each model)."""
        try:
            body = self._send(request, call, max_retries)
        except ToolsUnsupported:
            history = request["messages"]
            if "tools" not in request or any(m.get("role") == "tool" for m in history):
                raise
            self.tools_refused = True
            _learned(self.endpoint.base_url, request["model"]).add("no tools")
            model, provider = call.model or request["model"], self.endpoint.provider
            _say_once(
                f"{model} @ {self.endpoint.base_url}",
                f"{model} does not support tools: answering without web search or fetch. For "
                f"answers from the web, choose a model that does, e.g. "
                f"{provider.spec(provider.example)}.",
            )
            request = {k: v for k, v in request.items() if k not in ("tools", "tool_choice")}
            body = self._send(request, call, max_retries)
        return self.turn(self._completion(body))

    def _send(self, request: dict[str, Any], call: ModelCall, max_retries: int) -> bytes:
        try:
            return send(self, request, call, max_retries)
        except APIError as exc:
            if "max_tokens" not in request or "max_completion_tokens" not in str(exc):
                raise
            self.completion_tokens = True
            _learned(self.endpoint.base_url, request["model"]).add("max_completion_tokens")
            request = {**request, "max_completion_tokens": request["max_tokens"]}
            del request["max_tokens"]
            return send(self, request, call, max_retries)

    # --- the reply -----------------------------------------------------------------------------

    def _completion(self, body: bytes) -> dict[str, Any]:
        """A Chat Completions body, checked for what :meth:`turn` reads."""
        where = self.endpoint.where
        try:
            reply = loads_json(body)
        except (ValueError, UnicodeDecodeError):
            start = quote(body[: 4 * (LOOK + 1)].decode("utf-8", "replace"), 60)
            raise APIError(
                f"{where} returned a malformed response (not JSON, starting {start!r}). Check "
                f"{self.endpoint.provider.endpoint_env}, or try again later."
            ) from None
        if isinstance(reply, dict) and not reply.get("choices") and reply.get("error"):
            # OpenRouter and others answer 200 with an error from the model's own host.
            error = reply["error"]
            said = error.get("message") if isinstance(error, dict) else error
            raise APIError(quote(f"{where} answered with an error: {said}", 300))
        choices = reply.get("choices") if isinstance(reply, dict) else None
        if (
            not isinstance(choices, list)
            or not choices
            or not isinstance(choices[0], dict)
            or not isinstance(choices[0].get("message"), dict)
        ):
            raise APIError(
                f"{where} returned a malformed response (no choices[0].message). Check "
                f"{self.endpoint.provider.endpoint_env}, or try again later."
            )
        return reply

    def turn(self, reply: dict[str, Any]) -> ModelTurn:
        choice = reply["choices"][0]
        message = choice["message"]
        text = _text(message.get("content"))
        sent: list[dict[str, Any]] = []  # the calls as the history sends them back
        calls: list[ToolCall] = []
        wanted = message.get("tool_calls")
        for item in wanted if isinstance(wanted, list) else []:
            function = item.get("function") if isinstance(item, dict) else None
            if not isinstance(function, dict):
                continue
            given_id = item.get("id")
            call_id = given_id if isinstance(given_id, str) and given_id else self._new_id()
            self._take(calls, sent, call_id, function.get("name"), function.get("arguments"))
        if not calls and not self.tools_refused and "<tool_call>" in text:
            text = self._calls_in_text(text, calls, sent)
        finish = choice.get("finish_reason")
        if calls:
            stop = "tool_use"  # whatever finish_reason says ("stop" with calls: issue 30)
        elif isinstance(message.get("refusal"), str) and message["refusal"]:
            stop, text = "refusal", text or message["refusal"]
        else:
            stop = _STOPS.get(finish if isinstance(finish, str) else "", "end_turn")
        cited: tuple[CitedSpan, ...] = ()
        if self.citations and not calls:
            text, cited = quoted_citations(text)
        usage = reply.get("usage")
        return ModelTurn(
            text=text,
            calls=tuple(calls),
            stop_reason=stop,
            usage=_counts(usage if isinstance(usage, dict) else {}),
            raw={"content": text or None, "tool_calls": sent},
            cited=cited,
        )

    def _take(
        self,
        calls: list[ToolCall],
        sent: list[dict[str, Any]],
        call_id: str,
        name: Any,
        arguments: Any,
    ) -> None:
        name = name if isinstance(name, str) else ""
        given, problem = _arguments(arguments)
        calls.append(ToolCall(call_id, name, given, problem))
        written = arguments if isinstance(arguments, str) else json.dumps(given)
        function = {"name": name, "arguments": written}
        sent.append({"id": call_id, "type": "function", "function": function})

    def _calls_in_text(self, text: str, calls: list[ToolCall], sent: list[dict[str, Any]]) -> str:
        """Calls written into the text, Hermes style; the text without them."""
        for match in _TOOL_CALL.finditer(text):
            try:
                written = json.loads(match.group(1))
            except ValueError:
                written = None
            if not isinstance(written, dict) or not isinstance(written.get("name"), str):
                continue
            arguments = written.get("arguments", written.get("parameters"))
            self._take(calls, sent, self._new_id(), written["name"], arguments)
        return _TOOL_CALL.sub("", text).strip() if calls else text

    def _new_id(self) -> str:
        return f"call_webtap_{next(self._ids)}"

    # --- the history ---------------------------------------------------------------------------

    def assistant(self, turn: ModelTurn) -> dict[str, Any]:
        """The turn as the history holds it: content may be null only beside calls."""
        calls = turn.raw["tool_calls"]
        message: dict[str, Any] = {"role": "assistant", "content": turn.raw["content"]}
        if calls:
            message["tool_calls"] = calls
        elif message["content"] is None:
            message["content"] = ""
        return message

    def results(self, replies: list[ToolReply], note: str = "") -> list[dict[str, Any]]:
        """One ``tool`` message a call, in the order of the calls, and ``note`` after them as
        a user message (a user's words for the model)."""
        messages = [self.tool_result(reply) for reply in replies]
        return [*messages, {"role": "user", "content": note}] if note else messages

    def tool_result(self, reply: ToolReply) -> dict[str, Any]:
        return {"role": "tool", "tool_call_id": reply.call.id, "content": self._content(reply)}

    def citable(self, reply: ToolReply) -> tuple[Source, ...]:
        """As the Messages API's: all of a reply's sources when citations are on and each has
        text, else none (the spec's text goes instead)."""
        if not self.citations or not all(source.blocks for source in reply.sources):
            return ()
        return reply.sources

    def _content(self, reply: ToolReply) -> str:
        sources = self.citable(reply)
        if not sources:
            return reply.content
        parts = []
        for source in sources:
            self._numbered += 1
            parts.append(source_text(self._numbered, source))
        if reply.note:
            parts.append(reply.note)
        return "\n\n".join(parts)


def source_text(number: int, source: Source) -> str:
    """A source as the model reads it, numbered: ``[n] title``, its URL, then its text."""
    snapshot = source.snapshot
    title = " ".join((snapshot.title or snapshot.url).split())
    return f"[{number}] {title}\n{snapshot.url}\n\n{snapshot.text}"


def quoted_citations(text: str) -> tuple[str, tuple[CitedSpan, ...]]:
    """``text`` without its ``[n: "quote"]`` marks, and a span for each: the stretch of the
    answer the mark ends (back to the sentence's start, or the previous mark), source ``n``
    (counted from 1 as sent), and the quote, located later in that source's snapshot."""
    kept: list[str] = []
    spans: list[CitedSpan] = []
    length = cut = 0
    for match in _MARK.finditer(text):
        piece = text[cut : match.start()]
        kept.append(piece)
        length += len(piece)
        if piece.strip() or not spans:
            clean = "".join(kept)
            start = _claim_start(clean, length, spans[-1].answer_end if spans else 0)
        else:  # a second mark right after another: the same stretch
            start = spans[-1].answer_start
        number = int(match.group(1))
        source = number - 1 if number >= 1 else sys.maxsize  # no source 0: none is named
        words = match.group(2) or match.group(3) or ""
        spans.append(CitedSpan(start, length, source, 0, 0, words.strip()))
        cut = match.end()
    if not spans:
        return text, ()
    kept.append(text[cut:])
    return "".join(kept), tuple(spans)


def _claim_start(clean: str, end: int, floor: int) -> int:
    """Where the claim that ends at ``end`` starts: after the last sentence's end before it."""
    body = clean[:end].rstrip(".!?")
    start = floor
    for found in _SENTENCE_END.finditer(body, floor):
        start = found.end()
    while start < end and clean[start].isspace():
        start += 1
    return start


def _text(content: Any) -> str:
    """A message's text: a string, or the text parts of a list (some servers send parts)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            part["text"]
            for part in content
            if isinstance(part, dict) and isinstance(part.get("text"), str)
        )
    return ""


def _arguments(value: Any) -> tuple[dict[str, Any], str]:
    """A call's arguments as an object, and what was wrong with them ("" when nothing)."""
    if isinstance(value, dict):
        return value, ""
    if value is None or (isinstance(value, str) and not value.strip()):
        return {}, ""
    given = value
    for _ in range(2):  # a string of JSON, or (some servers) a string of a string of it
        if not isinstance(given, str):
            break
        try:
            given = json.loads(given)
        except ValueError:
            return {}, (
                f"the arguments are not valid JSON ({quote(str(value), 80)!r}). Call the tool "
                'again with its arguments as a JSON object, e.g. {"url": "https://example.com"}.'
            )
    if isinstance(given, dict):
        return given, ""
    return {}, "the arguments are not a JSON object. Call the tool again with a JSON object."


def _counts(usage: dict[str, Any]) -> dict[str, int]:
    counts = {}
    for ours, theirs in (("input_tokens", "prompt_tokens"), ("output_tokens", "completion_tokens")):
        value = usage.get(theirs)
        if type(value) is int and 0 <= value < 2**53:
            counts[ours] = value
    return counts


_said: set[str] = set()
_said_lock = threading.Lock()
# What each server said of a model, kept for the process: a SQL query's 200 rows each make a
# question of their own, and only the first should have to ask twice.
_LEARNED: dict[tuple[str, str], set[str]] = {}


def _learned(base_url: str, model: str) -> set[str]:
    with _said_lock:
        return _LEARNED.setdefault((base_url, model), set())


def _say_once(subject: str, line: str) -> None:
    """``line`` on stderr, once a process for ``subject`` (a model at an address: a SQL query's
    200 rows say it once)."""
    with _said_lock:
        if subject in _said:
            return
        _said.add(subject)
    sys.stderr.write(f"webtap: {' '.join(line.split())}\n")
    sys.stderr.flush()
