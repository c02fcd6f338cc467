"""Markdown from the source (issue 22): ``Accept`` ranks Markdown first, a ``text/markdown``
answer is used as it is, a thin page's ``<link rel="alternate" type="text/markdown">`` is
followed (robots.txt asked for it too), and the page cache keeps answers apart by the request
headers a server may vary on. Against the fake site, answering as negotiating sites and CDNs do.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.fakes.site import Seen
from tests.fakes.walls import paragraphs
from werkzeug.datastructures import MIMEAccept
from werkzeug.http import parse_accept_header

pytestmark = pytest.mark.usefixtures("allow_private")

GUIDE_MD = "---\ntitle: The Guide\n---\n# Guide\n\nInstall it, then run it.\n"
GUIDE_HTML = (
    "<html><head><title>Guide (HTML)</title></head><body><nav>Home Docs Blog</nav>"
    "<main><h1>Guide</h1><p>Install it, then run it.</p></main><footer>(c) Example</footer>"
    "</body></html>"
)


def negotiating(seen: Seen) -> dict[str, Any]:
    """Markdown to a client that ranks it above HTML, HTML otherwise; ``Vary: Accept``."""
    accept = parse_accept_header(seen.headers.get("accept", ""), MIMEAccept)
    if accept.best_match(["text/html", "text/markdown"]) == "text/markdown":
        body, kind = GUIDE_MD, "text/markdown"
    else:
        body, kind = GUIDE_HTML, "text/html"
    headers = {"Content-Type": f"{kind}; charset=utf-8", "Vary": "Accept"}
    return {"body": body.encode(), "headers": headers}


def test_a_negotiating_site_sends_markdown_and_it_is_used_as_it_is(site, fetch_tool) -> None:
    response = fetch_tool(site.answer("/guide", negotiating))
    assert response["content"] == GUIDE_MD
    assert response["title"] == "The Guide"  # the front matter's title
    assert "content_mode" not in response  # Markdown is not trimmed: it is the whole answer
    accept = site.requests[0].headers["accept"]
    assert accept.startswith("text/markdown, text/html;q=0.9")


@pytest.mark.parametrize(
    ("markdown", "title"),
    [
        ("Guide\n=====\n\nText.\n", "Guide"),
        ("```\n# not a title\n```\n\n## Setup\n", "Setup"),
        ("Just text.\n", ""),
    ],
    ids=["setext", "fenced code is no title", "none"],
)
def test_a_markdown_answers_title(site, fetch_call, markdown, title) -> None:
    url = site.route("/doc.md", markdown, headers={"Content-Type": "text/markdown"})
    response = fetch_call(url)
    assert (response["title"], response["content"]) == (title, markdown)


def by_agent(seen: Seen) -> dict[str, Any]:
    agent = seen.headers.get("user-agent", "")
    body = f"<html><head><title>For {agent}</title></head><body><p>Hello.</p></body></html>"
    headers = {"Content-Type": "text/html", "Vary": "User-Agent", "Cache-Control": "max-age=600"}
    return {"body": body.encode(), "headers": headers}


def test_the_page_cache_keeps_answers_apart_by_user_agent(site, fetch_tool) -> None:
    url = site.answer("/hello", by_agent)
    first = {"WEBTAP_USER_AGENT": "first/1.0"}
    second = {"WEBTAP_USER_AGENT": "second/1.0"}
    assert fetch_tool(url, env=first)["title"] == "For first/1.0"
    assert fetch_tool(url, env=second)["title"] == "For second/1.0"  # not the first's copy
    assert fetch_tool(url, env=first)["title"] == "For first/1.0"
    assert len(site.requests) == 2  # the third was the first's, from the cache


SHELL_WITH_MARKDOWN = (
    "<!doctype html><html><head><title>Docs</title>"
    '<link rel="alternate" type="text/markdown" href="/docs/guide.md">'
    '<script src="/app.js"></script></head><body><div id="root"></div>'
    "<noscript>You need to enable JavaScript to run this app.</noscript></body></html>"
)


def test_a_thin_page_names_its_markdown_and_it_is_fetched(site, fetch_tool) -> None:
    url = site.route("/docs/guide", SHELL_WITH_MARKDOWN, headers={"Content-Type": "text/html"})
    markdown = site.route("/docs/guide.md", GUIDE_MD, headers={"Content-Type": "text/markdown"})
    response = fetch_tool(url)
    assert response["success"] is True  # not a script shell: its Markdown said it all
    assert (response["url"], response["markdown_source"]) == (url, markdown)
    assert (response["title"], response["content"]) == ("The Guide", GUIDE_MD)
    assert site.requests[1].headers["accept"].startswith("text/markdown")
    again = fetch_tool(url)  # from the page cache, with where it came from
    assert (again["content"], again["markdown_source"]) == (GUIDE_MD, markdown)
    assert site.paths() == ["/docs/guide", "/docs/guide.md"]


def test_a_markdown_version_robots_txt_disallows_is_not_fetched(site, fetch_tool) -> None:
    site.route("/robots.txt", "User-agent: *\nDisallow: /*.md$\n")
    url = site.route("/docs/guide", SHELL_WITH_MARKDOWN, headers={"Content-Type": "text/html"})
    site.route("/docs/guide.md", GUIDE_MD, headers={"Content-Type": "text/markdown"})
    response = fetch_tool(url)
    assert (response["error_code"], response["verdict"]) == ("NO_CONTENT", "script_shell")
    assert site.paths() == ["/docs/guide"]


@pytest.mark.parametrize(
    ("status", "content_type"),
    [(404, "text/plain"), (200, "text/html")],
    ids=["missing", "html, not markdown"],
)
def test_a_markdown_version_that_is_not_one_keeps_the_pages_result(
    site, fetch_call, status, content_type
) -> None:
    thin = SHELL_WITH_MARKDOWN.split("<body>")[0] + "<body><p>A short intro.</p></body></html>"
    url = site.route("/docs/guide", thin, headers={"Content-Type": "text/html"})
    site.route("/docs/guide.md", "<p>no</p>", status=status, headers={"Content-Type": content_type})
    response = fetch_call(url)
    assert response["success"] is True and "markdown_source" not in response
    assert "A short intro." in response["content"]


def test_a_full_page_does_not_fetch_its_markdown_version(site, fetch_tool) -> None:
    article = SHELL_WITH_MARKDOWN.replace(
        '<div id="root"></div>', "<article>" + paragraphs("The guide explains it all.", 30)
    )
    url = site.route("/docs/guide", article, headers={"Content-Type": "text/html"})
    site.route("/docs/guide.md", GUIDE_MD, headers={"Content-Type": "text/markdown"})
    response = fetch_tool(url)
    assert "markdown_source" not in response and "The guide explains it all." in response["content"]
    assert site.paths() == ["/docs/guide"]
