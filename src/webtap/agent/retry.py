"""One model call inside the question's time budget: attempts, waits between them, and when to
give up."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from webtap.agent.api_errors import translate_api_errors
from webtap.agent.rate import observe, take_turn
from webtap.errors import NetworkError, WebtapError

__all__ = ["MAX_RETRY_AFTER", "RETRY_STATUSES", "Budget", "retry_wait", "send", "spent"]


@dataclass(frozen=True)
class Budget:
    """What every attempt of one model call must respect (see :func:`send`)."""

    deadline: float  # time.monotonic() by which the whole question must be done
    total: float
    model_call: float
    secrets: tuple[str, ...]
    model: str | None = None  # named when the API does not serve it


RETRY_STATUSES = frozenset({408, 409, 429})  # and every 5xx, 529 (overloaded) included
MAX_RETRY_AFTER = 60.0  # seconds: a server's longer retry-after is not waited for


def send(client: Any, request: dict[str, Any], budget: Budget, max_retries: int) -> bytes:
    """One model call: the first attempt and up to ``max_retries`` retries, inside the budget.

    A retry follows a connection failure, a timeout, or a 408/409/429/5xx answer (unless the
    server says ``x-should-retry: false``), after the server's ``retry-after(-ms)`` (up to
    60 s) or else an exponential back-off (0.5 s doubling to 8 s, less up to 25 % jitter).
    An attempt gets no more time than the question has left, none starts once the budget is
    spent, and no retry is made whose wait would outlast it: the failure is reported then.
    Each attempt first waits for the key's turn in its shared rate budget, and every answer's
    rate-limit headers go back to that budget (:mod:`webtap.agent.rate`).
    """
    import anthropic

    retries = 0
    while True:
        remaining = budget.deadline - time.monotonic()
        if remaining <= 0:
            raise spent(budget)
        take_turn(client, remaining)  # may wait: the time left is read again
        remaining = budget.deadline - time.monotonic()
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
                    observe(client, raw.http_response)
                    return raw.http_response.content
                except anthropic.APITimeoutError:
                    if timeout < budget.model_call:
                        raise spent(budget) from None  # the budget ended it, not the call
                    wait = retry_wait(None, retries)
                    if retries >= max_retries or wait >= budget.deadline - time.monotonic():
                        raise
                except anthropic.APIConnectionError as exc:
                    if isinstance(exc.__cause__, WebtapError):
                        raise exc.__cause__ from None  # the reply was too large: no retry
                    wait = retry_wait(None, retries)
                    if retries >= max_retries or wait >= budget.deadline - time.monotonic():
                        raise
                except anthropic.APIStatusError as exc:
                    observe(client, exc.response)
                    if retries >= max_retries or not _should_retry(exc.response):
                        raise
                    wait = retry_wait(exc.response.headers, retries)
                    if wait >= budget.deadline - time.monotonic():
                        raise _OutOfTime(exc) from None
        except _OutOfTime as out:
            with translate_api_errors(
                list(budget.secrets), budget.model_call, retries, True, model=budget.model
            ):
                raise out.error from None
        time.sleep(wait)
        retries += 1


class _OutOfTime(Exception):
    """A retryable failure whose retry would outlast the question's budget."""

    def __init__(self, error: Exception) -> None:
        self.error = error


def _should_retry(response: Any) -> bool:
    said = response.headers.get("x-should-retry", "").strip().lower()
    if said in ("true", "false"):
        return said == "true"
    return response.status_code in RETRY_STATUSES or response.status_code >= 500


def retry_wait(headers: Any, retries: int) -> float:
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


def spent(budget: Budget) -> NetworkError:
    return NetworkError(f"Gave up: the question took longer than its {budget.total:g} s budget.")
