"""The converted-page cache, end to end: the real executable against a 127.0.0.1 site that
counts its requests. Each test has its own cache folder (the autouse ``isolated_env``)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from webtap.convert import convert

pytestmark = pytest.mark.usefixtures("allow_private")

HTML = {"Content-Type": "text/html; charset=utf-8"}


def long_page(lines: int) -> str:
    items = "".join(f"<li>Item number {n} of the list</li>" for n in range(1, lines + 1))
    return f"<html><head><title>Long</title></head><body><ol>{items}</ol></body></html>"


def article(text: str = "The body of the article.") -> str:
    return f"<html><head><title>Article</title></head><body><p>{text}</p></body></html>"


def cache_file(home: Path) -> Path:
    return home / ".cache" / "webtap" / "pages.sqlite3"


def versioned(etag: str, body: str, extra: dict[str, str] | None = None):
    """A page that answers a matching If-None-Match with 304."""

    def respond(seen: Any) -> dict[str, Any]:
        headers = {"ETag": etag, **(extra or {})}
        if seen.headers.get("if-none-match") == etag:
            return {"status": 304, "headers": headers}
        return {"body": body.encode(), "headers": {**HTML, **headers}}

    return respond


# --- paging ----------------------------------------------------------------------------------


def test_reading_a_long_page_in_ten_steps_is_one_request(site, fetch_tool):
    html = long_page(5000)
    url = site.page("/long", html)
    pieces = []
    for step in range(10):
        response = fetch_tool(url, offset=1 + 500 * step, limit=500)
        assert response["success"] is True, response
        assert response["total_lines"] >= 5000
        pieces.append(response["content"])
    assert site.paths() == ["/long"]
    whole = convert(html, base_url=url, main_content=True).markdown
    assert "".join(pieces) == "".join(whole.splitlines(keepends=True)[:5000])


def test_one_cache_serves_every_front_door(site, fetch_tool, run_exe):
    from webtap.tools import call

    url = site.page("/shared", long_page(50))
    fetched = run_exe("webtap", "fetch", url, "--limit", "5")
    assert fetched.returncode == 0, fetched.stderr
    assert fetch_tool(url, offset=6, limit=5)["success"] is True
    assert call("web_fetch", {"url": url, "offset": 11}).response()["success"] is True
    assert site.paths() == ["/shared"]


def test_without_the_cache_every_call_is_a_request(site, fetch_tool):
    url = site.page("/", article())
    for _ in range(3):
        assert fetch_tool(url, env={"WEBTAP_CACHE": "off"})["success"] is True
    assert site.paths() == ["/"] * 3
    assert not cache_file(Path.home()).exists()


def test_a_fragment_shares_the_entry_and_is_reported(site, fetch_tool):
    url = site.page("/doc", article())
    fetch_tool(url)
    response = fetch_tool(url + "#part-2")
    assert response["url"] == url + "#part-2"
    assert site.paths() == ["/doc"]


# --- freshness and revalidation --------------------------------------------------------------


def test_a_stale_entry_is_revalidated_and_a_304_serves_the_cached_page(site, fetch_tool):
    url = site.answer("/v", versioned('"v1"', article("First version.")))
    stale = {"WEBTAP_FETCH_CACHE_TTL": "0"}
    first = fetch_tool(url, env=stale)
    second = fetch_tool(url, env=stale)
    assert site.paths() == ["/v", "/v"]
    assert "if-none-match" not in site.requests[0].headers
    assert site.requests[1].headers["if-none-match"] == '"v1"'
    assert second["content"] == first["content"]
    assert "First version." in second["content"]
    assert second["title"] == "Article"


def test_a_changed_page_replaces_the_entry(site, fetch_tool):
    url = site.answer("/v", versioned('"v1"', article("First version.")))
    stale = {"WEBTAP_FETCH_CACHE_TTL": "0"}
    fetch_tool(url, env=stale)
    site.answer("/v", versioned('"v2"', article("Second version.")))
    assert "Second version." in fetch_tool(url, env=stale)["content"]
    assert "Second version." in fetch_tool(url)["content"]  # stored: fresh, no request
    assert site.paths() == ["/v", "/v"]
    assert site.requests[1].headers["if-none-match"] == '"v1"'


def test_last_modified_is_asked_with_if_modified_since(site, fetch_tool):
    stamp = "Wed, 21 Oct 2015 07:28:00 GMT"

    def respond(seen: Any) -> dict[str, Any]:
        if seen.headers.get("if-modified-since") == stamp:
            return {"status": 304}
        return {"body": article().encode(), "headers": {**HTML, "Last-Modified": stamp}}

    url = site.answer("/lm", respond)
    stale = {"WEBTAP_FETCH_CACHE_TTL": "0"}
    first = fetch_tool(url, env=stale)
    assert fetch_tool(url, env=stale)["content"] == first["content"]
    assert [seen.headers.get("if-modified-since") for seen in site.requests] == [None, stamp]


def test_a_304_refreshes_without_converting_again(site, fetch_call, monkeypatch):
    from webtap.fetch import media

    url = site.answer("/v", versioned('"v1"', article()))
    conversions = []
    real = media.convert_body
    monkeypatch.setattr(
        media, "convert_body", lambda *a, **k: conversions.append(1) or real(*a, **k)
    )
    stale = {"WEBTAP_FETCH_CACHE_TTL": "0"}
    first = fetch_call(url, env=stale)
    second = fetch_call(url, env=stale)
    assert second["content"] == first["content"]
    assert len(site.requests) == 2 and len(conversions) == 1


def test_within_the_ttl_nothing_is_asked(site, fetch_tool):
    url = site.answer("/v", versioned('"v1"', article()))
    for _ in range(3):
        fetch_tool(url)
    assert site.paths() == ["/v"]


@pytest.mark.parametrize(
    "headers",
    [
        {"Cache-Control": "max-age=60", "Age": "60"},  # used up its lifetime elsewhere
        {"Cache-Control": "max-age=0"},
        {"Expires": "Thu, 01 Jan 1970 00:00:00 GMT"},
        {"Expires": "0"},
        {"Cache-Control": "no-cache"},
        {"Pragma": "no-cache"},
    ],
    ids=["age", "max-age-0", "expired", "expires-0", "no-cache", "pragma"],
)
def test_the_server_can_shorten_freshness(site, fetch_tool, headers):
    url = site.answer("/v", versioned('"v1"', article(), headers))
    first = fetch_tool(url)
    second = fetch_tool(url)
    assert second["content"] == first["content"]
    assert site.paths() == ["/v", "/v"]
    assert site.requests[1].headers.get("if-none-match") == '"v1"'  # kept, and asked again


def test_the_server_cannot_lengthen_freshness_past_the_ttl(site, fetch_tool):
    url = site.answer("/v", versioned('"v1"', article(), {"Cache-Control": "max-age=86400"}))
    fetch_tool(url)
    fetch_tool(url)
    fetch_tool(url, env={"WEBTAP_FETCH_CACHE_TTL": "0"})
    assert site.paths() == ["/v", "/v"]


def test_private_pages_are_kept_in_this_private_cache(site, fetch_tool):
    url = site.route("/p", article(), headers={**HTML, "Cache-Control": "private, max-age=300"})
    fetch_tool(url)
    fetch_tool(url)
    assert site.paths() == ["/p"]


@pytest.mark.parametrize(
    "headers",
    [{"Cache-Control": "no-store"}, {"Cache-Control": "private, no-store"}, {"Vary": "*"}],
    ids=["no-store", "private-no-store", "vary-star"],
)
def test_no_store_is_never_kept(site, fetch_tool, isolated_env, headers):
    url = site.route("/ns", article("Secret balance."), headers={**HTML, "ETag": '"x"', **headers})
    fetch_tool(url)
    fetch_tool(url)
    assert site.paths() == ["/ns", "/ns"]
    assert "if-none-match" not in site.requests[1].headers
    assert b"Secret balance." not in _cache_bytes(isolated_env)


def test_a_page_that_turns_no_store_drops_its_old_copy(site, fetch_tool, isolated_env):
    url = site.route("/t", article("Old words."), headers=HTML)
    fetch_tool(url)
    site.route("/t", article("New words."), headers={**HTML, "Cache-Control": "no-store"})
    assert "New words." in fetch_tool(url, env={"WEBTAP_FETCH_CACHE_TTL": "0"})["content"]
    assert "New words." in fetch_tool(url)["content"]
    assert b"Old words." not in _cache_bytes(isolated_env)


def _cache_bytes(home: Path) -> bytes:
    folder = cache_file(home).parent
    return b"".join(path.read_bytes() for path in folder.glob("pages.sqlite3*"))


# --- what is never cached --------------------------------------------------------------------


@pytest.mark.parametrize("status", [404, 500, 503])
def test_failures_are_never_cached(site, fetch_tool, status):
    url = site.route("/f", "broken", status=status)
    assert fetch_tool(url)["error_code"] == "HTTP_ERROR"
    site.page("/f", article())
    assert fetch_tool(url)["success"] is True
    assert site.paths() == ["/f", "/f"]


def test_unconvertible_content_is_never_cached(site, fetch_tool):
    url = site.route(
        "/img", b"\x89PNG\r\n\x1a\n" + b"\0" * 64, headers={"Content-Type": "image/png"}
    )
    assert fetch_tool(url)["error_code"] == "PARSE_ERROR"
    assert fetch_tool(url)["error_code"] == "PARSE_ERROR"
    assert site.paths() == ["/img", "/img"]


def test_a_failed_revalidation_is_the_answer_not_the_stale_page(site, fetch_tool):
    url = site.page("/gone", article())
    fetch_tool(url)
    site.route("/gone", "gone", status=410)
    assert fetch_tool(url, env={"WEBTAP_FETCH_CACHE_TTL": "0"})["error_code"] == "HTTP_ERROR"


def test_a_url_with_a_password_is_never_cached(site, fetch_tool, isolated_env):
    url = site.page("/private", article()).replace("http://", "http://user:hunter2@")
    fetch_tool(url)
    fetch_tool(url)
    assert site.paths() == ["/private", "/private"]
    assert b"hunter2" not in _cache_bytes(isolated_env)


def test_a_smaller_size_cap_applies_to_cached_pages(site, fetch_tool):
    url = site.page("/big", article("x" * 5000))
    assert fetch_tool(url)["success"] is True
    response = fetch_tool(url, env={"WEBTAP_MAX_BYTES": "1000"})
    assert response["error_code"] == "PARSE_ERROR"
    assert response["error"].startswith("The response is larger than the")
    assert site.paths() == ["/big", "/big"]


# --- keys: mode, redirects, the guard --------------------------------------------------------


def test_the_mode_is_part_of_the_key(site, fetch_tool):
    url = site.page("/a", article())
    fetch_tool(url)
    fetch_tool(url, env={"WEBTAP_FETCH_MODE": "page"})
    fetch_tool(url, env={"WEBTAP_FETCH_MODE": "page"})
    fetch_tool(url)
    assert site.paths() == ["/a", "/a"]


def test_a_redirected_fetch_answers_for_the_requested_and_the_final_url(site, fetch_tool):
    final = site.page("/new", article())
    site.redirect("/old", "/new")
    first = fetch_tool(site.url("/old"))
    again = fetch_tool(site.url("/old#s"))
    direct = fetch_tool(final)
    assert site.paths() == ["/old", "/new"]
    assert first["url"] == final and again["url"] == final + "#s" and direct["url"] == final
    assert first["content"] == again["content"] == direct["content"]


def test_revalidation_asks_the_url_that_gave_the_validator(site, fetch_tool):
    site.redirect("/old", "/v")
    site.answer("/v", versioned('"v1"', article()))
    stale = {"WEBTAP_FETCH_CACHE_TTL": "0"}
    fetch_tool(site.url("/old"), env=stale)
    assert fetch_tool(site.url("/old"), env=stale)["success"] is True
    assert site.paths() == ["/old", "/v", "/old", "/v"]
    assert "if-none-match" not in site.requests[2].headers
    assert site.requests[3].headers["if-none-match"] == '"v1"'


def test_a_page_cached_with_the_guard_off_is_not_served_with_it_on(site, fetch_tool, monkeypatch):
    url = site.page("/", article())
    named = site.url("/", host="localhost")
    assert fetch_tool(url)["success"] is True
    assert fetch_tool(named)["success"] is True
    monkeypatch.delenv("WEBTAP_ALLOW_PRIVATE_NETWORKS")
    for address in (url, named):
        response = fetch_tool(address)
        assert response["error_code"] == "URL_NOT_ALLOWED", response
    assert site.paths() == ["/", "/"]


def test_a_page_cached_under_an_allowed_network_needs_that_network(site, fetch_tool, monkeypatch):
    monkeypatch.delenv("WEBTAP_ALLOW_PRIVATE_NETWORKS")
    url = site.page("/", article())
    named = site.url("/", host="localhost")
    allowed = {"WEBTAP_ALLOW_NETWORKS": "127.0.0.0/8,::1"}
    assert fetch_tool(named, env=allowed)["success"] is True
    assert fetch_tool(named, env=allowed)["success"] is True
    assert fetch_tool(named)["error_code"] == "URL_NOT_ALLOWED"
    assert fetch_tool(url)["error_code"] == "URL_NOT_ALLOWED"
    assert site.paths() == ["/"]


# --- a cache that cannot be used -------------------------------------------------------------


def test_a_corrupt_cache_file_is_survived_and_replaced(site, fetch_tool, isolated_env):
    path = cache_file(isolated_env)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"this is not a database at all" * 200)
    url = site.page("/", article())
    assert fetch_tool(url)["success"] is True
    assert fetch_tool(url)["success"] is True
    assert site.paths() == ["/"]


def test_a_garbled_entry_is_a_miss(site, fetch_tool, isolated_env):
    url = site.page("/", article())
    fetch_tool(url)
    with sqlite3.connect(cache_file(isolated_env)) as db:
        db.execute("UPDATE entries SET value = '{\"nonsense\": 1}'")
    assert fetch_tool(url)["success"] is True
    assert site.paths() == ["/", "/"]


@pytest.mark.parametrize("where", ["proc", "file"])
def test_an_unwritable_cache_folder_is_survived(site, fetch_tool, tmp_path, where):
    # /proc refuses new files even to root (chmod does not stop root); a path through a
    # regular file cannot be made a folder at all.
    if where == "proc":
        folder = "/proc/self/webtap-cache"
    else:
        (tmp_path / "file").write_text("x")
        folder = str(tmp_path / "file" / "cache")
    url = site.page("/", article())
    for _ in range(2):
        assert fetch_tool(url, env={"WEBTAP_CACHE_DIR": folder})["success"] is True
    assert site.paths() == ["/", "/"]


@pytest.mark.skipif(not hasattr(__import__("os"), "geteuid"), reason="POSIX permissions")
def test_a_read_only_cache_folder_is_survived(site, fetch_tool, tmp_path):
    import os

    if os.geteuid() == 0:
        pytest.skip("root writes through read-only permissions (see the /proc variant)")
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        url = site.page("/", article())
        for _ in range(2):
            assert fetch_tool(url, env={"WEBTAP_CACHE_DIR": str(folder)})["success"] is True
    finally:
        folder.chmod(0o700)


def test_a_locked_cache_is_survived(site, fetch_tool, isolated_env):
    url = site.page("/", article())
    fetch_tool(url)
    holder = sqlite3.connect(cache_file(isolated_env), isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        assert fetch_tool(url)["success"] is True
    finally:
        holder.execute("ROLLBACK")
        holder.close()


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("WEBTAP_FETCH_CACHE_TTL", "10m"),
        ("WEBTAP_FETCH_CACHE_TTL", "-1"),
        ("WEBTAP_FETCH_CACHE_MAX_BYTES", "lots"),
        ("WEBTAP_FETCH_CACHE_MAX_BYTES", "0"),
    ],
)
def test_an_unusable_cache_setting_is_named(site, fetch_tool, variable, value):
    response = fetch_tool(site.page("/", article()), env={variable: value})
    assert response["error_code"] == "CONFIG_ERROR"
    assert variable in response["error"]


def test_the_cache_file_holds_no_request_secrets(site, fetch_tool, isolated_env) -> None:
    url = site.page("/q?session=abc123", article())
    fetch_tool(url)
    raw = _cache_bytes(isolated_env)
    assert b"abc123" not in raw  # keys are digests; an unredirected page stores no URL
    assert b"The body of the article." in raw


def test_a_page_served_from_the_cache_starts_no_http_stack(site):
    # Start-up is most of what a cached step costs: a hit must not import the HTTP client.
    import os
    import subprocess
    import sys

    url = site.page("/", article())
    request = f'{{"url": "{url}"}}'.encode()
    tool = str(Path(sys.executable).parent / "web-fetch-tool")
    for expected in (True, False):
        proc = subprocess.run(
            [sys.executable, "-X", "importtime", tool],
            input=request,
            capture_output=True,
            env=dict(os.environ),
            check=True,
        )
        assert b'"success": true' in proc.stdout
        assert (b" http.client\n" in proc.stderr) is expected
        assert (b" webtap.convert\n" in proc.stderr) is expected  # nor the converters
        assert (b" webtap.net\n" in proc.stderr) is expected  # nor webtap's HTTP at all
        assert (b" webtap.verdict\n" in proc.stderr) is expected  # nor the classifier
        assert b" httpx\n" not in proc.stderr
    assert site.paths() == ["/"]


def test_the_default_size_cap_on_the_cache_path_is_the_fetch_cap():
    from webtap.fetch import DEFAULT_MAX_BYTES, fetch_limits
    from webtap.net import Limits

    assert DEFAULT_MAX_BYTES == Limits().max_body == fetch_limits().max_body


# --- reading the headers ---------------------------------------------------------------------

DATE = "Sun, 22 Nov 2026 10:00:00 GMT"


@pytest.mark.parametrize(
    ("headers", "store", "lifetime", "always"),
    [
        ({}, True, None, False),
        ({"cache-control": "max-age=300"}, True, 300, False),
        ({"cache-control": "public, max-age=300", "age": "100"}, True, 200, False),
        ({"cache-control": "max-age=300", "age": "900"}, True, 0, False),
        ({"cache-control": "max-age=soon"}, True, 0, False),
        ({"cache-control": "max-age=300", "expires": "0"}, True, 300, False),  # max-age wins
        ({"expires": "Sun, 22 Nov 2026 10:05:00 GMT", "date": DATE}, True, 300, False),
        ({"expires": "Sun, 22 Nov 2026 09:00:00 GMT", "date": DATE}, True, 0, False),
        ({"expires": "-1"}, True, 0, False),
        ({"cache-control": "No-Cache"}, True, None, True),
        ({"cache-control": 'no-cache="set-cookie"'}, True, None, True),
        ({"pragma": "no-cache"}, True, None, True),
        ({"pragma": "no-cache", "cache-control": "max-age=60"}, True, 60, False),
        ({"cache-control": "private, max-age=60"}, True, 60, False),
        ({"cache-control": "s-maxage=5, max-age=60"}, True, 60, False),
        ({"cache-control": "max-age=60, NO-STORE"}, False, None, False),
        ({"vary": "Accept-Encoding, *"}, False, None, False),
        ({"vary": "Accept-Encoding"}, True, None, False),
    ],
)
def test_response_headers_are_read_as_a_private_cache_reads_them(headers, store, lifetime, always):
    from webtap.fetch.page_cache import freshness

    allowed = freshness(headers)
    assert (allowed.store, allowed.always_revalidate) == (store, always)
    assert allowed.lifetime == lifetime


@pytest.mark.parametrize("xdg", [None, "", "  ", "/tmp/xdg-cache", "relative/not/used", "/tmp/s/"])
def test_the_cache_folder_is_platformdirs_own_answer(monkeypatch, xdg) -> None:
    """cache.py spells platformdirs' Linux rule itself (start-up); the two must agree."""
    import platformdirs

    from webtap.cache import _user_cache_dir

    if xdg is None:
        monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_CACHE_HOME", xdg)
    assert _user_cache_dir() == platformdirs.user_cache_dir("webtap")
