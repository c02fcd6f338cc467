"""One spelling per page, the key two spellings share, a URL's pattern, and the scope."""

from __future__ import annotations

import pytest

from webtap.crawl import Scope
from webtap.crawl.urls import normalise, page_key, pattern, skipped


@pytest.mark.parametrize(
    ("written", "normal"),
    [
        ("HTTP://Example.COM:80/a", "http://example.com/a"),
        ("https://example.com:443", "https://example.com/"),
        ("https://example.com:8443/a", "https://example.com:8443/a"),
        ("https://example.com/a#section", "https://example.com/a"),
        ("https://example.com/a/./b/../c", "https://example.com/a/c"),
        ("https://example.com/a?b=2&a=1", "https://example.com/a?a=1&b=2"),
        ("https://example.com/a?utm_source=x&utm_medium=y&id=3", "https://example.com/a?id=3"),
        ("https://example.com/a?gclid=1&fbclid=2&sid=3&PHPSESSID=4", "https://example.com/a"),
        ("https://example.com/a;jsessionid=ABC?x=1", "https://example.com/a?x=1"),
        ("https://example.com/%7euser/%2f", "https://example.com/~user/%2F"),
        ("https://example.com/a b", "https://example.com/a%20b"),
        ("https://example.com/a?t=1&t=0", "https://example.com/a?t=1&t=0"),
    ],
)
def test_a_url_has_one_spelling(written: str, normal: str) -> None:
    assert normalise(written) == normal


@pytest.mark.parametrize(
    "url", ["mailto:a@example.com", "javascript:void(0)", "ftp://x/", "http://"]
)
def test_what_is_not_a_web_page_is_none(url: str) -> None:
    assert normalise(url, "https://example.com/") is None


def test_a_link_is_made_absolute_against_its_page() -> None:
    assert normalise("../b?x=1#top", "https://example.com/a/c") == "https://example.com/b?x=1"


def test_www_and_a_trailing_slash_are_one_page() -> None:
    keys = {
        page_key(normalise(url) or "")
        for url in [
            "https://www.example.com/docs/",
            "https://example.com/docs",
            "https://EXAMPLE.com/docs#x",
        ]
    }
    assert len(keys) == 1
    assert page_key("https://example.com/docs?a=1") != page_key("https://example.com/docs")


def test_a_calendar_and_a_facet_have_few_patterns() -> None:
    assert pattern("https://x.org/calendar/2024/05") == pattern("https://x.org/calendar/1999/12")
    assert pattern("https://x.org/s?color=red&size=m") == pattern("https://x.org/s?size=l&color=b")
    assert pattern("https://x.org/docs/intro") != pattern("https://x.org/docs/setup")


def test_files_that_are_not_pages_are_skipped() -> None:
    assert skipped("https://x.org/logo.PNG") and skipped("https://x.org/a.tar.gz")
    assert not skipped("https://x.org/paper.pdf") and not skipped("https://x.org/v1.2/")


def test_the_scope_is_the_site_narrowed() -> None:
    scope = Scope.of("https://www.example.com/")
    assert scope.keeps("https://example.com/a") and scope.keeps("https://www.example.com/b")
    assert not scope.keeps("https://docs.example.com/a")
    assert Scope.of("https://example.com/", subdomains=True).keeps("https://docs.example.com/a")
    assert not Scope.of("https://example.com/", subdomains=True).keeps("https://notexample.com/")
    narrowed = Scope.of(
        "https://example.com/", prefix="docs", include=("/docs/*",), exclude=("*/old/*",)
    )
    assert narrowed.keeps("https://example.com/docs/new/a")
    assert not narrowed.keeps("https://example.com/docs/old/a")
    assert not narrowed.keeps("https://example.com/blog/a")
    assert Scope.of("https://e.com/", include=("https://e.com/a*",)).keeps("https://e.com/ab")
