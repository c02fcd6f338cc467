"""The code and the pages point to webtap's decisions by name (``decision: Which search``), never
by number: every name they use is a decision docs/architecture.md lists, so that renumbering the
list, or renaming a decision without its pointers, fails here."""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ARCHITECTURE = ROOT / "docs" / "architecture.md"
# "(decision: Events)", "(decisions: Rate budgets; Rate budgets past one machine)", and
# 'in the order "Which search" decides'.
TAG = re.compile(r"[(,|]\s*decisions?: (.+?)\s*[),.:|`]")
ORDER = re.compile(r'the order "([^"]+)" decides\b')


def decisions() -> set[str]:
    """The bold names of the numbered list under "## Decisions"."""
    text = ARCHITECTURE.read_text(encoding="utf-8").split("\n## Decisions", 1)[1]
    text = text.split("\n## ", 1)[0]
    names = re.findall(r"^\d+\. \*\*(.+?)\*\*", text, flags=re.MULTILINE)
    return {name.rstrip(".").replace("`", "") for name in names}


def flattened(path: Path) -> str:
    """The file's prose (a page; a module's comments and strings) as one line, comment marks
    out, so that a name wrapped over two lines reads as written."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        tokens = tokenize.generate_tokens(io.StringIO(text).readline)
        kinds = (tokenize.COMMENT, tokenize.STRING)
        text = "\n".join(token.string for token in tokens if token.type in kinds)
    return " ".join(line.strip().removeprefix("#").strip() for line in text.splitlines())


def pointers() -> dict[str, set[str]]:
    """Every decision name a file of the project points to, by file."""
    found: dict[str, set[str]] = {}
    paths = [ROOT / "README.md", *ROOT.glob("docs/*.md")]
    for folder in ("src", "tests", "tools", "bench"):
        paths += (ROOT / folder).rglob("*.py")
    for path in paths:
        if path == Path(__file__).resolve():
            continue
        text = flattened(path)
        names = {name.strip() for tag in TAG.findall(text) for name in tag.split(";")}
        names |= set(ORDER.findall(text))
        if names:
            found[str(path.relative_to(ROOT))] = names
    return found


def test_every_decision_pointed_to_is_in_the_list() -> None:
    known = decisions()
    unknown = {path: names - known for path, names in pointers().items() if names - known}
    assert unknown == {}, f"decisions docs/architecture.md does not list: {unknown}"


def test_the_list_and_the_pointers_are_found() -> None:
    assert {"Events", "Which search", "Rate budgets past one machine"} <= decisions()
    assert "Which search" in pointers()["src/webtap/credentials/sources.py"]
