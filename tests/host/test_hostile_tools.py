"""Tools that print what no tool should: each is a clear rejection or error, never a traceback."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from webtap.host import check_arguments, discover, run_tool

DEEP = 200


def default_schema(name: str) -> dict[str, Any]:
    return {
        "name": name,
        "description": f"Test tool {name}: answers with what the test wrote into it.",
        "parameters": {
            "type": "object",
            "properties": {"text": {"type": "string", "description": "Some text"}},
            "required": ["text"],
        },
    }


def _schema_with(name: str, **parameters: Any) -> dict[str, Any]:
    schema = default_schema(name)
    schema["parameters"]["properties"]["text"] = parameters
    return schema


@pytest.mark.parametrize(
    ("schema", "reason"),
    [
        (
            '{"name": "probe", "description": "x", "parameters": '
            + '{"items": ' * DEEP
            + "{}"
            + "}" * DEEP
            + "}",
            "--schema printed invalid JSON: nested too deeply",
        ),
        (
            '{"name": "probe", "description": "Test tool probe ok", "parameters": {"type": '
            '"object", "properties": {"text": {"type": "number", "maximum": NaN}}}}',
            "--schema printed invalid JSON: NaN is not a JSON number",
        ),
        (
            _schema_with("probe", **{"$ref": "https://example.com/schema.json"}),
            "'https://example.com/schema.json' points outside the schema",
        ),
    ],
)
def test_a_schema_no_call_could_be_checked_against_is_rejected(
    folders, schema: Any, reason: str
) -> None:
    folders.tool("project", "probe-tool", schema=schema)
    found = discover()
    assert found.tools == []
    assert reason in found.rejected[0].reason


def test_a_schema_whose_refs_loop_makes_calls_clear_errors(folders) -> None:
    schema = default_schema("probe")
    schema["parameters"]["$defs"] = {"a": {"$ref": "#/$defs/a"}}
    schema["parameters"]["properties"]["text"] = {"$ref": "#/$defs/a"}
    folders.tool("project", "probe-tool", schema=schema)
    tool = discover().get("probe")
    result = run_tool(tool, {"text": "x"})
    assert (result.success, result.error_code) == (False, "INVALID_INPUT")
    assert "nested too deeply" in result.error


@pytest.mark.parametrize(
    "output",
    [
        '{"ok": 1, "_event": {"kind": "k", "content": "c", "data": '
        + "[" * DEEP
        + "]" * DEEP
        + "}}",
        '{"ok": NaN}',
        '{"ok": 1e999}',
        '{"ok": 1, "_event": {"kind": "k", "content": "c", "data": {"x": -Infinity}}}',
    ],
)
def test_output_that_is_not_plain_json_is_invalid_output(folders, output: str) -> None:
    folders.tool("project", "probe-tool", body=f"cat >/dev/null\ncat <<'EOF'\n{output}\nEOF\n")
    result = run_tool(discover().get("probe"), {"text": "x"})
    assert result.for_model() == {
        "tool_success": False,
        "error": "Tool returned invalid JSON",
        "error_code": "INVALID_OUTPUT",
    }


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=30,
)


def test_any_json_gets_an_answer_from_the_arguments_check(folders) -> None:
    schema = default_schema("probe")
    schema["parameters"]["properties"]["list"] = {
        "type": "array",
        "items": {"type": "object", "properties": {"n": {"type": "integer", "minimum": 0}}},
    }
    folders.tool("project", "probe-tool", schema=schema)
    tool = discover().get("probe")

    @settings(max_examples=150, deadline=None)
    @given(arguments=JSON)
    def check(arguments: Any) -> None:
        for candidate in (arguments, {"text": arguments}, {"text": "x", "list": [arguments]}):
            problem = check_arguments(tool, candidate)
            assert problem is None or problem.startswith("Invalid input: ")

    check()


def test_arguments_nested_past_the_recursion_limit_are_a_clear_problem(folders) -> None:
    folders.tool(
        "project",
        "probe-tool",
        schema=_schema_with("probe", type="array", items={"$ref": "#/properties/text"}),
    )
    tool = discover().get("probe")
    deep: Any = []
    for _ in range(5000):
        deep = [deep]
    assert check_arguments(tool, {"text": deep}) == (
        "Invalid input: nested too deeply (at most 64 levels)"
    )


@pytest.mark.parametrize(
    "corrupt",
    [
        lambda entry: "not an entry",
        lambda entry: entry | {"key": 5},
        lambda entry: entry | {"schema": "x"},
        lambda entry: (
            entry | {"schema": {k: v for k, v in entry["schema"].items() if k != "description"}}
        ),
        lambda entry: entry | {"schema": entry["schema"] | {"timeout": "soon"}},
    ],
)
def test_a_corrupt_cache_entry_is_probed_again(folders, corrupt: Any) -> None:
    import json

    from webtap.host.discovery import cache_path

    path = folders.tool("project", "probe-tool")
    assert discover().get("probe") is not None
    data = json.loads(cache_path().read_text(encoding="utf-8"))
    data["entries"][str(path)] = corrupt(data["entries"][str(path)])
    cache_path().write_text(json.dumps(data), encoding="utf-8")
    found = discover()
    assert found.get("probe").description.startswith("Test tool probe")
    assert found.rejected == []


@pytest.mark.parametrize("number", [float("nan"), float("inf"), -float("inf")])
def test_non_finite_numbers_in_arguments_are_invalid_input(folders, number: float) -> None:
    folders.tool("project", "probe-tool", schema=_schema_with("probe", type="number"))
    result = run_tool(discover().get("probe"), {"text": number})
    assert (result.success, result.error_code) == (False, "INVALID_INPUT")
    assert "NaN and Infinity are not JSON numbers" in result.error
