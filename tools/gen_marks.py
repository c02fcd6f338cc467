"""Write ``src/webtap/quotes/_marks.py``: the combining marks (Unicode category M) of the Basic
Multilingual Plane as a regex character class body, so that a word with accents, vowel signs or
harakat stays one word. Only the BMP's: a class with ranges past it is searched range by range,
five times slower on every page, for scripts (Brahmi, Chakma...) that quotes hardly come from.

    .venv/bin/python tools/gen_marks.py

Run again when Python's Unicode database (``unicodedata.unidata_version``) changes;
tests/quotes/test_marks.py says when it has.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

TARGET = Path(__file__).resolve().parents[1] / "src" / "webtap" / "quotes" / "_marks.py"


def mark_ranges() -> list[tuple[int, int]]:
    ranges: list[tuple[int, int]] = []
    start = None
    for code in range(0x10000 + 1):
        is_mark = code < 0x10000 and unicodedata.category(chr(code)).startswith("M")
        if is_mark and start is None:
            start = code
        elif not is_mark and start is not None:
            ranges.append((start, code - 1))
            start = None
    return ranges


def escape(code: int) -> str:
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def source() -> str:
    parts = [escape(a) if a == b else f"{escape(a)}-{escape(b)}" for a, b in mark_ranges()]
    lines = []
    line = ""
    for part in parts:
        if len(line) + len(part) > 84:
            lines.append(f'    "{line}"')
            line = ""
        line += part
    lines.append(f'    "{line}"')
    body = "\n".join(lines)
    return (
        '"""Combining marks (Unicode category M) of the Basic Multilingual Plane as a regex\n'
        'character class body: written by tools/gen_marks.py, do not edit."""\n\n'
        f'UNICODE_VERSION = "{unicodedata.unidata_version}"\n\n'
        f"MARKS = (\n{body}\n)\n"
    )


if __name__ == "__main__":
    TARGET.write_text(source(), encoding="utf-8")
    print(f"wrote {TARGET} (Unicode {unicodedata.unidata_version})")
