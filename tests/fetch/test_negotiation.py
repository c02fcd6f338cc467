"""Markdown from the source: the Accept header, the Markdown title, the alternate link."""

from __future__ import annotations

from typing import NamedTuple

import lxml.html
import pytest
from werkzeug import Request, Response

from webtap.fetch.negotiation import (
    ACCEPT,
    is_markdown,
    markdown_alternate,
    markdown_title,
    thin_content,
)


def quality(accept: str) -> dict[str, float]:
    """Each media range of an Accept header with its q value."""
    out = {}
    for part in accept.split(","):
        media, *params = (p.strip() for p in part.split(";"))
        q = next((float(p[2:]) for p in params if p.startswith("q=")), 1.0)
        out[media] = q
    return out


def test_accept_prefers_markdown_then_html() -> None:
    q = quality(ACCEPT)
    assert q["text/markdown"] == 1.0
    assert q["text/html"] < q["text/markdown"]
    assert max(v for k, v in q.items() if k != "text/markdown") < 1.0
    assert q["*/*"] < q["text/plain"] < q["text/html"]


def negotiating_server(request: Request) -> Response:
    """A site that sends Markdown to a client that ranks it above HTML, HTML otherwise (as
    CDNs that convert at the edge do), and says that the answer varies with Accept."""
    ranked = request.accept_mimetypes.best_match(["text/html", "text/markdown"])
    if ranked == "text/markdown":
        body, kind = "---\ntitle: Guide\n---\n# Guide\n\nShort.\n", "text/markdown"
    else:
        body, kind = "<html><title>Guide</title><p>Long HTML</p></html>", "text/html"
    return Response(body, content_type=f"{kind}; charset=utf-8", headers={"Vary": "Accept"})


def test_a_negotiating_site_answers_markdown_to_webtaps_accept(httpserver) -> None:
    import urllib.request

    httpserver.expect_request("/guide").respond_with_handler(negotiating_server)
    old = "text/html,application/xhtml+xml,text/markdown;q=0.9,text/plain;q=0.8,*/*;q=0.5"
    answers = {}
    for name, accept in (("new", ACCEPT), ("old", old)):
        request = urllib.request.Request(httpserver.url_for("/guide"), headers={"Accept": accept})
        with urllib.request.urlopen(request, timeout=5) as response:
            answers[name] = (response.headers["Content-Type"], response.read().decode())
    assert is_markdown(answers["new"][0]) and not is_markdown(answers["old"][0])
    assert markdown_title(answers["new"][1]) == "Guide"


@pytest.mark.parametrize(
    ("content_type", "expected"),
    [
        ("text/markdown", True),
        ("text/markdown; charset=utf-8", True),
        ("Text/X-Markdown", True),
        ("text/html", False),
        ("text/plain", False),
    ],
)
def test_is_markdown(content_type, expected) -> None:
    assert is_markdown(content_type) is expected


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("# Hello\n\nText", "Hello"),
        ("Intro line\n\n## Section ##\n", "Section"),
        ("---\ntitle: \"Front matter\"\ndate: 2025-01-01\n---\n# Heading\n", "Front matter"),
        ("---\ndate: 2025-01-01\n---\n\n# After front matter\n", "After front matter"),
        ("```sh\n# not a heading\n```\n\n# Real\n", "Real"),
        ("~~~\n# no\n~~~\nSetext title\n============\n", "Setext title"),
        ("A paragraph\n---\n", "A paragraph"),
        ("- item\n---\n# H", "H"),
        ("plain text only", ""),
        ("#hashtag is not a heading", ""),
    ],
)  # fmt: skip
def test_markdown_title(text, title) -> None:
    assert markdown_title(text) == title


def tree(head: str) -> object:
    return lxml.html.document_fromstring(f"<html><head>{head}</head><body><p>x</p></body></html>")


@pytest.mark.parametrize(
    ("head", "expected"),
    [
        ('<link rel="alternate" type="text/markdown" href="/docs/page.md">',
         "https://site.example/docs/page.md"),
        ('<link rel="Alternate" type="text/markdown; charset=utf-8" href="page.md">',
         "https://site.example/docs/page.md"),
        ('<base href="https://cdn.example/x/"><link rel="alternate" type="text/markdown" '
         'href="page.md">', "https://cdn.example/x/page.md"),
        ('<link rel="alternate" type="application/rss+xml" href="/feed">', None),
        ('<link rel="stylesheet" type="text/markdown" href="/x.md">', None),
        ('<link rel="alternate" type="text/markdown" href="javascript:alert(1)">', None),
        ('<link rel="alternate" type="text/markdown" href="/docs/page#top">', None),
        ("", None),
    ],
    ids=["absolute path", "relative with charset", "base href", "rss", "not alternate",
         "javascript", "itself", "none"],
)  # fmt: skip
def test_markdown_alternate(head, expected) -> None:
    assert markdown_alternate(tree(head), "https://site.example/docs/page") == expected


class Doc(NamedTuple):
    title: str
    markdown: str
    trimmed: bool = False
    state: str = "content"


def test_thin_content() -> None:
    long = " ".join(["word"] * 200)
    assert not thin_content(Doc("", long))
    assert thin_content(Doc("", "A few words and [a link](https://example.com/" + "x" * 900 + ")"))
    assert thin_content(Doc("", long, state="script_shell"))
    assert thin_content(Doc("", ""))
