"""What a fetch says it got (issue 22, decision: What a fetch got), end to end: each verdict's code,
message and advice through web-fetch-tool (and every vendor's wall through the same handler in
process), the paywall's marked teaser, the pages that only talk about walls staying content, walls
never kept in the page cache, and ``webtap fetch`` for a person.

The pages are tests/fakes/walls.py's, served by the fake site on 127.0.0.1.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.fakes.walls import (
    FALSE_POSITIVES,
    HTML,
    LOGIN,
    PAYWALL,
    VERDICTS,
    WALLS,
    Case,
    serve,
)

pytestmark = pytest.mark.usefixtures("allow_private")


def assert_verdict(response: dict[str, Any], case: Case) -> None:
    assert response["success"] is False
    assert response["error_code"] == case.code
    assert response["error"].startswith(case.message), response["error"]
    if case.code == "HTTP_ERROR" and case.verdict is None:
        # The spec's status line and nothing after it (issue 32).
        assert response["error"] == case.message
    assert response["advice"]  # what would help, in words, in a field of its own
    assert (response["retryable"], response["retry_with"]) == (case.retryable, case.retry_with)
    assert response.get("verdict") == case.verdict
    assert "content" not in response  # nothing of the wall is passed off as the page


@pytest.mark.parametrize("case", VERDICTS, ids=[case.name for case in VERDICTS])
def test_each_verdict_through_the_executable(site, fetch_tool, case) -> None:
    response = fetch_tool(serve(site, case))
    assert_verdict(response, case)
    if case.verdict == "blocked":
        assert response["vendor"] == "Cloudflare"
        assert "seen: header cf-mitigated: challenge" in response["error"]  # what decided
    if case.name == "rate limited":
        assert response["retry_after"] == 30.0
        assert response["advice"] == "Try again later (the server asks to wait 30 s)."


@pytest.mark.parametrize(
    ("status", "headers", "page", "vendor", "challenge"),
    [case[1:] for case in WALLS],
    ids=[case[0] for case in WALLS],
)
def test_every_vendors_wall_is_blocked_in_the_fetch(
    site, fetch_call, status, headers, page, vendor, challenge
) -> None:
    # The handler the executable, MCP and the ask loop run, on real HTTP: 200, 202, 403, 405,
    # 429 and 503 answers, headers in any case, the page read from the converter's own parse.
    url = site.route("/wall", page, status=status, headers={**HTML, **headers})
    response = fetch_call(url)
    assert (response["error_code"], response["verdict"]) == ("BLOCKED", "blocked")
    assert response["vendor"] == vendor
    assert (response["retryable"], response["retry_with"]) == (False, "another_url")
    kind = "a bot check (a CAPTCHA or a script test)" if challenge else "a block page"
    assert f"answered with {kind} instead of the page (HTTP {status}; seen: " in response["error"]


def test_a_paywall_teaser_is_returned_marked(site, fetch_tool) -> None:
    response = fetch_tool(site.route("/2024/rates", PAYWALL, headers=HTML))
    assert response["success"] is True
    assert "The central bank raised its main rate" in response["content"]
    assert response["verdict"] == "paywall"
    assert response["notice"] == (
        "Only the teaser of a paywalled article came back. The rest of the article needs a "
        "subscription."
    )


def test_pages_that_only_talk_about_walls_stay_content(site, fetch_tool) -> None:
    for name, (path, page) in FALSE_POSITIVES.items():
        response = fetch_tool(site.route(path, page, headers=HTML))
        assert response["success"] is True, (name, response)
        assert "verdict" not in response and "notice" not in response, name


def test_a_protected_sites_ordinary_page_stays_content(site, fetch_tool) -> None:
    article = "<p>" + " ".join(["The committee met on Tuesday to discuss the budget."] * 60)
    page = (
        "<html><head><title>Budget talks</title><script src='/cdn-cgi/challenge-platform/"
        f"scripts/jsd/main.js'></script></head><body>{article}</p></body></html>"
    )
    headers = {**HTML, "Server": "cloudflare", "CF-RAY": "8a1b2c3d4e5f6a7b-FRA"}
    response = fetch_tool(site.route("/budget", page, headers=headers))
    assert (response["success"], response["title"]) == (True, "Budget talks")


def test_walls_are_never_kept_in_the_page_cache(site, fetch_tool) -> None:
    login = site.route("/session", LOGIN, headers=HTML)
    paywall = site.route("/rates", PAYWALL, headers=HTML)
    article = site.route("/mug", FALSE_POSITIVES["a short product page with a sign in link"][1])
    for _ in range(2):
        assert fetch_tool(login)["error_code"] == "NO_CONTENT"
        assert fetch_tool(paywall)["verdict"] == "paywall"
        assert fetch_tool(article)["success"] is True
    # The walls are asked for every time (a later fetch may get past them); content once.
    assert site.paths() == ["/session", "/rates", "/mug", "/session", "/rates"]


def test_a_person_hears_the_verdict_too(site, run_exe) -> None:
    blocked = serve(site, VERDICTS[0])
    result = run_exe("webtap", "fetch", blocked, timeout=30)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr.startswith("webtap: Blocked: Cloudflare's bot protection answered")
    assert result.stderr.endswith(" [BLOCKED]\n")
    teaser = run_exe("webtap", "fetch", site.route("/rates", PAYWALL, headers=HTML), timeout=30)
    assert teaser.returncode == 0
    assert "The central bank raised its main rate" in teaser.stdout
    assert "Only the teaser of a paywalled article came back." in teaser.stderr
    as_json = run_exe("webtap", "fetch", "--json", blocked, timeout=30)
    assert as_json.returncode == 1
    assert as_json.json["vendor"] == "Cloudflare" and as_json.json["retry_with"] == "another_url"
