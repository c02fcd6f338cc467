"""What every model SDK client webtap makes has: one attempt a call, replies capped.

Each adapter makes its own SDK's client (:meth:`MessagesAPI.make_client
<webtap.agent.messages_api.MessagesAPI.make_client>`, :meth:`ChatAPI.make_client
<webtap.agent.chat_api.ChatAPI.make_client>`; :func:`~webtap.agent.messages_api.anthropic_client`
for a caller's own) with these hooks and no retries of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from webtap.agent.endpoint import Endpoint
from webtap.errors import APIError
from webtap.net import capping_hook

__all__ = ["MAX_REPLY_BYTES", "one_attempt_per_call", "response_hooks"]

MAX_REPLY_BYTES = 32 * 1024 * 1024  # decoded; a 128k-token answer is a few MB of JSON


def response_hooks(
    where: Endpoint, on_response: Callable[[Any], None] | None = None
) -> list[Callable[[Any], None]]:
    """The ``response`` event hooks of a model client: ``on_response`` (it sees every HTTP
    response; their headers carry the account's rate limits), then the cap: the SDK reads
    replies itself, and the hook decodes them capped, as every body from outside."""

    hooks: list[Callable[[Any], None]] = [] if on_response is None else [on_response]
    hooks.append(capping_hook(MAX_REPLY_BYTES, lambda: _reply_too_large(where)))
    return hooks


def _reply_too_large(where: Endpoint) -> APIError:
    title = where.where[0].upper() + where.where[1:]
    return APIError(
        f"{title} sent a reply larger than {MAX_REPLY_BYTES // (1024 * 1024)} MB; "
        f"no message is that large. Check {where.provider.endpoint_env}, or try again later."
    )


def one_attempt_per_call(client: Any) -> Any:
    """``client`` with the SDK's retries off: a caller's own client too, so that there is one
    retry loop (:func:`webtap.agent.retry.send`) and one deadline, not the SDK's retries inside
    webtap's."""
    if getattr(client, "max_retries", 0) and callable(getattr(client, "with_options", None)):
        return client.with_options(max_retries=0)
    return client
