"""Search results are cached: an identical search within the TTL makes no provider request."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

EXE = "web-search-brave-tool"


@pytest.fixture
def counting_brave(brave: Any, kit: Any) -> Any:
    """Fake Brave answering every request with the recorded results; ``brave.log`` counts."""
    brave.expect_request(kit.BRAVE_PATH).respond_with_response(
        kit.recorded("brave/web_search_brave_search")
    )
    return brave


def cache_files() -> list[Path]:
    from webtap.cache import cache_dir

    folder = cache_dir()
    return [path for path in folder.rglob("*") if path.is_file()] if folder.exists() else []


def test_a_second_identical_search_makes_no_provider_request(
    counting_brave: Any, run_exe: Any
) -> None:
    first = run_exe(EXE, stdin={"query": "brave search", "count": 5}).json
    second = run_exe(EXE, stdin={"query": "brave search", "count": 5}).json
    assert first["success"] is True and first == second
    assert len(counting_brave.log) == 1


@pytest.mark.parametrize(
    "other",
    [
        {"query": "brave search!", "count": 5},
        {"query": "brave search", "count": 6},
        {"query": "brave search", "count": 5, "offset": 1},
        {"query": "brave search", "count": 5, "allowed_domains": ["brave.com"]},
        {"query": "brave search", "count": 5, "blocked_domains": ["brave.com"]},
    ],
)
def test_a_different_parameter_is_a_new_request(
    counting_brave: Any, run_exe: Any, other: dict[str, Any]
) -> None:
    run_exe(EXE, stdin={"query": "brave search", "count": 5})
    run_exe(EXE, stdin=other)
    assert len(counting_brave.log) == 2


@pytest.mark.parametrize("env", [{"WEBTAP_CACHE": "off"}, {"WEBTAP_SEARCH_CACHE_TTL": "0"}])
def test_the_cache_can_be_turned_off(counting_brave: Any, run_exe: Any, env: dict) -> None:
    for _ in range(2):
        assert run_exe(EXE, stdin={"query": "brave search"}, env=env).json["success"]
    assert len(counting_brave.log) == 2


def test_an_entry_older_than_the_ttl_is_asked_again(
    counting_brave: Any, run_exe: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_exe(EXE, stdin={"query": "brave search"})
    run_exe(EXE, stdin={"query": "brave search"}, env={"WEBTAP_SEARCH_CACHE_TTL": "0.000001"})
    assert len(counting_brave.log) == 2


def test_a_bad_ttl_is_a_config_error(counting_brave: Any, run_exe: Any) -> None:
    out = run_exe(EXE, stdin={"query": "x y"}, env={"WEBTAP_SEARCH_CACHE_TTL": "soon"}).json
    assert (out["success"], out["error_code"]) == (False, "CONFIG_ERROR")
    assert "WEBTAP_SEARCH_CACHE_TTL" in out["error"]


def test_failures_are_not_cached(brave: Any, kit: Any, run_exe: Any) -> None:
    brave.expect_request(kit.BRAVE_PATH).respond_with_handler(
        kit.sequence(
            kit.recorded("brave/error_422_validation"),
            kit.recorded("brave/web_search_brave_search"),
        )
    )
    assert run_exe(EXE, stdin={"query": "brave search"}).json["success"] is False
    assert run_exe(EXE, stdin={"query": "brave search"}).json["success"] is True
    assert len(brave.log) == 2


def test_no_key_in_the_cache_files(
    google: Any, counting_brave: Any, kit: Any, run_exe: Any
) -> None:
    google.expect_request(kit.GOOGLE_PATH).respond_with_response(
        kit.recorded("google/customsearch_test")
    )
    run_exe(EXE, stdin={"query": "brave search"})
    run_exe("web-search-google-tool", stdin={"query": "test"})
    files = cache_files()
    assert any(path.name == "search.sqlite3" for path in files)
    for path in files:
        data = path.read_bytes()
        for secret in (kit.BRAVE_KEY, kit.GOOGLE_KEY, kit.ENGINE_ID):
            assert secret.encode() not in data, (path, secret)


def test_the_google_engine_is_part_of_the_identity(google: Any, kit: Any, run_exe: Any) -> None:
    google.expect_request(kit.GOOGLE_PATH).respond_with_response(
        kit.recorded("google/customsearch_test")
    )
    run_exe("web-search-google-tool", stdin={"query": "test"})
    out = run_exe(
        "web-search-google-tool", stdin={"query": "test"}, env={"GOOGLE_SEARCH_ENGINE_ID": "cx-2"}
    ).json
    assert out["success"] is True
    assert len(google.log) == 2


def test_every_front_end_shares_the_cache(counting_brave: Any, run_exe: Any) -> None:
    """The tool process, then the library (as MCP, the ask loop and SQL call it)."""
    from webtap.search import brave_search

    tool = run_exe(EXE, stdin={"query": "brave search", "count": 5}).json
    library = brave_search("brave search", 5)
    assert [r.to_dict() for r in library] == tool["results"]
    assert len(counting_brave.log) == 1
    assert json.dumps(tool)  # the cached answer is the same JSON shape
