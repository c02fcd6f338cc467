"""``webtap map``: every page of the trap site from its sitemaps, without fetching one."""

from __future__ import annotations

import json

from tests.crawl.conftest import webtap
from tests.fakes.crawl_site import TrapSite


def test_map_finds_every_listed_page_without_fetching_one(site: TrapSite) -> None:
    done = webtap("map", site.url("/"))
    assert done.returncode == 0, done.stderr
    urls = done.stdout.splitlines()
    listed = {site.url(path) for path in site.canonical_pages} - {
        site.url(p)
        for p in ("/blog/", "/target", "/limited")  # linked, in no sitemap
    }
    assert set(urls) == listed  # the index, the gzipped one, the one robots.txt alone names
    assert len(urls) == len(set(urls))  # ?utm_source=sitemap is /docs/page-1 again
    assert not any("/private/" in url or "localhost" in url for url in urls)
    assert site.fetched() == {}  # robots.txt and sitemaps only


def test_map_json_says_where_each_url_came_from_and_limit_cuts(site: TrapSite) -> None:
    done = webtap("map", site.url("/"), "--json", "--limit", "5")
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(records) == 5
    assert records[0] == {"url": site.url("/"), "lastmod": None, "source": "start"}
    about = next(r for r in records if r["url"] == site.url("/about"))
    assert about == {"url": site.url("/about"), "lastmod": "2024-05-01", "source": "sitemap"}


def test_map_links_adds_the_start_page_s_links_only(site: TrapSite) -> None:
    done = webtap("map", site.url("/"), "--links", "--prefix", "/calendar")
    assert done.stdout.splitlines() == [site.url("/calendar/2024/1")]
    assert site.fetched() == {"/": 1}


def test_a_bad_url_is_one_clear_line() -> None:
    done = webtap("map", "ftp://example.com/")
    assert done.returncode == 1
    assert done.stderr.startswith("webtap: Invalid URL") and "Traceback" not in done.stderr
