"""Which model a question goes to, and the one place that picks the adapter for it
(decision: Model names).

A model is named ``provider:model``: ``anthropic:claude-…`` (a bare name is Anthropic's, as it
always was), ``openai:NAME`` (any OpenAI-compatible server: ``OPENAI_BASE_URL``,
``OPENAI_API_KEY``), ``ollama:NAME`` (no key; ``OLLAMA_HOST``) and the hosted presets of
:data:`webtap.providers.MODEL_PROVIDERS`. Only the first colon splits: ``ollama:qwen2.5:7b`` is
Ollama's ``qwen2.5:7b``. The same names serve ``--model``, ``WEBTAP_MODEL``,
``stps_set_model``, ``stps_ask_ai``'s model argument and ``webtap batch ask``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from webtap.agent.chat_api import ChatAPI
from webtap.agent.endpoint import Endpoint
from webtap.agent.messages_api import MessagesAPI
from webtap.errors import InvalidInput
from webtap.providers import ANTHROPIC, MODEL_PROVIDERS, ModelProvider

if TYPE_CHECKING:
    from webtap.agent.settings import TimeLimits
    from webtap.credentials import Credentials

__all__ = ["Model", "adapter", "endpoint", "make_client", "parse_model"]


class Model(NamedTuple):
    """A model as its provider knows it (``name``), and the provider."""

    provider: ModelProvider
    name: str

    @property
    def spec(self) -> str:
        """The full name: ``ollama:qwen2.5``; an Anthropic model's stays bare."""
        return self.provider.spec(self.name)


def parse_model(spec: str) -> Model:
    """``spec`` as a :class:`Model`; :class:`InvalidInput` naming the known prefixes when its
    provider is none of them."""
    prefix, colon, name = spec.strip().partition(":")
    if not colon:
        return Model(ANTHROPIC, spec.strip())
    provider = MODEL_PROVIDERS.get(prefix.strip().lower())
    if provider is None:
        known = ", ".join(f"{name}:" for name in MODEL_PROVIDERS)
        raise InvalidInput(
            f"Unknown model provider {prefix!r} in the model name {spec!r}: name a model "
            f"provider:model, with one of {known} (a bare name is Anthropic's), e.g. "
            "ollama:qwen2.5 or openai:gpt-4.1-mini."
        )
    if not name.strip():
        raise InvalidInput(
            f"The model name {spec!r} names no model after {prefix}:, e.g. "
            f"{provider.spec(provider.example)}"
        )
    return Model(provider, name.strip())


def endpoint(model: Model, credentials: Credentials) -> Endpoint:
    """Where ``model``'s calls go, with its key (:class:`AuthMissing` when one is needed and
    none is set)."""
    key = credentials.require_model_key(model.provider)
    return Endpoint(model.provider, model.provider.base_url(), key)


def make_client(
    where: Endpoint,
    *,
    time_limits: TimeLimits,
    on_response: Callable[..., None] | None = None,
) -> Any:
    """The SDK client of ``where``'s protocol (one attempt a call, replies capped).
    ``on_response`` sees every HTTP response, with the names of its protocol's rate headers."""
    kind = _adapter_class(where.provider)
    names = kind.rate_headers
    hook = None if on_response is None else functools.partial(on_response, names=names)
    return kind.make_client(where, time_limits=time_limits, on_response=hook)


def adapter(where: Endpoint, client: Any, *, citations: bool) -> MessagesAPI | ChatAPI:
    """The adapter of ``where``'s protocol, talking through ``client``."""
    return _adapter_class(where.provider)(client, citations=citations, endpoint=where)


def _adapter_class(provider: ModelProvider) -> type[MessagesAPI] | type[ChatAPI]:
    return MessagesAPI if provider.protocol == "messages" else ChatAPI
