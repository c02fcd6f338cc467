"""The source type-checks: mypy on ``src``, as ``pyproject.toml`` configures it (``[tool.mypy]``).

Run as part of the suite, so that the README's test command (which CI runs) checks types too.
mypy's cache lives in the system's temporary folder, one per checkout and Python: the first
run reads the libraries' types (some 10 s), later ones only what changed (about 1 s).
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def mypy(*args: str) -> subprocess.CompletedProcess[str]:
    checkout = hashlib.sha256(str(ROOT).encode()).hexdigest()[:12]
    version = f"{sys.version_info[0]}{sys.version_info[1]}"
    cache = Path(tempfile.gettempdir()) / f"webtap-mypy-{checkout}-py{version}"
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(cache), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_src_has_no_type_errors() -> None:
    result = mypy()
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("Success: no issues found")


def test_the_configuration_checks_the_bodies_of_untyped_functions(tmp_path: Path) -> None:
    """check_untyped_defs and warn_unused_ignores are on: an error inside a function without
    annotations is found, and so is an ignore comment that ignores nothing."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "def untyped(x):\n"
        "    count: int = 'three'\n"
        "    return count\n"
        "\n"
        "fine: int = 1  # type: ignore[assignment]\n"
    )
    result = mypy(str(sample))
    assert result.returncode == 1
    assert 'Incompatible types in assignment (expression has type "str"' in result.stdout
    assert 'Unused "type: ignore" comment' in result.stdout
