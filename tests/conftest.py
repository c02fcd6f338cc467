"""Shared fixtures: an isolated environment for every test, and the real executables."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
BIN = Path(sys.executable).parent

# The fake Anthropic API and fake Brave live with the ask loop's tests; the SQL tests use them
# too. Test folders are not packages (--import-mode=importlib), so their folder goes on the path.
sys.path.insert(0, str(Path(__file__).parent / "agent"))

# Variables that would let a test reach a real key, a real endpoint or the user's files.
_SCRUBBED = [
    "BRAVE_API_KEY",
    "GOOGLE_SEARCH_API_KEY",
    "GOOGLE_SEARCH_ENGINE_ID",
    "SEARXNG_URL",
    "WEBTAP_MODEL",
    "WEBTAP_SEARCH_CACHE_TTL",
    "WEBTAP_GOOGLE_MAX_CALLS",
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_AUTH_TOKEN",
    "ANTHROPIC_BASE_URL",
    "BRAVE_SEARCH_URL",
    "GOOGLE_SEARCH_URL",
    "WEBTAP_ALLOW_PRIVATE_NETWORKS",
    "WEBTAP_ALLOW_NETWORKS",
    "WEBTAP_FETCH_TIMEOUT",
    "WEBTAP_CONNECT_TIMEOUT",
    "WEBTAP_MAX_BYTES",
    "WEBTAP_PDF_MAX_PAGES",
    "WEBTAP_PDF_MAX_EXPANDED",
    "SSL_CERT_FILE",
    "WEBTAP_SEARCH_TIMEOUT",
    "WEBTAP_SEARCH_DEADLINE",
    "WEBTAP_MCP_MAX_LINES",
    "WEBTAP_MCP_TIMEOUT",
    "WEBTAP_DB",
    "WEBTAP_CACHE",
    "WEBTAP_CACHE_DIR",
    "WEBTAP_ROBOTS",
    "WEBTAP_USER_AGENT",
    "WEBTAP_SYSTEM_TOOLS_DIR",
    "NO_COLOR",
    "FORCE_COLOR",
]


@pytest.fixture(autouse=True)
def isolated_env(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own HOME, data and config folders, and no keys or endpoints."""
    home = tmp_path_factory.mktemp("home")
    for name in _SCRUBBED:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.setenv("WEBTAP_DB", str(home / "webtap-test.db"))
    # Fake providers have no rate limit to protect: the shared budget's default of one search a
    # second (Brave's free plan) would only slow tests down. Tests of the budget unset these.
    monkeypatch.setenv("WEBTAP_BRAVE_RATE", "1000")
    monkeypatch.setenv("WEBTAP_GOOGLE_RATE", "1000")
    return home


@pytest.fixture
def allow_private(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let the fetch tool reach servers on 127.0.0.1 (the SSRF guard is on by default)."""
    monkeypatch.setenv("WEBTAP_ALLOW_PRIVATE_NETWORKS", "1")


@dataclass
class ToolRun:
    returncode: int
    stdout: str
    stderr: str

    @property
    def json(self) -> Any:
        return json.loads(self.stdout)


@pytest.fixture
def run_exe() -> Callable[..., ToolRun]:
    """Run one of the installed executables as a subprocess, with the test's environment.

    ``stdin`` may be a dict (sent as JSON), a str or bytes.
    """

    def run(
        exe: str,
        *args: str,
        stdin: Any = b"",
        env: dict[str, str] | None = None,
        timeout: float = 60,
        cwd: str | Path | None = None,
    ) -> ToolRun:
        if isinstance(stdin, dict | list):
            stdin = json.dumps(stdin)
        if isinstance(stdin, str):
            stdin = stdin.encode()
        full_env = dict(os.environ)
        full_env.update(env or {})
        proc = subprocess.run(
            [str(BIN / exe), *args],
            input=stdin,
            capture_output=True,
            env=full_env,
            timeout=timeout,
            cwd=cwd,
        )
        return ToolRun(
            proc.returncode,
            proc.stdout.decode("utf-8", "replace"),
            proc.stderr.decode("utf-8", "replace"),
        )

    return run


@pytest.fixture
def anthropic_api(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """The fake Messages API, with ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY pointing at it."""
    from fake_anthropic import API_KEY, FakeAnthropic

    fake = FakeAnthropic().start()
    monkeypatch.setenv("ANTHROPIC_BASE_URL", fake.url)
    monkeypatch.setenv("ANTHROPIC_API_KEY", API_KEY)
    yield fake
    fake.stop()
