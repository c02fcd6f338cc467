"""Issue 18 item 1: every front door stops when told, whatever is in flight.

``webtap mcp`` (stdio and ``--http``, webtap's own tools and discovered ones), ``webtap ask``,
``webtap sql`` and ``webtap tools run`` each run as a real process with a call in flight -- a
page on 127.0.0.1 that never answers, a model call the fake API holds, a discovered tool that
sleeps -- and get SIGTERM, SIGHUP or SIGINT. Each must exit (:data:`GUARD` is against a hang,
not a speed goal: bench/stop.py measures the time) with 128 + the signal's number, say so in
one line on stderr, and leave no process of its own behind.

The processes are started the way a terminal starts them, SIGINT not ignored: a command run
in the background by a shell without job control (``pytest &`` in a script, CI runners) has
SIGINT ignored, its children inherit that, and Python keeps it ignored -- rightly (the ``&``
asked for it), but a test of Ctrl-C must not depend on how pytest itself was started.
"""

from __future__ import annotations

import http.client
import json
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.fakes.ports import free_port, wait_listening
from tests.fakes.slow import SlowSite

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX signals")

WEBTAP = str(Path(sys.executable).parent / "webtap")
# Start a command with SIGINT at its default, then become it (same pid).
AS_A_TERMINAL_WOULD = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "os.execv(sys.argv[1], sys.argv[1:])"
)
# Seconds a stopped command may take before the test calls it a hang: under --cov beside a busy
# process, a front door's wind-down has taken over 10 s.
GUARD = 60
SIGNALS = [
    pytest.param(signal.SIGTERM, 143, "webtap: stopped by SIGTERM\n", id="SIGTERM"),
    pytest.param(signal.SIGHUP, 129, "webtap: stopped by SIGHUP\n", id="SIGHUP"),
    pytest.param(signal.SIGINT, 130, "webtap: interrupted\n", id="SIGINT"),
]
STREAMABLE = "application/json, text/event-stream"
HELLO = {
    "protocolVersion": "2025-06-18",
    "capabilities": {},
    "clientInfo": {"name": "test", "version": "1"},
}
# A discovered tool that notes its pid and the pid of a child in a session of its own, then
# sleeps: "no process left behind" means neither survives the front door.
SLEEPER = """\
cat > /dev/null
setsid sleep 300 </dev/null >/dev/null 2>&1 &
echo $! >> "{pids}"
echo $$ >> "{pids}"
sleep 300
"""


