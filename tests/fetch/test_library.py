"""webtap.fetch and webtap.guard as a library: the guard's judgements, the connect-time check
with a scripted resolver in front of a real 127.0.0.1 server, decoding and pagination."""

from __future__ import annotations

import gzip
import ipaddress
import socket
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from webtap.errors import InvalidInput, InvalidURL, NetworkError, ParseError, URLNotAllowed
from webtap.fetch import check_url, fetch, paginate, split_lines
from webtap.fetch.media import parse_content_type, sniff, to_markdown
from webtap.guard import Guard, describe, parse_ip_literal
from webtap.net import Limits, Timeouts
from webtap.net.tls import ssl_context as _ssl_context

LOCAL_ONLY = Guard(allowed_networks=(ipaddress.ip_network("127.0.0.1/32"),))
FAST = Timeouts(connect=2, read=5, total=5)

# --- the guard's judgements -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("address", "reason"),
    [
        ("127.0.0.1", "a loopback address"),
        ("127.255.0.9", "a loopback address"),
        ("0.0.0.0", "an unspecified address"),
        ("0.1.2.3", "a reserved address ('this network', 0.0.0.0/8)"),
        ("10.1.2.3", "a private address"),
        ("172.31.255.255", "a private address"),
        ("192.168.0.1", "a private address"),
        ("100.127.0.1", "a private address (carrier-grade NAT, 100.64.0.0/10)"),
        ("169.254.169.254", "the cloud metadata service's link-local address"),
        ("169.254.0.1", "a link-local address"),
        ("224.0.0.251", "a multicast address"),
        ("239.255.255.250", "a multicast address"),
        ("240.0.0.1", "a reserved address"),
        ("255.255.255.255", "a broadcast address"),
        ("192.0.2.10", "a special-purpose (non-public) address"),
        ("198.18.0.1", "a special-purpose (non-public) address"),
        ("::", "an unspecified address"),
        ("::1", "a loopback address"),
        ("::ffff:10.0.0.1", "an IPv6 form of 10.0.0.1, a private address"),
        ("::127.0.0.1", "an IPv6 form of 127.0.0.1, a loopback address"),
        ("64:ff9b::7f00:1", "an IPv6 form of 127.0.0.1, a loopback address"),
        ("2002:c0a8:101::1", "an IPv6 form of 192.168.1.1, a private address"),
        ("2001:0:4136:e378:8000:63bf:f5ff:fffe", "an IPv6 form of 10.0.0.1, a private address"),
        ("fe80::1", "a link-local address"),
        ("fc00::1", "a private address (unique local)"),
        ("fd12:3456::1", "a private address (unique local)"),
        ("fd00:ec2::254", "the cloud metadata service's private address"),
        ("fec0::1", "a private address (site-local)"),
        ("ff02::1", "a multicast address"),
        ("2001:db8::1", "a special-purpose (non-public) address"),
        ("100::1", "a reserved address"),
    ],
)
def test_non_public_addresses_are_described(address, reason):
    assert describe(ipaddress.ip_address(address)) == reason


@pytest.mark.parametrize(
    "address",
    [
        "8.8.8.8",
        "93.184.216.34",
        "1.1.1.1",
        "2606:4700:4700::1111",
        "::ffff:8.8.8.8",
        "64:ff9b::808:808",
        "2002:808:808::1",
    ],
)
def test_public_addresses_pass(address):
    ip = ipaddress.ip_address(address)
    assert describe(ip) is None
    assert Guard().refusal(ip) is None


@pytest.mark.parametrize(
    ("host", "address"),
    [
        ("127.0.0.1", "127.0.0.1"),
        ("2130706433", "127.0.0.1"),
        ("0x7f.1", "127.0.0.1"),
        ("0x7F000001", "127.0.0.1"),
        ("0177.0.0.1", "127.0.0.1"),
        ("127.1", "127.0.0.1"),
        ("10.1", "10.0.0.1"),
        ("127.0.0.1.", "127.0.0.1"),
        ("[::ffff:127.0.0.1]", "::ffff:127.0.0.1"),
        ("::1", "::1"),
        ("fe80::1%eth0", "fe80::1"),
    ],
)
def test_address_spellings_are_read_as_the_resolver_reads_them(host, address):
    assert parse_ip_literal(host) == ipaddress.ip_address(address)


@pytest.mark.parametrize("host", ["example.com", "localhost", "1.2.3.4.5", "999.1.1.1", "cafe", ""])
def test_names_are_not_addresses(host):
    assert parse_ip_literal(host) is None


def test_allowing_private_networks_allows_everything(monkeypatch):
    monkeypatch.setenv("WEBTAP_ALLOW_PRIVATE_NETWORKS", "1")
    guard = Guard.from_env()
    assert guard.refusal(ipaddress.ip_address("169.254.169.254")) is None
    guard.check_host("127.0.0.1")


