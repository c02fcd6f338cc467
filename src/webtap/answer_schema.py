"""The shape a typed answer must have (issue 29): a JSON Schema, or a DuckDB type turned into
one, and a value checked against it.

A DuckDB type maps to JSON Schema and back without loss (:func:`from_duckdb`,
:func:`to_duckdb`): ``STRUCT`` is an object whose fields are all required and each may be
null (a model must say "unknown" as null, not leave a field out); a list is an array
(``INTEGER[3]`` of exactly three); ``MAP(VARCHAR, V)`` an object of V; an ``ENUM`` a string of
its values; the integer types are integers bounded as the type is (so an out-of-range number
fails here, not in a cast); ``DATE``, ``TIMESTAMP``, ``TIME`` and ``UUID`` strings of their
format; ``DECIMAL(p, s)`` a number, its type kept in ``x-duckdb-type``. DuckDB parses the type
(:func:`duckdb.sqltype`): it is imported only for a schema given as a type.

:func:`check` validates a value with jsonschema (formats included) and says what is wrong in one
line a model can act on.
"""

from __future__ import annotations

import json
from datetime import date, datetime, time
from typing import Any

from webtap.errors import InvalidInput

__all__ = ["Mismatch", "check", "from_duckdb", "is_nullable", "parse", "to_duckdb"]

_INTEGERS = {
    "TINYINT": (-(2**7), 2**7 - 1),
    "SMALLINT": (-(2**15), 2**15 - 1),
    "INTEGER": (-(2**31), 2**31 - 1),
    "BIGINT": (-(2**63), 2**63 - 1),
    "HUGEINT": (-(2**127), 2**127 - 1),
    "UTINYINT": (0, 2**8 - 1),
    "USMALLINT": (0, 2**16 - 1),
    "UINTEGER": (0, 2**32 - 1),
    "UBIGINT": (0, 2**64 - 1),
    "UHUGEINT": (0, 2**128 - 1),
}
_BOUNDS = {bounds: name for name, bounds in _INTEGERS.items()}
_FORMATS = {"DATE": "date", "TIMESTAMP": "date-time", "TIME": "time", "UUID": "uuid"}
_FORMAT_TYPES = {fmt: name for name, fmt in _FORMATS.items()}
_FORMAT_TYPES["date-time"] = "TIMESTAMP"
_SIMPLE = {"VARCHAR": "string", "BOOLEAN": "boolean", "DOUBLE": "number", "JSON": None}


class Mismatch(InvalidInput):
    """A value that does not fit its schema; the message names the place and the rule."""


def parse(spec: str | dict[str, Any]) -> dict[str, Any]:
    """A schema from what a person gives: a JSON Schema (a dict, or its JSON text), or a
    DuckDB type (``'STRUCT(city VARCHAR, founded INTEGER)'``)."""
    if isinstance(spec, dict):
        schema = spec
    else:
        text = spec.strip()
        if not text:
            raise InvalidInput("The schema is empty: give a JSON Schema or a DuckDB type.")
        if text.startswith("{"):
            try:
                schema = json.loads(text)
            except ValueError as exc:
                raise InvalidInput(f"The schema is not valid JSON: {exc}.") from None
        else:
            schema = from_duckdb(text)
    _check_schema(schema)
    return schema


def _check_schema(schema: Any) -> None:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError

    if not isinstance(schema, dict):
        raise InvalidInput("The schema must be a JSON object (a JSON Schema) or a DuckDB type.")
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as exc:
        where = "/".join(str(p) for p in exc.path) or "the top"
        raise InvalidInput(
            f"The schema is not a valid JSON Schema at {where}: {exc.message}."
        ) from None


# --- DuckDB types -------------------------------------------------------------------------------


def from_duckdb(type_text: str) -> dict[str, Any]:
    """The JSON Schema of a DuckDB type."""
    import duckdb

    try:
        parsed = duckdb.sqltype(type_text)
    except Exception as exc:  # duckdb's parser errors have no common base
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise InvalidInput(f"{type_text!r} is not a DuckDB type: {first}") from None
    return _schema_of(parsed)


