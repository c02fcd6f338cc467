"""stps_ask_ai_json and typed functions (issue 29): JSON that fits a schema, cast to typed columns in
one expression; a failed row NULL with its reason in the same query; one model call per row."""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.fakes.anthropic import FakeAnthropic, Reply, message, text, tool_use

import webtap.sql

pytestmark = pytest.mark.filterwarnings("ignore:The model .* is deprecated:DeprecationWarning")

COMPANY = "STRUCT(city VARCHAR, founded INTEGER)"
FACTS = {
    "acme": {"city": "Lyon", "founded": 1921},
    "globex": {"city": "Oslo", "founded": 1989},
    "initech": {"city": "Austin", "founded": "unknown"},  # never fits
}


def company_model(body: dict[str, Any]) -> Reply:
    """Answers in text, then gives the context's facts through the forced answer tool."""
    name = body["messages"][0]["content"].split("\n")[0].removeprefix("Context: ")
    if body.get("tool_choice", {}).get("type") != "tool":
        return message(text(f"About {name}."))
    return message(tool_use("answer", FACTS[name]), stop_reason="tool_use")


def test_typed_columns_in_one_expression_and_the_reason_beside_a_null(
    con: Any, anthropic_api: FakeAnthropic
) -> None:
    anthropic_api.responder = company_model
    rows = con.execute(
        f"SELECT c, stps_ask_ai_json(c, 'Where and when?', '{COMPANY}')::{COMPANY} AS facts,"
        f" stps_ask_ai_json_error(c, 'Where and when?', '{COMPANY}') AS why"
        " FROM (VALUES ('acme'), ('globex'), ('initech')) t(c) ORDER BY c"
    ).fetchall()

    assert rows[0][:2] == ("acme", {"city": "Lyon", "founded": 1921})
    assert rows[1][:2] == ("globex", {"city": "Oslo", "founded": 1989})
    assert rows[0][2] is None and rows[1][2] is None
    assert rows[2][1] is None
    assert rows[2][2].startswith("ERROR: ") and "At founded:" in rows[2][2]
    # Two columns from one question: one text call and the answer tool per row, the failing
    # row asked again once; never a second conversation for the error column.
    assert len(anthropic_api.requests) == 2 + 2 + 3
    assert anthropic_api.violations == []


def test_a_typed_function_declared_once(con: Any, anthropic_api: FakeAnthropic) -> None:
    anthropic_api.responder = company_model
    kind = webtap.sql.typed_function(con.connection, "company_facts", "Where and when?", COMPANY)

    assert kind == 'STRUCT("city" VARCHAR, "founded" INTEGER)'
    rows = con.execute(
        "SELECT c, company_facts(c).city, company_facts(c).founded FROM"
        " (VALUES ('acme'), ('globex')) t(c) ORDER BY c"
    ).fetchall()
    assert rows == [("acme", "Lyon", 1921), ("globex", "Oslo", 1989)]
    assert (
        con.one("SELECT typeof(company_facts('acme'))") == "STRUCT(city VARCHAR, founded INTEGER)"
    )


def test_a_bad_schema_is_the_rows_error_and_asks_no_model(
    con: Any, anthropic_api: FakeAnthropic
) -> None:
    row = con.execute(
        "SELECT stps_ask_ai_json('acme', 'q', 'STRUCT(a NOPE)'),"
        " stps_ask_ai_json_error('acme', 'q', 'STRUCT(a NOPE)')"
    ).fetchone()
    assert row[0] is None
    assert row[1].startswith("ERROR: ") and "is not a DuckDB type" in row[1]
    assert anthropic_api.requests == []


def test_null_in_null_out(con: Any, anthropic_api: FakeAnthropic) -> None:
    row = con.execute(
        f"SELECT stps_ask_ai_json(NULL, 'q', '{COMPANY}'), stps_ask_ai_json('c', 'q', NULL)"
    ).fetchone()
    assert row == (None, None)
    assert anthropic_api.requests == []


def test_a_json_schema_works_too_and_sources_come_beside(
    con: Any, anthropic_api: FakeAnthropic, httpserver: Any, allow_private: None
) -> None:
    httpserver.expect_request("/acme").respond_with_data(
        "<html><body><p>Acme was founded in 1921 in Lyon.</p></body></html>",
        content_type="text/html",
    )
    url = f"http://127.0.0.1:{httpserver.port}/acme"
    schema = json.dumps(
        {"type": "object", "properties": {"year": {"type": "integer"}}, "required": ["year"]}
    )

    def respond(body: dict[str, Any]) -> Reply:
        if len(body["messages"]) == 1:
            return message(tool_use("web_fetch", {"url": url}), stop_reason="tool_use")
        if body.get("tool_choice", {}).get("type") != "tool":
            return message(text("1921"))
        sources = {"year": {"url": url, "quote": "founded in 1921"}}
        return message(
            tool_use("answer", {"year": 1921, "_sources": sources}), stop_reason="tool_use"
        )

    anthropic_api.responder = respond
    value, sources = con.execute(
        f"SELECT stps_ask_ai_json('acme', 'When?', '{schema}'),"
        f" stps_ask_ai_json_sources('acme', 'When?', '{schema}')"
    ).fetchone()
    assert json.loads(value) == {"year": 1921}
    assert json.loads(sources)["year"]["verified"] is True