@pytest.mark.parametrize("value", ["", "0", "false", "no"])
def test_the_guard_is_on_unless_clearly_allowed(monkeypatch, value):
    monkeypatch.setenv("WEBTAP_ALLOW_PRIVATE_NETWORKS", value)
    with pytest.raises(URLNotAllowed):
        Guard.from_env().check_host("127.0.0.1")


def test_allowed_networks_cover_ipv6_forms_of_their_addresses():
    assert LOCAL_ONLY.refusal(ipaddress.ip_address("::ffff:127.0.0.1")) is None
    assert LOCAL_ONLY.refusal(ipaddress.ip_address("127.0.0.2")) == "a loopback address"


# --- the connect-time check, with names the test resolves --------------------------------------


@pytest.fixture
def resolver(monkeypatch):
    """Scripted answers for ``*.test`` names; everything else goes to the real resolver."""
    real = socket.getaddrinfo
    answers: dict[str, list[str]] = {}
    calls: list[str] = []

    def getaddrinfo(host, port, *args, **kwargs):
        calls.append(host)
        if host == "slow.test":
            time.sleep(3)
        if host in answers:
            return [
                (
                    socket.AF_INET6 if ":" in a else socket.AF_INET,
                    socket.SOCK_STREAM,
                    6,
                    "",
                    (a, port),
                )
                for a in answers[host]
            ]
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    getaddrinfo.answers = answers
    getaddrinfo.calls = calls
    return getaddrinfo


def test_a_checked_name_is_fetched_with_its_own_host_header(site, resolver):
    resolver.answers["public.test"] = ["127.0.0.1"]
    url = site.route("/p", "hello", headers={"Content-Type": "text/plain"})
    page = fetch(url.replace("127.0.0.1", "public.test"), guard=LOCAL_ONLY, timeouts=FAST)
    assert page.markdown == "hello"
    assert site.requests[0].headers["host"] == f"public.test:{site.port}"


def test_a_redirect_to_a_name_that_resolves_privately_is_refused_at_connect(site, resolver):
    resolver.answers["public.test"] = ["127.0.0.1"]
    resolver.answers["intranet.test"] = ["10.0.0.5"]
    site.redirect("/go", f"http://intranet.test:{site.port}/secret")
    with pytest.raises(URLNotAllowed) as caught:
        fetch(f"http://public.test:{site.port}/go", guard=LOCAL_ONLY, timeouts=FAST)
    assert str(caught.value) == (
        f"Refusing to fetch http://intranet.test:{site.port}/secret: intranet.test resolves to "
        "10.0.0.5, a private address (set WEBTAP_ALLOW_PRIVATE_NETWORKS=1 to allow private "
        "networks)"
    )
    assert [r.path for r in site.requests] == ["/go"]


def test_every_address_a_name_resolves_to_is_checked(site, resolver):
    resolver.answers["mixed.test"] = ["127.0.0.1", "192.168.0.7"]
    site.route("/", "x")
    with pytest.raises(URLNotAllowed, match=r"mixed\.test resolves to 192\.168\.0\.7"):
        fetch(f"http://mixed.test:{site.port}/", guard=LOCAL_ONLY, timeouts=FAST)
    assert site.requests == []


def test_the_name_is_resolved_once_and_the_checked_address_is_used(site, resolver):
    resolver.answers["once.test"] = ["127.0.0.1"]
    site.route("/", "x", headers={"Content-Type": "text/plain"})
    fetch(f"http://once.test:{site.port}/", guard=LOCAL_ONLY, timeouts=FAST)
    assert resolver.calls.count("once.test") == 1


@pytest.fixture
def trust(certificate, monkeypatch):
    """Trust the test certificate (webtap reads SSL_CERT_FILE, as httpx does)."""
    monkeypatch.setenv("SSL_CERT_FILE", certificate[0])
    _ssl_context.cache_clear()
    yield
    _ssl_context.cache_clear()


def test_https_to_a_checked_address_still_verifies_the_name(tls_site, resolver, trust):
    """The connection goes to the address the guard checked; TLS (SNI, certificate) and the
    Host header still use the name."""
    resolver.answers["public.test"] = ["127.0.0.1"]
    url = tls_site.route("/p", "over tls", headers={"Content-Type": "text/plain"})
    page = fetch(url.replace("127.0.0.1", "public.test"), guard=LOCAL_ONLY, timeouts=FAST)
    assert page.markdown == "over tls"
    assert tls_site.requests[0].headers["host"] == f"public.test:{tls_site.port}"
    with pytest.raises(NetworkError, match="TLS error"):
        fetch(url, guard=LOCAL_ONLY, timeouts=FAST)  # the certificate is not for 127.0.0.1


def test_a_hanging_dns_lookup_hits_the_connect_timeout(resolver):
    # The message names the deadline the lookup was held to: the connect timeout, not the
    # total's 5 s.
    with pytest.raises(NetworkError, match=r"connection timed out after 0.3 s"):
        fetch("http://slow.test/", timeouts=Timeouts(connect=0.3, read=5, total=5))


