"""Exports, each checked against the rules of its own ecosystem."""

from __future__ import annotations

import json
import re
import typing

import pytest
from jsonschema import Draft202012Validator

from webtap.cli import main
from webtap.host import discover, export_tools, install, target_folder, validate_btcp

OPENAI_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
ANTHROPIC_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
WEB_TOOLS = ["web_fetch", "web_search_brave", "web_search_google", "web_search_searxng"]


@pytest.fixture
def tools(folders, schema_for):
    install(target_folder("project"))
    btcp = {
        "name": "getPageTitle",
        "title": "Page title",
        "description": "Returns the title of the current page from the document's <title>",
        "inputSchema": {"type": "object", "properties": {}, "additionalProperties": False},
        "outputSchema": {"type": "object", "properties": {"title": {"type": "string"}}},
        "capabilities": ["dom:read"],
        "tags": ["page"],
        "timeout": 5000,
    }
    folders.tool("user", "getPageTitle-tool", schema=btcp)
    folders.tool("system", "plain-tool")
    found = discover()
    assert found.rejected == []
    assert found.names() == ["getPageTitle", "plain", *WEB_TOOLS]
    return found.tools


def test_anthropic(tools) -> None:
    from anthropic.types import ToolParam

    keys = set(typing.get_type_hints(ToolParam, include_extras=True))
    required = {k for k, v in ToolParam.__annotations__.items() if "Required" in str(v)}
    exported = export_tools(tools, "anthropic")
    for tool, definition in zip(tools, exported, strict=True):
        assert set(definition) <= keys
        assert required <= set(definition)
        assert ANTHROPIC_NAME.match(definition["name"])
        assert definition["input_schema"]["type"] == "object"
        Draft202012Validator.check_schema(definition["input_schema"])
        assert definition["input_schema"] == tool.input_schema


def test_openai(tools) -> None:
    for definition in export_tools(tools, "openai"):
        assert set(definition) == {"type", "function"}
        assert definition["type"] == "function"
        function = definition["function"]
        assert set(function) == {"name", "description", "parameters"}
        assert OPENAI_NAME.match(function["name"])
        assert function["parameters"]["type"] == "object"
        Draft202012Validator.check_schema(function["parameters"])


def test_webtaps_tools_are_described_alike_by_export_and_by_the_mcp_server(tools) -> None:
    """One WEB_ANNOTATIONS: ``tools export --format mcp`` and ``webtap mcp`` say the same."""
    from webtap.mcp.server import own_tools
    from webtap.tools import WEB_ANNOTATIONS

    exported = {d["name"]: d for d in export_tools(tools, "mcp")}
    served = {tool.name: tool.listing() for tool in own_tools()}
    for name in WEB_TOOLS:
        listed = served[name].annotations.model_dump(by_alias=True, exclude_none=True)
        assert listed.pop("title") == exported[name]["title"] == served[name].title
        assert exported[name]["annotations"] == listed == WEB_ANNOTATIONS
    assert WEB_ANNOTATIONS["readOnlyHint"] and not WEB_ANNOTATIONS["destructiveHint"]


def test_mcp(tools) -> None:
    import mcp.types

    exported = {d["name"]: d for d in export_tools(tools, "mcp")}
    for definition in exported.values():
        model = mcp.types.Tool.model_validate(definition)
        assert model.name == definition["name"]
        assert model.input_schema == definition["inputSchema"]
    for name in WEB_TOOLS:
        model = mcp.types.Tool.model_validate(exported[name])
        assert model.annotations.read_only_hint is True
        assert model.annotations.open_world_hint is True
        assert model.title
    assert exported["web_fetch"]["title"] == "Fetch a web page"
    assert "annotations" not in exported["plain"]
    assert exported["getPageTitle"]["title"] == "Page title"
    assert exported["getPageTitle"]["outputSchema"] == {
        "type": "object",
        "properties": {"title": {"type": "string"}},
    }


def test_btcp(tools) -> None:
    exported = export_tools(tools, "btcp")
    assert validate_btcp(exported) == []
    by_name = {d["name"]: d for d in exported}
    for name in WEB_TOOLS:
        assert by_name[name]["capabilities"] == ["network:fetch:cross-origin"]
    assert by_name["getPageTitle"]["capabilities"] == ["dom:read"]
    assert by_name["getPageTitle"]["timeout"] == 5000
    assert by_name["plain"]["capabilities"] == []


def test_a_strangers_web_fetch_is_not_annotated(folders) -> None:
    folders.tool("project", "web-fetch-tool")  # webtap's name, somebody else's program
    (tool,) = discover().tools
    assert export_tools([tool], "btcp")[0]["capabilities"] == []
    assert "annotations" not in export_tools([tool], "mcp")[0]


def test_a_symlink_to_webtaps_executable_is_webtaps(folders) -> None:
    import sys
    from pathlib import Path

    folders.project.mkdir(parents=True)
    (folders.project / "web-fetch-tool").symlink_to(Path(sys.executable).parent / "web-fetch-tool")
    (tool,) = discover().tools
    assert export_tools([tool], "btcp")[0]["capabilities"] == ["network:fetch:cross-origin"]


def test_unknown_format() -> None:
    with pytest.raises(ValueError, match="unknown export format 'xml'"):
        export_tools([], "xml")


@pytest.mark.parametrize("fmt", ["anthropic", "openai", "mcp", "btcp"])
def test_cli_export_matches_the_library(tools, fmt: str, capsys) -> None:
    assert main(["tools", "export", "--format", fmt]) == 0
    assert json.loads(capsys.readouterr().out) == export_tools(tools, fmt)
