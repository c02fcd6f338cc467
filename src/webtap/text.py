"""Text from outside made safe to show: one place that drops terminal control characters.

Every string that a tool, a page, a provider, a file name or a store hands to a terminal or to a
model goes through :func:`strip_controls` first (DESIGN 2: never a surprise for the person).
"""

from __future__ import annotations

import re

__all__ = ["escape_c1", "strip_controls"]

# C0 controls but tab, line feed and carriage return; DEL; C1 controls. No text needs them, and
# a terminal obeys them: ESC ] 52 sets the clipboard, ESC [ 2 J clears the screen, and the
# single-byte CSI (U+009B) does what ESC [ does on terminals that honour C1 controls.
_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_C1_AND_DEL = re.compile("[\x7f-\x9f]")


def strip_controls(text: str) -> str:
    """``text`` without the control characters a page, a provider or a tool may hide in it."""
    return _CONTROLS.sub("", text)


def escape_c1(json_text: str) -> str:
    """JSON text with DEL and C1 controls written as ``\\u`` escapes.

    ``json.dumps(..., ensure_ascii=False)`` escapes C0 controls but leaves these raw; in JSON
    they can only stand inside strings, so the escape keeps the value and the terminal safe.
    """
    return _C1_AND_DEL.sub(lambda match: f"\\u{ord(match.group()):04x}", json_text)
