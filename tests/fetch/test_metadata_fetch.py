"""Page metadata through every door (issue 32): the executable's JSON beside the spec's fields,
a cache hit, a batch row, MCP's result, and ``webtap fetch``'s line under the title."""

from __future__ import annotations

from typing import Any

import pytest

from webtap.cli.fetch import byline
from webtap.scale.rows import FETCH_COLUMNS, fetch_row

pytestmark = pytest.mark.usefixtures("allow_private")

STORY = "<p>" + "The harbour filled with boats and gulls as the tide came in. " * 20 + "</p>"
PAGE = f"""<!doctype html><html lang="en-GB"><head><title>Harbour</title>
<script type="application/ld+json">{{"@type": "NewsArticle", "datePublished": "2024-03-12",
"author": {{"@type": "Person", "name": "Jane Doe"}}}}</script>
<meta property="og:site_name" content="The Daily"><link rel="canonical" href="/story">
</head><body><article><h1>The harbour at dawn</h1>{STORY}</article></body></html>"""
SAID = {
    "published": "2024-03-12",
    "author": "Jane Doe",
    "site_name": "The Daily",
    "language": "en-GB",
}


def test_the_executable_gives_the_metadata_beside_the_spec_s_fields(site, fetch_tool):
    url = site.page("/news/harbour", PAGE)
    response = fetch_tool(url)
    assert response["success"] is True and response["title"] == "Harbour"
    assert {name: response[name] for name in SAID} == SAID
    assert response["canonical_url"] == site.url("/story")
    assert "modified" not in response and "description" not in response  # unsaid: left out
    assert None not in response.values()


def test_a_cache_hit_keeps_the_metadata(site, fetch_tool):
    url = site.page("/news/cached", PAGE)
    first = fetch_tool(url)
    second = fetch_tool(url, offset=2)
    assert len(site.requests) == 1  # the second came from the cache
    assert {name: second[name] for name in SAID} == {name: first[name] for name in SAID} == SAID


def test_content_language_when_the_page_names_none(site, fetch_tool):
    body = f"<html><body><h1>Hafen</h1>{STORY}</body></html>"
    headers = {"Content-Type": "text/html", "Content-Language": "de-CH"}
    said = fetch_tool(site.route("/said", body, headers=headers))
    assert said["language"] == "de-CH"
    unsaid = fetch_tool(site.page("/unsaid", body))
    assert "published" not in unsaid and "language" not in unsaid
    own = fetch_tool(
        site.route("/own", body.replace("<html>", '<html lang="fr">'), headers=headers)
    )
    assert own["language"] == "fr"  # the page's own word first


def test_a_batch_row_has_the_metadata_columns(site):
    url = site.page("/news/row", PAGE)
    row = fetch_row(url, polite=False)
    assert set(SAID) <= set(FETCH_COLUMNS) and "canonical_url" in FETCH_COLUMNS
    assert {name: getattr(row, name) for name in SAID} == SAID
    assert row.modified is None and row.description is None


def test_webtap_fetch_shows_date_author_and_site_under_the_title() -> None:
    assert byline({"published": "2024-03-12T10:00:00+01:00", "author": "Jane Doe"}) == (
        "2024-03-12 · Jane Doe"
    )
    assert byline({"title": "x"}) == ""


def test_the_fetch_json_of_webtap_fetch(site, run_exe: Any) -> None:
    url = site.page("/news/cli", PAGE)
    done = run_exe("webtap", "fetch", "--json", url, timeout=30)
    assert done.returncode == 0, done.stderr
    assert {name: done.json[name] for name in SAID} == SAID
