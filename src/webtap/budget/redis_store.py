"""The Redis store: budgets as Redis hashes, each step one Lua script on the server's clock.

For any engine (Ray, Spark, plain processes), several clusters, or a laptop beside them: every
caller that reaches the server shares the budget. The steps are those of
:mod:`webtap.budget.steps` (book a slot, then record the send), written once more in Lua so
that each runs atomically inside the server, and timed by the server's clock (``TIME``): callers
on machines whose clocks disagree still space their sends evenly. A caller killed at any point
(even by SIGKILL) holds nothing, since no lock outlives a script. A budget left alone for an
hour expires.

A server that cannot be reached, or does not answer within a few seconds, refuses with
``RATE_LIMIT``.
"""

from __future__ import annotations

import threading
from typing import Any
from urllib.parse import urlsplit

from webtap.budget.steps import (
    MARGIN,
    MAX_AHEAD,
    MAX_INTERVAL,
    MIN_GAP,
    RECHECK,
    Pace,
    Rule,
    Turn,
)
from webtap.budget.store import unreachable
from webtap.settings import BUDGET

__all__ = ["KEY_PREFIX", "SCRIPT", "TTL", "RedisStore"]

KEY_PREFIX = "webtap:budget:"
TTL = 3600  # seconds a budget nobody touches is kept
TIMEOUT = 5.0  # seconds for a connection or an answer

# ARGV: op, now ('' = the server's clock), MARGIN, MIN_GAP, MAX_AHEAD, MAX_INTERVAL, TTL,
# then book: interval, quota (0/1), patience; stamp: interval; learn: per_second, wait,
# blocked_for, RECHECK (each '' when the provider said nothing).
SCRIPT = """
local op = ARGV[1]
local now
if ARGV[2] ~= '' then
  now = tonumber(ARGV[2])
else
  local t = redis.call('TIME')
  now = tonumber(t[1]) + tonumber(t[2]) / 1000000
end
local margin, gap, ahead = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local max_interval, ttl = tonumber(ARGV[6]), tonumber(ARGV[7])
local key = KEYS[1]
local s = redis.call('HMGET', key, 'next', 'sent', 'interval', 'blocked_until', 'resets_at')
local function num(v) return tonumber(v) or 0 end
local function near(v)
  v = num(v)
  if v < now + ahead then return v end
  return 0
end
local function f(x) return string.format('%.17g', x) end
local function spacing(i) return i * (1 + margin) + math.min(gap, i / 10) end
local function interval_in_force(rule)
  local learned = num(s[3])
  if learned == 0 then learned = rule end
  return math.min(learned, max_interval)
end
if op == 'book' then
  local interval = interval_in_force(tonumber(ARGV[8]))
  local blocked = num(s[4])
  if ARGV[9] == '1' and blocked > now then
    local resets = num(s[5])
    if resets == 0 then resets = blocked end
    return {'0', '0', f(interval), f(math.max(resets - now, 0))}
  end
  local sp = spacing(interval)
  local slot = math.max(now, near(s[1]), near(s[2]) + sp)
  local wait = slot - now
  if wait > tonumber(ARGV[10]) then return {'0', f(wait), f(interval), ''} end
  redis.call('HSET', key, 'next', f(slot + sp))
  redis.call('EXPIRE', key, ttl)
  return {'1', f(wait), f(interval), ''}
elseif op == 'stamp' then
  local ready = near(s[2]) + spacing(interval_in_force(tonumber(ARGV[8])))
  if ready <= now then
    redis.call('HSET', key, 'sent', f(now))
    redis.call('EXPIRE', key, ttl)
    return '0'
  end
  return f(ready - now)
elseif op == 'learn' then
  local per_second, wait, blocked = num(ARGV[8]), num(ARGV[9]), num(ARGV[10])
  if per_second > 0 then redis.call('HSET', key, 'interval', f(1 / per_second)) end
  if wait > 0 then redis.call('HSET', key, 'next', f(math.max(num(s[1]), now + wait))) end
  if blocked > 0 then
    redis.call('HSET', key, 'blocked_until', f(now + math.min(blocked, tonumber(ARGV[11]))))
    redis.call('HSET', key, 'resets_at', f(now + blocked))
  end
  if redis.call('EXISTS', key) == 1 then redis.call('EXPIRE', key, ttl) end
  return '0'
end
return redis.error_reply('unknown budget step ' .. tostring(op))
"""


class RedisStore:
    """Budgets on the Redis server at ``url`` (``redis://``, ``rediss://`` or ``unix://``)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.where = _where(url)
        self._client: Any = None
        self._script: Any = None
        self._lock = threading.Lock()

    def book(self, name: str, rule: Rule, patience: float, now: float | None = None) -> Turn:
        booked, wait, interval, resets = self._run(
            name, "book", now, rule.interval, "1" if rule.quota else "0", patience
        )
        return Turn(
            float(wait),
            float(interval),
            booked in (b"1", "1"),
            float(resets) if resets not in (b"", "") else None,
        )

    def stamp(self, name: str, rule: Rule, now: float | None = None) -> float:
        return float(self._run(name, "stamp", now, rule.interval))

    def learn(self, name: str, pace: Pace, now: float | None = None) -> None:
        per_second, wait, blocked = (_arg(value) for value in pace)
        self._run(name, "learn", now, per_second, wait, blocked, RECHECK)

    def _run(self, name: str, op: str, now: float | None, *args: Any) -> Any:
        argv = [op, _arg(now), MARGIN, MIN_GAP, MAX_AHEAD, MAX_INTERVAL, TTL, *args]
        try:
            import redis  # an optional extra: without it, this refusal says how to get it
        except ImportError:
            raise unreachable(
                f"Redis server at {self.where}",
                "the redis package is not installed",
                "pip install 'webtap[ray]' (or redis), or unset WEBTAP_BUDGET.",
            ) from None
        try:
            script = self._loaded(redis)
            return script(keys=[KEY_PREFIX + name], args=[_arg(value) for value in argv])
        except redis.exceptions.RedisError as exc:
            # The class only: a message may quote the URL, and with it a password.
            raise unreachable(
                f"Redis server at {self.where}",
                type(exc).__name__,
                "start it, or fix WEBTAP_BUDGET.",
            ) from None

    def _loaded(self, redis: Any) -> Any:
        with self._lock:
            if self._script is None:
                self._client = redis.Redis.from_url(
                    self.url, socket_timeout=TIMEOUT, socket_connect_timeout=TIMEOUT
                )
                self._script = self._client.register_script(SCRIPT)
            return self._script

    def close(self) -> None:
        if self._client is not None:
            self._client.close()


def _arg(value: Any) -> str:
    if value is None:
        return ""
    return repr(float(value)) if isinstance(value, float) else str(value)


def _where(url: str) -> str:
    """The server as a message may name it: host and port, or the socket; no password."""
    try:
        parts = urlsplit(url)
        if parts.scheme == "unix":
            return parts.path or "a unix socket"
        return f"{parts.hostname or 'localhost'}:{parts.port or 6379}"
    except ValueError:
        return BUDGET.name
