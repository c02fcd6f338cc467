"""Where a budget's state lives: the Redis store runs the same steps as the file and Ray stores
(the Lua is checked against the Python, decision for decision), keeps four processes sharing a
key within its rate through a SIGKILL, and a store that cannot be reached refuses."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from typing import Any

import pytest
from tests.fakes.ports import free_port
from tests.scale.scale_kit import (
    BRAVE_KEY,
    brave_budget,
    brave_env,
    most_in_any_window,
)

from webtap.budget.steps import Pace, Rule, Turn, book, learn, stamp
from webtap.errors import ConfigError, RateLimit

EXE = os.path.join(os.path.dirname(sys.executable), "web-search-brave-tool")

# (step, now, argument): a key's life, with the decisions at each step.
SCENARIO: list[tuple[str, float, Any]] = [
    ("book", 1000.0, (Rule(0.2), 10.0)),  # free: now
    ("stamp", 1000.0, Rule(0.2)),
    ("book", 1000.0, (Rule(0.2), 10.0)),  # one spacing later
    ("book", 1000.05, (Rule(0.2), 10.0)),  # two
    ("stamp", 1000.1, Rule(0.2)),  # too early: wait
    ("stamp", 1000.3, Rule(0.2)),
    ("learn", 1000.3, Pace(per_second=10)),  # a faster plan
    ("book", 1000.3, (Rule(0.2), 10.0)),
    ("stamp", 1000.5, Rule(0.2)),
    ("learn", 1000.5, Pace(wait=5.0)),  # a used-up second
    ("book", 1000.5, (Rule(0.2), 1.0)),  # beyond its patience: refused, nothing booked
    ("book", 1000.5, (Rule(0.2), 10.0)),
    ("learn", 1001.0, Pace(blocked_for=100_000)),  # a used-up month
    ("book", 1001.0, (Rule(0.2, quota=True), 10.0)),  # stops callers of a quota'd provider
    ("book", 1700.0, (Rule(0.2, quota=True), 10.0)),  # asked again after RECHECK
    ("book", 1700.0, (Rule(0.0), 10.0)),  # unpaced (no limit known): only `next` holds
    ("stamp", 1700.0, Rule(0.0)),
    ("book", 1e6, (Rule(0.2), 10.0)),  # a clock far ahead: old times count as none
]


def run_python(scenario: list[tuple[str, float, Any]]) -> list[Any]:
    state: dict[str, Any] = {}
    out: list[Any] = []
    for step, now, argument in scenario:
        if step == "book":
            out.append(book(state, now, *argument))
        elif step == "stamp":
            out.append(stamp(state, now, argument))
        else:
            out.append(learn(state, now, argument))
    return [out, state]


def run_redis(url: str, scenario: list[tuple[str, float, Any]]) -> list[Any]:
    import redis

    from webtap.budget.redis_store import KEY_PREFIX, RedisStore

    store, name = RedisStore(url), f"test-{uuid.uuid4().hex}"
    out: list[Any] = []
    for step, now, argument in scenario:
        if step == "book":
            out.append(store.book(name, *argument, now=now))
        elif step == "stamp":
            out.append(store.stamp(name, argument, now=now))
        else:
            out.append(store.learn(name, argument, now=now))
    raw = redis.Redis.from_url(url, decode_responses=True).hgetall(KEY_PREFIX + name)
    return [out, {k: float(v) for k, v in raw.items()}]


def test_the_lua_steps_decide_as_the_python_steps(redis_url: str) -> None:
    (python, python_state), (lua, lua_state) = run_python(SCENARIO), run_redis(redis_url, SCENARIO)
    assert len(python) == len(lua)
    for (step, now, _), expected, got in zip(SCENARIO, python, lua, strict=True):
        if isinstance(expected, Turn):
            assert got.booked == expected.booked, (step, now)
            assert got.wait == pytest.approx(expected.wait, abs=1e-6), (step, now)
            assert got.interval == pytest.approx(expected.interval), (step, now)
            assert (got.resets_in is None) == (expected.resets_in is None), (step, now)
            if expected.resets_in is not None:
                assert got.resets_in == pytest.approx(expected.resets_in), (step, now)
        elif expected is not None:
            assert got == pytest.approx(expected, abs=1e-6), (step, now)
    assert lua_state == pytest.approx(python_state)
    # The scenario reaches every decision: waits, refusals, a quota, a stamp put off.
    assert any(isinstance(t, Turn) and not t.booked and t.resets_in is None for t in python)
    assert any(isinstance(t, Turn) and t.resets_in is not None for t in python)
    assert any(isinstance(w, float) and w > 0 for w in python if not isinstance(w, Turn))


CLIENT = """
import sys
from webtap.net import Deadline
from webtap.search import brave_search
for n in range(int(sys.argv[1])):
    brave_search(f"query {n}", deadline=Deadline(60))
    print(n, flush=True)
