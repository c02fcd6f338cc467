"""``webtap sql`` as a person runs it: the real command against the fake API."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tests.fakes.anthropic import FakeAnthropic

from webtap.sql import DEFAULT_CONCURRENCY

BIN = Path(sys.executable).parent
# Start a command with SIGINT at its default, then become it (same pid).
AS_A_TERMINAL_WOULD = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "os.execv(sys.argv[1], sys.argv[1:])"
)
ASK = "SELECT x, stps_ask_ai('c' || x, 'q') AS answer FROM range(2) t(x) ORDER BY x"


def answer(context: str) -> str:
    return f"[claude-sonnet-5-5|1000] Context: {context}\n\nQuestion: q"


def test_csv(run_exe: Any, anthropic_api: FakeAnthropic) -> None:
    run = run_exe("webtap", "sql", "--csv", ASK)

    assert run.returncode == 0, run.stderr
    assert run.stdout.replace("\r\n", "\n") == (
        f'x,answer\n0,"{answer("c0")}"\n1,"{answer("c1")}"\n'
    )


def test_json_from_a_file(run_exe: Any, anthropic_api: FakeAnthropic, tmp_path: Path) -> None:
    script = tmp_path / "ask.sql"
    script.write_text(f"SELECT stps_set_model('claude-x');\n{ASK};\n")

    run = run_exe("webtap", "sql", "--json", "-f", str(script))

    assert run.returncode == 0, run.stderr
    first, second = run.stdout.split("\n]\n")[:2]
    assert '"Model set to claude-x"' in first
    assert '"[claude-x|1000] Context: c0' in second


def test_a_table_from_stdin(run_exe: Any, anthropic_api: FakeAnthropic) -> None:
    run = run_exe("webtap", "sql", stdin="SELECT stps_get_model() AS model;")

    assert run.returncode == 0, run.stderr
    assert "model" in run.stdout
    assert "claude-sonnet-5-5" in run.stdout


def test_options_reach_the_functions(
    run_exe: Any, anthropic_api: FakeAnthropic, tmp_path: Path
) -> None:
    cache = tmp_path / "cache.sqlite"
    args = ("--csv", "--model", "claude-y", "--concurrency", "2", "--cache", str(cache))

    first = run_exe("webtap", "sql", *args, ASK)
    second = run_exe("webtap", "sql", *args, ASK)

    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    assert "[claude-y|1000]" in first.stdout
    assert len(anthropic_api.requests) == 2  # the second run came from the cache


def test_a_sql_error_is_one_line_and_exit_1(run_exe: Any) -> None:
    run = run_exe("webtap", "sql", "SELECT nonsense")

    assert run.returncode == 1
    assert run.stderr.startswith("webtap: Binder Error")
    assert "Traceback" not in run.stderr


def test_ctrl_c_stops_a_long_query_at_once(anthropic_api: FakeAnthropic, held: Any) -> None:
    """Every model call is held by the fake API until the test ends, and the grace period
    after Ctrl-C outlasts the test: the command can only end if Ctrl-C stops the query
    without waiting for the calls in flight.

    Started with SIGINT at its default, as a terminal starts it: run in the background by a
    shell without job control (a CI script's ``pytest &``), pytest and so ``webtap sql``
    inherit SIGINT ignored, and Python keeps it ignored -- the hang this test once showed."""
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            AS_A_TERMINAL_WOULD,
            str(BIN / "webtap"),
            "sql",
            "SELECT count(stps_ask_ai('c' || x, 'q')) FROM range(200) t(x)",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "WEBTAP_SQL_CANCEL_WAIT": "3600"},
    )
    try:
        assert held.arrived.wait(60), "no row reached the API"
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)  # a guard against a hang, not a speed goal
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()

    assert process.returncode == 130
    assert out == b""
    assert b"interrupted" in err
    assert b"Traceback" not in err
    assert not held.release.is_set()  # it stopped while every call was still in flight
    assert len(anthropic_api.requests) <= DEFAULT_CONCURRENCY  # no row started after Ctrl-C


class Terminal:
    """``webtap sql`` in a pseudo-terminal: stdin, stdout and stderr are all a terminal."""

    def __init__(self, *args: str) -> None:
        import pty

        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child
            try:
                os.execve(str(BIN / "webtap"), ["webtap", "sql", *args], dict(os.environ))
            finally:
                os._exit(127)  # never run the rest of pytest in the child
        self.seen = b""

    def read_until(self, marker: bytes, timeout: float = 30) -> bool:
        """Read until ``marker`` shows (a guard ends the wait should it never come)."""
        import select

        deadline = time.monotonic() + timeout
        while marker not in self.seen and time.monotonic() < deadline:
            ready, _, _ = select.select([self.fd], [], [], 0.1)
            if ready:
                try:
                    self.seen += os.read(self.fd, 65536)
                except OSError:
                    break
        return marker in self.seen

    def write(self, data: bytes) -> None:
        os.write(self.fd, data)

    def wait(self, timeout: float = 60) -> int:
        """The exit code, once everything the command wrote is read.

        A pty's end of file is an OSError, and one can come while the command still runs (or
        before the last bytes are read): so read until the command has exited, then drain.
        """
        deadline = time.monotonic() + timeout
        while True:
            self.read_until(b"\0never", timeout=0.2)
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:  # a guard, should the command never end
                os.kill(self.pid, signal.SIGKILL)
                _, status = os.waitpid(self.pid, 0)
                break
            time.sleep(0.05)
        self.drain()  # what it wrote just before it exited
        os.close(self.fd)
        return os.waitstatus_to_exitcode(status)

    def drain(self, quiet: float = 0.5) -> None:
        """Read what is left until nothing has come for ``quiet`` seconds. Linux hands a
        slave's last writes to the master through a deferred work item, so a read just after
        the child exits can report the end (EIO) before they arrive: an EIO is not the end."""
        import select

        last = time.monotonic()
        while time.monotonic() - last < quiet:
            ready, _, _ = select.select([self.fd], [], [], 0.05)
            if not ready:
                continue
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                time.sleep(0.05)
                continue
            if chunk:
                self.seen += chunk
                last = time.monotonic()

    @property
    def text(self) -> str:
        return self.seen.decode(errors="replace")


def test_the_interactive_prompt(anthropic_api: FakeAnthropic) -> None:
    terminal = Terminal("--no-progress")
    terminal.read_until(b"webtap> ")
    terminal.write(b"SELECT stps_ask_ai('c0',\n")
    terminal.read_until(b"...> ")
    terminal.write(b"'q') AS answer;\n")
    terminal.read_until(b"Question: q")
    terminal.write(b"SELECT nonsense;\n")
    terminal.read_until(b"Binder Error")
    terminal.write(b".quit\n")

    assert terminal.wait() == 0
    assert "Context: c0" in terminal.text  # the answer, in a table
    assert "Binder Error" in terminal.text  # an error does not end the session
    assert len(anthropic_api.requests) == 1


def test_progress_shows_on_a_terminal(anthropic_api: FakeAnthropic, held: Any) -> None:
    terminal = Terminal("--csv", "SELECT count(stps_ask_ai('c' || x, 'q')) AS n FROM range(5) t(x)")

    shown = terminal.read_until(b"0/5")  # rows done / total, while every call is held
    held.release.set()
    code = terminal.wait()

    assert shown, terminal.text
    assert code == 0
    assert "stps_ask_ai" in terminal.text and "rows" in terminal.text
    assert terminal.text.replace("\r", "").endswith("n\n5\n")


def test_no_progress_hides_it(anthropic_api: FakeAnthropic) -> None:
    terminal = Terminal(
        "--csv", "--no-progress", "SELECT count(stps_ask_ai('c' || x, 'q')) AS n FROM range(5) t(x)"
    )

    assert terminal.wait() == 0
    assert terminal.text.replace("\r", "") == "n\n5\n"


def test_an_unusable_cache_is_one_line_and_exit_2(run_exe: Any, tmp_path: Path) -> None:
    run = run_exe("webtap", "sql", "--cache", str(tmp_path), "SELECT 1")

    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr == (
        f"webtap: Cannot use {tmp_path} as the answer cache: SQLite cannot open or create it "
        "there. Give --cache or stps_set_cache() the path of a file webtap may create and write.\n"
    )


def test_concurrency_0_is_refused_not_replaced_by_the_default(run_exe: Any) -> None:
    run = run_exe("webtap", "sql", "--concurrency", "0", "SELECT 1")

    assert run.returncode == 2
    assert run.stderr == "webtap: concurrency must be between 1 and 64 (got 0)\n"


def test_a_key_typed_in_sql_is_never_printed_back(run_exe: Any) -> None:
    key = "sk-ant-typed-in-sql-0123"
    header = run_exe("webtap", "sql", "--csv", f"SELECT stps_set_api_key('{key}')")
    failed = run_exe("webtap", "sql", f"SELECT stps_set_brave_api_key('{key}') FROM nowhere")
    unparsed = run_exe("webtap", "sql", f"SELECT stps_set_google_api_key('{key}'")

    assert header.returncode == 0, header.stderr
    assert header.stdout.splitlines() == [
        f"stps_set_api_key('{'*' * len(key)}')",
        "Anthropic API key set",
    ]
    assert (failed.returncode, unparsed.returncode) == (1, 1)
    assert failed.stderr.startswith("webtap: Catalog Error: Table with name nowhere")
    assert failed.stderr.endswith("(the statement is not shown: it sets a key)\n")
    assert "Parser Error" in unparsed.stderr
    for run in (header, failed, unparsed):
        assert key not in run.stdout + run.stderr
