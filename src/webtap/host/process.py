"""One bounded child process: stdin in, stdout and stderr out, a deadline and an output cap.

Discovery (``--schema``) and running a tool both go through :func:`run_process`.

What webtap guarantees (docs/host.md, "Processes"): when a call ends -- with an answer, on
timeout or output overflow, or because webtap was interrupted (Ctrl-C, SIGTERM, SIGHUP) -- the
tool and every process it started that still runs are killed with SIGKILL. A process group alone
does not hold a child that calls ``setsid``, so on Linux webtap also

* becomes a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``): a tool's orphaned
  descendants are re-parented to webtap instead of init, so they stay findable;
* marks each call's processes with an environment variable (``WEBTAP_TOOL_CALL``, inherited by
  every descendant) and at the end kills the tool's whole process tree (found through /proc)
  plus every orphan re-parented to webtap that carries the call's mark, round after round
  until none is left, and reaps them.

Not covered: a descendant that both leaves the tool's tree early (double fork) and clears its
environment; anything once webtap itself is killed with SIGKILL. Elsewhere than Linux, the
process group only.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import itertools
import os
import secrets
import selectors
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from types import FrameType
from typing import IO, TypeVar

from webtap.net.deadline import Deadline
from webtap.signals import Terminated, stop_signals
from webtap.text import strip_controls

T = TypeVar("T")

__all__ = [
    "CALL_MARK",
    "Completed",
    "kill_running",
    "run_process",
    "stop_tools_on_signals",
]

CALL_MARK = "WEBTAP_TOOL_CALL"  # the environment variable that marks one call's processes

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
    deadline = Deadline(timeout)
    _become_subreaper()
    mark = f"{os.getpid()}-{next(_calls)}-{secrets.token_hex(4)}"
    with _registry_lock:
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            env={**os.environ, CALL_MARK: mark},
        )
        _running[proc.pid] = (proc, mark)
    try:
        out, err, timed_out, overflowed = _communicate(proc, stdin, deadline, limit)
    finally:
        # Whatever ended the call (an answer, the deadline, Ctrl-C, SIGTERM): nothing it
        # started keeps running.
        _contain(proc, mark)
        with _registry_lock:
            _running.pop(proc.pid, None)
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
    proc: subprocess.Popen[bytes], stdin: bytes, deadline: Deadline, limit: int
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
            remaining = deadline.remaining()
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
            proc.wait(timeout=max(deadline.remaining(), 0.001))
        except subprocess.TimeoutExpired:
            timed_out = True  # closed its pipes but did not exit
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


# --- Containment: the tool's whole tree, setsid or not -------------------------------------

_running: dict[int, tuple[subprocess.Popen[bytes], str]] = {}  # pid -> (process, its mark)
_registry_lock = threading.Lock()
_calls = itertools.count(1)
_LINUX = sys.platform.startswith("linux")
_PR_SET_CHILD_SUBREAPER = 36
_subreaper_tried = False


def _become_subreaper() -> None:
    """Once per process: orphans of our tools come to us, not to init (Linux 3.4+)."""
    global _subreaper_tried
    if _subreaper_tried:
        return
    _subreaper_tried = True
    atexit.register(kill_running)  # daemon threads' calls too, when the process exits
    if not _LINUX:
        return
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def _contain(proc: subprocess.Popen[bytes], mark: str) -> None:
    """Kill ``proc`` (unless it ended) and every live process of its call; reap what is ours."""
    if proc.returncode is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
    if _LINUX:
        _kill_marked_tree(proc, mark)
    proc.wait()


def _kill_marked_tree(proc: subprocess.Popen[bytes], mark: str) -> None:
    me = os.getpid()
    needle = f"{CALL_MARK}={mark}".encode() + b"\0"
    for _ in range(100):  # each round kills a generation; a killed process cannot fork
        if proc.returncode is not None and not any(_carries(p, needle) for p in _children()):
            return  # the usual end: the tool answered and left nothing behind (no /proc scan)
        table = _process_table()
        roots = [pid for pid, (ppid, _) in table.items() if ppid == me and _carries(pid, needle)]
        if proc.returncode is None:
            roots.append(proc.pid)
        victims = _descendants(roots, table)
        alive = [pid for pid in victims if table[pid][1] != "Z"]
        for pid in alive:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        for pid in victims:
            if table[pid][0] == me and pid != proc.pid:
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(pid, 0)  # an orphan re-parented to us: ours to reap
        if not alive:
            return
        time.sleep(0.005)  # let the kills land; their children are re-parented to us


def _process_table() -> dict[int, tuple[int, str]]:
    """pid -> (parent pid, state letter), read from /proc."""
    table: dict[int, tuple[int, str]] = {}
    for entry in _proc_entries():
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:
            continue  # gone meanwhile
        fields = stat[stat.rfind(b")") + 2 :].split()  # after "pid (comm) "
        if len(fields) >= 2:
            table[int(entry)] = (int(fields[1]), fields[0].decode())
    return table


def _children() -> list[int]:
    """Our direct children (cheap: /proc/self/task/*/children), or every process when the
    kernel does not list children."""
    pids: list[int] = []
    try:
        for task in os.listdir("/proc/self/task"):
            with open(f"/proc/self/task/{task}/children", "rb") as handle:
                pids.extend(int(pid) for pid in handle.read().split())
    except OSError:
        return [int(entry) for entry in _proc_entries()]
    return pids


def _proc_entries() -> Iterator[str]:
    try:
        names = os.listdir("/proc")
    except OSError:
        return iter(())
    return (name for name in names if name.isdigit())


def _carries(pid: int, needle: bytes) -> bool:
    try:
        with open(f"/proc/{pid}/environ", "rb") as handle:
            return needle in b"\0" + handle.read()
    except OSError:
        return False


def _descendants(roots: list[int], table: dict[int, tuple[int, str]]) -> list[int]:
    children: dict[int, list[int]] = {}
    for pid, (ppid, _) in table.items():
        children.setdefault(ppid, []).append(pid)
    found: list[int] = []
    stack = [root for root in roots if root in table]
    seen = set(stack)
    while stack:
        pid = stack.pop()
        found.append(pid)
        for child in children.get(pid, ()):
            if child not in seen:
                seen.add(child)
                stack.append(child)
    return found


def kill_running() -> None:
    """Kill every call still running in this process, its whole tree included, and every
    browser a fetch started to render a page (:func:`webtap.browser.kill_all`)."""
    calls = list(_running.values())  # no lock: a signal handler may run while it is held
    for proc, mark in calls:
        with contextlib.suppress(Exception):
            _contain(proc, mark)
    browsers = sys.modules.get("webtap.browser.launch")  # loaded once a page was rendered
    if browsers is not None:
        browsers.kill_all()


def stop_tools_on_signals() -> None:
    """From the main thread: SIGTERM and SIGHUP kill every running tool (with its tree, also
    those run by other threads) and then raise :class:`Terminated`, so the command unwinds as
    after Ctrl-C. A signal the process was started ignoring stays ignored."""

    def handler(signum: int, frame: FrameType | None) -> None:
        kill_running()
        raise Terminated(signum)

    for signum in stop_signals():
        if signum != signal.SIGINT:
            with contextlib.suppress(ValueError):  # not the main thread: leave it as it is
                signal.signal(signum, handler)
