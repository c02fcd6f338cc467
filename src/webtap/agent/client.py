"""The Anthropic SDK client the ask loop talks through: one attempt a call, replies capped."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from webtap.agent.settings import DEFAULT_MAX_RETRIES, DEFAULT_TIME_LIMITS, TimeLimits
from webtap.errors import APIError
from webtap.net import capping_hook

__all__ = ["MAX_REPLY_BYTES", "anthropic_client", "one_attempt_per_call"]

MAX_REPLY_BYTES = 32 * 1024 * 1024  # decoded; a 128k-token answer is a few MB of JSON


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
    share between threads: one client serves every row of a SQL query. ``on_response`` sees
    every HTTP response (its headers carry the account's rate limits).
    """
    import anthropic  # at the first model call (the package's docstring)

    del max_retries  # webtap's loop's business (retry.send), not the SDK's
    # The SDK reads replies itself: the hook decodes them capped, as every body from outside.
    hooks: list[Callable[[Any], None]] = [] if on_response is None else [on_response]
    hooks.append(capping_hook(MAX_REPLY_BYTES, _reply_too_large))
    return anthropic.Anthropic(
        api_key=api_key,
        max_retries=0,
        timeout=time_limits.model_call,
        http_client=anthropic.DefaultHttpxClient(event_hooks={"response": hooks}),
    )


def _reply_too_large() -> APIError:
    return APIError(
        f"The Anthropic API sent a reply larger than {MAX_REPLY_BYTES // (1024 * 1024)} MB; "
        "no message is that large. Check ANTHROPIC_BASE_URL, or try again later."
    )


def one_attempt_per_call(client: Any) -> Any:
    """``client`` with the SDK's retries off: a caller's own client too, so that there is one
    retry loop (:func:`webtap.agent.retry.send`) and one deadline, not the SDK's retries inside
    webtap's."""
    if getattr(client, "max_retries", 0) and callable(getattr(client, "with_options", None)):
        return client.with_options(max_retries=0)
    return client
