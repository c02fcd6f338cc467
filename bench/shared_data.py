"""The real pages the benchmarks read, and how they say so when the pages are not there.

The data is not part of the repository: it is the project's shared data folder, by default
``../shared/data`` beside the repository's root (its README says what each part is and under
which licence). Every benchmark that reads it takes ``--data DIR`` with that default; when what
it needs is missing, it says in one line what is missing and where it comes from, and exits
with status 1.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

__all__ = ["DEFAULT", "ORIGINS", "add_argument", "need"]

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT.parent / "shared" / "data"

# Where each part of the data comes from, for the line that says it is missing.
ORIGINS = {
    "html/articles": "181 real news and blog pages and ground-truth.json, their article text, "
    "from Scrapinghub's article-extraction benchmark, "
    "https://github.com/scrapinghub/article-extraction-benchmark",
    "html/docs": "pages of the Python 3.11 and PostgreSQL 15 manuals as Debian installs them "
    "(python3.11-doc, postgresql-doc-15)",
    "html/modern": "500 real pages of 2025-2026 of seven kinds and ground-truth.json (the shared "
    "data's README says where they come from)",
}


def add_argument(parser: argparse.ArgumentParser) -> None:
    """``--data DIR``: the shared data folder, holding ``html/articles/`` and ``html/docs/``."""
    parser.add_argument(
        "--data",
        type=Path,
        default=DEFAULT,
        metavar="DIR",
        help="the shared data folder, with html/articles/ and html/docs/ "
        "(default: ../shared/data beside the repository)",
    )


def need(data: Path, part: str, name: str = "") -> Path:
    """``data/part/name``, or exit with one line: what is missing and where it comes from."""
    path = data / part / name if name else data / part
    if path.exists():
        return path
    script = Path(sys.argv[0]).name
    sys.exit(
        f"bench/{script}: missing {path} ({part}/ is {ORIGINS[part]}); "
        "give the folder that holds html/ with --data DIR"
    )
