"""webtap owns the one retry loop of a model call: the SDK makes one attempt per call."""

from __future__ import annotations

import time

import anthropic
import pytest
from tests.fakes.anthropic import API_KEY, FakeAnthropic, error, message, text

from webtap import agent
from webtap.agent import AskSettings, Budgets, ask
from webtap.agent.retry import retry_wait
from webtap.errors import APIError, RateLimit

QUICK = AskSettings(max_retries=2, store_events=False)


def test_the_sdk_client_never_retries_by_itself() -> None:
    client = agent.anthropic_client(API_KEY, max_retries=5)
    try:
        assert client.max_retries == 0
    finally:
        client.close()


def test_a_callers_client_with_sdk_retries_still_gets_one_loop(
    anthropic_api: FakeAnthropic,
) -> None:
    limited = error(429, "rate_limit_error", "Slow down", {"retry-after-ms": "5"})
    anthropic_api.queue(limited, limited, limited, limited, limited)
    client = anthropic.Anthropic(api_key=API_KEY, base_url=anthropic_api.url, max_retries=4)

    with pytest.raises(RateLimit, match=r"still after 1 retries"):
        ask("q", client=client, settings=AskSettings(max_retries=1, store_events=False))

    assert len(anthropic_api.requests) == 2  # not 2 x 5
    assert client.max_retries == 4, "the caller's client is left as it was"
    client.close()


def test_attempts_are_numbered_as_the_sdk_numbers_them(anthropic_api: FakeAnthropic) -> None:
    overloaded = error(529, "overloaded_error", "Overloaded", {"retry-after-ms": "5"})
    anthropic_api.queue(overloaded, overloaded, message(text("ok")))

    assert ask("q", settings=QUICK).text == "ok"
    counts = [r.headers["x-stainless-retry-count"] for r in anthropic_api.requests]
    assert counts == ["0", "1", "2"]


def test_the_server_may_say_not_to_retry(anthropic_api: FakeAnthropic) -> None:
    broken = error(500, "api_error", "Internal", {"x-should-retry": "false"})
    anthropic_api.queue(broken, message(text("never asked")))

    with pytest.raises(APIError, match="500"):
        ask("q", settings=QUICK)
    assert len(anthropic_api.requests) == 1


def test_the_server_may_ask_for_a_retry_of_what_is_not_retried_by_default(
    anthropic_api: FakeAnthropic,
) -> None:
    conflict = error(400, "invalid_request_error", "try again", {"x-should-retry": "true"})
    anthropic_api.queue(conflict, message(text("second time")))

    assert ask("q", settings=QUICK).text == "second time"


def test_a_400_is_not_retried(anthropic_api: FakeAnthropic) -> None:
    anthropic_api.queue(error(400, "invalid_request_error", "bad"), message(text("no")))

    with pytest.raises(APIError, match="400"):
        ask("q", settings=QUICK)
    assert len(anthropic_api.requests) == 1


def test_the_back_off_is_webtaps_own() -> None:
    waits = [retry_wait(None, retries) for retries in range(6)]
    for retries, wait in enumerate(waits):
        ceiling = min(0.5 * 2**retries, 8.0)
        assert 0.75 * ceiling <= wait <= ceiling
    assert retry_wait({"retry-after-ms": "250"}, 0) == 0.25
    assert retry_wait({"retry-after": "2"}, 0) == 2.0
    assert retry_wait({"retry-after": "600"}, 0) <= 0.5, "over 60 s: back off instead"
    http_date = time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(time.time() + 5))
    assert 3 < retry_wait({"retry-after": http_date}, 0) <= 5


def test_a_retry_after_that_outlasts_the_budget_ends_the_call_at_once(
    anthropic_api: FakeAnthropic, monkeypatch: pytest.MonkeyPatch
) -> None:
    from types import SimpleNamespace

    from webtap.agent import retry

    waits: list[float] = []  # what the retry loop decides to wait, recorded instead of slept
    monkeypatch.setattr(
        retry, "time", SimpleNamespace(monotonic=time.monotonic, time=time.time, sleep=waits.append)
    )
    limited = error(429, "rate_limit_error", "Slow down", {"retry-after": "30"})
    anthropic_api.queue(limited, limited)
    settings = AskSettings(budgets=Budgets(total=5.0), max_retries=2, store_events=False)

    with pytest.raises(RateLimit, match="no time left in the question's budget"):
        ask("q", settings=settings)
    assert waits == []  # at once: not one wait of the server's 30 s, nor a shorter one
    assert len(anthropic_api.requests) == 1