def _schema_of(kind: Any) -> dict[str, Any]:
    name = str(kind).upper()
    children = dict(kind.children) if kind.id in ("struct", "list", "array", "map") else {}
    if kind.id == "struct":
        fields = [(field, child) for field, child in kind.children]
        return {
            "type": "object",
            "properties": {field: _nullable(_schema_of(child)) for field, child in fields},
            "required": [field for field, _ in fields],
            "additionalProperties": False,
        }
    if kind.id == "list":
        return {"type": "array", "items": _schema_of(children["child"])}
    if kind.id == "array":
        size = children["size"]
        return {
            "type": "array",
            "items": _schema_of(children["child"]),
            "minItems": size,
            "maxItems": size,
        }
    if kind.id == "map":
        if str(children["key"]).upper() != "VARCHAR":
            raise InvalidInput(f"{name}: a map's keys must be VARCHAR to be a JSON object")
        return {"type": "object", "additionalProperties": _schema_of(children["value"])}
    if kind.id == "enum":
        return {"type": "string", "enum": list(dict(kind.children)["values"])}
    if kind.id == "decimal":
        return {"type": "number", "x-duckdb-type": name}
    if name in _INTEGERS:
        low, high = _INTEGERS[name]
        return {"type": "integer", "minimum": low, "maximum": high}
    if name in _FORMATS:
        return {"type": "string", "format": _FORMATS[name]}
    if name == "FLOAT":
        return {"type": "number", "format": "float"}
    if name in _SIMPLE:
        simple = _SIMPLE[name]
        return {} if simple is None else {"type": simple}
    raise InvalidInput(
        f"{name} has no JSON form for a model to give; use VARCHAR, a number, BOOLEAN, DATE, "
        "TIMESTAMP, a STRUCT, a list or a MAP"
    )


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    if not schema:
        return schema  # JSON: anything, null included
    return {"anyOf": [schema, {"type": "null"}]}


def is_nullable(schema: dict[str, Any]) -> bool:
    """Whether ``schema`` allows null."""
    kinds = schema.get("type")
    if kinds == "null" or (isinstance(kinds, list) and "null" in kinds):
        return True
    return any(is_nullable(option) for option in schema.get("anyOf", []))


def to_duckdb(schema: dict[str, Any]) -> str:
    """The DuckDB type a value of ``schema`` casts to (``CAST(json AS type)``)."""
    if "x-duckdb-type" in schema:
        return str(schema["x-duckdb-type"])
    options = [o for o in schema.get("anyOf", schema.get("oneOf", [])) if o.get("type") != "null"]
    if len(options) == 1:
        return to_duckdb(options[0])
    kinds = schema.get("type")
    if isinstance(kinds, list):
        kinds = [k for k in kinds if k != "null"]
        kinds = kinds[0] if len(kinds) == 1 else None
    if "enum" in schema and kinds in (None, "string"):
        values = ", ".join("'" + str(v).replace("'", "''") + "'" for v in schema["enum"])
        return f"ENUM({values})"
    if kinds == "object":
        if "properties" in schema:
            fields = ", ".join(
                f"{_identifier(field)} {to_duckdb(sub)}"
                for field, sub in schema["properties"].items()
            )
            return f"STRUCT({fields})"
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict):
            return f"MAP(VARCHAR, {to_duckdb(extra)})"
        return "JSON"
    if kinds == "array":
        item = to_duckdb(schema.get("items", {}))
        size = schema.get("minItems")
        if size is not None and size == schema.get("maxItems"):
            return f"{item}[{size}]"
        return f"{item}[]"
    if kinds == "integer":
        bounds = (schema.get("minimum"), schema.get("maximum"))
        return _BOUNDS.get(bounds, "BIGINT")  # type: ignore[arg-type]
    if kinds == "number":
        return "FLOAT" if schema.get("format") == "float" else "DOUBLE"
    if kinds == "boolean":
        return "BOOLEAN"
    if kinds == "string":
        return _FORMAT_TYPES.get(schema.get("format", ""), "VARCHAR")
    return "JSON"


def _identifier(name: str) -> str:
    # Always quoted: a field may be named as a keyword of DuckDB's ("order", "at", "quote").
    return '"' + name.replace('"', '""') + '"'


# --- checking a value -----------------------------------------------------------------------------


def check(value: Any, schema: dict[str, Any]) -> None:
    """Raise :class:`Mismatch` naming where ``value`` breaks ``schema`` and how (the first
    problem by path), or return."""
    from jsonschema import Draft202012Validator, FormatChecker
    from jsonschema.exceptions import best_match

    formats = FormatChecker()
    formats.checks("date-time")(_is_datetime)
    formats.checks("date")(_is_date)
    formats.checks("time")(_is_time)
    validator = Draft202012Validator(schema, format_checker=formats)
    # best_match looks inside anyOf (a nullable field) for the deepest, most relevant problem.
    error = best_match(validator.iter_errors(value))
    if error is not None:
        where = "/".join(str(part) for part in error.absolute_path) or "the value"
        message = error.message if len(error.message) <= 300 else error.message[:297] + "..."
        raise Mismatch(f"At {where}: {message}")


def _is_datetime(value: object) -> bool:
    if not isinstance(value, str):
        return True
    try:
        datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return False
    return True


def _is_date(value: object) -> bool:
    if not isinstance(value, str):
        return True
    try:
        date.fromisoformat(value)
    except ValueError:
        return False
    return len(value) == 10


def _is_time(value: object) -> bool:
    if not isinstance(value, str):
        return True
    try:
        time.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return False
    return True
