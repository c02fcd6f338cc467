"""Shared fixtures: an isolated environment for every test, the real executables, and the
suite's fakes (tests/fakes) of the services webtap calls, each a real server on 127.0.0.1."""

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
from pytest_httpserver import HTTPServer
from tests.fakes.anthropic import API_KEY, FakeAnthropic
from tests.fakes.brave import FakeBrave
from tests.fakes.google import FakeGoogle
from tests.fakes.openai import API_KEY as OPENAI_KEY
from tests.fakes.openai import FakeOpenAI
from tests.fakes.provider import FakeProvider, new_server
from tests.fakes.searxng import FakeSearxng

from webtap.providers import MODEL_PROVIDERS
from webtap.settings import SETTINGS

FIXTURES = Path(__file__).parent / "fixtures"
BIN = Path(sys.executable).parent

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
    "WEBTAP_BUDGET",
    "WEBTAP_HOST_RATE",
    "WEBTAP_ANTHROPIC_RPM",
    "WEBTAP_BROWSER",
    "NO_COLOR",
    "FORCE_COLOR",
    *SETTINGS,  # every declared setting, a new one too
    # every model provider's address and key (OPENAI_BASE_URL, OLLAMA_HOST, GROQ_API_KEY...)
    *(p.endpoint_env for p in MODEL_PROVIDERS.values()),
    *(p.key.env for p in MODEL_PROVIDERS.values() if p.key),
]


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Run tests/scale in one worker, one test at a time, and every other test as ``--dist
    load`` would: its session's Ray cluster then starts once, and no scale test that starts a
    Ray instance of its own runs beside one that counts the requests in each second. (A
    scheduler, since ``xdist_group`` marks no longer group anything under pytest 9.2:
    pytest-dev/pytest-xdist#1386.) Another ``--dist`` given on the command line is left alone."""
    if config.getvalue("dist") not in ("load", "loadgroup"):
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ScaleInOneWorker(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return SCALE if nodeid.startswith(SCALE) else nodeid

    return ScaleInOneWorker(config, log)


SCALE = "tests/scale/"


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
    # Whether a machine has a browser must not change what a test of something else sees: no
    # page is rendered unless the test asks (the browser tests set or unset it).
    monkeypatch.setenv("WEBTAP_RENDER", "off")
    # Time limits sized for a person's machine, not for one under --cov (every process
    # measured) beside other busy ones: a Python tool's --schema may take more than
    # discovery's 1 s, and a stopped batch more than 1 s to write the rows it finished. A
    # test of such a limit sets it, or passes its own, and asserts which one was used.
    monkeypatch.setenv("WEBTAP_SCHEMA_TIMEOUT", "30")
    monkeypatch.setenv("WEBTAP_BATCH_STOP_WAIT", "30")
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
def anthropic_api(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeAnthropic]:
    """The fake Messages API, with ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY pointing at it."""
    fake = FakeAnthropic().start()
    monkeypatch.setenv("ANTHROPIC_BASE_URL", fake.url)
    monkeypatch.setenv("ANTHROPIC_API_KEY", API_KEY)
    yield fake
    fake.stop()


@pytest.fixture
def openai_api(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAI]:
    """A fake OpenAI-compatible server, OPENAI_BASE_URL and OPENAI_API_KEY pointing at it."""
    fake = FakeOpenAI().start()
    monkeypatch.setenv("OPENAI_BASE_URL", fake.url)
    monkeypatch.setenv("OPENAI_API_KEY", OPENAI_KEY)
    yield fake
    fake.stop()


# The models the fake Ollama has pulled; gemma2 takes no tools, as Ollama's gemma2 does not.
OLLAMA_MODELS = {"qwen2.5", "qwen2.5:7b", "llama3.2", "gemma2"}


@pytest.fixture
def ollama(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAI]:
    """A fake Ollama (no key; its OpenAI-compatible endpoint under /v1), OLLAMA_HOST at it."""
    fake = FakeOpenAI(api_key=None, models=OLLAMA_MODELS, no_tools={"gemma2"}, ollama=True)
    fake.start()
    monkeypatch.setenv("OLLAMA_HOST", fake.host.removeprefix("http://"))  # as Ollama writes it
    yield fake
    fake.stop()


@pytest.fixture
def provider_server() -> Iterator[HTTPServer]:
    """One threaded server on 127.0.0.1 that plays every search provider of the test (each
    answers on its own path)."""
    server = new_server()
    yield server
    server.clear()
    if server.is_running():
        server.stop()


def _pointed_at(fake: FakeProvider, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in fake.environment().items():
        monkeypatch.setenv(name, value)


@pytest.fixture
def brave(provider_server: HTTPServer, monkeypatch: pytest.MonkeyPatch) -> FakeBrave:
    """A fake Brave Search, its URL and key in the environment; it answers what the test
    scripts (``brave.answer()``: the recorded ``brave search`` results)."""
    fake = FakeBrave(provider_server)
    _pointed_at(fake, monkeypatch)
    return fake


@pytest.fixture
def google(provider_server: HTTPServer, monkeypatch: pytest.MonkeyPatch) -> FakeGoogle:
    """A fake Google Custom Search, its URL, key and engine id in the environment."""
    fake = FakeGoogle(provider_server)
    _pointed_at(fake, monkeypatch)
    return fake


@pytest.fixture
def searxng(provider_server: HTTPServer, monkeypatch: pytest.MonkeyPatch) -> FakeSearxng:
    """A fake SearXNG instance, its base address in SEARXNG_URL."""
    fake = FakeSearxng(provider_server)
    _pointed_at(fake, monkeypatch)
    return fake
