"""Imports run one way (DESIGN, Layers): the layer diagram, checked against the source.

Every package (and top-level module) of webtap sits in one layer of :data:`LAYERS`; a module may
import from its own layer and the layers below it, never from a layer above, and packages that
stand side by side in :data:`INDEPENDENT` import neither way. Nothing imports in a circle:
not packages, not modules, counting every import (one in a function, or under ``if
TYPE_CHECKING:``, ties two modules as much as one that runs at load); and not modules as they
load (the imports that run when a module is imported), which a circle would break first.
Nothing below the command line imports ``webtap.cli``.

Read from the source with :mod:`ast`, so that an import inside a function (the usual way webtap
defers a heavy import) counts as much as one at the top of a module.
"""

from __future__ import annotations

import ast
import graphlib
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parents[1] / "src" / "webtap"
FRONT_DOOR = "webtap.cli"

# Bottom to top. A package (or top-level module) of webtap by its name under ``webtap``;
# ``webtap`` is the package's own ``__init__`` (its ``__version__``).
LAYERS: list[tuple[str, set[str]]] = [
    ("base", {"webtap", "errors"}),
    (
        # envelope, settings, text, files, caches, the guard, HTTP, credentials, who webtap
        # says it is, rate budgets (search's keys, the model's key, a crawl's politeness all
        # use them) and how a front door stops on a signal
        "foundation",
        {
            "protocol",
            "_validators",
            "settings",
            "text",
            "redact",
            "files",
            "sqlite",
            "cache",
            "guard",
            "net",
            "providers",
            "credentials",
            "useragent",
            "budget",
            "signals",
            "snapshots",
            "answer_schema",
        },
    ),
    # Pages read: to Markdown, what a page is (its verdict), and whether a quote stands in its
    # text.
    ("converters", {"convert", "pdf", "verdict", "quotes"}),
    ("browser", {"browser"}),  # renders pages for the fetch, through the guard and net
    ("fetch and search", {"fetch", "search"}),
    ("tools", {"tools", "entry"}),
    ("host", {"host"}),
    ("agent", {"agent"}),
    # scale: fetch and ask over Arrow batches (ask through sql's batch entry point), for
    # webtap batch, a Ray cluster and Spark UDFs; crawl: a whole site, written as a batch is
    ("front doors", {"cli", "sql", "mcp", "scale", "crawl"}),
]
# Side by side, and neither imports the other: packages of one layer, or modules of one package
# (a dotted name: ``scale.cluster``).
INDEPENDENT = [
    ("fetch", "search"),
    ("sql", "mcp"),
    ("scale.cluster", "scale.udfs"),
    ("scale.batch", "scale.udfs"),
]


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def package_of(path: Path) -> str:
    """The package relative imports in ``path`` start from."""
    package = module_name(path)
    return package if path.name == "__init__.py" else package.rpartition(".")[0]


def imported(path: Path) -> list[tuple[int, str]]:
    """Every module the source file ``path`` imports (see :func:`imports`)."""
    return imports(path.read_text(encoding="utf-8"), package_of(path))


def imports(source: str, package: str, *, at_load: bool = False) -> list[tuple[int, str]]:
    """Every module ``source`` (a module of ``package``) imports, as (line, dotted name):
    ``import a.b``, ``from a import b`` (as ``a.b``), relative imports resolved, and
    ``import_module("a.b")`` with a literal name. ``at_load``: only the imports that run when
    the module is loaded (not in functions, not under ``if TYPE_CHECKING:``)."""
    tree = ast.parse(source)
    found: list[tuple[int, str]] = []
    for node in _load_time_nodes(tree) if at_load else ast.walk(tree):
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


def _load_time_nodes(node: ast.AST) -> list[ast.AST]:
    """The nodes that run when the module is loaded: not function bodies, not the body of an
    ``if TYPE_CHECKING:``."""
    nodes: list[ast.AST] = []
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        nodes.append(child)
        if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
            for other in child.orelse:
                nodes += [other, *_load_time_nodes(other)]
            continue
        nodes += _load_time_nodes(child)
    return nodes


