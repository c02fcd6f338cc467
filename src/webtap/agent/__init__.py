"""The ask loop: a question to a model, with webtap's tools (spec 002).

::

    from webtap.agent import ask
    answer = ask("What is the current price?", context="Bitcoin")
    print(answer.text)

The user message is ``"Context: {context}\\n\\nQuestion: {question}"``. The model is offered
``web_search`` (the spec's exact definition, backed by Brave, SearXNG or Google) only when
that provider is set up, and ``web_fetch`` always (decision: Which search). On ``tool_use`` the loop
runs each requested tool and answers with one user message of ``tool_result`` blocks, then calls
again; a failed search becomes ``is_error`` with the spec's text. After ``max_tool_calls`` tool
calls (1 by default, the spec's constraint) the next call carries ``tool_choice: none``, so the
model must answer in text. Time limits bound each model call, each search and the whole question.

The model is named ``provider:model`` (:mod:`~webtap.agent.models`; a bare name is Anthropic's):
one adapter per protocol speaks to it, :mod:`~webtap.agent.messages_api` (Anthropic Messages)
or :mod:`~webtap.agent.chat_api` (OpenAI Chat Completions: OpenAI, Ollama, vLLM, the hosted
presets), and everything else here knows no provider (decision: Model names).

Failures raise :class:`~webtap.errors.WebtapError` subclasses with messages that name what went
wrong and what to do, and that never contain a key.

The package, a module a concept: :mod:`~webtap.agent.settings` (model, limits, time limits),
:mod:`~webtap.agent.client` (the SDK client), :mod:`~webtap.agent.retry` (one model call before
the deadline), :mod:`~webtap.agent.loop` (the conversation), :mod:`~webtap.agent.prompt` (what the
model is given), :mod:`~webtap.agent.reply` (what it sent, checked), :mod:`~webtap.agent.steps`
(what a question did), :mod:`~webtap.agent.endpoint` (where a model's calls go) and
:mod:`~webtap.agent.api_errors` (the SDK's errors as webtap's).

The SDKs (``anthropic``, ``openai``: a few hundred milliseconds each to import) are imported at
the first model call, by the adapters' ``make_client`` and ``sdk`` and by
:func:`~webtap.agent.api_errors.translate_api_errors`: ``webtap sql`` loads this package for its
functions whether or not a query asks the model anything. Everything else here is imported at
the top of its module.
"""

from __future__ import annotations

from webtap.agent.api_errors import ModelNotFound, Refused, ToolsUnsupported, translate_api_errors
from webtap.agent.client import MAX_REPLY_BYTES
from webtap.agent.endpoint import Endpoint
from webtap.agent.loop import ask
from webtap.agent.messages_api import anthropic_client
from webtap.agent.models import Model, endpoint, make_client, parse_model
from webtap.agent.prompt import (
    DESCRIPTION_WIDTH,
    SEARCH_RESULTS,
    SEARCH_TOOL,
    SEARCH_UNAVAILABLE,
    format_search_results,
    shorten,
    user_message,
)
from webtap.agent.reply import parse_reply
from webtap.agent.settings import (
    DEFAULT_FETCH_LIMIT,
    DEFAULT_MAX_RETRIES,
    DEFAULT_MAX_TOKENS,
    DEFAULT_MAX_TOOL_CALLS,
    DEFAULT_MODEL,
    DEFAULT_SETTINGS,
    DEFAULT_TIME_LIMITS,
    MAX_TOOL_CALLS,
    AskSettings,
    TimeLimits,
    default_model,
)
from webtap.agent.steps import Answer, Step, ToolCall, ToolReply

__all__ = [
    "DEFAULT_FETCH_LIMIT",
    "DEFAULT_MAX_RETRIES",
    "DEFAULT_MAX_TOKENS",
    "DEFAULT_MAX_TOOL_CALLS",
    "DEFAULT_MODEL",
    "DEFAULT_SETTINGS",
    "DEFAULT_TIME_LIMITS",
    "DESCRIPTION_WIDTH",
    "MAX_REPLY_BYTES",
    "MAX_TOOL_CALLS",
    "SEARCH_RESULTS",
    "SEARCH_TOOL",
    "SEARCH_UNAVAILABLE",
    "Answer",
    "AskSettings",
    "Endpoint",
    "Model",
    "ModelNotFound",
    "Refused",
    "Step",
    "TimeLimits",
    "ToolCall",
    "ToolReply",
    "ToolsUnsupported",
    "anthropic_client",
    "ask",
    "default_model",
    "endpoint",
    "format_search_results",
    "make_client",
    "parse_model",
    "parse_reply",
    "shorten",
    "translate_api_errors",
    "user_message",
]
