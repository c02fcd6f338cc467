"""``webtap events``: the ``_event``s tools raised, as stored (a table; --json for machines)."""

from __future__ import annotations

import argparse
import sqlite3
from typing import Any

from webtap.cli._output import cell, console, fail, print_json, table
from webtap.errors import WebtapError
from webtap.host.event_store import EventStore, default_path
from webtap.settings import DB

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    path = default_path()
    events: list[dict[str, Any]] = []
    if path.exists():
        try:
            with EventStore(path) as store:
                events = store.list(args.session)
        except WebtapError as exc:
            return fail(exc.message)
        except sqlite3.Error as exc:
            where = f"the events store {path}"
            return fail(f"cannot read {where}: {exc}; set {DB.name} to another file")
    if args.json:
        print_json(events)
        return 0
    if not events:
        fail("no events stored" + (f" for session {args.session!r}" if args.session else ""))
        return 0
    # Every field was written by a tool: none of its escape sequences reach the terminal.
    rows = table("id", "created", "session", "kind", "content", box=None, pad_edge=False)
    for event in events:
        rows.add_row(
            str(event["id"]),
            cell(event["created_at"]),
            cell(event["session_id"] or ""),
            cell(event["kind"]),
            cell(_first_line(event["content"])),
        )
    console().print(rows)
    return 0


def _first_line(text: str) -> str:
    # The whole text is in --json; a table row shows its first line.
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[0] + (" …" if len(lines) > 1 else "") if lines else ""
