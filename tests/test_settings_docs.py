"""Every setting is declared once, read through its declaration, and documented from it.

The README's settings tables are written by ``tools/gen_settings.py`` from the declarations in
``webtap.settings`` (and the provider registry and key table); the commands' ``--help`` names
settings and their defaults from the same declarations. These tests fail when either drifts,
when code reads a ``WEBTAP_*`` variable by its own spelling, or when docs name one that is not
declared.
"""

from __future__ import annotations

import argparse
import ast
import re
import runpy
from pathlib import Path

import pytest

from webtap.cli import build_parser
from webtap.providers import MODEL_PROVIDERS, PROVIDERS
from webtap.settings import SECTIONS, SETTINGS

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "src" / "webtap"
GENERATOR = runpy.run_path(str(ROOT / "tools" / "gen_settings.py"))
NAME = re.compile(r"\bWEBTAP_[A-Z0-9_]*[A-Z0-9]\b")
# Variables that are not settings: the mark webtap puts on its tools' processes (it sets it,
# never reads it), and a test's own knob.
NOT_SETTINGS = {"WEBTAP_TOOL_CALL", "WEBTAP_CONVERT_FUZZ"}


def test_the_readme_tables_are_written_from_the_declarations() -> None:
    current = (ROOT / "README.md").read_text(encoding="utf-8")
    assert current == GENERATOR["readme"](current), "run tools/gen_settings.py"


def test_the_tables_hold_every_setting_endpoint_and_key_once() -> None:
    tables = GENERATOR["tables"]()
    rows = re.findall(r"^\| `([A-Z0-9_]+)` \|", tables, flags=re.MULTILINE)
    assert len(rows) == len(set(rows)), "a variable listed twice"
    endpoints = [p.endpoint_env for p in PROVIDERS.values() if p.endpoint_env]
    endpoints += [model.endpoint_env for model in MODEL_PROVIDERS.values()]
    keys = [key.env for p in PROVIDERS.values() for key in p.keys.values()]
    keys += [model.key.env for model in MODEL_PROVIDERS.values() if model.key]
    assert {*SETTINGS, *endpoints, *keys} == set(rows)
    assert {"ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OLLAMA_HOST"} <= set(rows)


def test_the_model_providers_table_is_written_from_the_registry() -> None:
    current = (ROOT / "docs" / "ask.md").read_text(encoding="utf-8")
    assert current == GENERATOR["ask_doc"](current), "run tools/gen_settings.py"
    table = GENERATOR["model_table"]()
    for model in MODEL_PROVIDERS.values():
        assert f"`{model.endpoint_env}`" in table and model.spec(model.example) in table


def test_each_setting_has_a_section_and_one_line_of_doc() -> None:
    for setting in SETTINGS.values():
        assert setting.section in SECTIONS, f"{setting.name}: give it a section of SECTIONS"
        assert setting.doc and "\n" not in setting.doc and "|" not in setting.doc, setting.name
    rates = {p.rate_env: p for p in PROVIDERS.values() if p.rate_env}
    for name, provider in rates.items():
        assert SETTINGS[name].default == provider.rate  # declared by its record


def help_texts() -> dict[str, str]:
    """Every command's --help, as a person sees it."""
    parser = build_parser()
    texts = {"webtap": parser.format_help()}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                texts[name] = sub.format_help()
    return texts


def environment_entries(text: str) -> dict[str, str]:
    """The entries of a --help's ``environment:`` section: name -> the rest, lines joined."""
    entries: dict[str, str] = {}
    name = None
    for line in text.partition("\nenvironment:\n")[2].splitlines():
        if line.startswith("  ") and not line.startswith("   "):
            name, _, rest = line.strip().partition(" ")
            entries[name] = rest.strip()
        elif name is not None:
            entries[name] += " " + line.strip()
    return entries


def shown(text: str) -> str:
    return text.replace("`", "")


def test_help_names_only_declared_settings_with_their_declared_defaults() -> None:
    texts = help_texts()
    assert {"fetch", "mcp", "search", "ask"} <= set(texts)
    for command, text in texts.items():
        flat = " ".join(text.split())
        for name in set(NAME.findall(flat)):
            assert name in SETTINGS, f"webtap {command} --help names {name}, which is not declared"
        # A default said beside a setting's name is the declared one: "(default 60, or
        # WEBTAP_MCP_TIMEOUT)" in a flag's help, "WEBTAP_X seconds (default 3600; ...)" in prose.
        for said, name in re.findall(r"\(default ([^,;()]+), or (WEBTAP_\w+)\)", flat):
            assert said == shown(SETTINGS[name].default_text()), (command, name)
        for name, said in re.findall(r"(WEBTAP_\w+)[^.;()]*\(default ([^,;()]+)[;,)]", flat):
            assert said == shown(SETTINGS[name].default_text()), (command, name)
        # An environment section says what each declaration says.
        for name, rest in environment_entries(text).items():
            if name in SETTINGS:
                setting = SETTINGS[name]
                assert rest == shown(f"{setting.doc} (default: {setting.default_text()})")
    fetch = environment_entries(texts["fetch"])
    assert [name for name, s in SETTINGS.items() if s.section == "fetch"] <= list(fetch)
    assert {"WEBTAP_MCP_MAX_LINES", "WEBTAP_MCP_TIMEOUT", "WEBTAP_MCP_TOKEN"} <= set(
        environment_entries(texts["mcp"])
    )


def test_a_changed_default_shows_in_help(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(SETTINGS["WEBTAP_MCP_TIMEOUT"], "default", 45.0)
    mcp = " ".join(help_texts()["mcp"].split())
    assert "(default 45, or WEBTAP_MCP_TIMEOUT)" in mcp
    assert "WEBTAP_MCP_TIMEOUT" in mcp.partition("environment:")[2]
    assert "(default: 45)" in mcp.partition("WEBTAP_MCP_TIMEOUT default for --timeout")[2]


def string_constants(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]


def test_no_module_spells_a_setting_itself() -> None:
    """A setting's variable is written once, in its declaration (a provider's rate variable in
    its record); code reads ``X.get()`` and names it ``X.name`` (docstrings may mention it)."""
    declared_in = {SOURCE / "settings.py", SOURCE / "providers.py"}
    found = []
    for path in sorted(SOURCE.rglob("*.py")):
        if path in declared_in:
            continue
        for line, value in string_constants(path):
            if NAME.fullmatch(value) and value not in NOT_SETTINGS:
                found.append(f"{path.relative_to(ROOT)}:{line}: {value!r}")
    assert found == []


def test_the_docs_name_only_declared_settings() -> None:
    stale = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for name in sorted(set(NAME.findall(path.read_text(encoding="utf-8")))):
            if name not in SETTINGS and name not in NOT_SETTINGS:
                stale.append(f"{path.name}: {name}")
    assert stale == []
