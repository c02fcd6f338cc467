"""One policy for a tool's ``_event`` that the events store cannot take.

The event has reached the person already (on stderr, as an MCP log message, in an answer's
events): not keeping it must neither fail the call that raised it nor pass in silence. One line
on stderr says what went wrong and what to do, once per reason in a process, so that a SQL
query of ten thousand rows does not print ten thousand of them. Every front end (``webtap tools
run``, the ask loop, the MCP server) stores events through :func:`keep_event`.
"""

from __future__ import annotations

import sqlite3
import sys
import threading
from typing import Any

from webtap.errors import WebtapError
from webtap.host import event_store
from webtap.redact import redact
from webtap.text import strip_controls

__all__ = ["keep_event"]

_reported: set[str] = set()
_lock = threading.Lock()


def keep_event(event: dict[str, Any], session_id: str | None = None) -> bool:
    """Store ``event`` under ``session_id``; False, said once on stderr, when it cannot be."""
    try:
        event_store.record_event(event, session_id)
        return True
    except WebtapError as exc:  # the store names the file and the way out (WEBTAP_DB)
        reason = exc.message
    except (sqlite3.Error, OSError) as exc:
        reason = f"{exc} (set WEBTAP_DB to another file)"
    except Exception as exc:  # a bug in the store must not end the call that raised the event
        reason = f"{type(exc).__name__}: {exc} (set WEBTAP_DB to another file)"
    _report(reason)
    return False


def _report(reason: str) -> None:
    with _lock:
        if reason in _reported:
            return
        _reported.add(reason)
    line = strip_controls(redact(f"could not store the tool's event: {reason}"))
    try:
        sys.stderr.write(f"webtap: {line}\n")
        sys.stderr.flush()
    except (OSError, ValueError):  # no stderr left (closed, a broken pipe): nothing to tell
        pass