def start(*args: str, **options: Any) -> subprocess.Popen[bytes]:
    """``webtap ARGS`` with pipes for stdin, stdout and stderr, as a terminal would start it."""
    return subprocess.Popen(
        [sys.executable, "-c", AS_A_TERMINAL_WOULD, WEBTAP, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        **options,
    )


def stop(process: subprocess.Popen[bytes], signum: int) -> tuple[int, str]:
    """Send ``signum`` and wait for the exit, stdin left open (an MCP client that sends
    SIGTERM has not hung up); (exit status, stderr)."""
    process.send_signal(signum)
    try:
        process.wait(timeout=GUARD)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        name = signal.Signals(signum).name
        raise AssertionError(f"still running {GUARD} s after {name}") from None
    assert process.stderr is not None
    return process.returncode, process.stderr.read().decode()


@pytest.fixture
def slow_site(monkeypatch: pytest.MonkeyPatch) -> Iterator[SlowSite]:
    monkeypatch.setenv("WEBTAP_ALLOW_PRIVATE_NETWORKS", "1")
    site = SlowSite(hold=60)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    yield site
    site.released.set()
    site.shutdown()
    site.server_close()


@pytest.fixture
def sleeper(folders: Any, tmp_path: Path) -> Path:
    """A discovered tool ``sleeper`` (see SLEEPER); returns the file its pids go to."""
    pids = tmp_path / "pids"
    folders.tool("project", "sleeper-tool", body=SLEEPER.format(pids=pids))
    return pids


def pids_of(path: Path) -> list[int]:
    """The two pids the sleeper wrote, once it has (a guard ends the wait)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        found = path.read_text().split() if path.exists() else []
        if len(found) >= 2:
            return [int(pid) for pid in found]
        time.sleep(0.02)
    raise AssertionError("the tool never started")


def assert_stopped(
    status: int, stderr: str, code: int, line: str, *survivors: int, pid_gone: Any = None
) -> None:
    assert status == code, stderr
    assert stderr.endswith(line), stderr
    assert "Traceback" not in stderr, stderr
    assert not [pid for pid in survivors if not pid_gone(pid)], "a tool's process outlived it"


# --- webtap mcp over stdio --------------------------------------------------------------


def send(process: subprocess.Popen[bytes], *messages: dict[str, Any]) -> None:
    assert process.stdin is not None
    for message in messages:
        process.stdin.write(json.dumps(message).encode() + b"\n")
    process.stdin.flush()


def open_stdio_session(process: subprocess.Popen[bytes]) -> None:
    assert process.stdout is not None
    send(process, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": HELLO})
    assert json.loads(process.stdout.readline())["id"] == 1
    send(process, {"jsonrpc": "2.0", "method": "notifications/initialized"})


def call(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    params = {"name": name, "arguments": arguments}
    return {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": params}


@pytest.mark.parametrize(("signum", "code", "line"), SIGNALS)
def test_mcp_stdio_stops_with_a_fetch_in_flight(
    slow_site: SlowSite, signum: int, code: int, line: str
) -> None:
    server = start("mcp")
    open_stdio_session(server)
    send(server, call("web_fetch", {"url": slow_site.url}))
    assert slow_site.asked.wait(30), "the fetch never reached the page"

    status, stderr = stop(server, signum)

    assert_stopped(status, stderr, code, line)


@pytest.mark.parametrize(("signum", "code", "line"), SIGNALS)
def test_mcp_stdio_stops_with_a_discovered_tool_running(
    folders: Any, sleeper: Path, pid_gone: Any, signum: int, code: int, line: str
) -> None:
    server = start("mcp", "--discovered", "--only", "sleeper", cwd=folders.cwd)
    open_stdio_session(server)
    send(server, call("sleeper", {"text": "zzz"}))
    running = pids_of(sleeper)

    status, stderr = stop(server, signum)

    assert_stopped(status, stderr, code, line, *running, pid_gone=pid_gone)


def test_mcp_stdio_ends_when_the_client_hangs_up_mid_call(slow_site: SlowSite) -> None:
    server = start("mcp")
    open_stdio_session(server)
    send(server, call("web_fetch", {"url": slow_site.url}))
    assert slow_site.asked.wait(30)
    assert server.stdin is not None
    server.stdin.close()  # the client is gone: the call in flight is abandoned

    server.wait(timeout=GUARD)

    assert server.returncode == 0


# --- webtap mcp --http --------------------------------------------------------------------


class HttpClient:
    """Just enough of a streamable HTTP client: a session, and one call left in flight."""

    def __init__(self, port: int) -> None:
        self.port = port
        wait_listening(port)
        hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": HELLO}
        status, headers, _ = self.post(hello)
        assert status == 200
        self.session = headers["mcp-session-id"]
        self.post({"jsonrpc": "2.0", "method": "notifications/initialized"})
        self.answer: bytes | None = None

    def post(self, body: dict[str, Any]) -> tuple[int, dict[str, str], bytes]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        headers = {"Content-Type": "application/json", "Accept": STREAMABLE}
        if getattr(self, "session", None):
            headers["mcp-session-id"] = self.session
        connection.request("POST", "/mcp", json.dumps(body), headers)
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()

    def call_in_background(self, name: str, arguments: dict[str, Any]) -> threading.Thread:
        def run() -> None:
            try:
                self.answer = self.post(call(name, arguments))[2]
            except (OSError, http.client.HTTPException):
                self.answer = b""

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        return thread


@pytest.mark.parametrize(("signum", "code", "line"), SIGNALS)
def test_mcp_http_stops_with_a_fetch_in_flight(
    slow_site: SlowSite, signum: int, code: int, line: str
) -> None:
    port = free_port()
    server = start("mcp", "--http", f"127.0.0.1:{port}")
    client = HttpClient(port)
    in_flight = client.call_in_background("web_fetch", {"url": slow_site.url})
    assert slow_site.asked.wait(30), "the fetch never reached the page"

    status, stderr = stop(server, signum)
    in_flight.join(GUARD)

    assert_stopped(status, stderr, code, line)
    # The call in flight was answered, not cut off: an error result that says why.
    assert b"web_fetch was stopped: the webtap mcp server is shutting down." in client.answer


@pytest.mark.parametrize(("signum", "code", "line"), SIGNALS)
def test_mcp_http_stops_with_a_discovered_tool_running(
    folders: Any, sleeper: Path, pid_gone: Any, signum: int, code: int, line: str
) -> None:
    port = free_port()
    server = start("mcp", "--http", f"127.0.0.1:{port}", "--discovered", cwd=folders.cwd)
    client = HttpClient(port)
    client.call_in_background("sleeper", {"text": "zzz"})
    running = pids_of(sleeper)

    status, stderr = stop(server, signum)

    assert_stopped(status, stderr, code, line, *running, pid_gone=pid_gone)


# --- webtap ask, webtap sql, webtap tools run ---------------------------------------------


@pytest.mark.parametrize(("signum", "code", "line"), SIGNALS)
def test_ask_stops_with_a_fetch_in_flight(
    anthropic_api: Any, slow_site: SlowSite, signum: int, code: int, line: str
) -> None:
    from tests.fakes.anthropic import message, tool_use

    anthropic_api.queue(
        message(tool_use("web_fetch", {"url": slow_site.url}), stop_reason="tool_use")
    )
    asking = start("ask", "What does the slow page say?")
    assert slow_site.asked.wait(30), "the fetch never reached the page"

    status, stderr = stop(asking, signum)

    assert_stopped(status, stderr, code, line)


@pytest.mark.parametrize(("signum", "code", "line"), SIGNALS)
def test_ask_stops_with_a_model_call_held(
    anthropic_api: Any, held_model: threading.Event, signum: int, code: int, line: str
) -> None:
    asking = start("ask", "What is DuckDB?")
    assert held_model.wait(30), "the question never reached the API"

    status, stderr = stop(asking, signum)

    assert_stopped(status, stderr, code, line)


@pytest.mark.parametrize(("signum", "code", "line"), SIGNALS)
def test_sql_stops_with_model_calls_held(
    anthropic_api: Any,
    held_model: threading.Event,
    monkeypatch: pytest.MonkeyPatch,
    signum: int,
    code: int,
    line: str,
) -> None:
    # The statement's grace period outlasts the test: only a real stop ends the command.
    monkeypatch.setenv("WEBTAP_SQL_CANCEL_WAIT", "3600")
    query = start("sql", "SELECT count(stps_ask_ai('c' || x, 'q')) FROM range(200) t(x)")
    assert held_model.wait(30), "no row reached the API"

    status, stderr = stop(query, signum)

    assert_stopped(status, stderr, code, line)


@pytest.mark.parametrize(("signum", "code", "line"), SIGNALS)
def test_tools_run_stops_with_the_tool_running(
    folders: Any, sleeper: Path, pid_gone: Any, signum: int, code: int, line: str
) -> None:
    running_tool = start("tools", "run", "sleeper", '{"text": "zzz"}', cwd=folders.cwd)
    running = pids_of(sleeper)

    status, stderr = stop(running_tool, signum)

    assert_stopped(status, stderr, code, line, *running, pid_gone=pid_gone)


@pytest.fixture
def held_model(anthropic_api: Any) -> Iterator[threading.Event]:
    """The fake API holds every call until the test ends; the event says one arrived."""
    arrived, release = threading.Event(), threading.Event()

    def hold(body: dict[str, Any]) -> Any:
        from tests.fakes.anthropic import echo

        arrived.set()
        release.wait(60)
        return echo(body)

    anthropic_api.responder = hold
    yield arrived
    release.set()


# --- The signals a front door takes -------------------------------------------------------


def test_a_signal_the_process_was_started_ignoring_stays_ignored() -> None:
    """``nohup`` ignores SIGHUP on purpose, a shell's ``&`` ignores SIGINT: webtap keeps it so."""
    from webtap.host.process import stop_tools_on_signals
    from webtap.signals import stop_signals

    previous = {signum: signal.getsignal(signum) for signum in (signal.SIGTERM, signal.SIGHUP)}
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        assert signal.SIGHUP not in stop_signals()
        stop_tools_on_signals()
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
        assert signal.getsignal(signal.SIGTERM) is not previous[signal.SIGTERM]  # taken
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    assert signal.SIGHUP in stop_signals()


def test_noted_signals_are_noted_not_raised_and_handlers_come_back() -> None:
    import os

    from webtap.signals import noted_signals

    before = signal.getsignal(signal.SIGTERM)
    with noted_signals() as received:
        os.kill(os.getpid(), signal.SIGTERM)  # would end the test run, were it not noted
        deadline = time.monotonic() + 10
        while not received and time.monotonic() < deadline:
            time.sleep(0.01)
    assert received == [signal.SIGTERM]
    assert signal.getsignal(signal.SIGTERM) is before
