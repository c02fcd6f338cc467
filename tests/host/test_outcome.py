"""One ladder of process outcomes: a run and a ``--schema`` probe read a process alike."""

from __future__ import annotations

import signal
from typing import Any

import pytest

from webtap.errors import InvalidOutput, OutputTooLarge, ToolFailed, ToolTimeout
from webtap.host.outcome import RUN, SCHEMA, json_output
from webtap.host.process import Completed
from webtap.settings import size_text

MB = 1024 * 1024


def done(**fields: Any) -> Completed:
    base = dict(
        returncode=0, stdout=b"{}", stderr=b"", timed_out=False, overflowed=False, duration=0.1
    )
    return Completed(**{**base, **fields})


# First rung that holds wins: a process killed at its deadline also has a signal, no output...
LADDER = [
    (done(timed_out=True, overflowed=True, returncode=-9, stdout=b""), ToolTimeout),
    (done(overflowed=True, returncode=-9, stdout=b"{"), OutputTooLarge),
    (done(returncode=-signal.SIGSEGV, stdout=b""), ToolFailed),
    (done(returncode=3, stdout=b"{}", stderr=b"no config\n"), ToolFailed),
    (done(stdout=b"  \n", stderr=b"said nothing\n"), InvalidOutput),
    (done(stdout=b"Hello"), InvalidOutput),
]


@pytest.mark.parametrize(("completed", "rung"), LADDER)
def test_a_run_and_a_schema_probe_stop_at_the_same_rung(completed: Completed, rung: type) -> None:
    for wording in (RUN, SCHEMA):
        with pytest.raises(rung) as caught:
            json_output(completed, wording, seconds=1, limit=MB)
        assert caught.value.message.startswith(wording.subject + " ")


def test_each_caller_words_the_rungs_for_its_reader() -> None:
    def said(completed: Completed, wording: Any) -> str:
        with pytest.raises(Exception) as caught:
            json_output(completed, wording, seconds=0.5, limit=MB)
        return caught.value.message

    assert said(done(overflowed=True), RUN) == f"Tool output exceeded {MB} bytes"
    assert said(done(overflowed=True), SCHEMA) == "--schema printed more than 1 MB"
    silent = done(stdout=b"", stderr=b"bye\n")
    assert (said(silent, RUN), said(silent, SCHEMA)) == (
        "Tool returned no output: bye",
        "--schema printed nothing",
    )
    assert said(done(timed_out=True), SCHEMA) == "--schema timed out after 0.5 s"


def test_a_clean_exit_gives_the_json_value() -> None:
    assert json_output(done(stdout=b'{"a": [1]}'), RUN, seconds=1, limit=MB) == {"a": [1]}
    assert json_output(done(stdout=b"[1]"), SCHEMA, seconds=1, limit=MB) == [1]


def test_sizes_for_a_person() -> None:
    sizes = (size_text(MB), size_text(16 * MB), size_text(64 * 1024), size_text(1000))
    assert sizes == ("1 MB", "16 MB", "64 KB", "1000 bytes")
