"""The ask loop against a fake Anthropic API (and a fake Brave) on 127.0.0.1."""

from __future__ import annotations

import html
import json
import re
import time
from typing import Any

import pytest
from tests.fakes.anthropic import API_KEY, FakeAnthropic, Reply, error, message, text, tool_use
from tests.fakes.brave import FakeBrave
from tests.fakes.google import FakeGoogle
from werkzeug import Response

from webtap import agent
from webtap.agent import (
    SEARCH_UNAVAILABLE,
    AskSettings,
    Refused,
    TimeLimits,
    ToolCall,
    ToolReply,
    ask,
)
from webtap.errors import (
    APIError,
    AuthInvalid,
    AuthMissing,
    ConfigError,
    NetworkError,
    RateLimit,
)

# The spec's default model is one the SDK warns about (end of life 2026-11-30).
pytestmark = pytest.mark.filterwarnings("ignore:The model .* is deprecated:DeprecationWarning")

QUICK = AskSettings(max_retries=2, store_events=True)


BRAVE_KEY = FakeBrave.KEY


def plain(value: str) -> str:
    return " ".join(html.unescape(re.sub(r"</?strong>", "", value)).split())


def tool_results(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [b for b in body["messages"][-1]["content"] if b["type"] == "tool_result"]


def tool_names(body: dict[str, Any]) -> list[str]:
    return [tool["name"] for tool in body.get("tools", [])]


# -- one call, no tools used ------------------------------------------------------------------


def test_a_question_is_one_request_with_the_spec_message(anthropic_api: FakeAnthropic) -> None:
    answer = ask("What is the current price?", "Bitcoin")

    assert answer.text == (
        "[claude-sonnet-5-5|1000] Context: Bitcoin\n\nQuestion: What is the current price?"
    )
    assert answer.stop_reason == "end_turn"
    assert answer.model_calls == 1
    assert answer.usage == {"input_tokens": 12, "output_tokens": 7}
    (received,) = anthropic_api.requests
    assert received.headers["anthropic-version"]
    body = received.body
    assert body["model"] == "claude-sonnet-5-5"
    assert body["max_tokens"] == 1000
    assert body["messages"] == [
        {"role": "user", "content": "Context: Bitcoin\n\nQuestion: What is the current price?"}
    ]
    assert "tool_choice" not in body
    assert anthropic_api.violations == []


def test_without_a_brave_key_only_web_fetch_is_offered(anthropic_api: FakeAnthropic) -> None:
    ask("q", "c")

    (body,) = anthropic_api.bodies
    assert tool_names(body) == ["web_fetch"]
    fetch = body["tools"][0]
    from webtap.protocol import load_schema

    assert fetch["input_schema"] == load_schema("web_fetch")["parameters"]
    assert fetch["description"] == load_schema("web_fetch")["description"]


def test_with_a_brave_key_the_spec_search_tool_is_offered(
    anthropic_api: FakeAnthropic, brave: Any
) -> None:
    ask("q", "c")

    (body,) = anthropic_api.bodies
    assert tool_names(body) == ["web_search", "web_fetch"]
    assert body["tools"][0] == {
        "name": "web_search",
        "description": "Search the web for current information",
        "input_schema": {
            "type": "object",
            "properties": {"query": {"type": "string", "description": "Search query"}},
            "required": ["query"],
        },
    }
    assert brave.log == []  # offering a tool costs no search


def test_model_and_max_tokens_are_sent(anthropic_api: FakeAnthropic) -> None:
    answer = ask("q", model="claude-haiku-4-5", max_tokens=42)

    assert answer.text.startswith("[claude-haiku-4-5|42] Context: \n\nQuestion: q")
    assert anthropic_api.bodies[0]["max_tokens"] == 42


def test_no_tool_calls_allowed_means_no_tools(anthropic_api: FakeAnthropic, brave: Any) -> None:
    ask("q", max_tool_calls=0)

    assert "tools" not in anthropic_api.bodies[0]


# -- the search round trip -------------------------------------------------------------------


def test_search_round_trip(anthropic_api: FakeAnthropic, brave: Any) -> None:
    use = tool_use("web_search", {"query": "brave search"})
    anthropic_api.queue(
        message(text("Let me search."), use, stop_reason="tool_use"),
        message(text("Brave Search is a private search engine.")),
    )
    steps: list[Any] = []

    answer = ask("What is Brave Search?", "search engines", on_step=steps.append)

    assert answer.text == "Brave Search is a private search engine."
    assert answer.model_calls == 2
    # Brave was asked as the spec says, with the key in its header.
    (brave_request, _) = brave.log[0]
    assert brave_request.headers["X-Subscription-Token"] == BRAVE_KEY
    assert brave_request.args["q"] == "brave search"
    assert brave_request.args["count"] == "5"
    # The second call carries the assistant turn back and one tool_result for it.
    first, second = anthropic_api.bodies
    assert second["messages"][1] == {"role": "assistant", "content": [text("Let me search."), use]}
    (result,) = tool_results(second)
    assert result["tool_use_id"] == use["id"]
    assert "is_error" not in result
    content = result["content"]
    assert content.startswith("Search Results:\n\n1. Private Search Engine - Brave Search\n")
    entries = content.split("\n\n")[1:]
    assert len(entries) == 5
    for number, (entry, expected) in enumerate(
        zip(entries, FakeBrave.top_results(), strict=True), 1
    ):
        title, url, description = entry.split("\n")
        assert title == f"{number}. {plain(expected['title'])}"
        assert url == f"   {expected['url']}"
        full = plain(expected["description"])
        shown = description.removeprefix("   ")
        if len(full) <= 200:
            assert shown == full
        else:
            assert shown.endswith("...") and len(shown) <= 203
            assert full.startswith(shown[:-3])
            assert full[len(shown) - 3] in " ,.;:-"  # cut on a word boundary
    # One tool call was allowed: the last call must produce text.
    assert "tool_choice" not in first
    assert second["tool_choice"] == {"type": "none"}
    assert tool_names(second) == ["web_search", "web_fetch"]
    assert BRAVE_KEY not in json.dumps(anthropic_api.bodies)
    # The person saw the call and its result, in that order.
    assert [type(step) for step in steps] == [ToolCall, ToolReply]
    assert steps[0].input == {"query": "brave search"}
    assert steps[1].detail == "5 results" and not steps[1].is_error
    assert anthropic_api.violations == []


def test_a_failed_search_is_an_error_result_and_the_model_still_answers(
    anthropic_api: FakeAnthropic, brave: Any
) -> None:
    brave.answer("error_422_token_invalid", 422)
    use = tool_use("web_search", {"query": "bitcoin price"})
    anthropic_api.queue(
        message(use, stop_reason="tool_use"), message(text("From what I know: about $90k."))
    )
    steps: list[Any] = []

    answer = ask("What is the current price?", "Bitcoin", on_step=steps.append)

    assert answer.text == "From what I know: about $90k."
    (result,) = tool_results(anthropic_api.bodies[1])
    assert result == {
        "type": "tool_result",
        "tool_use_id": use["id"],
        "content": "Search unavailable. Please answer from your knowledge.",
        "is_error": True,
    }
    assert steps[1].is_error and "Brave" in steps[1].detail  # the person sees why
    assert BRAVE_KEY not in steps[1].detail
    assert anthropic_api.violations == []


def test_a_quota_event_is_shown_and_stored(anthropic_api: FakeAnthropic, brave: Any) -> None:
    from webtap.host.event_store import EventStore

    brave.answer("error_429_quota_limited", 429)
    anthropic_api.queue(
        message(tool_use("web_search", {"query": "x"}), stop_reason="tool_use"),
        message(text("ok")),
    )

    answer = ask("q", session_id="ask-test")

    (event,) = answer.events
    assert event["kind"] == "rate_limited"
    with EventStore() as store:
        stored = store.list("ask-test")
    assert [e["kind"] for e in stored] == ["rate_limited"]
    (result,) = tool_results(anthropic_api.bodies[1])
    assert result["content"] == SEARCH_UNAVAILABLE
    assert "_event" not in json.dumps(anthropic_api.bodies)


def test_a_slow_search_is_cut_at_its_budget(anthropic_api: FakeAnthropic, brave: Any) -> None:
    def slow(_: Any) -> Response:
        time.sleep(3)
        return Response("{}", content_type="application/json")

    brave.clear()
    brave.expect_request("/res/v1/web/search").respond_with_handler(slow)
    anthropic_api.queue(
        message(tool_use("web_search", {"query": "x"}), stop_reason="tool_use"),
        message(text("answered anyway")),
    )
    settings = AskSettings(time_limits=TimeLimits(search=0.5))

    answer = ask("q", settings=settings)

    # The search was given up at its own 0.5 s: it timed out. The provider's own timeout
    # (10 s) would have waited for the server's answer, 3 s later.
    (searched,) = answer.tool_results
    assert searched.is_error
    assert searched.detail.endswith("timed out waiting for the server"), searched.detail
    assert answer.text == "answered anyway"
    assert tool_results(anthropic_api.bodies[1])[0]["is_error"] is True


def test_a_search_without_query_is_an_error_result(
    anthropic_api: FakeAnthropic, brave: Any
) -> None:
    anthropic_api.queue(
        message(tool_use("web_search", {"q": "oops"}), stop_reason="tool_use"),
        message(text("fine")),
    )

    assert ask("q").text == "fine"
    (result,) = tool_results(anthropic_api.bodies[1])
    assert result["is_error"] is True
    assert "query" in result["content"]
    assert brave.log == []


# -- web_fetch -------------------------------------------------------------------------------


def test_fetch_round_trip(
    anthropic_api: FakeAnthropic, httpserver: Any, allow_private: None
) -> None:
    page = "<html><head><title>Prices</title></head><body><h1>BTC</h1><p>42 coins</p></body></html>"
    httpserver.expect_request("/page").respond_with_data(page, content_type="text/html")
    url = f"http://127.0.0.1:{httpserver.port}/page"
    use = tool_use("web_fetch", {"url": url})
    anthropic_api.queue(message(use, stop_reason="tool_use"), message(text("42 coins.")))

    assert ask("How many?").text == "42 coins."
    (result,) = tool_results(anthropic_api.bodies[1])
    assert "is_error" not in result
    fetched = json.loads(result["content"])
    assert fetched["title"] == "Prices"
    assert "42 coins" in fetched["content"]
    assert "success" not in fetched


def test_a_failed_fetch_is_an_error_result_that_says_why(anthropic_api: FakeAnthropic) -> None:
    use = tool_use("web_fetch", {"url": "http://127.0.0.1:9/private"})
    anthropic_api.queue(message(use, stop_reason="tool_use"), message(text("could not read it")))

    assert ask("q").text == "could not read it"
    (result,) = tool_results(anthropic_api.bodies[1])
    assert result["is_error"] is True
    assert result["content"].startswith("Fetch failed: ")
    assert "URL_NOT_ALLOWED" in result["content"]


# -- the tool limit --------------------------------------------------------------------------


def test_the_tool_limit_is_configurable_and_the_last_call_must_answer(
    anthropic_api: FakeAnthropic, brave: Any
) -> None:
    anthropic_api.queue(
        message(tool_use("web_search", {"query": "one"}), stop_reason="tool_use"),
        message(tool_use("web_search", {"query": "two"}), stop_reason="tool_use"),
        message(text("done")),
    )

    answer = ask("q", max_tool_calls=2)

    assert answer.text == "done"
    assert [r.call.input["query"] for r in answer.tool_results] == ["one", "two"]
    first, second, third = anthropic_api.bodies
    assert "tool_choice" not in first and "tool_choice" not in second
    assert third["tool_choice"] == {"type": "none"}
    assert len(brave.log) == 2
    assert anthropic_api.violations == []


def test_tools_past_the_limit_in_one_turn_are_refused_in_the_same_message(
    anthropic_api: FakeAnthropic, brave: Any
) -> None:
    first_use = tool_use("web_search", {"query": "one"})
    second_use = tool_use("web_search", {"query": "two"})
    anthropic_api.queue(
        message(first_use, second_use, stop_reason="tool_use"), message(text("done"))
    )

    assert ask("q").text == "done"
    results = tool_results(anthropic_api.bodies[1])
    assert [r["tool_use_id"] for r in results] == [first_use["id"], second_use["id"]]
    assert "is_error" not in results[0]
    assert results[1]["is_error"] is True
    assert "limit" in results[1]["content"]
    assert len(brave.log) == 1
    assert anthropic_api.violations == []


def test_a_model_that_ignores_tool_choice_none_gets_no_dangling_tool_use(
    anthropic_api: FakeAnthropic, brave: Any
) -> None:
    anthropic_api.queue(
        message(tool_use("web_search", {"query": "one"}), stop_reason="tool_use"),
        message(
            text("Here is what I found."),
            tool_use("web_search", {"query": "again"}),
            stop_reason="tool_use",
        ),
    )

    answer = ask("q")

    assert answer.text == "Here is what I found."
    assert len(anthropic_api.requests) == 2
    assert len(brave.log) == 1


def test_an_unknown_tool_is_ignored_and_the_text_returned(anthropic_api: FakeAnthropic) -> None:
    anthropic_api.queue(
        message(text("It is 4."), tool_use("calculator", {"x": "2+2"}), stop_reason="tool_use")
    )

    answer = ask("2+2?")

    assert answer.text == "It is 4."
    assert len(anthropic_api.requests) == 1


def test_an_unknown_tool_without_text_is_a_clear_error(anthropic_api: FakeAnthropic) -> None:
    anthropic_api.queue(message(tool_use("calculator", {"x": "2+2"}), stop_reason="tool_use"))

    with pytest.raises(APIError, match="calculator"):
        ask("2+2?")


# -- stop reasons ----------------------------------------------------------------------------


def test_max_tokens_returns_the_partial_text(anthropic_api: FakeAnthropic) -> None:
    anthropic_api.queue(message(text("The answer is a long"), stop_reason="max_tokens"))

    answer = ask("q", max_tokens=5)

    assert answer.text == "The answer is a long"
    assert answer.stop_reason == "max_tokens"


def test_a_refusal_is_a_clear_error(anthropic_api: FakeAnthropic) -> None:
    anthropic_api.queue(message(stop_reason="refusal"))

    with pytest.raises(Refused, match="declined to answer"):
        ask("q")


# -- API errors ------------------------------------------------------------------------------


def test_401_is_an_invalid_key_without_the_key(
    anthropic_api: FakeAnthropic, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-wrong-key-987654321")

    with pytest.raises(AuthInvalid) as caught:
        ask("q")

    assert "401" in caught.value.message
    assert "ANTHROPIC_API_KEY" in caught.value.message
    assert "sk-ant-wrong-key-987654321" not in str(caught.value)
    assert len(anthropic_api.requests) == 1  # a bad key is not retried


def test_429_is_retried_by_the_sdk(anthropic_api: FakeAnthropic) -> None:
    limited = error(
        429,
        "rate_limit_error",
        "Number of requests has exceeded your rate limit",
        {"retry-after-ms": "5"},
    )
    anthropic_api.queue(limited, message(text("finally")))

    assert ask("q").text == "finally"
    assert [r.headers["x-stainless-retry-count"] for r in anthropic_api.requests] == ["0", "1"]


def test_429_after_every_retry_is_a_rate_limit(anthropic_api: FakeAnthropic) -> None:
    limited = error(
        429,
        "rate_limit_error",
        "Number of requests has exceeded your rate limit",
        {"retry-after-ms": "5"},
    )
    anthropic_api.queue(limited, limited, limited)

    with pytest.raises(RateLimit, match="rate limit") as caught:
        ask("q", settings=QUICK)

    assert "429" in caught.value.message
    assert len(anthropic_api.requests) == 3


def test_529_overloaded_then_success(anthropic_api: FakeAnthropic) -> None:
    overloaded = error(529, "overloaded_error", "Overloaded", {"retry-after-ms": "5"})
    anthropic_api.queue(overloaded, message(text("ok")))

    assert ask("q").text == "ok"


def test_529_after_every_retry_says_overloaded(anthropic_api: FakeAnthropic) -> None:
    overloaded = error(529, "overloaded_error", "Overloaded", {"retry-after-ms": "5"})
    anthropic_api.queue(overloaded, overloaded, overloaded)

    with pytest.raises(RateLimit, match="overloaded"):
        ask("q", settings=QUICK)


def test_an_invalid_request_names_the_api_message(anthropic_api: FakeAnthropic) -> None:
    anthropic_api.queue(error(404, "not_found_error", "model: claude-nope"))

    with pytest.raises(APIError, match=r"model 'claude-nope' \(404 not_found_error\)"):
        ask("q", model="claude-nope")


@pytest.mark.parametrize(
    "body",
    [
        "<html><body>502 Bad Gateway</body></html>",
        '{"id": "msg_1", "type": "message", "content": "not a list"}',
        '{"type": "error", "error": {"type": "api_error", "message": "boom"}}',
    ],
)
def test_a_malformed_body_is_an_api_error(anthropic_api: FakeAnthropic, body: str) -> None:
    anthropic_api.queue(Reply(200, body))

    with pytest.raises(APIError, match="malformed response"):
        ask("q")


def test_a_slow_model_call_is_cut_at_its_budget(anthropic_api: FakeAnthropic) -> None:
    anthropic_api.delay = 3
    settings = AskSettings(time_limits=TimeLimits(model_call=0.3), max_retries=0)

    with pytest.raises(NetworkError, match=r"did not answer within 0\.3 s"):
        ask("q", settings=settings)


def test_an_unreachable_api_is_a_network_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("ANTHROPIC_API_KEY", API_KEY)

    with pytest.raises(NetworkError, match="Could not reach the Anthropic API") as caught:
        ask("q", settings=AskSettings(max_retries=0))
    assert caught.value.message.endswith("Check ANTHROPIC_BASE_URL (http://127.0.0.1:9).")


def test_a_base_url_that_is_not_a_url_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "localhost:8080")
    monkeypatch.setenv("ANTHROPIC_API_KEY", API_KEY)

    with pytest.raises(ConfigError) as caught:
        ask("q", settings=AskSettings(max_retries=0))
    assert caught.value.message == (
        "ANTHROPIC_BASE_URL must be an http:// or https:// URL (got 'localhost:8080'); "
        "fix it, or unset it to use the Anthropic API."
    )


def test_a_missing_key_says_how_to_set_one(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(AuthMissing) as caught:
        ask("q")

    message_text = caught.value.message
    for way in ("ANTHROPIC_API_KEY", "~/.stps/anthropic_api_key", "stps_set_api_key"):
        assert way in message_text


@pytest.mark.parametrize(
    ("options", "field"),
    [({"max_tokens": 0}, "max_tokens"), ({"max_tool_calls": 99}, "max_tool_calls")],
)
def test_bad_settings_are_named(
    anthropic_api: FakeAnthropic, options: dict[str, int], field: str
) -> None:
    from webtap.errors import InvalidInput

    with pytest.raises(InvalidInput, match=field):
        ask("q", **options)
    assert anthropic_api.requests == []


# -- formatting ------------------------------------------------------------------------------


def test_search_results_are_formatted_as_the_spec_shows() -> None:
    from webtap.search import SearchResult

    results = [
        SearchResult("Bitcoin Price Today - $95,234 USD", "https://coinmarketcap.com/x", "Up."),
        SearchResult("BTC Live Price Chart", "https://www.coingecko.com/y", "Real-time."),
    ]

    assert agent.format_search_results(results) == (
        "Search Results:\n\n"
        "1. Bitcoin Price Today - $95,234 USD\n   https://coinmarketcap.com/x\n   Up.\n\n"
        "2. BTC Live Price Chart\n   https://www.coingecko.com/y\n   Real-time."
    )
    assert agent.format_search_results([]) == "Search Results:\n\nNo results found."


def test_descriptions_are_cut_on_a_word_boundary() -> None:
    words = "word " * 60
    short = agent.shorten(words)

    assert short.endswith("word...")
    assert len(short) <= 203
    assert agent.shorten("short text") == "short text"


def test_google_backs_the_search_tool_when_chosen(
    anthropic_api: FakeAnthropic, google: FakeGoogle, monkeypatch: pytest.MonkeyPatch
) -> None:
    google.answer("customsearch_test")
    monkeypatch.setenv("GOOGLE_SEARCH_API_KEY", "AIza-test-key")
    monkeypatch.setenv("GOOGLE_SEARCH_ENGINE_ID", "cse-test")
    monkeypatch.setenv("BRAVE_API_KEY", "BSA-unused")
    anthropic_api.queue(
        message(tool_use("web_search", {"query": "test"}), stop_reason="tool_use"),
        message(text("ok")),
    )

    ask("q", settings=AskSettings(search_provider="google"))

    (google_request, _) = google.log[0]
    assert google_request.args["q"] == "test"
    assert google_request.args["num"] == "5"
    assert google_request.args["cx"] == "cse-test"
    (result,) = tool_results(anthropic_api.bodies[1])
    assert result["content"].startswith("Search Results:\n\n1. ")
    assert result["content"].count("\n\n") == 5  # the top 5
    assert "AIza-test-key" not in json.dumps(anthropic_api.bodies)


def test_the_whole_question_has_a_budget(anthropic_api: FakeAnthropic, brave: Any) -> None:
    def slow(_: Any) -> Response:
        time.sleep(3)
        return Response("{}", content_type="application/json")

    brave.clear()
    brave.expect_request("/res/v1/web/search").respond_with_handler(slow)
    anthropic_api.queue(message(tool_use("web_search", {"query": "x"}), stop_reason="tool_use"))
    settings = AskSettings(time_limits=TimeLimits(total=1.0))

    with pytest.raises(NetworkError, match=r"longer than its 1 s budget"):
        ask("q", settings=settings)

    assert len(anthropic_api.requests) == 1  # no second call once the budget is spent


# -- the whole question's budget holds through the SDK's retries (spec 002: 90 s in all) ------


@pytest.fixture
def waits(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The waits the retry loop decides on, recorded instead of slept."""
    from types import SimpleNamespace

    from webtap.agent import retry

    decided: list[float] = []
    clock = SimpleNamespace(monotonic=time.monotonic, time=time.time, sleep=decided.append)
    monkeypatch.setattr(retry, "time", clock)
    return decided


def test_a_retry_that_would_outlast_the_budget_is_not_made(
    anthropic_api: FakeAnthropic, waits: list[float]
) -> None:
    limited = error(429, "rate_limit_error", "Slow down", {"retry-after": "3"})
    anthropic_api.queue(limited, limited, limited)
    settings = AskSettings(time_limits=TimeLimits(total=1.0), max_retries=2)

    with pytest.raises(RateLimit) as caught:
        ask("q", settings=settings)

    assert waits == []  # not 3 s + 3 s of waiting for retries: no wait at all
    assert len(anthropic_api.requests) == 1
    assert caught.value.message == (
        "The Anthropic API is rate limiting this key (429), with no time left in the "
        "question's budget to retry: Slow down. Wait a minute and try again, or lower the "
        "concurrency."
    )


def test_a_short_retry_inside_the_budget_is_still_made(
    anthropic_api: FakeAnthropic, waits: list[float]
) -> None:
    limited = error(429, "rate_limit_error", "Slow down", {"retry-after-ms": "5"})
    anthropic_api.queue(limited, limited, limited)

    with pytest.raises(RateLimit, match=r"\(429\), still after 2 retries: Slow down\."):
        ask("q", settings=AskSettings(time_limits=TimeLimits(total=5.0), max_retries=2))
    assert len(anthropic_api.requests) == 3
    assert waits == [0.005, 0.005]  # the server's retry-after-ms, before each retry


def test_no_attempt_runs_past_the_budget(anthropic_api: FakeAnthropic, waits: list[float]) -> None:
    # Each attempt would be allowed 30 s; the question has 0.5 s in all, retries included.
    anthropic_api.delay = 3
    settings = AskSettings(time_limits=TimeLimits(model_call=30.0, total=0.5), max_retries=2)

    with pytest.raises(NetworkError) as caught:
        ask("q", settings=settings)

    # The one attempt was given what the question had left, not its own 30 s (the SDK tells
    # the API the timeout it got), and no retry was waited for.
    [attempt] = anthropic_api.requests
    assert 0 < float(attempt.headers["x-stainless-timeout"]) <= 0.5
    assert waits == []
    assert caught.value.message == "Gave up: the question took longer than its 0.5 s budget."
