"""The combining marks the quote reader keeps inside words: as tools/gen_marks.py writes them."""

from __future__ import annotations

import importlib.util
import unicodedata
from pathlib import Path

from webtap.quotes._marks import MARKS, UNICODE_VERSION

GENERATOR = Path(__file__).parents[2] / "tools" / "gen_marks.py"


def test_the_marks_are_the_generators() -> None:
    spec = importlib.util.spec_from_file_location("gen_marks", GENERATOR)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if unicodedata.unidata_version == UNICODE_VERSION:
        assert (GENERATOR.parents[1] / "src/webtap/quotes/_marks.py").read_text() == (
            module.source()
        ), "run tools/gen_marks.py"
    else:  # another Python: what was a mark still is one
        assert all(unicodedata.category(c).startswith("M") for c in MARKS if c != "-")
