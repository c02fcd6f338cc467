"""The generated trap site, and the ``webtap`` executable run on it as a subprocess."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.fakes.crawl_site import TrapSite

WEBTAP = str(Path(sys.executable).parent / "webtap")
# How much sooner than the crawler sent it a busy machine may let the fake site see a request
# after the one before (its handler thread started late for the first): the gaps the site logs
# are the crawler's spacing give or take this. A crawler ignoring the delay sends within ms.
JITTER = 0.05


@pytest.fixture
def local(monkeypatch: pytest.MonkeyPatch) -> None:
    """127.0.0.1 past the SSRF guard, and no politeness but what robots.txt asks."""
    monkeypatch.setenv("WEBTAP_ALLOW_PRIVATE_NETWORKS", "1")
    monkeypatch.setenv("WEBTAP_HOST_RATE", "1000")


@pytest.fixture
def site(local: None) -> Iterator[TrapSite]:
    with TrapSite.running(retry_after=0.5) as running:
        yield running


def webtap(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [WEBTAP, *args, "--no-progress"] if args[0] == "crawl" else [WEBTAP, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def spaced(times: list[float], delay: float) -> bool:
    """Whether no two of these moments (in order) are closer than ``delay``, give or take the
    loopback's ``JITTER``."""
    return all(later - earlier >= delay - JITTER for earlier, later in itertools.pairwise(times))


def jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def paths(rows: list[dict[str, Any]], column: str = "final_url") -> list[str]:
    from urllib.parse import urlsplit

    return [urlsplit(row[column]).path for row in rows]
