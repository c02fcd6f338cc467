"""Issue 14 item 7: what webtap guarantees about a tool's processes (docs/host.md, "Processes").

When a call ends -- answer, timeout, SIGTERM or SIGHUP to webtap -- the tool and everything it
started are gone, including a child that called ``setsid`` and a double-forked daemon.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from webtap.host import discover, run_tool

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux guarantee")

WEBTAP = str(Path(sys.executable).parent / "webtap")

# The tool starts a setsid child (own session, own group) and a double-forked daemon (its
# parent exits at once, so it is orphaned), writes their pids, then does what ``$1`` says.
SPAWNER = """\
cat > /dev/null
setsid sleep 300 </dev/null >/dev/null 2>&1 &
echo $! >> "{pids}"
sh -c 'setsid sleep 301 </dev/null >/dev/null 2>&1 & echo $! >> "{pids}"' </dev/null >/dev/null
echo $$ >> "{pids}"
{then}
"""


def spawner(folders, pids: Path, then: str) -> None:
    folders.tool("user", "spawn-tool", body=SPAWNER.format(pids=pids, then=then))


def read_pids(pids: Path, count: int = 3, timeout: float = 10.0) -> list[int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = pids.read_text().split() if pids.exists() else []
        if len(found) >= count:
            return [int(pid) for pid in found]
        time.sleep(0.02)
    raise AssertionError(f"the tool did not start its children: {pids.read_text()!r}")


def all_gone(pids: list[int], pid_gone, wait_until) -> bool:
    return wait_until(lambda: all(pid_gone(pid) for pid in pids))


def test_a_timeout_kills_setsid_and_double_forked_children(
    folders, tmp_path, pid_gone, wait_until, past_its_start
) -> None:
    pids = tmp_path / "pids"
    spawner(folders, pids, "sleep 300")
    tool = discover().get("spawn")
    seconds, result = past_its_start(
        lambda s: run_tool(tool, {"text": "x"}, timeout=s),
        lambda: pids.exists() and len(pids.read_text().split()) >= 3,
        first=1.5,
    )
    assert (result.error_code, result.error) == ("TIMEOUT", f"Tool timed out after {seconds:g} s")
    assert all_gone(read_pids(pids), pid_gone, wait_until)


def test_children_left_behind_by_a_tool_that_answered_are_killed(
    folders, tmp_path, pid_gone, wait_until
) -> None:
    pids = tmp_path / "pids"
    spawner(folders, pids, "printf '{\"ok\": true}'")
    result = run_tool(discover().get("spawn"), {"text": "x"}, timeout=20)
    assert result.success, result.error
    assert all_gone(read_pids(pids), pid_gone, wait_until)


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_a_signal_to_tools_run_kills_the_tool_and_its_children(
    folders, tmp_path, pid_gone, wait_until, signum: int, code: int
) -> None:
    pids = tmp_path / "pids"
    spawner(folders, pids, "sleep 300")
    proc = subprocess.Popen(
        [WEBTAP, "tools", "run", "spawn", '{"text": "x"}'],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=folders.cwd,
    )
    started = read_pids(pids)
    proc.send_signal(signum)
    _, err = proc.communicate(timeout=20)
    assert proc.returncode == code, err
    assert err.decode() == f"webtap: stopped by {signal.Signals(signum).name}\n"
    assert all_gone(started, pid_gone, wait_until)


def test_sigterm_to_mcp_discovered_mid_call_kills_the_tool(
    folders, tmp_path, pid_gone, wait_until
) -> None:
    pids = tmp_path / "pids"
    spawner(folders, pids, "sleep 300")
    server = subprocess.Popen(
        [WEBTAP, "mcp", "--discovered"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=folders.cwd,
    )
    assert server.stdin is not None
    for message in (
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "test", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "spawn", "arguments": {"text": "x"}},
        },
    ):
        server.stdin.write(json.dumps(message).encode() + b"\n")
        server.stdin.flush()
    started = read_pids(pids, timeout=30)
    server.send_signal(signal.SIGTERM)
    server.communicate(timeout=20)
    assert server.returncode != 0
    assert all_gone(started, pid_gone, wait_until)


def test_concurrent_calls_leave_each_others_processes_alone(
    folders, tmp_path, pid_gone, wait_until
) -> None:
    """A call's clean-up kills its own marked processes only: a neighbour keeps running."""
    import threading

    slow = tmp_path / "slow"
    spawner(folders, slow, "sleep 300")
    box: dict[str, object] = {}
    thread = threading.Thread(
        target=lambda: box.update(r=run_tool(discover().get("spawn"), {"text": "x"}, timeout=8))
    )
    thread.start()
    neighbour = read_pids(slow)
    folders.tool("user", "quick-tool", body="cat >/dev/null; printf '{}'\n")
    assert run_tool(discover().get("quick"), {"text": "x"}).success
    assert not any(pid_gone(pid) for pid in neighbour)
    thread.join()
    assert all_gone(neighbour, pid_gone, wait_until)


def test_no_zombie_is_left_behind(folders, tmp_path) -> None:
    pids = tmp_path / "pids"
    spawner(folders, pids, "printf '{}'")
    run_tool(discover().get("spawn"), {"text": "x"})
    me = str(os.getpid())
    zombies = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rfind(")") + 2 :].split()
            if fields[0] == "Z" and fields[1] == me and int(entry) in read_pids(pids):
                zombies.append(entry)
    assert zombies == []
