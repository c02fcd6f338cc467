"""``webtap crawl`` on the trap site, through the real executable: each canonical page written
once, nothing disallowed or off the host asked for, the delay kept, every Retry-After waited
out, the calendar bounded, and a crawl killed half way carried on without fetching a page
twice."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import duckdb
import pytest
from tests.crawl.conftest import WEBTAP, jsonl, paths, spaced, webtap
from tests.fakes.crawl_site import TrapSite

LIMITS = ["--max-per-pattern", "12"]  # the docs are 10 of one pattern; the calendar is bounded


def calendar(found: list[str]) -> list[str]:
    return [path for path in found if path.startswith("/calendar/")]


def test_a_crawl_writes_each_canonical_page_once(site: TrapSite, tmp_path: Path) -> None:
    out = tmp_path / "site.jsonl"
    done = webtap("crawl", site.url("/"), str(out), *LIMITS)
    assert done.returncode == 0, done.stderr
    rows = jsonl(out)
    found = paths(rows)
    assert len(found) == len(set(found))  # each page once
    assert set(found) - set(calendar(found)) == site.canonical_pages
    assert 0 < len(calendar(found)) <= 12  # the calendar stopped growing
    fetched = site.fetched()
    assert not [path for path in fetched if path.startswith("/private/")]  # robots.txt
    assert site.off_host() == []  # localhost is another host
    twice = {path: n for path, n in fetched.items() if n > 1}
    assert twice == {"/limited": 2}  # its 429, then its page
    assert fetched["/target"] == 1  # two redirects to it, one visit
    moved = next(row for row in rows if row["final_url"].endswith("/target"))
    # The row is the redirect that reached it first: the two are fetched at once.
    assert moved["url"] in (site.url("/moved"), site.url("/moved-too"))
    assert moved["status"] == 200
    post = next(row for row in rows if row["final_url"].endswith("/blog/post-2"))
    assert post["title"] == "Post 2" and "Blog post number 2" in post["content"]
    assert set(post) == {
        "url", "final_url", "depth", "status", "title", "content", "published", "modified",
        "author", "site_name", "language", "description", "image", "error_code", "error",
        "fetched_at",
    }  # fmt: skip
    assert "pages in" in done.stderr and "robots.txt" in done.stderr


def test_the_crawl_keeps_the_delay_and_waits_out_retry_after(local: None, tmp_path: Path) -> None:
    """Crawl-delay 0.3 s: no two requests closer (robots.txt's own read comes first); the
    429's Retry-After of 1 s: nothing to the host until it is over."""
    with TrapSite.running(docs=3, posts=1, orphans=1, delay=0.3, retry_after=1.0) as site:
        done = webtap(
            "crawl", site.url("/"), str(tmp_path / "out.jsonl"), "--prefix", "/", "--max-depth",
            "1", "--exclude", "/calendar/*", "--exclude", "/amp/*",
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        log = [r for r in site.log if r.path != "/robots.txt"]
        assert len(log) > 8 and spaced([r.at for r in log], 0.3)
        refused = next(n for n, r in enumerate(log) if r.path == "/limited")
        assert log[refused + 1].at - log[refused].at >= 1.0
        assert [r.path for r in log].count("/limited") == 2


def test_limits_bound_the_crawl(site: TrapSite, tmp_path: Path) -> None:
    out = tmp_path / "site.jsonl"
    done = webtap("crawl", site.url("/"), str(out), "--max-pages", "5", "--no-sitemaps")
    assert done.returncode == 0, done.stderr
    assert sum(site.fetched().values()) == 5
    assert "still queued" in done.stderr
    shallow = tmp_path / "shallow.jsonl"
    webtap("crawl", site.url("/"), str(shallow), "--max-depth", "0", "--no-sitemaps")
    assert paths(jsonl(shallow)) == ["/"]


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_parquet_and_csv_hold_the_same_rows(site: TrapSite, tmp_path: Path, suffix: str) -> None:
    out = tmp_path / f"site{suffix}"
    done = webtap("crawl", site.url("/"), str(out), "--prefix", "/docs", "--no-sitemaps")
    assert done.returncode == 0, done.stderr
    rows = duckdb.connect().execute(f"SELECT final_url, depth, title FROM '{out}'").fetchall()
    # The start page is out of the prefix: read for its links, not written.
    assert sorted(title for _, _, title in rows) == sorted(f"Docs {n}" for n in range(1, 11))
    assert {str(depth) for url, depth, _ in rows if url.endswith("/docs/page-1")} == {"1"}


def test_another_crawl_into_the_same_file_is_refused(site: TrapSite, tmp_path: Path) -> None:
    out = tmp_path / "site.jsonl"
    webtap("crawl", site.url("/"), str(out), "--max-pages", "2")
    done = webtap("crawl", site.url("/docs/page-1"), str(out))
    assert done.returncode == 1 and "holds another crawl" in done.stderr
    stray = tmp_path / "stray.jsonl"
    stray.write_text("{}\n")
    done = webtap("crawl", site.url("/"), str(stray))
    assert done.returncode == 1 and "move it away" in done.stderr and "Traceback" not in done.stderr


# -- stops and kills ----------------------------------------------------------------------------


def written_before(out: Path) -> set[str]:
    """The pages the journal had committed (written, or visited without a row)."""
    db = sqlite3.connect(out.with_name(out.name + ".crawl") / "state.sqlite3")
    try:
        rows = db.execute("SELECT url, via FROM urls WHERE state != 'queued'").fetchall()
    finally:
        db.close()
    from urllib.parse import urlsplit

    return {urlsplit(url).path for url, _ in rows}


def started(out: Path, site: TrapSite, lines: int, timeout: float = 60) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if out.exists() and out.read_text().count("\n") >= lines:
            return
        time.sleep(0.05)
    pytest.fail(f"the crawl wrote fewer than {lines} rows in {timeout} s")


# Which calendar pages a pattern limit keeps depends on the order concurrent fetches end in.
BOUNDED = ["--max-per-pattern", "30", "--exclude", "/calendar/*"]


def test_a_crawl_killed_half_way_goes_on_without_fetching_a_page_twice(
    local: None, tmp_path: Path
) -> None:
    with TrapSite.running(docs=24, stall=0.05, retry_after=0.2) as site:
        whole = tmp_path / "whole.jsonl"
        assert webtap("crawl", site.url("/"), str(whole), *BOUNDED).returncode == 0
        expected = sorted(paths(jsonl(whole)))
        site.log.clear()

        out = tmp_path / "killed.jsonl"
        command = [WEBTAP, "crawl", site.url("/"), str(out), *BOUNDED]
        process = subprocess.Popen([*command, "--no-progress"], stderr=subprocess.PIPE)
        try:
            started(out, site, 12)
            process.send_signal(signal.SIGKILL)
            process.wait(timeout=10)
        finally:
            process.kill()
        before = written_before(out)
        first = site.fetched()
        assert 12 <= len(before) < len(expected)  # half way
        done = webtap(*command[1:])
        assert done.returncode == 0, done.stderr
        rows = jsonl(out)
        assert sorted(paths(rows)) == expected  # the same rows, each once
        again = site.fetched() - first
        twice = {path for path in again if path in first and path != "/limited"}
        assert twice & before == set()  # nothing committed was fetched again
        assert len(twice) <= 8  # at most the pages in flight at the kill


def test_ctrl_c_stops_at_once_and_keeps_the_finished_rows(local: None, tmp_path: Path) -> None:
    """SIGINT while pages stall for 30 s: exit 130 without waiting for them (the 10 s is a
    guard against a hang), the rows committed kept for the next run."""
    with TrapSite.running(docs=4, stall=0.0) as site:
        out = tmp_path / "site.jsonl"
        process = subprocess.Popen(
            [WEBTAP, "crawl", site.url("/"), str(out), "--no-progress", "--no-sitemaps"],
            stderr=subprocess.PIPE,
            env={**os.environ},
        )
        try:
            started(out, site, 1)
            site.stall = 30.0  # every page from now on hangs
            process.send_signal(signal.SIGINT)
            _, err = process.communicate(timeout=10)
        finally:
            process.kill()
        assert process.returncode == 130
        said = err.decode()
        assert "The pages written so far are kept" in said and "Traceback" not in said
        kept = written_before(out)
        assert "/" in kept
        site.stall = 0.0
        done = webtap("crawl", site.url("/"), str(out), "--no-sitemaps", *LIMITS)
        assert done.returncode == 0, done.stderr
        assert site.fetched()["/"] == 1
