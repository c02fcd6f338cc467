"""The library functions the ask loop uses, in process against the fake servers."""

from __future__ import annotations

import socket
import threading

import pytest

from webtap.errors import APIError, InvalidInput, NetworkError
from webtap.search import brave_search, google_search, search


def test_an_explicit_key_overrides_discovery(brave, kit) -> None:
    brave.expect_request(kit.BRAVE_PATH).respond_with_response(
        kit.recorded("brave/web_search_physics")
    )
    results = brave_search("Physics", count=2, api_key="explicit-key")
    assert len(results) == 2 and results[0].url.startswith("http")
    assert brave.log[0][0].headers["X-Subscription-Token"] == "explicit-key"


def test_search_pages_map_to_each_providers_parameters(brave, google, kit) -> None:
    brave.expect_request(kit.BRAVE_PATH).respond_with_json({"type": "search"})
    google.expect_request(kit.GOOGLE_PATH).respond_with_json({"kind": "customsearch#search"})
    assert search("paging", provider="brave", count=5, page=2) == []
    assert search("paging", provider="google", count=5, page=2) == []
    brave_args, google_args = (request.args for request, _ in brave.log)
    assert (brave_args["count"], brave_args["offset"]) == ("5", "2")
    assert (google_args["num"], google_args["start"]) == ("5", "11")
    with pytest.raises(InvalidInput, match="at most 10"):
        search("paging", provider="google", count=11)
    with pytest.raises(InvalidInput, match="Unknown search provider"):
        search("paging", provider="bing")


def test_the_whole_tool_deadline_bounds_retries(google, kit, monkeypatch) -> None:
    def slow_failure(request):
        import time

        time.sleep(0.8)
        return kit.json_response({"error": {"code": 503, "message": "busy"}}, status=503)

    google.expect_request(kit.GOOGLE_PATH).respond_with_handler(slow_failure)
    monkeypatch.setenv("WEBTAP_SEARCH_DEADLINE", "1.5")
    with pytest.raises(APIError) as error:
        google_search("deadline")
    # The 503 came back, but no time was left to retry it within the deadline.
    assert len(google.log) == 1
    assert "busy" in str(error.value)


def test_a_reset_connection_is_a_network_error(kit, monkeypatch) -> None:
    listener = socket.create_server(("127.0.0.1", 0))

    def reset_everyone() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            conn.recv(1024)
            conn.close()  # no answer at all

    threading.Thread(target=reset_everyone, daemon=True).start()
    port = listener.getsockname()[1]
    monkeypatch.setenv("GOOGLE_SEARCH_URL", f"http://127.0.0.1:{port}/customsearch/v1")
    try:
        with pytest.raises(NetworkError) as error:
            google_search("reset", api_key=kit.GOOGLE_KEY, engine_id=kit.ENGINE_ID)
    finally:
        listener.close()
    assert "Google Custom Search" in error.value.message
    assert kit.GOOGLE_KEY not in error.value.message
