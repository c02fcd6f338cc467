"""HTTP framing read strictly (issue 18, item 2; RFC 9112 §6): a response whose length two
readers could disagree on is a NETWORK_ERROR, "the server's answer is not valid HTTP: …", for
pages and search providers alike. Each answer is sent byte for byte by the fake site
(``Route.raw``) on a real socket, then read by the real executables and the library.
"""

from __future__ import annotations

import ipaddress
import json

import pytest

from webtap.errors import NetworkError
from webtap.fetch import fetch
from webtap.guard import Guard
from webtap.net.connection import chunk_size, content_length

LOCAL = Guard(allowed_networks=(ipaddress.ip_network("127.0.0.1/32"),))
PREFIX = "the server's answer is not valid HTTP: "
PAGE = b"hello, framed world"
BRAVE = json.dumps({"type": "search", "web": {"results": []}}).encode()


def chunked(body: bytes, size: str = "{:x}") -> bytes:
    return size.format(len(body)).encode() + b"\r\n" + body + b"\r\n0\r\n\r\n"


def answer(fields: list[str], body: bytes, content_type: str) -> bytes:
    head = ["HTTP/1.1 200 OK", f"Content-Type: {content_type}", "Connection: close", *fields]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


# (id, header fields, how the body is sent, what the message says). Each of these answers is
# read as a success by a lenient reader (http.client's own): the body comes through whole.
REFUSED = [
    ("negative-length", ["Content-Length: -5"], None, "Content-Length is '-5'"),
    ("two-lengths", ["Content-Length: {n}", "Content-Length: {n2}"], None, "different"),
    ("length-list", ["Content-Length: {n}, {n2}"], None, "different Content-Length values"),
    ("length-not-a-number", ["Content-Length: {n}x"], None, "not a number of bytes"),
    ("coding-not-chunked", ["Transfer-Encoding: gzip"], None, "'gzip' does not end in chunked"),
    ("chunked-twice", ["Transfer-Encoding: chunked, chunked"], "{:x}", "more than once"),
    ("coding-then-chunked", ["Transfer-Encoding: gzip, chunked"], "{:x}", "a coding before"),
    (
        "coding-and-length",
        ["Transfer-Encoding: chunked", "Content-Length: {n}"],
        "{:x}",
        "both Transfer-Encoding and Content-Length",
    ),
    ("chunk-size-0x", ["Transfer-Encoding: chunked"], "0x{:x}", "'0x"),
    ("chunk-size-plus", ["Transfer-Encoding: chunked"], "+{:x}", "'+"),
    ("chunk-size-underscore", ["Transfer-Encoding: chunked"], "{:x}_0", "not a hexadecimal"),
]
# Framing that is valid, however unusual: read as it says.
ACCEPTED = [
    ("same-length-twice", ["Content-Length: {n}", "Content-Length: {n}"], None),
    ("same-length-list", ["Content-Length: {n}, {n}"], None),
    ("chunked-capitals", ["Transfer-Encoding: Chunked"], "{:X}"),
    ("chunk-extension", ["Transfer-Encoding: chunked"], "{:x} ;name=value"),
    ("no-length", [], None),
]


def raw(fields: list[str], size: str | None, body: bytes, content_type: str) -> bytes:
    filled = [f.format(n=len(body), n2=len(body) + 3) for f in fields]
    return answer(filled, chunked(body, size) if size else body, content_type)


@pytest.mark.parametrize(
    ("fields", "size", "said"), [c[1:] for c in REFUSED], ids=[c[0] for c in REFUSED]
)
def test_the_fetch_tool_refuses_invalid_framing(
    site, fetch_tool, allow_private, fields, size, said
):
    url = site.raw("/framed", raw(fields, size, PAGE, "text/plain"))
    response = fetch_tool(url)
    assert response["success"] is False, response
    assert response["error_code"] == "NETWORK_ERROR"
    assert response["error"].startswith(f"Failed to fetch URL: {PREFIX}")
    assert said in response["error"]


