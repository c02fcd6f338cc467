"""One rate budget per key, shared by every process: a strict fake Brave refuses anything faster
than the free plan's one request a second, and nobody gets refused."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from webtap.budget.rate import Pace, RateBudget
from webtap.errors import RateLimit
from webtap.net import Deadline
from webtap.search import brave_search

BIN = Path(sys.executable).parent
EXE = "web-search-brave-tool"


@pytest.fixture
def strict_brave(brave: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The fake Brave keeping 1 request a second strictly, the key set, and the default budget
    in force."""
    monkeypatch.delenv("WEBTAP_BRAVE_RATE")  # the documented default: Brave's free plan
    return brave.strict()


def budget_files() -> list[Path]:
    from webtap.cache import cache_dir

    return sorted((cache_dir() / "ratelimit").glob("*.json"))


def test_thirty_tool_processes_started_at_once_all_succeed_without_a_429(
    strict_brave: Any, kit: Any
) -> None:
    """About 30 s: the budget spaces 30 requests a second apart, as the issue asks to show."""
    env = {
        **os.environ,
        "WEBTAP_SEARCH_DEADLINE": "90",  # the last in line waits about 30 s for its turn
        "WEBTAP_CACHE": "off",
    }
    started = time.monotonic()
    processes = [
        subprocess.Popen(
            [str(BIN / EXE)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        for _ in range(30)
    ]
    outputs = [
        process.communicate(json.dumps({"query": f"query {n}"}).encode(), timeout=120)
        for n, process in enumerate(processes)
    ]
    elapsed = time.monotonic() - started
    answers = [json.loads(stdout) for stdout, _ in outputs]
    failures = [a for a in answers if not a["success"]]
    assert failures == []
    assert (strict_brave.accepted, strict_brave.refused) == (30, 0)
    print(f"30 processes, 30 requests, 0 refused, {elapsed:.1f} s")
    # The budget's file names the key by a hash only.
    for path in budget_files():
        assert kit.BRAVE_KEY.encode() not in path.read_bytes()
        assert kit.BRAVE_KEY not in path.name


def test_a_killed_process_holding_the_budget_does_not_block_the_next_caller(
    strict_brave: Any, kit: Any, run_exe: Any
) -> None:
    import fcntl

    path = RateBudget("brave", kit.BRAVE_KEY, what="Brave Search").path
    path.parent.mkdir(parents=True, exist_ok=True)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import fcntl, os, sys, time\n"
            f"fd = os.open({str(path)!r}, os.O_RDWR | os.O_CREAT, 0o600)\n"
            "fcntl.flock(fd, fcntl.LOCK_EX)\n"
            "print('holding', flush=True)\n"
            "time.sleep(120)\n",
        ],
        stdout=subprocess.PIPE,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"holding\n"
        probe = os.open(path, os.O_RDWR)
        with pytest.raises(BlockingIOError):  # held: a caller now would wait for it
            fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=10)
        fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)  # the kernel let go of it
        fcntl.flock(probe, fcntl.LOCK_UN)
        os.close(probe)
        out = run_exe(EXE, stdin={"query": "after the kill"}, timeout=30).json
    finally:
        holder.kill()
        holder.wait()
    assert out["success"] is True
    assert strict_brave.accepted == 1


def test_a_half_written_budget_file_reads_as_a_fresh_budget(
    strict_brave: Any, kit: Any, run_exe: Any
) -> None:
    path = RateBudget("brave", kit.BRAVE_KEY, what="Brave Search").path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"next": 17')
    assert run_exe(EXE, stdin={"query": "garbled"}).json["success"] is True


def test_a_turn_beyond_the_deadline_is_rate_limit_without_a_request(
    brave: Any, kit: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("WEBTAP_BRAVE_RATE")
    RateBudget("brave", kit.BRAVE_KEY, what="Brave Search").learn(Pace(wait=120))
    with pytest.raises(RateLimit) as caught:
        brave_search("queued", deadline=Deadline(5))
    assert "after its deadline" in caught.value.message
    assert "WEBTAP_SEARCH_DEADLINE" in caught.value.message
    assert brave.log == []


def test_a_higher_plan_limit_from_the_headers_is_adopted(brave: Any, kit: Any) -> None:
    body = kit.body_of("brave/web_search_brave_search")
    brave.expect_request(kit.BRAVE_PATH).respond_with_data(
        body,
        headers={
            "Content-Type": "application/json",
            "X-RateLimit-Limit": "20, 20000000",
            "X-RateLimit-Remaining": "19, 19999000",
            "X-RateLimit-Reset": "1, 1419704",
        },
    )
    brave_search("paid plan")
    (path,) = budget_files()
    assert json.loads(path.read_text())["interval"] == pytest.approx(1 / 20)


def test_a_used_up_monthly_quota_stops_callers_without_a_request(
    brave: Any, kit: Any, run_exe: Any
) -> None:
    brave.expect_request(kit.BRAVE_PATH).respond_with_response(
        kit.recorded("brave/error_429_quota_limited")
    )
    first = run_exe(EXE, stdin={"query": "one"}).json
    second = run_exe(EXE, stdin={"query": "two"}).json
    for out in (first, second):
        assert (out["success"], out["error_code"]) == (False, "RATE_LIMIT")
        assert out["_event"]["kind"] == "rate_limited"
    assert len(brave.log) == 1  # the second knew from the budget
    assert 1419000 < second["_event"]["data"]["resets_in_seconds"] <= 1419704


def test_threads_of_one_process_share_the_budget(strict_brave: Any) -> None:
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(4) as pool:
        found = list(
            pool.map(lambda n: brave_search(f"thread {n}", deadline=Deadline(30)), range(4))
        )
    assert all(found)
    assert (strict_brave.accepted, strict_brave.refused) == (4, 0)


def test_a_budget_that_cannot_be_kept_lets_requests_through(
    brave: Any, kit: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("WEBTAP_CACHE_DIR", str(blocker))
    brave.expect_request(kit.BRAVE_PATH).respond_with_response(
        kit.recorded("brave/web_search_brave_search")
    )
    assert brave_search("no budget here")


def test_a_used_up_quota_is_asked_again_after_a_while(kit: Any) -> None:
    """Callers stop until the reset, but the budget believes it for 10 minutes at most."""
    seen: list[float] = []

    def quota(resets_in: float) -> RateLimit:
        seen.append(resets_in)
        return RateLimit("used up")

    budget = RateBudget("brave", kit.BRAVE_KEY, what="Brave Search", quota_error=quota)
    budget.learn(Pace(blocked_for=100_000))
    with pytest.raises(RateLimit):
        budget.acquire(Deadline(5))
    assert 99_000 < seen[0] <= 100_000  # the message tells the real reset
    state = json.loads(budget.path.read_text())
    assert state["blocked_until"] - time.time() <= 600


def test_the_spacing_scales_with_the_plan() -> None:
    from webtap.budget.steps import spacing as _spacing

    assert _spacing(1.0) == pytest.approx(1.15)  # the free plan: margin and gap for jitter
    assert _spacing(1 / 50) == pytest.approx(0.023)  # 50 a second stays about 50, not 10
