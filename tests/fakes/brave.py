"""A fake Brave Search: ``GET /res/v1/web/search`` with the key in ``X-Subscription-Token``.

:meth:`FakeBrave.answer` serves Brave's recorded answers (success, ``SUBSCRIPTION_TOKEN_INVALID``,
``RATE_LIMITED``, ``QUOTA_LIMITED``... with their ``X-RateLimit-*`` headers);
:meth:`FakeBrave.strict` keeps the free plan's limit as Brave does, refusing anything faster with
its 429; :meth:`FakeBrave.limited` only says the limit, for tests that count the requests that
arrive in any one second (``arrivals``). Used by tests/search, tests/agent, tests/sql, tests/mcp,
tests/scale, bench/sql_batch.py and bench/scale.py.
"""

from __future__ import annotations

import threading
import time

from tests.fakes.provider import FakeProvider
from tests.fakes.recorded import body_of, json_of
from werkzeug import Request, Response

__all__ = ["FakeBrave"]


class FakeBrave(FakeProvider):
    path = "/res/v1/web/search"
    endpoint_env = "BRAVE_SEARCH_URL"
    folder = "brave"
    usual = "web_search_brave_search"
    # A distinctive key, so that a leak anywhere is found by a plain substring search.
    KEY = "BSA-secret-brave-key-5f1c9e"

    def credentials(self) -> dict[str, str]:
        return {"BRAVE_API_KEY": self.KEY}

    @classmethod
    def top_results(cls, count: int = 5) -> list[dict[str, object]]:
        """The first ``count`` web results of the usual answer, as Brave sent them."""
        return json_of(f"{cls.folder}/{cls.usual}")["web"]["results"][:count]

    def keys_sent(self) -> list[str | None]:
        return [request.headers.get("X-Subscription-Token") for request in self.requests()]

    def limited(self, per_second: int) -> FakeBrave:
        """Answer every request with the usual results, their ``X-RateLimit-*`` headers saying
        a limit of ``per_second`` requests a second (a paid plan's), and refuse none: whether
        callers kept the limit is for the test to count (``arrivals``)."""
        results = body_of("brave/" + self.usual)
        headers = {
            "Content-Type": "application/json",
            "X-RateLimit-Limit": f"{per_second}, 20000000",
            "X-RateLimit-Remaining": f"{per_second - 1}, 19999000",
            "X-RateLimit-Reset": "1, 1419704",
        }
        return self.respond(lambda request: Response(results, status=200, headers=headers))

    def strict(self, per_second: int = 1, monthly_left: int = 1990) -> FakeBrave:
        """Keep the free plan's limit strictly: a request that arrives less than
        ``1/per_second`` s after the last one accepted gets Brave's 429 ``RATE_LIMITED``
        (recorded); an accepted one gets the usual results. Both carry ``X-RateLimit-*``
        headers saying the second's request is used. ``accepted`` and ``refused`` count."""
        interval = 1.0 / per_second
        results, limited = body_of("brave/" + self.usual), body_of("brave/error_429_rate_limited")
        lock = threading.Lock()
        last = [float("-inf")]
        self.accepted = self.refused = 0

        def admit() -> bool:
            with lock:
                now = time.monotonic()
                if now - last[0] < interval:
                    self.refused += 1
                    return False
                last[0] = now
                self.accepted += 1
                return True

        def handle(request: Request) -> Response:
            status, body = (200, results) if admit() else (429, limited)
            headers = {
                "Content-Type": "application/json",
                "X-RateLimit-Limit": f"{per_second}, 2000",
                "X-RateLimit-Remaining": f"0, {monthly_left}",
                "X-RateLimit-Reset": "1, 1419704",
            }
            return Response(body, status=status, headers=headers)

        return self.respond(handle)
