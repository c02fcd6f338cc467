"""Host names that break IDNA are an invalid-URL or network error, never an internal one."""

from __future__ import annotations

import pytest

from webtap.tools import call


@pytest.mark.parametrize(
    "url",
    [
        "http://xn--/",
        "http://xn--a.com/",
        "http://xn--ls8h.la/",
        "http://xn--55555555555555555555.com/",
    ],
)
def test_bad_punycode_is_invalid_url(url: str) -> None:
    response = call("web_fetch", {"url": url}).response()
    assert response["error_code"] == "INVALID_URL"
    assert "not a valid IDN" in response["error"]


@pytest.mark.parametrize("url", ["http://a..b/", "http://" + "a" * 300 + ".com/"])
def test_empty_or_long_label_fails_the_lookup_at_once(
    url: str, capfd: pytest.CaptureFixture[str]
) -> None:
    response = call("web_fetch", {"url": url}).response()
    assert response["error_code"] == "NETWORK_ERROR"
    assert "host name is not valid (label empty or too long)" in response["error"]
    assert "Traceback" not in capfd.readouterr().err  # the lookup thread ended cleanly


@pytest.mark.parametrize(
    "url",
    [
        "http://a.com/" + "x" * 5_000_000,  # httpx: URL too long
        "a.b" + "x" * 1_000_000,  # no scheme: the hint quotes the URL
        "http://" + "a" * 70 + ".b" * 30_000 + "/",  # the lookup error names the host
    ],
)
def test_an_error_quotes_a_long_url_clipped(url: str) -> None:
    response = call("web_fetch", {"url": url}).response()
    assert response["error_code"] in ("INVALID_URL", "NETWORK_ERROR")
    assert len(response["error"]) < 600
    assert "..." in response["error"]
