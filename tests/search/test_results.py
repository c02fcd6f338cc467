"""Provider bodies to the common result shape, on the recorded responses."""

from __future__ import annotations

import pytest

from webtap.errors import APIError
from webtap.search.brave import parse_brave
from webtap.search.google import parse_google, shares
from webtap.search.results import clean_text


@pytest.mark.parametrize(
    ("raw", "plain"),
    [
        ("<strong>Brave</strong> <strong>Search</strong> doesn&#x27;t", "Brave Search doesn't"),
        ("<b>JavaScript</b>&nbsp;...", "JavaScript ..."),
        ("a < b and c > d", "a < b and c > d"),
        ("&lt;b&gt; is a tag", "<b> is a tag"),
        ("  two\n lines\u00a0here ", "two lines here"),
        (None, ""),
    ],
)
def test_clean_text(raw, plain) -> None:
    assert clean_text(raw) == plain


@pytest.mark.parametrize(
    "name", ["web_search_brave_search", "web_search_physics", "web_search_uuid_81d2308d"]
)
def test_brave_recorded_bodies(kit, name) -> None:
    body = kit.json_of(f"brave/{name}")
    results = parse_brave(body)
    assert [r.url for r in results] == [item["url"] for item in body["web"]["results"]]
    for result, item in zip(results, body["web"]["results"], strict=True):
        assert result.snippet == clean_text(item.get("description"))
        assert "<strong>" not in result.snippet and "&#x27;" not in result.snippet
        assert result.title and "<" not in result.title


def test_brave_without_web_has_no_results_and_drops_urlless_entries() -> None:
    assert parse_brave({"type": "search", "videos": {"results": []}}) == []
    body = {"web": {"results": [{"title": "no url"}, {"url": ""}, "junk", {"url": "https://a.b/"}]}}
    assert [r.url for r in parse_brave(body)] == ["https://a.b/"]


@pytest.mark.parametrize(
    "name", ["customsearch_javascript", "customsearch_test", "customsearch_testing"]
)
def test_google_recorded_bodies(kit, name) -> None:
    body = kit.json_of(f"google/{name}")
    results = parse_google(body)
    assert [r.url for r in results] == [item["link"] for item in body["items"]]
    assert all("<b>" not in r.snippet and "&nbsp;" not in r.snippet for r in results)
    assert results[0].title == body["items"][0]["title"]


@pytest.mark.parametrize(
    ("parse", "body", "fragment"),
    [
        (parse_brave, [1, 2], "not a JSON object"),
        (parse_brave, {"web": {"results": {"a": 1}}}, "'web.results' is not a list"),
        (parse_brave, {"web": "nope"}, "'web.results' is not a list"),
        (parse_brave, {"message": "ok"}, "not a search result"),
        (parse_google, "text", "not a JSON object"),
        (parse_google, {}, "not a search result"),
        (parse_google, {"items": {"link": "x"}}, "'items' is not a list"),
    ],
)
def test_wrong_shapes_are_api_errors(parse, body, fragment) -> None:
    with pytest.raises(APIError, match=fragment):
        parse(body)


@pytest.mark.parametrize(
    ("total", "parts", "expected"),
    [(10, 3, [4, 3, 3]), (10, 2, [5, 5]), (1, 1, [1]), (3, 5, [1, 1, 1, 1, 1]), (7, 7, [1] * 7)],
)
def test_shares(total, parts, expected) -> None:
    assert shares(total, parts) == expected
