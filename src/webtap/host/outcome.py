"""What a tool's process came to, read in one order for every caller: a run and ``--schema``.

The ladder, first rung that holds wins: past its deadline (:class:`ToolTimeout`), more output
than is read (:class:`OutputTooLarge`), ended by a signal or a non-zero exit
(:class:`ToolFailed`), nothing printed or not JSON (:class:`InvalidOutput`). Each caller words
the rungs for its reader with a :class:`Wording`; the order and the classes are the same.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from webtap.errors import InvalidOutput, OutputTooLarge, ToolFailed, ToolTimeout
from webtap.host.process import Completed
from webtap.protocol import loads_json
from webtap.settings import size_text
from webtap.signals import signal_name

__all__ = ["RUN", "SCHEMA", "Wording", "json_output"]


class Wording(NamedTuple):
    """How a caller says each rung. Templates may use ``{limit}`` (bytes), ``{size}`` (the
    limit for a person), ``{hint}`` (": " and the last line of stderr, or nothing) and
    ``{problem}`` (what the JSON parser said)."""

    subject: str
    too_large: str
    empty: str
    invalid: str


RUN = Wording(
    "Tool",
    "output exceeded {limit} bytes",
    "returned no output{hint}",
    "returned invalid JSON{hint}",
)
SCHEMA = Wording(
    "--schema",
    "printed more than {size}",
    "printed nothing",
    "printed invalid JSON: {problem}",
)


def json_output(done: Completed, wording: Wording, *, seconds: float, limit: int) -> Any:
    """The JSON value ``done`` printed, or the first rung's error, worded by ``wording``."""
    subject = wording.subject
    hint = f": {done.last_stderr_line}" if done.last_stderr_line else ""
    if done.timed_out:
        raise ToolTimeout(f"{subject} timed out after {seconds:g} s")
    if done.overflowed:
        size = size_text(limit)
        raise OutputTooLarge(f"{subject} {wording.too_large.format(limit=limit, size=size)}")
    if done.returncode and done.returncode < 0:
        raise ToolFailed(f"{subject} crashed ({signal_name(-done.returncode)}){hint}")
    if done.returncode:
        raise ToolFailed(f"{subject} exited with status {done.returncode}{hint}")
    text = done.stdout.decode("utf-8", "replace")
    if not text.strip():
        raise InvalidOutput(f"{subject} {wording.empty.format(hint=hint)}")
    try:
        return loads_json(text)
    except json.JSONDecodeError as exc:
        problem = f"{exc.msg} at line {exc.lineno} column {exc.colno}"
        raise InvalidOutput(
            f"{subject} {wording.invalid.format(hint=hint, problem=problem)}"
        ) from None
