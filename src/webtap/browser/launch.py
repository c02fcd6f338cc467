"""Starting Chromium so that it can reach nothing but our proxy, and never outlives us.

The flags (:func:`chromium_args`) make the proxy the only way out: ``--proxy-server`` with
``--proxy-bypass-list=<-loopback>`` (by default Chromium bypasses any proxy for localhost and
127.0.0.1), ``--host-resolver-rules`` that resolve every name to nothing (Chromium never looks a
name up itself: through a proxy the proxy does), ``--disable-quic`` (QUIC is UDP, which a proxy
does not carry) and ``--force-webrtc-ip-handling-policy=disable_non_proxied_udp`` (WebRTC may
use only what goes through the proxy). The rest keeps Chromium's own traffic off (background
networking, component updates, sync, first-run pages) and starts it with a fresh profile in a
temporary folder, removed when the browser is.

No browser is left behind: the browser runs in a session of its own (its helpers -- zygotes,
renderers, the GPU and network processes -- stay in it), which :meth:`BrowserProcess.kill` ends
with SIGKILL before reaping the browser (so its session id cannot have been reused); every live
one is killed at exit (``atexit``) and by :func:`kill_all` (for a host's signal handler); and if
this process dies without either -- SIGKILL included -- Chromium reads end-of-file on its
DevTools pipe and exits by itself, taking its helpers with it.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import os
import shutil
import signal
import tempfile
import threading
import time

from webtap.browser.cdp import Connection

__all__ = ["BrowserProcess", "chromium_args", "kill_all", "session_members"]


def chromium_args(profile: str, proxy: str, *, as_root: bool | None = None) -> list[str]:
    """The command-line flags for a headless Chromium whose only way out is ``proxy``."""
    args = [
        "--headless",
        "--remote-debugging-pipe",
        f"--user-data-dir={profile}",
        # The guard: every connection through the proxy, nothing resolved or sent around it.
        f"--proxy-server={proxy}",
        "--proxy-bypass-list=<-loopback>",
        "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
        "--disable-quic",
        "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
        # Chromium's own connections: none (on a closed network they only fail, many at a time).
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-default-apps",
        "--disable-extensions",
        "--disable-breakpad",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-features=DnsOverHttps,MediaRouter,OptimizationHints,Translate,"
        "InterestFeedContentSuggestions,AutofillServerCommunication",
        # Headless, on a machine with no screen and maybe a small /dev/shm.
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--mute-audio",
        "--hide-scrollbars",
        "about:blank",
    ]
    root = os.geteuid() == 0 if as_root is None else as_root
    if root:
        args.insert(0, "--no-sandbox")  # Chromium refuses to start its sandbox as root
    return args


class BrowserProcess:
    """A running Chromium, its DevTools pipe and its temporary profile."""

    def __init__(self, executable: str, proxy: str) -> None:
        self.profile = tempfile.mkdtemp(prefix="webtap-browser-")
        argv = [executable, *chromium_args(self.profile, proxy)]
        commands_in, commands_out = os.pipe()  # Chromium reads its fd 3, we write
        answers_in, answers_out = os.pipe()  # Chromium writes its fd 4, we read
        # Above fd 4, so that the dup2s below never land on themselves (which would keep
        # close-on-exec set).
        fds = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in (commands_in, answers_out)]
        for fd in (commands_in, answers_out):
            os.close(fd)
        null = os.open(os.devnull, os.O_RDWR | os.O_CLOEXEC)
        try:
            # posix_spawn, not subprocess: its file actions put the pipe on fds 3 and 4 with no
            # preexec_fn (unsafe in a threaded process); setsid gives the browser its own group.
            self.pid = os.posix_spawn(
                executable,
                argv,
                dict(os.environ),
                file_actions=[
                    (os.POSIX_SPAWN_DUP2, null, 0),
                    (os.POSIX_SPAWN_DUP2, null, 1),
                    (os.POSIX_SPAWN_DUP2, null, 2),
                    (os.POSIX_SPAWN_DUP2, fds[0], 3),
                    (os.POSIX_SPAWN_DUP2, fds[1], 4),
                ],
                setsid=True,
            )
        except OSError:
            for fd in (commands_out, answers_in, *fds, null):
                os.close(fd)
            shutil.rmtree(self.profile, ignore_errors=True)
            raise
        for fd in (*fds, null):
            os.close(fd)
        self.returncode: int | None = None
        self._lock = threading.Lock()
        with _registry_lock:
            _running[self.pid] = self
        self.connection = Connection(answers_in, commands_out)

    def alive(self) -> bool:
        """Whether the browser still runs and its pipe is open."""
        if self.connection.closed.is_set():
            return False
        return self._poll() is None

    def _poll(self) -> int | None:
        with self._lock:
            if self.returncode is None:
                try:
                    pid, status = os.waitpid(self.pid, os.WNOHANG)
                except ChildProcessError:
                    self.returncode = -1
                else:
                    if pid:
                        self.returncode = os.waitstatus_to_exitcode(status)
            return self.returncode

    def kill(self) -> None:
        """End the browser and every process it started, and remove its profile."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)
        for _ in range(20):  # a helper that left the process group; a killed one cannot fork
            members = session_members(self.pid)
            if not members:
                break
            for pid in members:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.01)
        with self._lock:
            if self.returncode is None:
                with contextlib.suppress(ChildProcessError):
                    _, status = os.waitpid(self.pid, 0)
                    self.returncode = os.waitstatus_to_exitcode(status)
        self.connection.close()
        with _registry_lock:
            _running.pop(self.pid, None)
        shutil.rmtree(self.profile, ignore_errors=True)


def session_members(session: int) -> list[int]:
    """The live (not zombie) processes of ``session``, read from /proc (empty elsewhere)."""
    try:
        entries = [entry for entry in os.listdir("/proc") if entry.isdigit()]
    except OSError:
        return []
    members = []
    for entry in entries:
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                fields = handle.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile
        # After "pid (comm)": state, ppid, pgrp, session.
        if len(fields) > 3 and fields[0] != b"Z" and int(fields[3]) == session:
            members.append(int(entry))
    return members


_running: dict[int, BrowserProcess] = {}
_registry_lock = threading.Lock()


def kill_all() -> None:
    """Kill every browser this process started (for ``atexit`` and a host's signal handler)."""
    for process in list(_running.values()):  # no lock: a signal handler may run inside it
        with contextlib.suppress(Exception):
            process.kill()


atexit.register(kill_all)
