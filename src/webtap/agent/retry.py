"""One model call inside the question's deadline: attempts, waits between them, and when to
give up."""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from webtap.agent.api_errors import translate_api_errors
from webtap.agent.endpoint import Endpoint
from webtap.agent.rate import RateHeaders, observe, take_turn
from webtap.errors import NetworkError, WebtapError
from webtap.net.retry_after import retry_after

if TYPE_CHECKING:
    from webtap.budget.rate import RateBudget
    from webtap.net import Deadline

__all__ = [
    "MAX_RETRY_AFTER",
    "RETRY_STATUSES",
    "ModelCall",
    "Sender",
    "retry_wait",
    "send",
    "spent",
]


class ModelCall(NamedTuple):
    """What every attempt of one model call must respect (see :func:`send`)."""

    deadline: Deadline  # the whole question's: no attempt or wait goes past it
    timeout: float  # seconds one attempt may take (TimeLimits.model_call)
    secrets: tuple[str, ...]
    model: str | None = None  # named when the API does not serve it


RETRY_STATUSES = frozenset({408, 409, 429})  # and every 5xx, 529 (overloaded) included
MAX_RETRY_AFTER = 60.0  # seconds: a server's longer retry-after is not waited for


class Sender(Protocol):
    """What :func:`send` needs of an adapter: its SDK (for the exception classes), where it
    calls, the key's budget and rate headers, and one raw attempt."""

    endpoint: Endpoint
    rate_headers: RateHeaders

    @property
    def sdk(self) -> Any: ...

    def budget(self) -> RateBudget | None: ...

    def post(self, request: dict[str, Any], timeout: float, retries: int) -> Any: ...


def send(api: Sender, request: dict[str, Any], call: ModelCall, max_retries: int) -> bytes:
    """One model call: the first attempt and up to ``max_retries`` retries, before its deadline.

    A retry follows a connection failure, a timeout, or a 408/409/429/5xx answer (unless the
    server says ``x-should-retry: false``), after the server's ``retry-after(-ms)`` (up to
    60 s) or else an exponential back-off (0.5 s doubling to 8 s, less up to 25 % jitter).
    An attempt gets no more time than the question has left, none starts once the deadline has
    passed, and no retry is made whose wait would outlast it: the failure is reported then.
    Each attempt first waits for the key's turn in its shared rate budget, and every answer's
    rate-limit headers go back to that budget (:mod:`webtap.agent.rate`).
    """
    sdk, budget = api.sdk, api.budget()

    def translated(retries: int, out_of_time: bool = False) -> Any:
        return translate_api_errors(
            list(call.secrets),
            call.timeout,
            retries,
            out_of_time,
            model=call.model,
            sdk=sdk,
            endpoint=api.endpoint,
        )

    retries = 0
    while True:
        remaining = call.deadline.remaining()
        if remaining <= 0:
            raise spent(call.deadline)
        take_turn(budget, remaining)  # may wait: the time left is read again
        remaining = call.deadline.remaining()
        timeout = min(call.timeout, remaining)
        try:
            with translated(retries):
                try:
                    raw = api.post(request, timeout, retries)
                    observe(budget, api.rate_headers, raw.http_response)
                    return raw.http_response.content  # type: ignore[no-any-return,unused-ignore]
                except sdk.APITimeoutError:
                    if timeout < call.timeout:
                        raise spent(call.deadline) from None  # the deadline ended it, not the call
                    wait = retry_wait(None, retries)
                    if retries >= max_retries or wait >= call.deadline.remaining():
                        raise
                except sdk.APIConnectionError as exc:
                    if isinstance(exc.__cause__, WebtapError):
                        raise exc.__cause__ from None  # the reply was too large: no retry
                    wait = retry_wait(None, retries)
                    if retries >= max_retries or wait >= call.deadline.remaining():
                        raise
                except sdk.APIStatusError as exc:
                    observe(budget, api.rate_headers, exc.response)
                    if retries >= max_retries or not _should_retry(exc.response):
                        raise
                    wait = retry_wait(exc.response.headers, retries)
                    if wait >= call.deadline.remaining():
                        raise _OutOfTime(exc) from None
        except _OutOfTime as out:
            with translated(retries, True):
                raise out.error from None
        time.sleep(wait)
        retries += 1


class _OutOfTime(Exception):
    """A retryable failure whose retry would outlast the question's deadline."""

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
        wait = retry_after(headers)
        if wait is not None and 0 <= wait <= MAX_RETRY_AFTER:
            return wait
    return min(0.5 * 2.0**retries, 8.0) * (1 - 0.25 * random.random())


def spent(deadline: Deadline) -> NetworkError:
    """The question's deadline passed (spec 002 calls its seconds the question's budget)."""
    return NetworkError(
        f"Gave up: the question took longer than its {deadline.seconds:g} s budget."
    )
