"""The walls a site puts up itself, and the articles that only talk about them.

Each wall: its verdict, code, message and advice. Each false-positive case: a page a reader
wants, with the wall's words in it, stays content.
"""

from __future__ import annotations

from typing import NamedTuple

import pytest
from tests.fakes.walls import (
    CONSENT_PAGE,
    FALSE_POSITIVES,
    LOGIN,
    PAYWALL,
    SHELL,
    SOFT_404,
    paragraphs,
)

from webtap.convert import convert
from webtap.errors import HTTPError, NoContent
from webtap.verdict import classify


class Doc(NamedTuple):
    """A converted document as webtap.convert will return it, with ``state``."""

    title: str
    markdown: str
    trimmed: bool = False
    state: str = "content"


def judge(html: str, url: str = "https://example.com/page", status: int = 200, **kw):
    """The verdict for ``html`` as a fetch will ask for it: the tree and the main content."""
    return classify(status, kw.get("headers", {}), html, convert(html, url, main_content=True),
                    url=url)  # fmt: skip


def test_a_login_wall_is_no_content_with_credentials_advice() -> None:
    verdict = judge(LOGIN, "https://example.com/session?return_to=/private")
    assert (verdict.kind, verdict.code) == ("login", "NO_CONTENT")
    error = verdict.error()
    assert isinstance(error, NoContent)
    response = error.to_response()
    assert response["verdict"] == "login"
    assert response["retryable"] is False and response["retry_with"] == "credentials"
    assert response["error"].startswith("The page is a sign-in form, not the content")


def test_a_login_wall_found_by_its_address_alone() -> None:
    page = LOGIN.replace("Sign in", "Welcome").replace('action="/session"', 'action="/go"')
    assert judge(page, "https://example.com/login?next=/x").kind == "login"
    assert judge(page.replace('action="/go"', 'action="/session"')).kind == "login"
    assert judge(page, "https://example.com/welcome").kind == "content"


def test_a_paywall_teaser_is_returned_marked() -> None:
    verdict = judge(PAYWALL, "https://ledger.example/2024/rates")
    assert (verdict.kind, verdict.ok, verdict.code) == ("paywall", True, None)
    assert verdict.error() is None
    fields = verdict.fields()
    assert fields["verdict"] == "paywall"
    assert fields["notice"].startswith("Only the teaser of a paywalled article came back.")
    assert verdict.advice.retry_with == "credentials"


def test_a_paywall_prompt_without_markup_on_a_short_article() -> None:
    page = PAYWALL.split("<script")[0] + "</head>" + PAYWALL.split("</head>")[1]
    assert judge(page).kind == "paywall"


def test_a_whole_article_marked_not_free_is_content() -> None:
    # Metered sites mark every article so and send the whole text: what came back is content.
    page = PAYWALL.replace("<p>Markets", paragraphs("The bank's statement was long.", 40) + "<p>")
    assert judge(page).kind == "content"


@pytest.mark.parametrize(
    ("url", "page"),
    [
        ("https://consent.example.com/ml?continue=https://www.example.com/", CONSENT_PAGE),
        ("https://www.example.com/article", CONSENT_PAGE),
        (
            "https://www.example.com/a",
            CONSENT_PAGE.replace("Before you continue", "Privacy settings"),
        ),
    ],
    ids=["consent host", "titled before you continue", "titled privacy settings"],
)
def test_a_consent_wall_is_no_content(url, page) -> None:
    verdict = judge(page, url)
    assert (verdict.kind, verdict.code) == ("consent", "NO_CONTENT")
    response = verdict.error().to_response()
    assert response["verdict"] == "consent" and response["retry_with"] == "another_url"
    assert "cookie-consent wall" in response["error"]


def test_a_soft_404_is_an_http_error() -> None:
    verdict = judge(SOFT_404)
    assert (verdict.kind, verdict.code) == ("soft_404", "HTTP_ERROR")
    error = verdict.error()
    assert isinstance(error, HTTPError)
    response = error.to_response()
    assert response["error"].startswith("HTTP 200, but the page says it was not found")
    assert "Page not found – The Example Blog" in response["error"]
    assert response["verdict"] == "soft_404" and response["retry_with"] == "another_url"


@pytest.mark.parametrize(
    "title",
    ["404", "404 Not Found", "Error 404 | Shop", "Not Found", "Seite nicht gefunden - Verlag",
     "Página no encontrada", "Page introuvable · Site"],
)  # fmt: skip
def test_not_found_titles(title) -> None:
    page = f"<html><head><title>{title}</title></head><body><p>Sorry.</p></body></html>"
    assert judge(page).kind == "soft_404"


def test_a_script_shell_asks_for_rendering() -> None:
    verdict = classify(200, {}, SHELL, Doc("Example App", "", state="script_shell"))
    assert (verdict.kind, verdict.code) == ("script_shell", "NO_CONTENT")
    response = verdict.error().to_response()
    assert response["retry_with"] == "render" and response["retryable"] is False
    assert "JavaScript application shell" in response["error"]
    # The converter of today says "content" of every page: the page's own marks decide.
    assert judge(SHELL).kind == "script_shell"


def test_an_empty_page_is_no_content() -> None:
    verdict = classify(200, {}, "<html><body> </body></html>", Doc("", "", state="empty"))
    assert (verdict.kind, verdict.code) == ("empty", "NO_CONTENT")
    assert verdict.error().to_response()["retry_with"] == "another_url"
    assert judge("<html><head><title></title></head><body></body></html>").kind == "empty"
    assert classify(200, {}, "", None).kind == "empty"


def test_an_empty_state_is_not_believed_over_a_page_full_of_text() -> None:
    # A converter that lost a page's text does not make the page empty.
    page = f"<html><body>{paragraphs('Plenty of words are here.', 30)}</body></html>"
    assert classify(200, {}, page, Doc("", "", state="empty")).kind == "content"


def test_a_markdown_answer_is_content() -> None:
    assert classify(200, {"content-type": "text/markdown"}, None, Doc("T", "# T\n\nText.\n")).ok


# --- False positives: real-looking content with the walls' words ---------------------------


@pytest.mark.parametrize(("path", "page"), FALSE_POSITIVES.values(), ids=FALSE_POSITIVES.keys())
def test_a_page_that_only_talks_about_walls_is_content(path, page) -> None:
    assert judge(page, f"https://example.com{path}").kind == "content"
