"""Ports on this machine for the servers the tests start: a free one, and waiting until one
listens."""

from __future__ import annotations

import socket
import subprocess
import time


def free_port(host: str = "127.0.0.1") -> int:
    """A port on ``host`` that nothing listens on (bound, read, released)."""
    with socket.socket() as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


def wait_listening(
    port: int, process: subprocess.Popen[bytes] | None = None, timeout: float = 30.0
) -> None:
    """Return once 127.0.0.1:``port`` accepts a connection. A ``process`` that exits first
    fails the wait with what it wrote on stderr (when that is a pipe), and so does ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if process is not None and process.poll() is not None:
                said = process.stderr.read().decode() if process.stderr is not None else ""
                raise AssertionError(f"the server exited before it listened: {said}") from None
            if time.monotonic() > deadline:
                raise AssertionError(f"nothing listened on port {port} in {timeout:g} s") from None
            time.sleep(0.05)