def test_gzip_bodies_that_fill_whole_pieces_are_read_whole(site):
    body = b"a" * (128 * 1024) + b"tail"
    url = site.route(
        "/z",
        gzip.compress(body) + gzip.compress(b" and more"),
        headers={"Content-Type": "text/plain", "Content-Encoding": "gzip"},
    )
    page = fetch(url, guard=LOCAL_ONLY, limits=Limits(max_body=1 << 20))
    assert page.markdown == (body + b" and more").decode()


# --- URLs, content types, pagination -----------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("example.com/page", "did you mean https://example.com/page?"),
        ("javascript:alert(1)", "the javascript: scheme is not supported"),
        ("mailto:a@example.com", "the mailto: scheme is not supported"),
        ("gopher://example.com/", "the gopher: scheme is not supported"),
        ("http://exa mple.com/", "Invalid URL"),
        ("http://example.com:99999/", "Port out of range"),
        ("http://[::1/", "Invalid IPv6 URL"),
        ("http://ex\nample.com/", "control characters"),
        ("//example.com/x", "absolute"),
    ],
)
def test_invalid_urls_say_what_is_wrong(url, said):
    with pytest.raises(InvalidURL, match="Invalid URL") as caught:
        fetch(url)
    assert said in str(caught.value)


def test_surrounding_whitespace_is_forgiven():
    assert check_url("  https://example.com/a \n") == "https://example.com/a"


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("text/html; charset=UTF-8", ("text/html", "UTF-8")),
        ('Text/HTML;Charset="shift_jis"', ("text/html", "shift_jis")),
        ("application/json", ("application/json", None)),
        ("", ("", None)),
        ("text/plain; charset=", ("text/plain", None)),
    ],
)
def test_content_type_header(header, expected):
    assert parse_content_type(header) == expected


@pytest.mark.parametrize(
    ("body", "media_type"),
    [
        (b"\xef\xbb\xbf<!DOCTYPE html><p>x", "text/html"),
        (b"  <html><body>x", "text/html"),
        (b"<div>fragment</div>", "text/html"),
        (b'<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml">', "text/html"),
        (b'{"a": [1, 2]}', "application/json"),
        (b"{not json", "text/plain"),
        (b"just words", "text/plain"),
        (b"%PDF-1.4 ...", "application/pdf"),
        (b"GIF89a....", "image/gif"),
        (b"RIFF\0\0\0\0WEBPVP8 ", "image/webp"),
        (b"\x00\x01binary", "application/octet-stream"),
    ],
)
def test_sniffing(body, media_type):
    assert sniff(body) == media_type


@pytest.mark.parametrize(
    ("markdown", "lines"),
    [
        ("", []),
        ("one", ["one"]),
        ("one\n", ["one\n"]),
        ("one\n\ntwo", ["one\n", "\n", "two"]),
        ("form\x0cfeed\u2028kept\n", ["form\x0cfeed\u2028kept\n"]),
    ],
)
def test_lines_end_only_at_newlines(markdown, lines):
    assert split_lines(markdown) == lines


def test_paginate_rejects_what_the_schema_rejects():
    with pytest.raises(InvalidInput, match="offset"):
        paginate("a\nb\n", 0)
    with pytest.raises(InvalidInput, match="limit"):
        paginate("a\nb\n", 1, 0)


def test_paginate_without_limits_returns_the_markdown_untouched():
    assert paginate("a\r\nb", 1, None) == ("a\r\nb", 2)


# --- properties ----------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(
    text=st.text(alphabet="ab\n\r\x0c", max_size=40),
    offset=st.integers(1, 30),
    limit=st.integers(1, 30),
)
def test_pages_always_join_up_to_the_whole(text, offset, limit):
    whole, total = paginate(text)
    pages = [paginate(text, start, limit)[0] for start in range(1, total + 1, limit)]
    assert "".join(pages) == whole == text
    content, same_total = paginate(text, offset, limit)
    assert same_total == total
    assert len(split_lines(content)) == max(0, min(limit, total - offset + 1))


@settings(max_examples=150, deadline=None)
@given(
    body=st.binary(max_size=300) | st.text(max_size=300).map(str.encode),
    content_type=st.sampled_from(
        [
            "",
            "text/html",
            "text/html; charset=bogus",
            "application/json",
            "text/plain;charset=",
            "application/xhtml+xml; charset=utf-16",
            "text/markdown",
            "application/octet-stream",
            "image/png",
            "application/problem+json",
            ";;;",
            "TEXT/HTML; CHARSET=SHIFT_JIS",
        ]
    ),
)
def test_any_body_under_any_content_type_is_markdown_or_a_parse_error(body, content_type):
    try:
        title, markdown, _ = to_markdown(body, content_type, "http://example.com/a/")
    except ParseError:
        return
    assert isinstance(title, str)
    assert isinstance(markdown, str)


def test_json_nested_too_deeply_for_the_decoder_is_shown_as_text():
    body = b"[" * 200_000 + b"]" * 200_000
    assert sniff(body) == "text/plain"
    _, markdown, _ = to_markdown(body, "application/json", "http://example.com/")
    assert markdown.startswith("[[[[") and "```" not in markdown
