"""Fixtures for the host: real tool folders with real executables written by the tests."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


def description_for(name: str) -> str:
    return f"Test tool {name}: answers with what the test wrote into it."


def default_schema(name: str, **extra: Any) -> dict[str, Any]:
    schema: dict[str, Any] = {
        "name": name,
        "description": description_for(name),
        "parameters": {
            "type": "object",
            "properties": {"text": {"type": "string", "description": "Some text"}},
            "required": ["text"],
        },
    }
    schema.update(extra)
    return schema


def write_tool(
    folder: Path,
    filename: str,
    *,
    schema: Any = None,
    schema_script: str | None = None,
    body: str = 'input=$(cat)\nprintf \'{"echo": %s}\' "$input"\n',
    mode: int = 0o755,
) -> Path:
    """An ``sh`` tool: ``--schema`` prints ``schema`` (or runs ``schema_script``); else ``body``."""
    folder.mkdir(parents=True, exist_ok=True)
    if schema_script is None:
        if schema is None:
            name = filename.removesuffix("-tool").replace("-", "_")
            schema = default_schema(name)
        text = schema if isinstance(schema, str) else json.dumps(schema)
        schema_script = f"cat <<'WEBTAP_JSON'\n{text}\nWEBTAP_JSON\nexit 0"
    path = folder / filename
    path.write_text(
        f'#!/bin/sh\nif [ "$1" = "--schema" ]; then\n{schema_script}\nfi\n{body}',
        encoding="utf-8",
    )
    path.chmod(mode)
    return path


class Folders:
    """The three tool folders of one test: system (via WEBTAP_SYSTEM_TOOLS_DIR), user, project."""

    def __init__(self, root: Path, home: Path) -> None:
        self.system = root / "system" / "libexec" / "ikigai"
        self.user = home / ".ikigai" / "tools"
        self.cwd = root / "project"
        self.project = self.cwd / ".ikigai" / "tools"
        self.cwd.mkdir(parents=True)

    def tool(self, where: str, filename: str, **kwargs: Any) -> Path:
        return write_tool(getattr(self, where), filename, **kwargs)


@pytest.fixture
def folders(tmp_path: Path, isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> Folders:
    result = Folders(tmp_path, isolated_env)
    monkeypatch.setenv("WEBTAP_SYSTEM_TOOLS_DIR", str(result.system))
    monkeypatch.chdir(result.cwd)
    return result


@pytest.fixture
def pid_gone() -> Callable[[int], bool]:
    """True once ``pid`` no longer runs (a zombie waiting for its reaper counts as gone)."""

    def gone(pid: int) -> bool:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except FileNotFoundError:
            return True
        state = next(line for line in status.splitlines() if line.startswith("State:"))
        return "Z" in state.split()[1]

    return gone


@pytest.fixture
def wait_until() -> Callable[..., bool]:
    """Poll ``condition`` until it holds or ``timeout`` seconds pass (a guard: generous, since
    a busy machine may take seconds to reap a killed process)."""

    def wait(condition: Callable[[], bool], timeout: float = 30.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if condition():
                return True
            time.sleep(0.02)
        return condition()

    return wait


@pytest.fixture
def past_its_start() -> Callable[..., tuple[float, Any]]:
    """``run(seconds)`` with a short deadline, then four times as long, until ``started()``
    holds: a deadline that passed before the process under test got going (a busy machine)
    says nothing of what webtap does at a deadline. Returns the seconds given and what ``run``
    returned, so that a test asserts which deadline was used."""

    def attempt(
        run: Callable[[float], Any], started: Callable[[], bool], first: float = 0.5
    ) -> tuple[float, Any]:
        seconds = first
        for _ in range(4):
            outcome = run(seconds)
            if started():
                return seconds, outcome
            seconds *= 4
        raise AssertionError(f"the process never got going, even with {seconds / 4:g} s")

    return attempt


@pytest.fixture
def make_tool() -> Callable[..., Path]:
    return write_tool


@pytest.fixture
def schema_for() -> Callable[..., dict[str, Any]]:
    return default_schema
