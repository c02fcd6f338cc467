"""The code base stays ruff-clean: lint is part of the suite, so CI enforces it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[1]


def test_ruff_clean() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "src", "tests", "bench", "tools"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
