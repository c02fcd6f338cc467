"""A typed answer's shape (issue 29): DuckDB types to JSON Schema and back, and values checked."""

from __future__ import annotations

import json

import pytest

from webtap.answer_schema import Mismatch, check, from_duckdb, parse, to_duckdb
from webtap.errors import InvalidInput

duckdb = pytest.importorskip("duckdb")

# Every construct issue 29 names, alone and nested: 40 types.
TYPES = [
    "VARCHAR",
    "BOOLEAN",
    "TINYINT",
    "SMALLINT",
    "INTEGER",
    "BIGINT",
    "HUGEINT",
    "UTINYINT",
    "USMALLINT",
    "UINTEGER",
    "UBIGINT",
    "FLOAT",
    "DOUBLE",
    "DECIMAL(10,2)",
    "DECIMAL(18,4)",
    "DATE",
    "TIMESTAMP",
    "TIME",
    "UUID",
    "JSON",
    "VARCHAR[]",
    "INTEGER[]",
    "DOUBLE[3]",
    "DATE[]",
    "ENUM('low', 'mid', 'high')",
    "MAP(VARCHAR, INTEGER)",
    "MAP(VARCHAR, VARCHAR[])",
    "STRUCT(city VARCHAR, founded INTEGER)",
    "STRUCT(city VARCHAR, founded INTEGER, tags VARCHAR[])",
    "STRUCT(name VARCHAR, ceo STRUCT(name VARCHAR, since DATE))",
    "STRUCT(people STRUCT(name VARCHAR, age SMALLINT)[])",
    "STRUCT(ok BOOLEAN, score DOUBLE, rank BIGINT)",
    "STRUCT(kind ENUM('a', 'b'), seen_at TIMESTAMP)",
    "STRUCT(price DECIMAL(10,2), currency VARCHAR)",
    "STRUCT(a STRUCT(b STRUCT(c INTEGER)))",
    "STRUCT(matrix INTEGER[][])",
    "STRUCT(counts MAP(VARCHAR, BIGINT))",
    'STRUCT("order" INTEGER, "quote" VARCHAR)',
    'STRUCT("two words" VARCHAR)',
    "STRUCT(id UUID, seen TIME, raw JSON)[]",
]


def test_forty_types() -> None:
    assert len(TYPES) == 40
    assert len(set(TYPES)) == 40


@pytest.mark.parametrize("type_text", TYPES)
def test_a_duckdb_type_goes_to_json_schema_and_back(type_text: str) -> None:
    schema = from_duckdb(type_text)
    assert duckdb.sqltype(to_duckdb(schema)) == duckdb.sqltype(type_text)
    # The schema itself is valid, and survives being written as JSON text.
    assert parse(json.dumps(schema)) == schema


def test_a_struct_is_an_object_whose_fields_are_required_and_nullable() -> None:
    assert from_duckdb("STRUCT(city VARCHAR, founded INTEGER)") == {
        "type": "object",
        "properties": {
            "city": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "founded": {
                "anyOf": [
                    {"type": "integer", "minimum": -(2**31), "maximum": 2**31 - 1},
                    {"type": "null"},
                ]
            },
        },
        "required": ["city", "founded"],
        "additionalProperties": False,
    }


@pytest.mark.parametrize(
    ("type_text", "good", "bad", "said"),
    [
        ("INTEGER", 5, 2**31, "is greater than the maximum"),
        ("UTINYINT", 255, -1, "is less than the minimum"),
        ("DATE", "2024-02-29", "2023-02-29", "is not a 'date'"),
        ("TIMESTAMP", "2024-05-01T10:00:00Z", "yesterday", "is not a 'date-time'"),
        ("ENUM('low', 'high')", "low", "medium", "is not one of"),
        ("DOUBLE[2]", [1.5, 2], [1.5], "is too short"),
        ("STRUCT(a INTEGER)", {"a": None}, {"a": 1, "b": 2}, "Additional properties"),
        ("STRUCT(a INTEGER)", {"a": 1}, {}, "'a' is a required property"),
        ("STRUCT(a BOOLEAN)", {"a": True}, {"a": "yes"}, "is not valid under any"),
    ],
)
def test_a_value_is_checked_and_the_problem_named(
    type_text: str, good: object, bad: object, said: str
) -> None:
    schema = from_duckdb(type_text)
    check(good, schema)
    with pytest.raises(Mismatch, match=said):
        check(bad, schema)


def test_a_nested_problem_names_its_place() -> None:
    schema = from_duckdb("STRUCT(people STRUCT(name VARCHAR, age SMALLINT)[])")
    with pytest.raises(Mismatch, match=r"^At people/1/age: "):
        check({"people": [{"name": "a", "age": 3}, {"name": "b", "age": "x"}]}, schema)


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ("", "empty"),
        ("{not json", "not valid JSON"),
        ('{"type": "objekt"}', "not a valid JSON Schema"),
        ("STRUCT(a WHATEVER)", "is not a DuckDB type"),
        ("BLOB", "no JSON form"),
        ("MAP(INTEGER, VARCHAR)", "keys must be VARCHAR"),
        ("[1, 2]", "not a DuckDB type"),
    ],
)
def test_a_bad_schema_is_a_clear_error(given: str, said: str) -> None:
    with pytest.raises(InvalidInput, match=said):
        parse(given)


def test_a_json_schema_is_taken_as_it_is() -> None:
    schema = {
        "type": "object",
        "properties": {"n": {"type": "integer"}, "when": {"type": "string", "format": "date"}},
        "required": ["n"],
    }
    assert parse(schema) == schema
    assert to_duckdb(schema) == 'STRUCT("n" BIGINT, "when" DATE)'
