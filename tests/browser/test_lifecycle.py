"""The process model: a long-lived browser restarts when it dies, caps stop a render, several
tabs render at once, and no browser process outlives its owner -- however the owner ends."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from tests.browser.processes import wait_until_gone

from webtap.browser import Browser, ProxyLimits, RenderFailed
from webtap.browser.launch import chromium_args, session_members
from webtap.guard import Guard

GUARD = Guard()
JSON = {"Content-Type": "application/json"}


def test_a_browser_that_died_is_started_again(chromium, app):
    url = app.page("/", "<p>alive</p>")
    with Browser(chromium, tabs=1) as browser:
        assert "alive" in browser.render(url, deadline=15, guard=GUARD, origins={app.origin}).html
        first = browser.pid
        assert first is not None
        os.killpg(first, signal.SIGKILL)
        result = browser.render(url, deadline=15, guard=GUARD, origins={app.origin})
        assert "alive" in result.html
        assert browser.launches == 2 and browser.pid != first


def test_a_closed_browser_leaves_no_process_and_no_profile(chromium, app):
    url = app.page("/", "<p>x</p>")
    browser = Browser(chromium)
    browser.render(url, deadline=15, guard=GUARD, origins={app.origin})
    process = browser._process
    assert process is not None and Path(process.profile).is_dir()
    assert len(session_members(process.pid)) > 2  # the browser and its helpers
    browser.close()
    assert session_members(process.pid) == []
    assert not Path(process.profile).exists()
    with pytest.raises(RenderFailed, match="the browser was closed"):
        browser.render(url, deadline=5, guard=GUARD, origins={app.origin})


OWNER = """
import os, sys, time
from webtap.browser import Browser
from webtap.guard import Guard
port, how = int(sys.argv[1]), sys.argv[2]
browser = Browser(tabs=1)
browser.render(f"http://127.0.0.1:{port}/", deadline=20, guard=Guard(),
               origins={("127.0.0.1", port)})
print(browser.pid, flush=True)
sys.stdin.readline()  # the test has looked; now exit (atexit kills the browser), or a signal
if how != "exit":
    time.sleep(60)
"""


@pytest.mark.parametrize("how", ["exit", "SIGTERM", "SIGKILL"])
def test_no_browser_outlives_its_owner(chromium, app, how):
    """Normal exit: atexit kills it. SIGTERM and SIGKILL (no atexit at all): Chromium reads
    the end of its DevTools pipe and exits by itself."""
    app.page("/", "<p>x</p>")
    owner = subprocess.Popen(
        [sys.executable, "-c", OWNER, str(app.port), how],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env={**os.environ, "WEBTAP_BROWSER": chromium},
    )
    assert owner.stdout is not None and owner.stdin is not None
    pid = owner.stdout.readline().decode().strip()
    assert pid.isdigit(), "the owner did not render"
    assert len(session_members(int(pid))) > 2, "the browser runs while its owner does"
    if how == "exit":
        owner.stdin.write(b"\n")
        owner.stdin.flush()
    else:
        owner.send_signal(getattr(signal, how))
    owner.wait(timeout=30)
    assert wait_until_gone(int(pid)) == []


def test_the_request_cap_stops_the_render(chromium, app):
    images = "".join(f'<img src="/i{n}.png">' for n in range(12))
    url = app.page("/", f"<body><p>gallery</p>{images}</body>")
    with Browser(chromium, limits=ProxyLimits(max_requests=4)) as browser:
        result = browser.render(url, deadline=15, guard=GUARD, origins={app.origin})
    assert result.outcome == "capped"
    assert result.requests > 4
    assert any("cap of 4 requests" in refusal.reason for refusal in result.refused)
    assert len([p for p in app.paths() if p.startswith("/i")]) <= 3


def test_the_byte_cap_stops_the_render(chromium, app):
    url = app.page("/", '<body><p>big</p><script>fetch("/big.bin")</script></body>')
    app.route("/big.bin", "x" * 2_000_000, headers=JSON)
    with Browser(chromium, limits=ProxyLimits(max_bytes=200_000)) as browser:
        result = browser.render(url, deadline=15, guard=GUARD, origins={app.origin})
    assert result.outcome == "capped"
    assert "<p>big</p>" in result.html


def test_tabs_render_at_once_each_in_its_own_context(chromium, app):
    """Two renders in parallel; a cookie and storage set by one are not seen by the other."""
    script = """<body><p id=seen></p><script>
      seen.textContent = (document.cookie || "no cookie") + " / " + (localStorage.x || "none");
      document.cookie = "visited=yes"; localStorage.x = "stored";
    </script></body>"""
    url = app.page("/", script)
    results = []
    with Browser(chromium, tabs=2) as browser:
        browser.render(url, deadline=15, guard=GUARD, origins={app.origin})
        threads = [
            threading.Thread(
                target=lambda: results.append(
                    browser.render(url, deadline=20, guard=GUARD, origins={app.origin})
                )
            )
            for _ in range(2)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert browser.launches == 1
    assert [r.outcome for r in results] == ["settled", "settled"]
    assert all('<p id="seen">no cookie / none</p>' in r.html for r in results)


def test_chromium_is_told_to_use_nothing_but_the_proxy():
    args = chromium_args("/tmp/profile", "http://127.0.0.1:5555", as_root=False)
    assert "--proxy-server=http://127.0.0.1:5555" in args
    assert "--proxy-bypass-list=<-loopback>" in args
    assert "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1" in args
    assert "--force-webrtc-ip-handling-policy=disable_non_proxied_udp" in args
    assert "--disable-quic" in args and "--no-sandbox" not in args
    assert "--no-sandbox" in chromium_args("/p", "http://127.0.0.1:1", as_root=True)
