"""``webtap crawl URL URL OUT --engine ray``: two sites crawled on a Ray cluster started by the
real executable, each into its own journal, merged into OUT, each host's Crawl-delay kept by the
budget the cluster shares."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import pytest
from tests.crawl.conftest import jsonl, spaced, webtap
from tests.fakes.crawl_site import TrapSite

DELAY = 0.2  # each site's Crawl-delay, seconds
BOUNDED = ["--max-per-pattern", "12", "--exclude", "/calendar/*"]


def test_the_ray_engine_crawls_two_sites_each_page_once_within_each_delay(
    local: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("ray", reason="Ray is not installed: pip install 'webtap[ray]'")
    monkeypatch.setenv("HOME", str(tmp_path))  # Ray keeps its token there
    small = {"docs": 3, "posts": 1, "orphans": 1, "delay": DELAY, "retry_after": 0.5}
    with TrapSite.running(**small) as one, TrapSite.running(**small) as two:
        out = tmp_path / "sites.jsonl"
        urls = [one.url("/"), two.url("/")]
        done = webtap("crawl", *urls, str(out), "--engine", "ray", "--workers", "2", *BOUNDED)
        assert done.returncode == 0, done.stderr
        rows = jsonl(out)
        for site in (one, two):
            found = [
                urlsplit(row["final_url"]).path
                for row in rows
                if urlsplit(row["final_url"]).port == site.port
            ]
            assert sorted(found) == sorted(site.canonical_pages)  # each page once
            log = [r for r in site.log if r.path != "/robots.txt"]
            assert len(log) > 10 and spaced([r.at for r in log], DELAY)
        assert len(list((tmp_path / "sites.jsonl.sites").glob("*.parquet.crawl"))) == 2

        # A rerun goes on from each site's journal: nothing fetched again, the same rows.
        asked = one.fetched() + two.fetched()
        again = webtap("crawl", *urls, str(out), *BOUNDED)
        assert again.returncode == 0, again.stderr
        assert one.fetched() + two.fetched() == asked  # no page
        assert sorted(map(str, jsonl(out))) == sorted(map(str, rows))
