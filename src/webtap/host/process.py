"""One bounded child process: stdin in, stdout and stderr out, a deadline and an output cap.

Discovery (``--schema``) and running a tool both go through :func:`run_process`. The child gets
its own session, so that on timeout or overflow the whole process group is killed, children
included; a tool that forks ``sleep 30`` does not outlive its deadline.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import time
from dataclasses import dataclass
from typing import IO

from webtap.text import strip_controls

__all__ = ["Completed", "run_process", "signal_name"]

_CHUNK = 65536
STDERR_TAIL = 16 * 1024  # only the end of stderr is kept: its last line is what people need


@dataclass(frozen=True)
class Completed:
    """What a child did. ``returncode`` is negative when a signal ended it."""

    returncode: int | None
    stdout: bytes
    stderr: bytes
    timed_out: bool
    overflowed: bool
    duration: float

    @property
    def last_stderr_line(self) -> str:
        """The last line of stderr, as messages quote it: for a model and for a terminal, so
        without control characters (a tool may print escape sequences there)."""
        lines = strip_controls(self.stderr.decode("utf-8", "replace")).strip().splitlines()
        line = lines[-1].strip() if lines else ""
        return line[:300]


def run_process(
    argv: list[str],
    stdin: bytes = b"",
    *,
    timeout: float,
    limit: int,
) -> Completed:
    """Run ``argv`` with ``stdin``; read stdout whole up to ``limit`` bytes, within ``timeout``.

    Raises ``OSError`` when the program cannot be started at all.
    """
    start = time.monotonic()
    deadline = start + timeout
    proc = subprocess.Popen(
        argv,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        out, err, timed_out, overflowed = _communicate(proc, stdin, deadline, limit)
    except BaseException:
        _kill_group(proc)  # interrupted: leave nothing running behind
        raise
    finally:
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            with contextlib.suppress(OSError):
                stream.close()  # type: ignore[union-attr]
    return Completed(
        returncode=proc.returncode,
        stdout=bytes(out[: limit + 1]),
        stderr=bytes(err[-STDERR_TAIL:]),
        timed_out=timed_out,
        overflowed=overflowed,
        duration=time.monotonic() - start,
    )


def _communicate(
    proc: subprocess.Popen[bytes], stdin: bytes, deadline: float, limit: int
) -> tuple[bytearray, bytearray, bool, bool]:
    out = bytearray()
    err = bytearray()
    timed_out = overflowed = False
    assert proc.stdin and proc.stdout and proc.stderr
    with selectors.DefaultSelector() as selector:
        selector.register(proc.stdout, selectors.EVENT_READ)
        selector.register(proc.stderr, selectors.EVENT_READ)
        pending = memoryview(stdin)
        if pending:
            os.set_blocking(proc.stdin.fileno(), False)
            selector.register(proc.stdin, selectors.EVENT_WRITE)
        else:
            proc.stdin.close()
        while selector.get_map() and not overflowed:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                timed_out = True
                break
            for key, _ in selector.select(remaining):
                stream = key.fileobj
                if stream is proc.stdin:
                    pending = _feed(selector, proc.stdin, pending)
                    continue
                chunk = os.read(key.fd, _CHUNK)
                if not chunk:
                    selector.unregister(stream)
                elif stream is proc.stdout:
                    out += chunk
                    if len(out) > limit:
                        overflowed = True
                        break
                else:
                    err += chunk
                    if len(err) > 2 * STDERR_TAIL:
                        del err[:-STDERR_TAIL]
    if not (timed_out or overflowed):
        try:
            proc.wait(timeout=max(deadline - time.monotonic(), 0.001))
        except subprocess.TimeoutExpired:
            timed_out = True  # closed its pipes but did not exit
    if timed_out or overflowed:
        _kill_group(proc)
    return out, err, timed_out, overflowed


def _feed(selector: selectors.BaseSelector, stdin: IO[bytes], pending: memoryview) -> memoryview:
    try:
        written = os.write(stdin.fileno(), pending[:_CHUNK])
    except BlockingIOError:
        return pending
    except (BrokenPipeError, ConnectionResetError):
        written = len(pending)  # the child stopped reading: its answer will tell
    pending = pending[written:]
    if not pending:
        selector.unregister(stdin)
        stdin.close()
    return pending


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def signal_name(number: int) -> str:
    """``11`` -> ``SIGSEGV``."""
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"
