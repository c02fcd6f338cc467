"""web-search-searxng-tool against a local server that answers as SearXNG's /search does."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from werkzeug import Request, Response

from webtap.search import searxng_search

EXE = "web-search-searxng-tool"
SCHEMAS = Path(__file__).parents[2] / "src" / "webtap" / "schemas"

# As SearXNG 2024+ answers /search?format=json (fields webtap does not read trimmed).
RESULTS = {
    "query": "duckdb",
    "number_of_results": 0,
    "results": [
        {
            "url": "https://duckdb.org/",
            "title": "DuckDB – An in-process SQL OLAP database",
            "content": "DuckDB is a <b>fast</b> in-process analytical database &amp; more.",
            "engine": "duckduckgo",
            "engines": ["duckduckgo", "brave"],
            "score": 4.0,
            "category": "general",
        },
        {
            "url": "https://github.com/duckdb/duckdb",
            "title": "duckdb/duckdb",
            "content": "DuckDB is an analytical in-process SQL database management system",
            "engine": "google",
            "engines": ["google"],
            "score": 2.0,
            "category": "general",
        },
        {
            "url": "https://docs.duckdb.org/sql/introduction",
            "title": "SQL Introduction",
            "content": "",
            "engine": "google",
            "score": 1.0,
            "category": "general",
        },
        {
            "url": "https://duckdb.org/",
            "title": "DuckDB (again)",
            "content": "a repeated URL",
            "engine": "bing",
            "score": 0.5,
            "category": "general",
        },
    ],
    "answers": [],
    "corrections": [],
    "infoboxes": [],
    "suggestions": ["duckdb python"],
    "unresponsive_engines": [["wikipedia", "timeout"]],
}
EMPTY = {"query": "zzqx", "number_of_results": 0, "results": [], "unresponsive_engines": []}
ALL_FAILED = {
    "query": "duckdb",
    "results": [],
    "unresponsive_engines": [
        ["google", "CAPTCHA"],
        ["duckduckgo", "timeout"],
        ["brave", "too many requests"],
    ],
}
# What SearXNG's webapp answers when "json" is not in search.formats.
FORBIDDEN = (
    "<!DOCTYPE html><html><head><title>403 Forbidden</title></head><body>Forbidden</body></html>"
)


def reply(value: Any, status: int = 200) -> Response:
    return Response(json.dumps(value), status=status, content_type="application/json")


def test_results_map_title_url_and_content(searxng: Any, run_exe: Any) -> None:
    searxng.expect_request("/search").respond_with_response(reply(RESULTS))
    run = run_exe(EXE, stdin={"query": "duckdb"})
    assert run.returncode == 0, run.stderr
    out = run.json
    assert out["success"] is True
    assert out["results"] == [
        {
            "title": "DuckDB – An in-process SQL OLAP database",
            "url": "https://duckdb.org/",
            "snippet": "DuckDB is a fast in-process analytical database & more.",
        },
        {
            "title": "duckdb/duckdb",
            "url": "https://github.com/duckdb/duckdb",
            "snippet": "DuckDB is an analytical in-process SQL database management system",
        },
        {
            "title": "SQL Introduction",
            "url": "https://docs.duckdb.org/sql/introduction",
            "snippet": "",
        },
    ]
    assert out["count"] == 3
    (request,) = [entry for entry, _ in searxng.log]
    assert request.args["q"] == "duckdb"
    assert request.args["format"] == "json"
    assert request.args["pageno"] == "1"


def test_count_and_offset_are_results_and_the_page(searxng: Any, run_exe: Any) -> None:
    searxng.expect_request("/search").respond_with_response(reply(RESULTS))
    out = run_exe(EXE, stdin={"query": "duckdb", "count": 1, "offset": 2}).json
    assert [r["url"] for r in out["results"]] == ["https://duckdb.org/"]
    assert searxng.log[0][0].args["pageno"] == "3"


def test_empty_results_are_a_success(searxng: Any, run_exe: Any) -> None:
    searxng.expect_request("/search").respond_with_response(reply(EMPTY))
    assert run_exe(EXE, stdin={"query": "zzqx"}).json == {
        "success": True,
        "results": [],
        "count": 0,
    }


def test_403_says_json_output_is_disabled_and_how_to_enable_it(searxng: Any, run_exe: Any) -> None:
    searxng.expect_request("/search").respond_with_data(
        FORBIDDEN, status=403, content_type="text/html"
    )
    out = run_exe(EXE, stdin={"query": "duckdb"}).json
    assert (out["success"], out["error_code"]) == (False, "API_ERROR")
    assert "JSON output is disabled" in out["error"]
    assert "search.formats" in out["error"] and "settings.yml" in out["error"]
    assert len(searxng.log) == 1  # not retried


def test_a_server_error_is_retried_once_then_reported(searxng: Any, run_exe: Any) -> None:
    searxng.expect_request("/search").respond_with_data("upstream broke", status=502)
    out = run_exe(EXE, stdin={"query": "duckdb"}).json
    assert (out["success"], out["error_code"]) == (False, "API_ERROR")
    assert "HTTP 502" in out["error"] and "upstream broke" in out["error"]
    assert len(searxng.log) == 2


def test_a_server_error_then_success_is_a_success(searxng: Any, kit: Any, run_exe: Any) -> None:
    searxng.expect_request("/search").respond_with_handler(
        kit.sequence(Response("down", status=503), reply(RESULTS))
    )
    out = run_exe(EXE, stdin={"query": "duckdb"}).json
    assert out["success"] is True and out["count"] == 3


def test_every_engine_unresponsive_is_an_api_error_naming_them(searxng: Any, run_exe: Any) -> None:
    searxng.expect_request("/search").respond_with_response(reply(ALL_FAILED))
    out = run_exe(EXE, stdin={"query": "duckdb"}).json
    assert (out["success"], out["error_code"]) == (False, "API_ERROR")
    for named in ("google (CAPTCHA)", "duckduckgo (timeout)", "brave (too many requests)"):
        assert named in out["error"]


def test_some_engines_unresponsive_still_answer(searxng: Any, run_exe: Any) -> None:
    searxng.expect_request("/search").respond_with_response(reply(RESULTS))
    assert run_exe(EXE, stdin={"query": "duckdb"}).json["success"] is True


@pytest.mark.parametrize(
    "body",
    ['{"results": [', "<html>SearXNG</html>", '["not", "an", "object"]', '{"results": "x"}'],
)
def test_malformed_json_is_an_api_error(searxng: Any, run_exe: Any, body: str) -> None:
    searxng.expect_request("/search").respond_with_data(body, content_type="application/json")
    out = run_exe(EXE, stdin={"query": "duckdb"}).json
    assert (out["success"], out["error_code"]) == (False, "API_ERROR")
    assert "SearXNG" in out["error"]


def test_a_slow_answer_past_the_deadline_is_a_network_error(searxng: Any, run_exe: Any) -> None:
    def slow(request: Request) -> Response:
        time.sleep(3)
        return reply(RESULTS)

    searxng.expect_request("/search").respond_with_handler(slow)
    run = run_exe(EXE, stdin={"query": "duckdb"}, env={"WEBTAP_SEARCH_DEADLINE": "1"})
    out = run.json
    assert (out["success"], out["error_code"]) == (False, "NETWORK_ERROR")
    assert "timed out" in out["error"]


def test_no_address_is_auth_missing_with_setup_text_and_an_event(run_exe: Any) -> None:
    out = run_exe(EXE, stdin={"query": "duckdb"}).json
    assert (out["success"], out["error_code"]) == (False, "AUTH_MISSING")
    assert "SEARXNG_URL" in out["error"] and "web_search.searxng.url" in out["error"]
    event = out["_event"]
    assert event["kind"] == "config_required"
    assert "docker run -p 8080:8080 searxng/searxng" in event["content"]
    assert event["data"]["tool"] == "web_search_searxng"


def test_the_address_comes_from_the_credentials_file(
    server: Any, write_credentials: Any, run_exe: Any
) -> None:
    server.expect_request("/searx/search").respond_with_response(reply(RESULTS))
    write_credentials({"web_search": {"searxng": {"url": server.url_for("/searx/")}}})
    out = run_exe(EXE, stdin={"query": "duckdb"}).json
    assert out["success"] is True and out["count"] == 3


@pytest.mark.parametrize("url", ["ftp://localhost:8080", "localhost:8080", "http://"])
def test_an_address_that_is_no_http_url_is_a_config_error(run_exe: Any, url: str) -> None:
    out = run_exe(EXE, stdin={"query": "duckdb"}, env={"SEARXNG_URL": url}).json
    assert (out["success"], out["error_code"]) == (False, "CONFIG_ERROR")
    assert "SEARXNG_URL" in out["error"]


def test_a_password_in_the_address_never_reaches_a_message(
    server: Any, run_exe: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = server.url_for("/").replace("http://", "http://me:hunter2-secret@")
    server.expect_request("/search").respond_with_data("no: hunter2-secret", status=500)
    out = run_exe(EXE, stdin={"query": "duckdb"}, env={"SEARXNG_URL": url}).json
    assert out["success"] is False
    assert "hunter2-secret" not in json.dumps(out)


def test_nothing_listens_is_a_network_error(run_exe: Any, unused_port: int) -> None:
    out = run_exe(
        EXE, stdin={"query": "duckdb"}, env={"SEARXNG_URL": f"http://127.0.0.1:{unused_port}"}
    ).json
    assert (out["success"], out["error_code"]) == (False, "NETWORK_ERROR")


# -- domain filtering (decision: Domain filters), through the library ----------------------------

MIXED = {
    "results": [
        {"url": "https://www.example.com/a", "title": "sub", "content": ""},
        {"url": "https://example.com/b", "title": "apex", "content": ""},
        {"url": "https://fakeexample.com/c", "title": "lookalike", "content": ""},
        {"url": "https://example.com.evil/d", "title": "suffix trick", "content": ""},
        {"url": "https://EXAMPLE.org:8443/e", "title": "org with port", "content": ""},
        {"url": "https://user@spam.example.com/f", "title": "blocked sub", "content": ""},
        {"url": "https://example.com/b", "title": "repeat", "content": ""},
        {"url": "https://other.net./g", "title": "trailing dot", "content": ""},
    ]
}


@pytest.mark.parametrize(
    ("allowed", "blocked", "titles", "site"),
    [
        (
            (),
            (),
            [
                "sub",
                "apex",
                "lookalike",
                "suffix trick",
                "org with port",
                "blocked sub",
                "trailing dot",
            ],
            None,
        ),
        (["Example.COM"], (), ["sub", "apex", "blocked sub"], "example.com"),
        (["example.com", "example.org"], (), ["sub", "apex", "org with port", "blocked sub"], None),
        ((), ["example.com"], ["lookalike", "suffix trick", "org with port", "trailing dot"], None),
        (["example.com"], ["spam.example.com"], ["sub", "apex"], "example.com"),
        (
            (),
            ["other.net", "fakeexample.com"],
            ["sub", "apex", "suffix trick", "org with port", "blocked sub"],
            None,
        ),
        (["https://example.org:8443/x"], (), ["org with port"], "example.org"),
    ],
)
def test_domain_filtering(
    searxng: Any, allowed: Any, blocked: Any, titles: list[str], site: str | None
) -> None:
    searxng.expect_request("/search").respond_with_response(reply(MIXED))
    found = searxng_search("example", 20, 0, allowed, blocked)
    assert [r.title for r in found] == titles
    query = searxng.log[0][0].args["q"]
    assert query == (f"example site:{site}" if site else "example")


def test_a_domain_that_is_no_domain_is_invalid_input(searxng: Any, run_exe: Any) -> None:
    out = run_exe(EXE, stdin={"query": "duckdb", "allowed_domains": ["exa mple.com"]}).json
    assert (out["success"], out["error_code"]) == (False, "INVALID_INPUT")
    assert "allowed_domains[0]" in out["error"]
    assert searxng.log == []


# -- the contract ------------------------------------------------------------------------------


def test_schema_is_braves_with_its_own_name_and_description(run_exe: Any) -> None:
    run = run_exe(EXE, "--schema")
    schema = json.loads(run.stdout)
    brave = json.loads((SCHEMAS / "web_search_brave.json").read_text())
    assert schema["name"] == "web_search_searxng"
    assert "SearXNG" in schema["description"]
    assert schema["parameters"] == brave["parameters"]


@pytest.mark.parametrize(
    ("request_", "field"),
    [
        ({"query": "x"}, "query"),
        ({"query": "duckdb", "count": 21}, "count"),
        ({"q": "duckdb"}, "query"),
    ],
)
def test_bad_requests_name_the_field(run_exe: Any, request_: Any, field: str) -> None:
    out = run_exe(EXE, stdin=request_).json
    assert (out["success"], out["error_code"]) == (False, "INVALID_INPUT")
    assert field in out["error"]
