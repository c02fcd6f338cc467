"""`webtap` as a command in a shell: no command given, and a reader that goes away."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

BIN = Path(sys.executable).parent


def test_no_command_prints_the_usage_to_stderr_and_exits_2() -> None:
    run = subprocess.run([str(BIN / "webtap")], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert run.stdout == ""
    assert "usage: webtap" in run.stderr and "fetch" in run.stderr


def test_a_reader_that_went_away_stops_webtap_quietly(httpserver) -> None:
    # `webtap fetch URL | head -0`: the pipe's reader is gone before webtap writes a byte.
    page = "<html><head><title>T</title></head><body>" + "<p>word</p>" * 5000 + "</body></html>"
    httpserver.expect_request("/page").respond_with_data(page, content_type="text/html")
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        run = subprocess.run(
            [str(BIN / "webtap"), "fetch", httpserver.url_for("/page")],
            stdout=write_end,
            stderr=subprocess.PIPE,
            env={**os.environ, "WEBTAP_ALLOW_NETWORKS": "127.0.0.1/32"},
            timeout=60,
        )
    finally:
        os.close(write_end)
    assert run.returncode == 0
    assert run.stderr.decode() == ""  # no traceback, no "Exception ignored ... BrokenPipeError"
