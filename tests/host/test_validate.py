"""Tool schemas checked, not trusted; BTCP definitions validated against spec 004."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest

from webtap.cli import main
from webtap.host import SchemaProblem, check_tool_schema, validate_btcp
from webtap.host.validate import btcp_schema
from webtap.protocol import load_schema

# A copy of ../shared/spec/004_a890bc30972730a1.txt, so that these tests never skip.
SPEC = Path(__file__).parents[1] / "fixtures" / "spec" / "004_a890bc30972730a1.txt"
SPEC_TEXT = SPEC.read_text(encoding="utf-8")


def _spec_blocks() -> list[dict]:
    return [json.loads(block) for block in re.findall(r"```json\n(.*?)```", SPEC_TEXT, re.S)]


def _complete_examples() -> list[dict]:
    return [b for b in _spec_blocks() if {"name", "description", "capabilities"} <= set(b)]


def test_packaged_btcp_schema_is_the_specs() -> None:
    assert btcp_schema() == _spec_blocks()[0]


@pytest.mark.parametrize("name", ["web_fetch", "web_search_brave", "web_search_google"])
def test_webtaps_own_schemas_pass(name: str) -> None:
    parts = check_tool_schema(load_schema(name), name)
    assert parts["name"] == name
    assert parts["input_schema"] == load_schema(name)["parameters"]
    assert parts["timeout_ms"] is None


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"name": "9lives"}, "schema name '9lives' must start with a letter"),
        ({"name": "x" * 65}, "is longer than 64 characters"),
        ({"description": "x" * 1001}, "description must be 10-1000 characters (got 1001)"),
        ({"parameters": {"type": "object", "required": "url"}}, "at required:"),
        ({"parameters": "object"}, "'parameters' must be a JSON Schema object, got a string"),
        ({"capabilities": ["Network"]}, "capabilities must be a list of strings"),
        ({"timeout": 400000}, "1000-300000 (got 400000)"),
        ({"timeout": True}, "(got true)"),
    ],
)
def test_tool_schema_problems_are_named(change: dict, message: str) -> None:
    schema = {**copy.deepcopy(load_schema("web_fetch")), **change}
    with pytest.raises(SchemaProblem, match=re.escape(message)):
        check_tool_schema(schema, schema["name"] if "name" in change else "web_fetch")


def test_missing_parameters_and_conflicting_input_schema() -> None:
    schema = dict(load_schema("web_fetch"))
    del schema["parameters"]
    # ikigai's reading: a tool that takes no arguments.
    parts = check_tool_schema(schema, "web_fetch")
    assert parts["input_schema"] == {"type": "object", "properties": {}}
    schema = {**load_schema("web_fetch"), "inputSchema": {"type": "object"}}
    with pytest.raises(SchemaProblem, match="both 'parameters' and 'inputSchema'"):
        check_tool_schema(schema, "web_fetch")


def test_a_name_spelled_as_the_file_is_the_files_name() -> None:
    schema = {**load_schema("web_fetch"), "name": "web-fetch"}
    assert check_tool_schema(schema, "web_fetch")["name"] == "web_fetch"
    for other in ("web-fetch-x", "webfetch", "web_fetch_"):
        with pytest.raises(SchemaProblem, match=r"does not match the file name|must start with"):
            check_tool_schema({**schema, "name": other}, "web_fetch")


def test_the_specs_complete_examples_are_valid() -> None:
    examples = _complete_examples()
    assert [e["name"] for e in examples] == [
        "getPageTitle",
        "fillFormField",
        "exportTableToClipboard",
    ]
    assert validate_btcp(examples) == []
    for example in examples:
        assert validate_btcp(example) == []
    assert validate_btcp({"tools": examples}) == []


def _get_cell_value() -> dict:
    return {
        "name": "getCellValue",
        "description": "Retrieves the value and formula of a spreadsheet cell by its address.",
        "inputSchema": {
            "type": "object",
            "properties": {"cell": {"type": "string", "pattern": "^[A-Z]+[0-9]+$"}},
            "required": ["cell"],
            "additionalProperties": False,
        },
        "outputSchema": {
            "type": "object",
            "properties": {"value": {"type": ["string", "number", "boolean", "null"]}},
            "required": ["value"],
        },
        "capabilities": ["dom:read"],
        "examples": [{"input": {"cell": "B5"}, "output": {"value": 42}}],
    }


def _paths(problems) -> list[str]:
    return [p.path for p in problems if p.severity == "error"]


def test_example_input_errors_point_at_the_field() -> None:
    tools = [_get_cell_value() for _ in range(3)]
    for index, tool in enumerate(tools):
        tool["name"] = f"getCellValue{index}"
    tools[2]["examples"][0]["input"]["cell"] = "b5"
    problems = validate_btcp(tools)
    assert _paths(problems) == ["tools[2].examples[0].input.cell"]
    assert "does not match '^[A-Z]+[0-9]+$'" in problems[0].message
    assert str(problems[0]).startswith("tools[2].examples[0].input.cell: 'b5' does not match")


def test_example_output_and_missing_input_field() -> None:
    tool = _get_cell_value()
    tool["examples"].append({"input": {}, "output": {"value": [1]}})
    problems = validate_btcp(tool)
    assert sorted(_paths(problems)) == ["examples[1].input", "examples[1].output.value"]


def test_schema_level_errors_have_paths() -> None:
    tool = _get_cell_value()
    tool["name"] = "get-cell"
    tool["description"] = "short"
    tool["capabilities"] = ["DOM:read", "dom:read"]
    tool["timeout"] = 10
    tool["inputSchema"] = {"type": 5}
    tool["examples"].append({"description": "no input"})
    del tool["outputSchema"]
    paths = _paths(validate_btcp(tool))
    assert set(paths) == {
        "name",
        "description",
        "capabilities[0]",
        "timeout",
        "inputSchema.type",
        "examples[1]",
    }


def test_deprecated_needs_a_message_and_names_are_unique() -> None:
    first, second = _get_cell_value(), _get_cell_value()
    first["deprecated"] = True
    problems = validate_btcp([first, second])
    assert _paths(problems) == ["tools[0].deprecationMessage", "tools[1].name"]
    assert "duplicate tool name 'getCellValue' (also tools[0])" in problems[1].message
    first["deprecationMessage"] = "Use getCellValues instead"
    second["name"] = "getCellValues"
    assert validate_btcp([first, second]) == []


def test_unknown_capability_is_a_warning_not_an_error() -> None:
    tool = _get_cell_value()
    tool["capabilities"] = ["dom:read", "camera:read"]
    (problem,) = validate_btcp(tool)
    assert problem.severity == "warning"
    assert problem.path == "capabilities[1]"


def test_cli_validate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps([_get_cell_value()]))
    assert main(["tools", "validate", str(good)]) == 0
    assert "valid (1 tool definition(s))" in capsys.readouterr().err

    tools = [_get_cell_value(), _get_cell_value(), _get_cell_value()]
    for index, tool in enumerate(tools):
        tool["name"] += str(index)
    tools[2]["examples"][0]["input"]["cell"] = 7
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(tools))
    assert main(["tools", "validate", str(bad)]) == 1
    out = capsys.readouterr()
    assert out.out.startswith("tools[2].examples[0].input.cell: 7 is not of type 'string'")
    assert "1 error(s)" in out.err

    assert main(["tools", "validate", "--json", str(bad)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["valid"] is False
    assert report["problems"][0]["path"] == "tools[2].examples[0].input.cell"

    broken = tmp_path / "broken.json"
    broken.write_text("{")
    assert main(["tools", "validate", str(broken)]) == 1
    assert "is not valid JSON" in capsys.readouterr().err
    assert main(["tools", "validate", str(tmp_path / "missing.json")]) == 1
    assert "cannot read" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("change", "path", "message"),
    [
        ({"name": "getCellValue\n"}, "name", r"'getCellValue\n' does not match '^[a-zA-Z]"),
        ({"capabilities": ["dom:read\n"]}, "capabilities[0]", r"'dom:read\n' does not match"),
    ],
)
def test_spec_patterns_end_at_the_end_of_the_string(change: dict, path: str, message: str):
    # JSON Schema's "$" (ECMA-262) is the end of the string, not "before a final newline".
    tool = {**_get_cell_value(), **change}
    problems = validate_btcp(tool)
    assert _paths(problems) == [path]
    assert problems[0].message.startswith(message)


def test_example_patterns_end_at_the_end_of_the_string() -> None:
    tool = _get_cell_value()
    tool["examples"][0]["input"]["cell"] = "B5\n"
    problems = validate_btcp(tool)
    assert [str(p) for p in problems] == [
        "examples[0].input.cell: 'B5\\n' does not match '^[A-Z]+[0-9]+$'"
    ]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"name": "web_fetch\n"}, "schema name 'web_fetch\n' must start with a letter"),
        ({"capabilities": ["dom:read\n"]}, "capabilities must be a list of strings"),
    ],
)
def test_discovered_schemas_end_at_the_end_of_the_string(change: dict, message: str) -> None:
    schema = {**copy.deepcopy(load_schema("web_fetch")), **change}
    with pytest.raises(SchemaProblem, match=re.escape(message)):
        check_tool_schema(schema, schema["name"])


@pytest.mark.parametrize(
    ("pattern", "anchored"),
    [
        ("^[a-z]+$", r"^[a-z]+\Z"),
        (r"^\$[0-9]+$", r"^\$[0-9]+\Z"),
        ("^[$a]+$", r"^[$a]+\Z"),
        (r"^[\]$]$", r"^[\]$]\Z"),
        ("a|b$|c", r"a|b\Z|c"),
    ],
)
def test_end_anchored(pattern: str, anchored: str) -> None:
    from webtap.host.validate import end_anchored

    assert end_anchored(pattern) == anchored