"""


def test_four_processes_on_redis_keep_the_key_s_rate_through_a_sigkill(
    redis_url: str, limited_brave: Any
) -> None:
    env = {**os.environ, **brave_env(limited_brave, WEBTAP_BUDGET=redis_url)}
    clients = [
        subprocess.Popen(
            [sys.executable, "-c", CLIENT, "6"], env=env, stdout=subprocess.PIPE, text=True
        )
        for _ in range(4)
    ]
    victim = clients[0]
    assert victim.stdout is not None and victim.stdout.readline() == "0\n"
    victim.send_signal(signal.SIGKILL)  # between two searches, or inside one
    outputs = [client.communicate(timeout=120)[0] for client in clients[1:]]
    victim.wait(timeout=10)
    assert [client.returncode for client in clients[1:]] == [0, 0, 0]
    assert all(output.count("\n") == 6 for output in outputs)
    assert len(limited_brave.arrivals) >= 19
    print(f"most in one second: {most_in_any_window(limited_brave.arrivals)} (limit 5)")
    assert most_in_any_window(limited_brave.arrivals) <= 5


def test_without_a_shared_store_separate_machines_multiply_the_rate(
    limited_brave: Any, tmp_path: Any
) -> None:
    """The control: four processes with a file budget each (four machines) break the limit
    that the shared store keeps; the per-window count is what tells them apart."""
    clients = [
        subprocess.Popen(
            [sys.executable, "-c", CLIENT, "5"],
            env={**os.environ, **brave_env(limited_brave, WEBTAP_CACHE_DIR=str(tmp_path / str(n)))},
            stdout=subprocess.DEVNULL,
        )
        for n in range(4)
    ]
    assert [client.wait(timeout=120) for client in clients] == [0, 0, 0, 0]
    print(f"most in one second: {most_in_any_window(limited_brave.arrivals)} (limit 5)")
    assert most_in_any_window(limited_brave.arrivals) > 5


def test_an_unreachable_redis_refuses_with_rate_limit_and_no_request(
    run_exe: Any, limited_brave: Any
) -> None:
    closed = free_port()
    env = brave_env(limited_brave, WEBTAP_BUDGET=f"redis://:hunter2-secret@127.0.0.1:{closed}/0")
    out = run_exe("web-search-brave-tool", stdin={"query": "a query"}, env=env)
    answer = out.json
    assert (answer["success"], answer["error_code"]) == (False, "RATE_LIMIT")
    assert "cannot be reached" in answer["error"]
    assert f"127.0.0.1:{closed}" in answer["error"]
    assert "hunter2" not in out.stdout + out.stderr
    assert limited_brave.arrivals == []


def test_a_ray_store_outside_a_cluster_refuses_with_rate_limit(
    run_exe: Any, limited_brave: Any
) -> None:
    pytest.importorskip("ray", reason="Ray is not installed: pip install 'webtap[ray]'")
    out = run_exe(
        "web-search-brave-tool",
        stdin={"query": "a query"},
        env=brave_env(limited_brave, WEBTAP_BUDGET="ray"),
    )
    answer = out.json
    assert (answer["success"], answer["error_code"]) == (False, "RATE_LIMIT")
    assert "not connected" in answer["error"]
    assert limited_brave.arrivals == []


@pytest.mark.parametrize("value", ["redis", "memcached://x", "redis:/:pw@host"])
def test_a_budget_setting_that_is_not_a_store_is_a_config_error(
    value: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from webtap.budget.rate import budget_store

    monkeypatch.setenv("WEBTAP_BUDGET", value)
    with pytest.raises(ConfigError) as caught:
        budget_store()
    assert "WEBTAP_BUDGET must be 'file'" in caught.value.message
    assert "pw" not in caught.value.message


def test_the_redis_store_names_keys_by_hash_only(redis_url: str, monkeypatch: Any) -> None:
    import redis

    monkeypatch.setenv("WEBTAP_BUDGET", redis_url)
    key_budget = brave_budget(BRAVE_KEY)
    key_budget.learn(Pace(per_second=3))
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    names = client.keys("webtap:budget:*")
    assert f"webtap:budget:{key_budget.name}" in names
    assert not any(BRAVE_KEY in name for name in names)
    stored = client.hgetall(f"webtap:budget:{key_budget.name}")
    assert not any(BRAVE_KEY in value for value in stored.values())
    assert 0 < client.ttl(f"webtap:budget:{key_budget.name}") <= 3600


def test_a_turn_refused_by_the_redis_store_spends_nothing(redis_url: str, monkeypatch: Any) -> None:
    from webtap.net import Deadline

    monkeypatch.setenv("WEBTAP_BUDGET", redis_url)
    key_budget = brave_budget(f"refused-{uuid.uuid4().hex}")
    key_budget.learn(Pace(wait=120))
    with pytest.raises(RateLimit, match="after its deadline"):
        key_budget.acquire(Deadline(5))
    assert json.dumps(key_budget.store.book(key_budget.name, key_budget.rule(), 1.0)._asdict())
    assert not key_budget.store.book(key_budget.name, key_budget.rule(), 1.0).booked
    assert time.time() > 0
