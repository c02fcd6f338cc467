"""Bot walls by vendor: each page (tests/fakes/walls.py) is written in our own markup from what
the vendor documents about its challenge and block responses (status, headers, the script or
wording its page carries). Each asserts the verdict, the vendor, the code, the message and the
advice."""

from __future__ import annotations

import lxml.html
import pytest
from tests.fakes.walls import (
    AKAMAI_BLOCK,
    DATADOME_CAPTCHA,
    GENERIC_CAPTCHA,
    PERIMETERX_CAPTCHA,
    WALLS,
)

from webtap.errors import Blocked
from webtap.verdict import classify


@pytest.mark.parametrize(
    ("status", "headers", "page", "vendor", "challenge"),
    [case[1:] for case in WALLS],
    ids=[case[0] for case in WALLS],
)
def test_a_bot_wall_is_blocked_with_its_vendor(status, headers, page, vendor, challenge) -> None:
    verdict = classify(status, headers, lxml.html.document_fromstring(page))
    assert (verdict.kind, verdict.vendor, verdict.challenge) == ("blocked", vendor, challenge)
    assert verdict.code == "BLOCKED" and not verdict.ok
    error = verdict.error()
    assert isinstance(error, Blocked)
    response = error.to_response()
    assert response["error_code"] == "BLOCKED"
    assert response["verdict"] == "blocked" and response["vendor"] == vendor
    assert response["retryable"] is False and response["retry_with"] == "another_url"
    assert f"HTTP {status}" in response["error"]
    assert (vendor or "The site") in response["error"]
    assert "Retrying will not get past it" in response["advice"]
    assert "Retrying" not in response["error"]


def test_the_page_as_text_gives_the_same_verdict_as_the_tree() -> None:
    tree = classify(403, {}, lxml.html.document_fromstring(AKAMAI_BLOCK))
    assert classify(403, {}, AKAMAI_BLOCK) == tree
    assert classify(403, {}, AKAMAI_BLOCK.encode()) == tree


def test_a_challenge_header_decides_without_a_page() -> None:
    verdict = classify(403, {"CF-Mitigated": "challenge"}, None)
    assert (verdict.kind, verdict.vendor) == ("blocked", "Cloudflare")


def test_the_evidence_names_the_mark_seen() -> None:
    verdict = classify(403, {}, DATADOME_CAPTCHA)
    assert "captcha-delivery.com" in verdict.evidence
    assert "captcha-delivery.com" in verdict.error().message


# --- What protected sites serve when they let the client through: content ------------------

ARTICLE = "<p>" + " ".join(["The committee met on Tuesday to discuss the budget."] * 60) + "</p>"


@pytest.mark.parametrize(
    ("headers", "extra"),
    [
        # Cloudflare's bot sensor rides on ordinary pages, and its server header on all.
        ({"server": "cloudflare", "cf-ray": "8a1b2c3d4e5f6a7b-FRA"},
         '<script src="/cdn-cgi/challenge-platform/scripts/jsd/main.js"></script>'),
        ({"x-datadome": "protected", "x-datadome-cid": "AHrlqAAA"},
         '<script src="https://js.datadome.co/tags.js"></script>'),
        ({}, "<script>window._pxAppId = 'PXa1b2c3d4';</script>"),
        ({"x-iinfo": "9-1234567-0 0NNN", "x-cdn": "Imperva"},
         '<script src="/_Incapsula_Resource?SWJIYLWA=5074a744e2e3d891"></script>'),
        ({"server": "AkamaiGHost"}, ""),
    ],
    ids=["cloudflare", "datadome", "perimeterx", "imperva", "akamai"],
)  # fmt: skip
def test_a_protected_sites_ordinary_page_stays_content(headers, extra) -> None:
    page = f"<html><head><title>Budget talks</title>{extra}</head><body>{ARTICLE}</body></html>"
    assert classify(200, headers, page).kind == "content"


def test_an_article_about_bot_walls_stays_content() -> None:
    text = (
        "<p>Readers who see 'Just a moment...' or 'Access Denied' with a Reference # number, "
        "or are asked to Press & Hold, have met a bot wall. Cloudflare Ray ID: 8a1b2c3d4e5f6a7b "
        "is what the block page shows; please verify you are human, it says.</p>"
    )
    page = f"<html><head><title>Bot walls explained</title></head><body>{text}{ARTICLE}</body>"
    assert classify(200, {"server": "cloudflare"}, page).kind == "content"


def test_a_plain_forbidden_is_an_http_error_not_a_block() -> None:
    page = "<html><head><title>403 Forbidden</title></head><body><h1>403 Forbidden</h1><hr>nginx"
    verdict = classify(403, {"server": "nginx"}, page)
    assert (verdict.kind, verdict.code) == ("http_error", "HTTP_ERROR")
    assert verdict.error().to_response()["retry_with"] == "another_url"


def test_a_login_form_with_a_captcha_is_not_a_bot_wall() -> None:
    page = (
        "<html><head><title>Sign in</title></head><body><form action='/session'>"
        "<input type='email' name='login'><input type='password' name='password'>"
        "<div class='g-recaptcha'></div><p>Please verify you are human.</p></form></body></html>"
    )
    verdict = classify(200, {}, page, url="https://example.com/session")
    assert verdict.kind == "login"


def test_an_overloaded_server_says_when_to_come_back() -> None:
    page = "<html><head><title>Maintenance</title></head><body>Back soon.</body></html>"
    verdict = classify(503, {"Retry-After": "120"}, page)
    assert verdict.kind == "http_error"
    response = verdict.error("HTTP 503: Down for maintenance").to_response()
    assert response["error"] == "HTTP 503: Down for maintenance"
    assert response["advice"].startswith("Try again later (the server asks to wait 120 s)")
    assert (response["retryable"], response["retry_with"], response["retry_after"]) == (
        True,
        "later",
        120.0,
    )


def test_a_rate_limit_without_a_captcha_is_an_http_error_to_retry_later() -> None:
    verdict = classify(429, {"server": "nginx"}, "<html><body>Too many requests</body></html>")
    assert (verdict.kind, verdict.advice.retry_with) == ("http_error", "later")


def test_the_converters_own_tree_gives_the_same_verdict() -> None:
    # The wiring hands classify the tree the converter parsed, before it prunes it: a plain
    # etree tree, not lxml.html's.
    from webtap.convert._html import parse

    for status, page in ((403, AKAMAI_BLOCK), (403, PERIMETERX_CAPTCHA), (200, GENERIC_CAPTCHA)):
        assert classify(status, {}, parse(page)) == classify(status, {}, page)