MODULES = {module_name(path): path for path in PACKAGE.rglob("*.py")}


def resolve(name: str) -> str | None:
    """The webtap module an imported name is in (``webtap.net.Client`` -> ``webtap.net``);
    None for a module outside webtap."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def unit(module: str) -> str:
    """The package (or top-level module) a module belongs to: its layer's unit."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


LAYER_OF = {name: rank for rank, (_, names) in enumerate(LAYERS) for name in names}


def is_front_door(name: str) -> bool:
    return name == FRONT_DOOR or name.startswith(FRONT_DOOR + ".")


def below_the_cli() -> list[Path]:
    return sorted(
        path for path in PACKAGE.rglob("*.py") if not module_name(path).startswith(FRONT_DOOR)
    )


# --- the diagram -------------------------------------------------------------------------------


def test_every_package_has_its_place_in_the_diagram() -> None:
    units = {unit(name) for name in MODULES}
    assert units - set(LAYER_OF) == set(), "new packages: give each its layer in LAYERS"
    assert set(LAYER_OF) - units == set(), "LAYERS names a package that no longer exists"
    assert sum(len(names) for _, names in LAYERS) == len(LAYER_OF), "a package in two layers"


@pytest.mark.parametrize("path", sorted(MODULES.values()), ids=lambda p: module_name(p))
def test_imports_go_down_the_layers(path: Path) -> None:
    own = unit(module_name(path))
    layer = LAYERS[LAYER_OF[own]][0]
    assert against_the_diagram(own, imported(path)) == [], f"{module_name(path)} is in '{layer}'"
    assert side_by_side(module_name(path), imported(path)) == [], module_name(path)


def against_the_diagram(own: str, found: list[tuple[int, str]]) -> list[str]:
    """The imports of a module of package ``own`` that the diagram does not allow."""
    wrong = []
    for line, name in found:
        target = resolve(name)
        if target is None or unit(target) == own:
            continue
        other = unit(target)
        if LAYER_OF[other] > LAYER_OF[own]:
            above = LAYERS[LAYER_OF[other]][0]
            wrong.append(f"line {line}: {name} ({other} is in '{above}', above it)")
        elif {own, other} in [set(pair) for pair in INDEPENDENT]:
            wrong.append(f"line {line}: {name} ({own} and {other} stand side by side)")
    return wrong


def side_by_side(module: str, found: list[tuple[int, str]]) -> list[str]:
    """The imports of ``module`` from a module :data:`INDEPENDENT` puts beside it in its own
    package (``webtap.scale.batch`` importing ``webtap.scale.udfs``)."""
    own = _submodule(module)
    wrong = []
    for line, name in found:
        target = resolve(name)
        other = _submodule(target) if target else None
        if other and other != own and {own, other} in [set(pair) for pair in INDEPENDENT]:
            wrong.append(f"line {line}: {name} ({own} and {other} stand side by side)")
    return wrong


def _submodule(module: str) -> str:
    return ".".join(module.split(".")[1:3])


def test_packages_import_nothing_in_a_circle() -> None:
    graph: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        targets = {resolve(imported_name) for _, imported_name in imported(path)}
        graph.setdefault(unit(name), set()).update(
            unit(target) for target in targets if target and unit(target) != unit(name)
        )
    _assert_acyclic(graph)


def test_modules_import_nothing_in_a_circle() -> None:
    """Counting every import: a type, a record or a helper two modules share has one home
    that both import, one way."""
    graph = {
        name: {
            target
            for _, imported_name in imported(path)
            if (target := resolve(imported_name)) and target != name
        }
        for name, path in MODULES.items()
    }
    _assert_acyclic(graph)


