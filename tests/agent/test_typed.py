"""Typed answers through the ask loop (issue 29): a forced answer tool, the value checked against
the schema and asked for again once, each field's quote checked against what was read."""

from __future__ import annotations

from typing import Any

import pytest
from tests.fakes.anthropic import FakeAnthropic, message, text, tool_use

from webtap.agent import ask
from webtap.agent.typed import NoFit
from webtap.errors import InvalidInput

pytestmark = pytest.mark.filterwarnings("ignore:The model .* is deprecated:DeprecationWarning")

COMPANY = "STRUCT(city VARCHAR, founded INTEGER)"
PAGE = (
    "<html><head><title>Acme</title></head><body><main>"
    "<p>Acme was founded in 1921 in Lyon by two brothers.</p>"
    "<p>It makes anvils.</p></main></body></html>"
)


@pytest.fixture
def acme(httpserver: Any, allow_private: None) -> str:
    httpserver.expect_request("/acme").respond_with_data(PAGE, content_type="text/html")
    return f"http://127.0.0.1:{httpserver.port}/acme"


def answer_with(value: dict[str, Any]) -> Any:
    return message(tool_use("answer", value), stop_reason="tool_use")


def test_the_value_fits_the_schema_and_the_answer_tool_was_forced(
    anthropic_api: FakeAnthropic,
) -> None:
    anthropic_api.queue(
        message(text("Lyon, 1921.")), answer_with({"city": "Lyon", "founded": 1921})
    )

    answer = ask("Where and when was Acme founded?", schema=COMPANY, max_tool_calls=0)

    assert answer.value == {"city": "Lyon", "founded": 1921}
    assert answer.text == "Lyon, 1921."
    forced = anthropic_api.bodies[1]
    assert forced["tool_choice"] == {"type": "tool", "name": "answer"}
    (tool,) = [t for t in forced["tools"] if t["name"] == "answer"]
    assert tool["input_schema"]["properties"]["founded"]["anyOf"][0]["type"] == "integer"
    assert forced["messages"][-1]["content"][-1]["text"].startswith("Now give your answer as data")
    assert anthropic_api.violations == []


def test_an_ill_typed_value_is_asked_for_again_with_the_error(
    anthropic_api: FakeAnthropic,
) -> None:
    anthropic_api.queue(
        message(text("Lyon, 1921.")),
        answer_with({"city": "Lyon", "founded": "nineteen twenty-one"}),
        answer_with({"city": "Lyon", "founded": 1921}),
    )

    answer = ask("q", schema=COMPANY, max_tool_calls=0)

    assert answer.value == {"city": "Lyon", "founded": 1921}
    (result,) = [
        block
        for block in anthropic_api.bodies[2]["messages"][-1]["content"]
        if block["type"] == "tool_result"
    ]
    assert result["is_error"] is True
    assert "At founded:" in result["content"]
    assert anthropic_api.violations == []


def test_a_value_that_never_fits_is_given_up_never_returned(anthropic_api: FakeAnthropic) -> None:
    anthropic_api.queue(
        message(text("Lyon.")),
        answer_with({"city": "Lyon", "founded": "1921"}),
        answer_with({"city": "Lyon"}),
    )

    with pytest.raises(NoFit, match="did not fit the schema, also when asked again: At the value"):
        ask("q", schema=COMPANY, max_tool_calls=0)
    assert len(anthropic_api.requests) == 3


def test_each_field_carries_its_quote_checked_against_the_page(
    anthropic_api: FakeAnthropic, acme: str
) -> None:
    anthropic_api.queue(
        message(tool_use("web_fetch", {"url": acme}), stop_reason="tool_use"),
        message(text("Lyon, 1921.")),
        answer_with(
            {
                "city": "Lyon",
                "founded": 1921,
                "_sources": {
                    "city": {"url": acme, "quote": "founded in 1921 in Lyon"},
                    "founded": {"url": acme, "quote": "Acme was founded in 1912"},
                },
            }
        ),
    )

    answer = ask("q", schema=COMPANY, citations=True)

    assert answer.value == {"city": "Lyon", "founded": 1921}
    city, founded = answer.value_sources["city"], answer.value_sources["founded"]
    assert city["verified"] is True and city["url"] == acme
    assert founded["verified"] is False  # 1912 is not what the page says
    assert len(city["snapshot"]) == 64
    assert answer.data() == {**answer.value, "_sources": answer.value_sources}
    schema = anthropic_api.bodies[2]["tools"][-1]["input_schema"]
    assert set(schema["properties"]["_sources"]["properties"]) == {"city", "founded"}


def test_unsupported_fields_can_be_nulled(anthropic_api: FakeAnthropic, acme: str) -> None:
    from webtap.agent import AskSettings

    anthropic_api.queue(
        message(tool_use("web_fetch", {"url": acme}), stop_reason="tool_use"),
        message(text("Lyon, 1921.")),
        answer_with(
            {
                "city": "Paris",
                "founded": 1921,
                "_sources": {
                    "city": {"url": acme, "quote": "founded in Paris"},
                    "founded": {"url": acme, "quote": "founded in 1921"},
                },
            }
        ),
    )

    answer = ask(
        "q",
        schema=COMPANY,
        citations=True,
        settings=AskSettings(unsupported="null", max_tool_calls=1),
    )

    assert answer.value == {"city": None, "founded": 1921}


def test_a_value_that_is_not_an_object_is_wrapped(anthropic_api: FakeAnthropic) -> None:
    anthropic_api.queue(message(text("3")), answer_with({"value": [1, 2, 3]}))
    assert ask("q", schema="INTEGER[]", max_tool_calls=0).value == [1, 2, 3]


def test_a_bad_schema_is_refused_before_any_call(anthropic_api: FakeAnthropic) -> None:
    with pytest.raises(InvalidInput, match="is not a DuckDB type"):
        ask("q", schema="STRUCT(a NOPE)")
    assert anthropic_api.requests == []
