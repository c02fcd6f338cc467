"""Tool schemas are checked, not trusted.

Two checks live here:

* :func:`check_tool_schema` — what a tool prints for ``--schema`` (ikigai's ``name``,
  ``description``, ``parameters``, or BTCP's ``inputSchema``): the BTCP name rule and length,
  the description length, the input schema itself a valid JSON Schema, a name that agrees with
  the file name. A failure is a :class:`SchemaProblem` whose message a person can read.
* :func:`validate_btcp` — a BTCP tool definition (or a list of them, or a manifest with
  ``tools``) against the spec's JSON Schema (draft 2020-12), plus what a schema cannot say:
  examples valid against ``inputSchema``/``outputSchema``, ``deprecationMessage`` when
  ``deprecated``, known capabilities. Each problem names its path
  (``tools[2].examples[0].input.cell``).

jsonschema is imported inside the functions: discovery from cache never needs it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from webtap.protocol import format_path, json_type

__all__ = [
    "CAPABILITY_PATTERN",
    "NAME_PATTERN",
    "NO_ARGUMENTS",
    "STANDARD_CAPABILITIES",
    "Problem",
    "SchemaProblem",
    "btcp_schema",
    "check_tool_schema",
    "format_path",
    "json_schema_problem",
    "schema_validator",
    "validate_btcp",
]

# From the BTCP tool schema (spec 004).
NAME_PATTERN = re.compile(r"^[a-zA-Z][a-zA-Z0-9_]*$")
NAME_MAX = 64
DESCRIPTION_MIN, DESCRIPTION_MAX = 10, 1000
TIMEOUT_MIN_MS, TIMEOUT_MAX_MS = 1000, 300000
CAPABILITY_PATTERN = re.compile(r"^[a-z]+:[a-z]+(:[a-z-]+)?$")
STANDARD_CAPABILITIES = frozenset(
    {
        "dom:read",
        "dom:write",
        "dom:observe",
        "storage:local:read",
        "storage:local:write",
        "storage:session:read",
        "storage:session:write",
        "network:fetch:same-origin",
        "network:fetch:cross-origin",
        "clipboard:read",
        "clipboard:write",
    }
)

NO_ARGUMENTS: dict[str, Any] = {"type": "object", "properties": {}}
"""The input schema of a tool whose schema gives none: it takes no arguments."""

BTCP_SCHEMA_FILE = Path(__file__).with_name("btcp_tool.schema.json")


class SchemaProblem(ValueError):
    """A tool schema that cannot be used; the message says what is wrong and where."""


@dataclass(frozen=True)
class Problem:
    """One finding of :func:`validate_btcp`. ``severity`` is ``"error"`` or ``"warning"``."""

    path: str
    message: str
    severity: str = "error"

    def __str__(self) -> str:
        where = self.path or "(document)"
        label = "" if self.severity == "error" else f"{self.severity}: "
        return f"{where}: {label}{self.message}"


# -- the --schema of a discovered tool -------------------------------------------------------


def check_tool_schema(schema: Any, expected_name: str) -> dict[str, Any]:
    """Check a ``--schema`` document; return its parts or raise :class:`SchemaProblem`.

    The returned dict has ``name`` (the file's, ``expected_name``), ``description``,
    ``input_schema`` (an empty object schema when the schema gives none: a tool that takes no
    arguments, as ikigai allows) and ``timeout_ms`` (``None`` when the schema sets none).
    """
    if not isinstance(schema, dict):
        raise SchemaProblem(f"schema must be a JSON object, got {json_type(schema)}")
    name = schema.get("name")
    if not isinstance(name, str) or not name:
        raise SchemaProblem("schema has no 'name' (a string)")
    # ikigai's tools may spell their name as their file does (``file-read`` in
    # ``file-read-tool``); the file name decides the tool's name either way (decision: Discovery).
    spelled_as_file = name != expected_name and name.replace("-", "_") == expected_name
    _check_name(expected_name if spelled_as_file else name, "schema name")
    if not spelled_as_file and name != expected_name:
        raise SchemaProblem(
            f"schema name '{name}' does not match the file name (expected '{expected_name}')"
        )
    description = schema.get("description")
    if not isinstance(description, str):
        raise SchemaProblem("schema has no 'description' (a string)")
    if not DESCRIPTION_MIN <= len(description) <= DESCRIPTION_MAX:
        raise SchemaProblem(
            f"description must be {DESCRIPTION_MIN}-{DESCRIPTION_MAX} characters "
            f"(got {len(description)})"
        )
    input_schema = _input_schema(schema)
    problem = json_schema_problem(input_schema)
    if problem:
        raise SchemaProblem(f"input schema is not a valid JSON Schema: {problem}")
    if input_schema.get("type") != "object":
        raise SchemaProblem(
            'input schema must describe a JSON object ("type": "object"): '
            "a tool reads one object on stdin"
        )
    output_schema = schema.get("outputSchema")
    if output_schema is not None:
        problem = json_schema_problem(output_schema)
        if problem:
            raise SchemaProblem(f"outputSchema is not a valid JSON Schema: {problem}")
    timeout_ms = schema.get("timeout")
    if timeout_ms is not None and (
        isinstance(timeout_ms, bool)
        or not isinstance(timeout_ms, int)
        or not TIMEOUT_MIN_MS <= timeout_ms <= TIMEOUT_MAX_MS
    ):
        raise SchemaProblem(
            f"timeout must be an integer number of milliseconds, {TIMEOUT_MIN_MS}-"
            f"{TIMEOUT_MAX_MS} (got {json.dumps(timeout_ms)})"
        )
    capabilities = schema.get("capabilities", [])
    if not isinstance(capabilities, list) or not all(
        isinstance(c, str) and CAPABILITY_PATTERN.fullmatch(c) for c in capabilities
    ):
        raise SchemaProblem(
            "capabilities must be a list of strings like 'network:fetch:cross-origin'"
        )
    return {
        "name": expected_name,
        "description": description,
        "input_schema": input_schema,
        "timeout_ms": timeout_ms,
    }


def _check_name(name: str, what: str) -> None:
    if len(name) > NAME_MAX:
        raise SchemaProblem(f"{what} '{name[:80]}' is longer than {NAME_MAX} characters")
    if not NAME_PATTERN.fullmatch(name):
        raise SchemaProblem(
            f"{what} '{name}' must start with a letter and contain only letters, digits "
            "and underscores"
        )


def _input_schema(schema: dict[str, Any]) -> dict[str, Any]:
    has_parameters = "parameters" in schema
    has_input = "inputSchema" in schema
    if has_parameters and has_input and schema["parameters"] != schema["inputSchema"]:
        raise SchemaProblem("schema has both 'parameters' and 'inputSchema', and they differ")
    if not (has_parameters or has_input):
        return dict(NO_ARGUMENTS)
    key = "parameters" if has_parameters else "inputSchema"
    value = schema[key]
    if not isinstance(value, dict):
        raise SchemaProblem(f"'{key}' must be a JSON Schema object, got {json_type(value)}")
    return value


def json_schema_problem(schema: Any) -> str | None:
    """Why ``schema`` is not a valid JSON Schema (checked against its meta-schema), or None."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError, best_match
    from jsonschema.validators import validator_for

    if not isinstance(schema, dict | bool):
        return f"must be an object, got {json_type(schema)}"
    if isinstance(schema, bool):
        return None  # true and false are whole schemas, with nothing inside to check
    try:
        cls = validator_for(schema, default=Draft202012Validator)
    except Exception as exc:  # an unknown $schema URI
        return f"unknown $schema: {exc}"
    try:
        cls.check_schema(schema)
    except SchemaError as exc:
        # check_schema already picked the best error; descend once into anyOf/oneOf.
        error = best_match(exc.context) if exc.context else exc
        where = format_path(error.absolute_path) or "(root)"
        return f"at {where}: {error.message}"
    except RecursionError:  # jsonschema descends with many frames a level, or loops on $refs
        return "nested too deeply (or its $refs loop) for a JSON Schema to be checked"
    return _outside_ref(schema)


def _outside_ref(schema: Any) -> str | None:
    """A ``$ref`` that leaves the schema: never resolved, so no call could be checked."""
    stack: list[tuple[list[str | int], Any]] = [([], schema)]
    while stack:
        path, node = stack.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and not ref.startswith("#"):
                where = format_path([*path, "$ref"])
                return f"at {where}: {ref!r} points outside the schema (use '#/$defs/...')"
            stack.extend(([*path, key], value) for key, value in node.items())
        elif isinstance(node, list):
            stack.extend(([*path, index], value) for index, value in enumerate(node))
    return None


# -- BTCP definitions ------------------------------------------------------------------------


@cache
def btcp_schema() -> dict[str, Any]:
    """The BTCP tool schema, exactly as spec 004 gives it."""
    return json.loads(BTCP_SCHEMA_FILE.read_text(encoding="utf-8"))


@cache
def _btcp_validator() -> Any:
    # The schema $refs the 2020-12 meta-schema by URI; jsonschema resolves it from the
    # meta-schemas it bundles (referencing), never over the network.
    return schema_validator(btcp_schema())


def schema_validator(schema: Any) -> Any:
    """A jsonschema validator for ``schema`` (its ``$schema``, else draft 2020-12) that reads
    ``pattern`` as JSON Schema does.

    JSON Schema patterns are ECMA-262 regular expressions, where ``$`` is the end of the
    string; jsonschema runs them with Python's ``re``, where ``$`` also matches before a final
    newline, so that ``"getCell\\n"`` would pass the BTCP name rule ``^[a-zA-Z][a-zA-Z0-9_]*$``.
    """
    from jsonschema import Draft202012Validator
    from jsonschema.validators import validator_for

    return _ecma_patterns(validator_for(schema, default=Draft202012Validator))(schema)


@cache
def _ecma_patterns(cls: Any) -> Any:
    from jsonschema import validators

    return validators.extend(cls, {"pattern": _pattern})


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterable[Any]:
    from jsonschema.exceptions import ValidationError

    if validator.is_type(instance, "string") and not re.search(end_anchored(pattern), instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


@cache
def end_anchored(pattern: str) -> str:
    """``pattern`` with each ``$`` anchor (not escaped, not in a class) made ``\\Z``."""
    out: list[str] = []
    in_class = False
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if char == "\\":
            out.append(pattern[index : index + 2])
            index += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "$":
            char = r"\Z"
        out.append(char)
        index += 1
    return "".join(out)


def validate_btcp(document: Any) -> list[Problem]:
    """Every problem in a BTCP tool definition, a list of them, or ``{"tools": [...]}``."""
    if isinstance(document, list):
        return _validate_many(document, "tools")
    if isinstance(document, dict) and "tools" in document and "name" not in document:
        tools = document["tools"]
        if not isinstance(tools, list):
            return [Problem("tools", f"must be an array, got {json_type(tools)}")]
        return _validate_many(tools, "tools")
    return list(_validate_one(document, ""))


def _validate_many(tools: list[Any], prefix: str) -> list[Problem]:
    problems: list[Problem] = []
    seen: dict[str, int] = {}
    for index, tool in enumerate(tools):
        where = f"{prefix}[{index}]"
        problems.extend(_validate_one(tool, where))
        name = tool.get("name") if isinstance(tool, dict) else None
        if isinstance(name, str):
            if name in seen:
                problems.append(
                    Problem(
                        f"{where}.name",
                        f"duplicate tool name '{name}' (also {prefix}[{seen[name]}])",
                    )
                )
            else:
                seen[name] = index
    return problems


def _validate_one(tool: Any, where: str) -> Iterable[Problem]:
    from jsonschema.exceptions import best_match

    for error in sorted(_btcp_validator().iter_errors(tool), key=lambda e: list(map(str, e.path))):
        leaf = best_match(error.context) if error.context else error
        path = list(error.absolute_path) + list(leaf.absolute_path)[len(error.absolute_path) :]
        yield Problem(_join(where, format_path(path)), leaf.message)
    if not isinstance(tool, dict):
        return
    if tool.get("deprecated") is True and not (
        isinstance(tool.get("deprecationMessage"), str) and tool["deprecationMessage"].strip()
    ):
        yield Problem(
            _join(where, "deprecationMessage"),
            "a deprecated tool needs a deprecationMessage with migration guidance",
        )
    yield from _check_capabilities(tool.get("capabilities"), where)
    yield from _check_examples(tool, where)


def _check_capabilities(capabilities: Any, where: str) -> Iterable[Problem]:
    if not isinstance(capabilities, list):
        return
    for index, capability in enumerate(capabilities):
        if (
            isinstance(capability, str)
            and CAPABILITY_PATTERN.fullmatch(capability)
            and capability not in STANDARD_CAPABILITIES
        ):
            yield Problem(
                _join(where, f"capabilities[{index}]"),
                f"'{capability}' is not a standard capability "
                f"({', '.join(sorted(STANDARD_CAPABILITIES))})",
                "warning",
            )


def _check_examples(tool: dict[str, Any], where: str) -> Iterable[Problem]:
    examples = tool.get("examples")
    if not isinstance(examples, list):
        return
    checks = [("input", tool.get("inputSchema")), ("output", tool.get("outputSchema"))]
    validators = {part: _instance_validator(schema) for part, schema in checks}
    for index, example in enumerate(examples):
        if not isinstance(example, dict):
            continue
        for part, validator in validators.items():
            if validator is None or part not in example:
                continue
            base = _join(where, f"examples[{index}].{part}")
            for error in validator.iter_errors(example[part]):
                yield Problem(_join(base, format_path(error.absolute_path)), error.message)


def _instance_validator(schema: Any) -> Any:
    if not isinstance(schema, dict | bool) or json_schema_problem(schema):
        return None  # already reported by the BTCP schema
    return schema_validator(schema)


# -- paths (format_path is webtap.protocol's) ------------------------------------------------


def _join(base: str, tail: str) -> str:
    if not tail:
        return base
    if not base or tail.startswith("["):
        return base + tail
    return f"{base}.{tail}"
