"""A fake Google Custom Search JSON API: ``GET /customsearch/v1?key=&cx=&q=&num=&start=``.

:meth:`FakeGoogle.answer` serves Google's recorded answers (``customsearch_javascript`` and
others, ``API_KEY_INVALID``, ``dailyLimitExceeded``...).
"""

from __future__ import annotations

from tests.fakes.provider import FakeProvider

__all__ = ["FakeGoogle"]


class FakeGoogle(FakeProvider):
    path = "/customsearch/v1"
    endpoint_env = "GOOGLE_SEARCH_URL"
    folder = "google"
    usual = "customsearch_javascript"
    # Distinctive secrets, so that a leak anywhere is found by a plain substring search.
    KEY = "AIza-secret-google-key-7d2b4a"
    ENGINE_ID = "cx-secret-engine-91e3"

    def credentials(self) -> dict[str, str]:
        return {"GOOGLE_SEARCH_API_KEY": self.KEY, "GOOGLE_SEARCH_ENGINE_ID": self.ENGINE_ID}
