"""The walls a site puts up itself, and the articles that only talk about them.

Each wall: its verdict, code, message and advice. Each false-positive case: a page a reader
wants, with the wall's words in it, stays content.
"""

from __future__ import annotations

from typing import NamedTuple

import pytest

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


def paragraphs(sentence: str, n: int) -> str:
    return "".join(f"<p>{sentence} Paragraph {i} goes on with more detail.</p>" for i in range(n))


LOGIN = """<html><head><title>Sign in · Example</title></head><body><main><h1>Sign in to
Example</h1><form action="/session" method="post"><label>Email <input type="email" name="login">
</label><label>Password <input type="password" name="password"></label><button>Sign in</button>
</form><p><a href="/password_reset">Forgot password?</a> New here? <a href="/signup">Create an
account</a>.</p></main><footer>Terms Privacy Docs Contact</footer></body></html>"""

PAYWALL = """<html><head><title>Rates rise again - The Daily Ledger</title>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle",
"headline":"Rates rise again","isAccessibleForFree":false,"hasPart":{"@type":"WebPageElement",
"isAccessibleForFree":false,"cssSelector":".paywall"}}</script></head><body><nav>Home World
Markets</nav><article><h1>Rates rise again</h1><p>The central bank raised its main rate by a
quarter point on Wednesday, the third rise this year.</p><p>Markets had expected the move, and
shares rose...</p><div class="paywall-prompt">Subscribe to continue reading. Already a
subscriber? Sign in.</div></article></body></html>"""

CONSENT_PAGE = """<html><head><title>Before you continue to Example</title></head><body><h1>Before
you continue</h1><p>We use cookies and data to deliver and maintain our services, measure
audience engagement and show personalised ads, with our partners.</p><form><button>Reject all
</button><button>Accept all</button></form><a href="/privacy">More options</a></body></html>"""

SOFT_404 = """<html><head><title>Page not found – The Example Blog</title></head><body><header>
<a href="/">The Example Blog</a></header><main><h1>Oops! That page can't be found.</h1><p>It
looks like nothing was found at this location. Maybe try a search?</p><form role="search">
<input type="search" name="s"></form></main><footer>Proudly powered by a CMS</footer></body>
</html>"""

SHELL = """<!doctype html><html><head><title>Example App</title><script defer
src="/static/js/main.3f2a1b.js"></script></head><body><noscript>You need to enable JavaScript
to run this app.</noscript><div id="root"></div></body></html>"""


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


def test_an_article_about_logging_in_with_a_newsletter_form() -> None:
    page = (
        "<html><head><title>How to log in to your router</title></head><body><article>"
        "<h1>How to log in to your router</h1>"
        + paragraphs("Open the login page, sign in with the admin password, then log in.", 12)
        + "</article><form><input type='email' name='email'><button>Subscribe</button></form>"
        "</body></html>"
    )
    assert judge(page, "https://blog.example/router-login").kind == "content"


def test_a_forum_thread_with_a_hidden_login_dialog() -> None:
    page = (
        "<html><head><title>Login problems since the update - Forum</title></head><body>"
        "<div id='login-modal' style='display: none'><form action='/login'>"
        "<input type='text' name='u'><input type='password' name='p'></form></div>"
        "<h1>Login problems since the update</h1>"
        + paragraphs("Since the update I cannot log in; the login button does nothing.", 8)
        + "</body></html>"
    )
    assert judge(page, "https://forum.example/t/login-problems/123").kind == "content"


def test_a_short_news_item_that_asks_readers_to_subscribe() -> None:
    page = (
        "<html><head><title>Library opens late</title></head><body><article><h1>Library opens "
        "late</h1><p>The city library opens at noon on Monday for repairs.</p><p>Subscribe to "
        "our newsletter for more local news, or log in to comment.</p></article></body></html>"
    )
    assert judge(page).kind == "content"


def test_an_article_about_cookies_and_consent() -> None:
    page = (
        "<html><head><title>What the cookie consent rules mean</title></head><body><article>"
        + paragraphs("Sites must ask consent before setting cookies; accept all and reject "
                     "all must be equally easy, and partners must be named.", 10)
        + "</article><div id='cmp'>We use cookies. <button>Accept all</button>"
        "<button>Reject all</button></div></body></html>"
    )  # fmt: skip
    assert judge(page).kind == "content"


def test_a_recipe_with_a_cookie_banner() -> None:
    page = (
        "<html><head><title>Chocolate chip cookies</title></head><body><h1>Chocolate chip "
        "cookies</h1><ul><li>200 g flour</li><li>100 g butter</li><li>100 g chocolate</li></ul>"
        "<p>Mix, bake at 180 degrees for 12 minutes.</p><div class='banner'>This site uses "
        "cookies for personalised ads with our partners. <button>Accept all</button></div>"
        "</body></html>"
    )
    assert judge(page).kind == "content"


def test_an_article_about_404_errors() -> None:
    page = (
        "<html><head><title>What is a 404 error, and how to fix one</title></head><body>"
        "<h1>What is a 404 error?</h1>"
        + paragraphs("A 404 means the page you are looking for could not be found.", 10)
        + "</body></html>"
    )
    assert judge(page).kind == "content"


def test_a_song_called_not_found_with_its_article() -> None:
    page = (
        "<html><head><title>Not Found (song) - Encyclopedia</title></head><body><h1>Not Found"
        "</h1>" + paragraphs("Not Found is a song by the band, released as a single.", 30)
        + "</body></html>"
    )  # fmt: skip
    assert judge(page).kind == "content"


def test_a_short_product_page_with_a_sign_in_link() -> None:
    page = (
        "<html><head><title>Blue mug - Shop</title></head><body><a href='/login'>Sign in</a>"
        "<h1>Blue mug</h1><p>A blue mug, 300 ml. 12 euros.</p><button>Add to cart</button>"
        "</body></html>"
    )
    assert judge(page, "https://shop.example/mug").kind == "content"
