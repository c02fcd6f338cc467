"""CI runs the very test command the README gives, and that command measures coverage."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parent.parent


def readme_test_command() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("Run the whole test suite", 1)[1]
    return re.search(r"```sh\n(.+?)\n```", section, re.DOTALL).group(1).strip()


def test_ci_runs_the_readme_s_test_command() -> None:
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    commands = [line for line in script.splitlines() if line and not line.startswith("#")]
    assert commands[-1] == readme_test_command()
