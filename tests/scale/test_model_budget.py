"""The Anthropic key's requests-per-minute budget: every process and worker of the key shares
it, the API's headers set its pace, and one caller's 429 holds back the others."""

from __future__ import annotations

import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from tests.fakes.anthropic import API_KEY, FakeAnthropic, Reply, echo, error
from tests.scale.scale_kit import most_in_any_window

import webtap.budget.rate
from webtap import agent
from webtap.agent.messages_api import MessagesAPI
from webtap.agent.rate import model_budget, pace_of, take_turn
from webtap.budget.file_store import FileStore
from webtap.budget.rate import Pace
from webtap.budget.steps import Rule, stamp
from webtap.errors import RateLimit

QUICK = agent.AskSettings(max_tool_calls=0, max_retries=0, store_events=False)


def timed(limit: int | None = None) -> tuple[list[float], Any]:
    """A responder that records when each request arrived, and says the account's limit."""
    arrivals: list[float] = []
    lock = threading.Lock()

    def respond(body: dict[str, Any]) -> Reply:
        with lock:
            arrivals.append(time.monotonic())
        reply = echo(body)
        if limit is not None:
            reply.headers["anthropic-ratelimit-requests-limit"] = str(limit)
            reply.headers["anthropic-ratelimit-requests-remaining"] = str(limit - 1)
        return reply

    return arrivals, respond


@pytest.mark.parametrize(
    ("status", "headers", "expected"),
    [
        (200, {"anthropic-ratelimit-requests-limit": "300"}, Pace(per_second=5.0)),
        (429, {"retry-after": "7"}, Pace(wait=7.0)),
        (529, {"retry-after-ms": "1500"}, Pace(wait=1.5)),
        (200, {"retry-after": "7"}, Pace()),  # only a refusal's retry-after holds callers
        (429, {"retry-after": "900"}, Pace(wait=60.0)),  # a minute at most
        (200, {"anthropic-ratelimit-requests-limit": "soon", "retry-after": "-3"}, Pace()),
    ],
)
def test_the_api_s_headers_as_the_budget_reads_them(
    status: int, headers: dict[str, str], expected: Pace
) -> None:
    assert pace_of(status, headers, MessagesAPI.rate_headers) == expected


def test_a_used_up_minute_waits_for_its_reset() -> None:
    reset = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 20))
    said = pace_of(
        200,
        {
            "anthropic-ratelimit-requests-remaining": "0",
            "anthropic-ratelimit-requests-reset": reset,
        },
        MessagesAPI.rate_headers,
    )
    assert said.wait is not None and 15 < said.wait <= 20


class RecordingStore(FileStore):
    """The file store, noting when (on its clock) it let each call go: what the budget decided,
    whatever the machine's load then does to the call on its way."""

    def __init__(self) -> None:
        self.sends: list[float] = []

    def stamp(self, name: str, rule: Rule) -> float | None:
        def noted(state: dict[str, Any], now: float, rule: Rule) -> float:
            wait = stamp(state, now, rule)
            if not wait:
                self.sends.append(now)
            return wait

        return self._run(name, noted, rule)


def test_the_limit_the_api_states_spaces_every_caller_of_the_key(
    anthropic_api: FakeAnthropic, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sixteen questions on four threads, at the 300 a minute the API states (and the setting
    states before its first answer): never more than 5 sent in any one second. (The arrivals at
    the fake are printed beside: on a loaded machine a call can leave its turn a few hundred ms
    late; the budget's margin is for network jitter, not for that.)"""
    store = RecordingStore()
    monkeypatch.setitem(webtap.budget.rate._stores, "", store)  # WEBTAP_BUDGET unset: the file
    arrivals, anthropic_api.responder = timed(limit=300)
    monkeypatch.setenv("WEBTAP_ANTHROPIC_RPM", "300")
    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda n: agent.ask(f"q{n}", settings=QUICK).text, range(16)))
    assert len(answers) == 16 and len(arrivals) == len(store.sends) == 16
    print(
        f"most sent in one second: {most_in_any_window(store.sends)} (limit 5); most arrived: "
        f"{most_in_any_window(arrivals)}"
    )
    assert most_in_any_window(store.sends) <= 5
    state = json.loads(model_budget(API_KEY).path.read_text())
    assert state["interval"] == pytest.approx(0.2)  # learned from the header
    assert API_KEY not in model_budget(API_KEY).path.name


def test_without_a_stated_limit_calls_are_not_held(anthropic_api: FakeAnthropic) -> None:
    arrivals, anthropic_api.responder = timed(limit=None)
    with ThreadPoolExecutor(4) as pool:
        list(pool.map(lambda n: agent.ask(f"q{n}", settings=QUICK).text, range(12)))
    assert most_in_any_window(arrivals) > 5  # as before: nothing said, nothing spaced


def test_one_caller_s_429_holds_back_every_caller_of_the_key(
    anthropic_api: FakeAnthropic, redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through Redis, as workers on other machines would see it."""
    from webtap.budget.redis_store import RedisStore

    monkeypatch.setenv("WEBTAP_BUDGET", redis_url)
    anthropic_api.queue(error(429, "rate_limit_error", "Slow down", {"retry-after": "20"}))
    with pytest.raises(RateLimit):
        agent.ask("q", settings=QUICK)
    elsewhere = RedisStore(redis_url)  # another process's connection
    budget = model_budget(API_KEY)
    turn = elsewhere.book(budget.name, budget.rule(), patience=5.0)
    assert not turn.booked and 15 < turn.wait <= 20
    with pytest.raises(RateLimit, match="after its deadline"):
        take_turn(model_budget(API_KEY), 5.0)
    assert len(anthropic_api.requests) == 1
