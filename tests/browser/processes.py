"""Browsers seen from outside: how many a test's processes started (:class:`Launches`), whether
any of their processes is left (:func:`wait_until_gone`), and ``webtap mcp`` driven over raw
JSON-RPC (:class:`Mcp`), so that a test can signal it with a render in flight."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from webtap.browser.launch import session_members

__all__ = ["Launches", "Mcp", "wait_until_gone"]


class Launches:
    """A browser that notes each start: ``WEBTAP_BROWSER`` is a script that writes its process
    id (the browser's: it ``exec``s the real one) to a file, so a test counts the browsers any
    process started, and finds each one's processes (its session) afterwards."""

    def __init__(self, folder: Path, chromium: str) -> None:
        self.log = folder / "launches"
        self.script = folder / "counting-browser"
        self.script.write_text(f'#!/bin/sh\necho $$ >> "{self.log}"\nexec "{chromium}" "$@"\n')
        self.script.chmod(0o755)
        self.env = {"WEBTAP_BROWSER": str(self.script)}

    def pids(self) -> list[int]:
        return [int(line) for line in self.log.read_text().split()] if self.log.exists() else []

    def count(self) -> int:
        return len(self.pids())


def wait_until_gone(session: int, limit: float = 15.0) -> list[int]:
    """Poll for a browser's processes to be gone (a generous bound: an exit is not instant)."""
    end = time.monotonic() + limit
    left = session_members(session)
    while left and time.monotonic() < end:
        time.sleep(0.1)
        left = session_members(session)
    return left


class Mcp:
    """``webtap mcp`` on stdio, spoken to in raw JSON-RPC lines: initialized, then tool calls,
    each answered before the next (or sent without waiting, to be in flight)."""

    def __init__(self, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            [str(Path(sys.executable).parent / "webtap"), "mcp"],
            env={**os.environ, **env},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.ids = 0
        self.hello = self.ask(
            "initialize",
            {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "webtap-tests", "version": "1"},
            },
        )
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def start(self, method: str, params: dict[str, Any]) -> int:
        self.ids += 1
        self.send({"jsonrpc": "2.0", "id": self.ids, "method": method, "params": params})
        return self.ids

    def answer(self, request: int) -> dict[str, Any]:
        assert self.process.stdout is not None
        while True:
            line = self.process.stdout.readline()
            assert line, "webtap mcp ended without answering"
            message = json.loads(line)
            if message.get("id") == request:
                return message

    def ask(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        return self.answer(self.start(method, params))

    def fetch(self, **arguments: Any) -> dict[str, Any]:
        """web_fetch's structured result (its error result too)."""
        reply = self.ask("tools/call", {"name": "web_fetch", "arguments": arguments})
        return reply["result"]["structuredContent"]

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()
