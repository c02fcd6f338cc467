"""web-search-searxng-tool when the instance refuses, answers oddly, or is misconfigured.

Each case runs the real executable against a server on 127.0.0.1 answering as SearXNG does, and
checks the error code and that the message tells the person what to change.
"""

from __future__ import annotations

from typing import Any

import pytest

EXE = "web-search-searxng-tool"


@pytest.fixture
def reply(kit: Any) -> Any:
    return kit.json_response


def search(run_exe: Any, **env: str) -> dict[str, Any]:
    run = run_exe(EXE, stdin={"query": "duckdb"}, env=env)
    assert "Traceback" not in run.stderr
    return run.json


def test_the_limiter_s_429_is_a_rate_limit_saying_how_to_turn_it_off(
    searxng: Any, reply: Any, run_exe: Any
) -> None:
    searxng.expect_request("/search").respond_with_response(reply({"error": "limited"}, 429))
    out = search(run_exe)
    assert (out["success"], out["error_code"]) == (False, "RATE_LIMIT")
    assert "server.limiter: false" in out["error"]


def test_a_base_url_without_search_is_a_404_naming_the_setting(
    searxng: Any, reply: Any, run_exe: Any
) -> None:
    searxng.expect_request("/search").respond_with_response(reply({}, 404))
    out = search(run_exe)
    assert (out["success"], out["error_code"]) == (False, "API_ERROR")
    assert "no /search endpoint" in out["error"] and "SEARXNG_URL" in out["error"]


@pytest.mark.parametrize("address", ["ftp://127.0.0.1/", "localhost:8080", "http://"])
def test_an_address_that_is_not_http_is_a_config_error(address: str, run_exe: Any) -> None:
    out = search(run_exe, SEARXNG_URL=address)
    assert (out["success"], out["error_code"]) == (False, "CONFIG_ERROR")
    assert "must be an http:// or https:// URL" in out["error"]


def test_items_without_a_url_are_skipped_not_fatal(searxng: Any, reply: Any, run_exe: Any) -> None:
    body = {
        "results": [
            "not an object",
            {"title": "no url"},
            {"title": "blank url", "url": "  "},
            {"title": "Kept", "url": " https://duckdb.org/ ", "content": "the one good item"},
        ]
    }
    searxng.expect_request("/search").respond_with_response(reply(body))
    out = search(run_exe)
    assert out["success"] is True
    assert out["results"] == [
        {"title": "Kept", "url": "https://duckdb.org/", "snippet": "the one good item"}
    ]


def test_engines_named_as_plain_strings_are_listed_when_all_fail(
    searxng: Any, reply: Any, run_exe: Any
) -> None:
    body = {"results": [], "unresponsive_engines": ["google", ["bing", ""], ["qwant", "CAPTCHA"]]}
    searxng.expect_request("/search").respond_with_response(reply(body))
    out = search(run_exe)
    assert (out["success"], out["error_code"]) == (False, "API_ERROR")
    assert "(google; bing; qwant (CAPTCHA))" in out["error"]


def test_a_password_in_the_address_never_shows(server: Any, reply: Any, run_exe: Any) -> None:
    server.expect_request("/search").respond_with_response(reply({"oops": True}, 500))
    address = server.url_for("/").replace("http://", "http://me:hunter2-secret@")
    run = run_exe(EXE, stdin={"query": "duckdb"}, env={"SEARXNG_URL": address})
    assert run.json["success"] is False
    assert "hunter2-secret" not in run.stdout + run.stderr