def test_modules_import_nothing_in_a_circle_as_they_load() -> None:
    graph = {
        name: {
            target
            for _, imported_name in imports(
                path.read_text(encoding="utf-8"), package_of(path), at_load=True
            )
            if (target := resolve(imported_name)) and target != name
        }
        for name, path in MODULES.items()
    }
    _assert_acyclic(graph)


def _assert_acyclic(graph: dict[str, set[str]]) -> None:
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as exc:
        pytest.fail(f"import cycle: {' -> '.join(exc.args[1])}")


def test_the_checks_see_an_upward_import_a_sideways_one_and_a_cycle() -> None:
    assert against_the_diagram("net", [(3, "webtap.fetch.page.fetch")]) == [
        "line 3: webtap.fetch.page.fetch (fetch is in 'fetch and search', above it)"
    ]
    assert against_the_diagram("fetch", [(4, "webtap.search.results")]) == [
        "line 4: webtap.search.results (fetch and search stand side by side)"
    ]
    assert side_by_side("webtap.scale.batch", [(5, "webtap.scale.udfs.ask_udf")]) == [
        "line 5: webtap.scale.udfs.ask_udf (scale.batch and scale.udfs stand side by side)"
    ]
    assert side_by_side("webtap.scale.batch", [(6, "webtap.scale.rows.Stop")]) == []
    allowed = [(1, "webtap.net.Client"), (2, "webtap.convert"), (3, "json"), (4, "webtap.fetch")]
    assert against_the_diagram("fetch", allowed) == []
    with pytest.raises(pytest.fail.Exception, match=r"import cycle: (a -> b -> a|b -> a -> b)"):
        _assert_acyclic({"a": {"b"}, "b": {"a"}, "c": {"a"}})


# --- the front door ----------------------------------------------------------------------------


def test_the_modules_are_found() -> None:
    names = {module_name(path) for path in below_the_cli()}
    assert {"webtap.sql", "webtap.sql.dispatch", "webtap.host.event_store", "webtap.agent"} <= names
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


def test_only_imports_that_run_at_load_count_for_the_module_circle() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "import webtap.a\n"
        "if TYPE_CHECKING:\n"
        "    import webtap.b\n"
        "else:\n"
        "    import webtap.c\n"
        "def later():\n"
        "    import webtap.d\n"
        "try:\n"
        "    import webtap.e\n"
        "except ImportError:\n"
        "    pass\n"
    )
    loaded = {name for _, name in imports(source, "webtap", at_load=True)}
    assert loaded == {"typing.TYPE_CHECKING", "webtap.a", "webtap.c", "webtap.e"}


# --- the diagram as docs/architecture.md draws it ------------------------------------------------

ARCHITECTURE = Path(__file__).parents[1] / "docs" / "architecture.md"


def drawn_layers() -> list[tuple[str, set[str]]]:
    """The diagram in docs/architecture.md, bottom to top: its lines between the markers, each
    a layer's name and its packages, the columns two spaces or more apart."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    block = text.split("<!-- layers:", 1)[1].split("<!-- layers: end -->", 1)[0]
    rows = [line for line in block.splitlines()[1:] if line.strip() and line.strip() != "```"]
    layers = []
    for row in reversed(rows):
        name, *units = re.split(r"\s{2,}", row.strip())
        layers.append((name, set(units)))
    return layers


def test_the_architecture_page_draws_this_diagram() -> None:
    assert drawn_layers() == LAYERS, "docs/architecture.md's diagram and LAYERS differ"
    text = ARCHITECTURE.read_text(encoding="utf-8")
    for first, second in INDEPENDENT:
        assert f"`{first}` and `{second}`" in text, "a side-by-side pair the page does not name"


def test_the_architecture_page_says_what_each_package_is() -> None:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    described = set(re.findall(r"^\| `(\w+)` \|", text, flags=re.MULTILINE))
    drawn = {unit for _, units in LAYERS for unit in units}
    assert drawn - described == set(), "a package of the diagram without its row in the table"
    assert described - drawn == set(), "a row in the table for a package the diagram lacks"
