"""The dependency floors pyproject.toml declares are the versions .ci/run tests in its second
environment (.ci/lowest.txt): a floor raised or lowered in one file and not the other fails."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FLOOR = re.compile(r"^([A-Za-z0-9_.-]+)(?:\[[^\]]*\])?>=([^,;\s]+)$")


def _name(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()  # PEP 503


def _release(version: str) -> tuple[int, ...]:
    """``"4.2"`` and ``"4.2.0"`` are one release."""
    parts = [int(part) for part in version.split(".")]
    while parts and parts[-1] == 0:
        parts.pop()
    return tuple(parts)


def declared_floors() -> dict[str, tuple[int, ...]]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    floors = {}
    for requirement in project["dependencies"]:
        match = FLOOR.match(requirement.replace(" ", ""))
        assert match, f"{requirement!r}: every runtime dependency needs a '>=' floor, alone"
        floors[_name(match[1])] = _release(match[2])
    return floors


def pinned_lowest() -> dict[str, tuple[int, ...]]:
    pins = {}
    for line in (ROOT / ".ci" / "lowest.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            pins[_name(name)] = _release(version)
    return pins


def test_every_floor_is_pinned_in_the_lowest_environment() -> None:
    assert pinned_lowest() == declared_floors()


def test_ci_installs_and_tests_the_lowest_environment() -> None:
    run = (ROOT / ".ci" / "run").read_text()
    assert "-c .ci/lowest.txt" in run
