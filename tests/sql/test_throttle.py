"""The SQL rows slow down when the Anthropic account's rate limit is near."""

from __future__ import annotations

import itertools
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import pytest
from tests.fakes.anthropic import FakeAnthropic, Reply, echo

from webtap import sql
from webtap.agent.chat_api import ChatAPI
from webtap.agent.messages_api import MessagesAPI
from webtap.sql.throttle import Throttle

MESSAGES = MessagesAPI.rate_headers


@dataclass
class FakeResponse:
    status_code: int = 200
    headers: dict[str, str] = field(default_factory=dict)


def test_the_default_concurrency_is_raised() -> None:
    assert sql.DEFAULT_CONCURRENCY == 32


def test_remaining_requests_cap_the_rows_in_flight_and_recover() -> None:
    throttle = Throttle(lambda: 32)
    throttle.observe(
        FakeResponse(headers={"anthropic-ratelimit-requests-remaining": "3"}), MESSAGES
    )
    assert throttle.allowed == 3
    throttle.observe(
        FakeResponse(headers={"anthropic-ratelimit-requests-remaining": "0"}), MESSAGES
    )
    assert throttle.allowed == 1  # never below one
    throttle.observe(
        FakeResponse(headers={"anthropic-ratelimit-requests-remaining": "400"}), MESSAGES
    )
    assert throttle.allowed == 32


def test_an_openai_compatible_server_s_remaining_requests_cap_them_too() -> None:
    throttle = Throttle(lambda: 32)
    throttle.observe(
        FakeResponse(headers={"x-ratelimit-remaining-requests": "2"}), ChatAPI.rate_headers
    )
    assert throttle.allowed == 2
    # Another protocol's header says nothing to this one.
    throttle.observe(FakeResponse(headers={"x-ratelimit-remaining-requests": "400"}), MESSAGES)
    assert throttle.allowed == 2


@pytest.mark.parametrize("value", ["soon", "-3", "1e400", ""])
def test_garbled_headers_change_nothing(value: str) -> None:
    throttle = Throttle(lambda: 8)
    throttle.observe(
        FakeResponse(429, {"anthropic-ratelimit-requests-remaining": value, "retry-after": value}),
        MESSAGES,
    )
    assert throttle.allowed == 8
    assert throttle._resume_at == 0.0


def test_retry_after_holds_new_rows_back() -> None:
    throttle = Throttle(lambda: 8)
    throttle.observe(FakeResponse(429, {"retry-after": "30"}), MESSAGES)
    entered = threading.Event()

    def row() -> None:
        with throttle:
            entered.set()

    thread = threading.Thread(target=row, daemon=True)
    thread.start()
    assert not entered.wait(0.5)  # held back
    throttle._resume_at = 0.0  # the pause is over
    with throttle._cond:
        throttle._cond.notify_all()
    assert entered.wait(5)


def test_rows_go_one_at_a_time_when_the_account_has_one_request_left(
    anthropic_api: FakeAnthropic,
) -> None:
    """The first wave starts before any header is seen; after it, no two calls overlap."""
    import duckdb

    spans: list[tuple[float, float]] = []
    lock = threading.Lock()

    def last_request(body: dict[str, Any]) -> Reply:
        started = time.monotonic()
        time.sleep(0.05)
        reply = echo(body)
        reply.headers["anthropic-ratelimit-requests-remaining"] = "1"
        with lock:
            spans.append((started, time.monotonic()))
        return reply

    anthropic_api.responder = last_request
    connection = duckdb.connect()
    functions = sql.register(connection, progress=False, concurrency=4)
    try:
        answers = connection.execute(
            "SELECT stps_ask_ai('item ' || x, 'q') FROM range(12) t(x)"
        ).fetchall()
    finally:
        functions.close()
        connection.close()
    assert all(not answer.startswith("ERROR") for (answer,) in answers)
    spans.sort()
    overlapping = [(a, b) for a, b in itertools.pairwise(spans[4:]) if b[0] < a[1]]
    assert len(spans) == 12 and overlapping == []
