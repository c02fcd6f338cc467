"""Imports run one way (DESIGN, Layers): nothing below the command line imports ``webtap.cli``.

Read from the source with :mod:`ast`, so that an import inside a function (the usual way webtap
defers a heavy import) counts as much as one at the top of a module.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parents[1] / "src" / "webtap"
FRONT_DOOR = "webtap.cli"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path) -> list[tuple[int, str]]:
    """Every module the source file ``path`` imports (see :func:`imports`)."""
    package = module_name(path)
    if path.name != "__init__.py":
        package = package.rpartition(".")[0]
    return imports(path.read_text(encoding="utf-8"), package)


def imports(source: str, package: str) -> list[tuple[int, str]]:
    """Every module ``source`` (a module of ``package``) imports, as (line, dotted name):
    ``import a.b``, ``from a import b`` (as ``a.b``), relative imports resolved, and
    ``import_module("a.b")`` with a literal name."""
    tree = ast.parse(source)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", "")) in IMPORTERS
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.append((node.lineno, node.args[0].value))
    return found


IMPORTERS = {"import_module", "__import__"}


def is_front_door(name: str) -> bool:
    return name == FRONT_DOOR or name.startswith(FRONT_DOOR + ".")


def below_the_cli() -> list[Path]:
    return sorted(
        path for path in PACKAGE.rglob("*.py") if not module_name(path).startswith(FRONT_DOOR)
    )


def test_the_modules_are_found() -> None:
    names = {module_name(path) for path in below_the_cli()}
    assert {"webtap.sql", "webtap.sql.dispatch", "webtap.store", "webtap.agent"} <= names
    assert not any(is_front_door(name) for name in names)


@pytest.mark.parametrize("path", below_the_cli(), ids=lambda p: module_name(p))
def test_no_lower_layer_imports_the_cli(path: Path) -> None:
    upward = [f"line {line}: {name}" for line, name in imported(path) if is_front_door(name)]
    assert upward == [], f"{module_name(path)} imports the command line"


def test_the_reader_sees_every_way_of_importing() -> None:
    source = (
        "import webtap.cli._output\n"
        "from webtap import cli\n"
        "from ..cli import _output\n"
        "def later():\n"
        "    from webtap.cli._output import err_console\n"
        "    importlib.import_module('webtap.cli.sql')\n"
        "from webtap import clip\n"
        "from . import client\n"
    )
    found = imports(source, "webtap.sql")
    assert sorted((line, name) for line, name in found if is_front_door(name)) == [
        (1, "webtap.cli._output"),
        (2, "webtap.cli"),
        (3, "webtap.cli._output"),
        (5, "webtap.cli._output.err_console"),
        (6, "webtap.cli.sql"),
    ]
    assert (8, "webtap.sql.client") in found