@pytest.mark.parametrize(
    ("fields", "size", "said"), [c[1:] for c in REFUSED], ids=[c[0] for c in REFUSED]
)
def test_a_search_provider_answer_with_invalid_framing_is_refused(
    site, run_exe, fields, size, said
):
    site.raw("/res/v1/web/search", raw(fields, size, BRAVE, "application/json"))
    env = {"BRAVE_SEARCH_URL": site.url("/res/v1/web/search"), "BRAVE_API_KEY": "k" * 32}
    result = run_exe("web-search-brave-tool", stdin={"query": "framing"}, env=env)
    assert result.returncode == 0, result.stderr
    response = result.json
    assert response["success"] is False, response
    assert response["error_code"] == "NETWORK_ERROR"
    assert response["error"].startswith(f"Brave Search at 127.0.0.1: {PREFIX}")
    assert said in response["error"]


@pytest.mark.parametrize(
    ("fields", "size"), [c[1:] for c in ACCEPTED], ids=[c[0] for c in ACCEPTED]
)
def test_valid_framing_is_read_as_it_says(site, fields, size):
    url = site.raw("/framed", raw(fields, size, PAGE, "text/plain"))
    assert fetch(url, guard=LOCAL, cache=False).markdown == PAGE.decode()


@pytest.mark.parametrize("status", [204, 304])
def test_framing_fields_mean_nothing_where_there_is_no_body(site, status):
    """RFC 9112 §6.3, 1: such a response ends with its headers, whatever they say."""
    head = f"HTTP/1.1 {status} Nothing\r\nContent-Length: -5\r\nTransfer-Encoding: gzip\r\n\r\n"
    url = site.raw("/empty", head.encode())
    assert fetch(url, guard=LOCAL, cache=False).markdown == ""


def test_a_body_cut_short_of_its_chunks_is_a_closed_connection_not_bad_framing(site):
    url = site.raw(
        "/cut", answer(["Transfer-Encoding: chunked"], b"10\r\nonly a few", "text/plain")
    )
    with pytest.raises(NetworkError, match="connection closed unexpectedly"):
        fetch(url, guard=LOCAL, cache=False)


@pytest.mark.parametrize(
    ("lengths", "encodings", "expected"),
    [
        ([], [], None),
        (["0"], [], 0),
        (["007"], [], 7),
        ([" 12 ", "12"], [], 12),
        (["12,", "12"], [], 12),  # an empty list element means nothing (RFC 9110 §5.6.1)
        ([], ["chunked"], None),
        ([], [" CHUNKED "], None),
    ],
)
def test_content_length_reading(lengths, encodings, expected):
    assert content_length(lengths, encodings) == expected


@pytest.mark.parametrize(
    ("lengths", "encodings"),
    [
        ([""], []),
        (["1" * 19], []),
        (["1e3"], []),
        (["0x10"], []),
        ([], [""]),
        ([], ["identity"]),
        ([], ["chunked", "chunked"]),  # two fields say it twice
    ],
)
def test_content_length_refusals(lengths, encodings):
    from webtap.net import InvalidHTTP

    with pytest.raises(InvalidHTTP):
        content_length(lengths, encodings)


@pytest.mark.parametrize(
    ("line", "size"),
    [(b"0\r\n", 0), (b"1a\r\n", 26), (b"FF;x=1\r\n", 255), (b"10 \t;ext\r\n", 16), (b"5\n", 5)],
)
def test_chunk_sizes(line, size):
    assert chunk_size(line) == size


@pytest.mark.parametrize("line", [b"\r\n", b"-5\r\n", b" 5\r\n", b"5 5\r\n", b"g\r\n", b"1" * 17])
def test_chunk_size_refusals(line):
    from webtap.net import InvalidHTTP

    with pytest.raises(InvalidHTTP):
        chunk_size(line)
