"""One policy for an event the store cannot take: the call goes on, stderr says so, once."""

from __future__ import annotations

from typing import Any

from webtap.host.event_store import EventStore
from webtap.host.events import keep_event

EVENT = {"kind": "config_required", "content": "Set the key", "data": {}}


def test_a_stored_event_is_kept(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("WEBTAP_DB", str(tmp_path / "events.db"))
    assert keep_event(EVENT, "s1") is True
    with EventStore() as store:
        assert [e["kind"] for e in store.list("s1")] == ["config_required"]
    assert capsys.readouterr().err == ""


def test_an_unusable_store_is_said_once_on_stderr_and_never_raises(
    tmp_path, monkeypatch, capsys
) -> None:
    monkeypatch.setenv("WEBTAP_DB", str(tmp_path))  # a folder: SQLite cannot open it
    assert keep_event(EVENT, "s1") is False
    assert keep_event(EVENT, "s2") is False  # the same reason: not said again
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"webtap: could not store the tool's event: Cannot use {tmp_path}")
    assert "WEBTAP_DB" in lines[0]


def test_a_bug_in_the_store_does_not_end_the_call(monkeypatch, capsys) -> None:
    import webtap.host.event_store

    def broken(*args: Any, **kwargs: Any) -> int:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(webtap.host.event_store, "record_event", broken)
    assert keep_event(EVENT) is False
    assert "could not store the tool's event: RuntimeError: disk on fire" in capsys.readouterr().err
