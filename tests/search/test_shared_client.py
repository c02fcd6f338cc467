"""One HTTP client (one TLS context, one pool) serves every search of a long-lived process."""

from __future__ import annotations

from typing import Any

import pytest

from webtap.search import request


def test_searches_in_one_process_share_one_client(
    brave: Any, kit: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from webtap.search import brave_search

    made: list[Any] = []
    original = request.new_client

    def counting() -> Any:
        made.append(original())
        return made[-1]

    monkeypatch.setattr(request, "_shared", None)
    monkeypatch.setattr(request, "new_client", counting)
    monkeypatch.setenv("WEBTAP_CACHE", "off")
    brave.expect_request(kit.BRAVE_PATH).respond_with_response(
        kit.recorded("brave/web_search_brave_search")
    )
    for query in ("one", "two", "three"):
        assert brave_search(query)
    assert len(made) == 1 and len(brave.log) == 3
    assert request.shared_client() is made[0]


def test_a_closed_shared_client_is_replaced(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(request, "_shared", None)
    first = request.shared_client()
    first.close()
    assert request.shared_client() is not first
