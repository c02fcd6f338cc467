"""The SSRF guard, on (no WEBTAP_ALLOW_PRIVATE_NETWORKS): web-fetch-tool end to end.

Where the address is our own 127.0.0.1 server, the test also proves the server got nothing.
"""

from __future__ import annotations

import pytest

from webtap.tools import call

HINT = "(set WEBTAP_ALLOW_PRIVATE_NETWORKS=1 to allow private networks)"


@pytest.mark.parametrize(
    ("host", "said"),
    [
        ("127.0.0.1", "127.0.0.1 is a loopback address"),
        ("2130706433", "2130706433 is 127.0.0.1, a loopback address"),
        ("0x7f.1", "0x7f.1 is 127.0.0.1, a loopback address"),
        ("0177.0.0.1", "0177.0.0.1 is 127.0.0.1, a loopback address"),
        ("127.1", "127.1 is 127.0.0.1, a loopback address"),
        ("[::ffff:127.0.0.1]", "::ffff:127.0.0.1 is an IPv6 form of 127.0.0.1, a loopback address"),
    ],
)
def test_spellings_of_loopback_are_refused_before_anything_is_sent(site, fetch_tool, host, said):
    site.page("/", "<p>secret</p>")
    url = site.url("/", host=host)
    response = fetch_tool(url)
    assert response["error_code"] == "URL_NOT_ALLOWED"
    assert response["error"] == f"Refusing to fetch {url}: {said} {HINT}"
    assert site.requests == []


def test_a_name_that_resolves_to_loopback_is_refused(site, fetch_tool):
    site.page("/", "<p>secret</p>")
    url = site.url("/", host="localhost")
    response = fetch_tool(url)
    assert response["error_code"] == "URL_NOT_ALLOWED"
    assert response["error"].startswith(f"Refusing to fetch {url}: localhost resolves to ")
    assert "a loopback address" in response["error"]
    assert site.requests == []


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("http://[::1]/", "::1 is a loopback address"),
        ("http://169.254.169.254/latest/meta-data/", "the cloud metadata service's link-local"),
        ("http://10.0.0.1/", "10.0.0.1 is a private address"),
        ("http://192.168.1.1/", "192.168.1.1 is a private address"),
        ("http://0.0.0.0/", "0.0.0.0 is an unspecified address"),
        ("http://224.0.0.1/", "224.0.0.1 is a multicast address"),
    ],
)
def test_non_public_addresses_are_refused(fetch_tool, url, said):
    response = fetch_tool(url)
    assert response["error_code"] == "URL_NOT_ALLOWED"
    assert response["error"].startswith(f"Refusing to fetch {url}: ")
    assert said in response["error"]
    assert response["error"].endswith(HINT)


# More of the same in process (webtap.tools.call runs the same handler), without a process each.


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("http://169.254.1.1/", "169.254.1.1 is a link-local address"),
        ("http://172.16.5.4/", "172.16.5.4 is a private address"),
        ("http://100.64.0.1/", "carrier-grade NAT"),
        ("http://240.0.0.1/", "240.0.0.1 is a reserved address"),
        ("http://[fe80::1]/", "fe80::1 is a link-local address"),
        ("http://[fd00:ec2::254]/", "the cloud metadata service's private address"),
        ("http://[fc00::5]/", "unique local"),
        ("http://[ff02::1]/", "multicast"),
        ("http://[2002:a00:1::]/", "an IPv6 form of 10.0.0.1, a private address"),
        ("http://[64:ff9b::a9fe:a9fe]/", "an IPv6 form of 169.254.169.254"),
        ("https://0x0a.0.0.1/", "0x0a.0.0.1 is 10.0.0.1, a private address"),
    ],
)
def test_more_non_public_addresses_are_refused(url, said):
    response = call("web_fetch", {"url": url}).response()
    assert response["error_code"] == "URL_NOT_ALLOWED"
    assert response["error"].startswith(f"Refusing to fetch {url}: ")
    assert said in response["error"]


@pytest.mark.parametrize(
    "url", ["ftp://example.com/file", "file:///etc/passwd", "http://", "not a url", "https:///x"]
)
def test_what_is_not_an_http_url_is_invalid(fetch_tool, url):
    response = fetch_tool(url)
    assert response["error_code"] == "INVALID_URL"
    assert response["error"].startswith("Invalid URL")


def test_the_guard_checks_every_redirect_hop(site, fetch_tool):
    """Our server is allowed by network; where it redirects is checked by the real guard."""
    allow = {"WEBTAP_ALLOW_NETWORKS": "127.0.0.1/32"}
    ok = site.route("/ok", "fine", headers={"Content-Type": "text/plain"})
    assert fetch_tool(ok, env=allow)["content"] == "fine"

    other_loopback = f"http://127.0.0.2:{site.port}/admin"
    site.redirect("/to-loopback", other_loopback)
    response = fetch_tool(site.url("/to-loopback"), env=allow)
    assert response["error_code"] == "URL_NOT_ALLOWED"
    assert response["error"] == (
        f"Refusing to fetch {other_loopback}: 127.0.0.2 is a loopback address {HINT}"
    )

    octal = f"http://0177.0.0.2:{site.port}/"
    site.redirect("/to-octal", octal)
    response = fetch_tool(site.url("/to-octal"), env=allow)
    assert response["error"] == (
        f"Refusing to fetch {octal}: 0177.0.0.2 is 127.0.0.2, a loopback address {HINT}"
    )

    site.redirect("/to-metadata", "http://169.254.169.254/latest/meta-data/")
    response = fetch_tool(site.url("/to-metadata"), env=allow)
    assert response["error_code"] == "URL_NOT_ALLOWED"
    assert "cloud metadata" in response["error"]
    paths = [r.path for r in site.requests]
    assert paths == ["/ok", "/to-loopback", "/to-octal", "/to-metadata"]


def test_a_bad_allowed_networks_setting_is_a_clear_error(fetch_tool):
    response = fetch_tool("http://example.com/", env={"WEBTAP_ALLOW_NETWORKS": "10.0.0.0/99"})
    assert response["error_code"] == "CONFIG_ERROR"
    assert "WEBTAP_ALLOW_NETWORKS" in response["error"]
