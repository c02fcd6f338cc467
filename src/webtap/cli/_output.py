"""Terminal input and output shared by the subcommands: data on stdout, messages on stderr.

rich is imported when something is first drawn with it: here (:func:`console`,
:func:`err_console`, :func:`table`, :func:`escape`), and in the progress bars of ``webtap sql``
and ``webtap batch``. ``webtap fetch`` prints its Markdown without it, and ``--json`` or
``--csv`` output never needs it.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from typing import Any

from webtap.errors import clip
from webtap.protocol import MAX_EVENT_CONTENT
from webtap.redact import redact
from webtap.text import escape_c1, strip_controls

__all__ = [
    "cell",
    "console",
    "err_console",
    "escape",
    "exit_abandoned",
    "fail",
    "print_json",
    "read_text",
    "show_event",
    "stopped",
    "table",
]

_console = None


def console(**options: Any) -> Any:
    """A rich Console on stdout, or with ``stderr=True`` on stderr (NO_COLOR and non-terminals
    honoured by rich itself); nothing in it highlighted but what markup asks for."""
    from rich.console import Console  # the boundary in the module's docstring

    return Console(highlight=False, **options)


def err_console() -> Any:
    """The rich Console on stderr, made once: messages, progress, events."""
    global _console
    if _console is None:
        _console = console(stderr=True, soft_wrap=True)
    return _console


def table(*columns: str, **options: Any) -> Any:
    """A rich Table with these column headers (more with ``add_column``)."""
    from rich.table import Table  # the boundary in the module's docstring

    return Table(*columns, **options)


def show_event(event: dict[str, Any]) -> None:
    """An ``_event`` for the person: its content in dim yellow on stderr."""
    # A tool's words go to a terminal: none of its escape sequences may go with them.
    content = strip_controls(str(event.get("content") or event.get("kind") or ""))
    content = clip(content, MAX_EVENT_CONTENT)
    err_console().print(f"[dim yellow]{escape(content)}[/dim yellow]")


def cell(text: object) -> str:
    """Outside text (a tool's words, a file name, a stored event) for rich markup: no control
    characters, no markup."""
    return escape(strip_controls(str(text)))


def escape(text: str) -> str:
    """``text`` as it is in rich markup: its square brackets no markup."""
    from rich.markup import escape  # the boundary in the module's docstring

    return escape(text)


def fail(message: str, code: int = 1) -> int:
    """One readable line on stderr; returns the exit code to use.

    Messages quote outside text (file names, a tool's stderr), so control characters go, and
    so does every key this process knows (:mod:`webtap.redact`).
    """
    sys.stderr.write(f"webtap: {strip_controls(redact(message))}\n")
    return code


def stopped(exc: KeyboardInterrupt) -> int:
    """Ctrl-C, or SIGTERM/SIGHUP (:class:`webtap.signals.Terminated`): one line on stderr;
    returns the exit status, 128 + the signal's number (130 for Ctrl-C)."""
    sys.stderr.write(f"webtap: {'stopped by ' + str(exc) if str(exc) else 'interrupted'}\n")
    return int(getattr(exc, "exit_code", 130))


def print_json(value: Any) -> None:
    sys.stdout.write(escape_c1(json.dumps(value, ensure_ascii=False, indent=2)) + "\n")


def read_text(path: str) -> str:
    """The UTF-8 text of the file a person named (``-`` for stdin).

    Raises ``ValueError`` with a message that names the file and what is wrong with it.
    """
    try:
        if path == "-":
            return sys.stdin.read()
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except UnicodeDecodeError as exc:
        raise ValueError(f"cannot read {path}: not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror or exc}") from None


def exit_abandoned(exc: KeyboardInterrupt) -> None:
    """End the process now, with the stop's line and status, without the interpreter's
    teardown: work stopped and abandoned on a thread (a DuckDB statement, a batch's engine)
    would make that teardown wait on it, or abort under it."""
    code = stopped(exc)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(code)
