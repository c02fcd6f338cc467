"""Redirects, cookies across them, the guard on every hop, and conditional requests: the fetch
library's own logic, on a mock transport (``webtap.net.MockTransport``), no socket involved.

What the wire does (framing, deadlines, addresses a name resolves to) is tested on real
sockets in test_transport.py, test_framing.py and test_redirect_deadline.py.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urldefrag

import pytest

from webtap.errors import HTTPError, InvalidURL, URLNotAllowed
from webtap.fetch import fetch
from webtap.guard import Guard
from webtap.net import Client, MockTransport, Request, Response

TEXT = {"Content-Type": "text/plain"}
Answer = Response | Callable[[Request], Response]


class Web:
    """A few URLs and how each answers; every request the client made, in order."""

    def __init__(self, answers: dict[str, Answer]) -> None:
        self.answers = answers
        self.transport = MockTransport(self.handle)

    def handle(self, request: Request) -> Response:
        answer = self.answers.get(urldefrag(request.url).url)
        if answer is None:
            return Response(404, TEXT, b"no such page")
        return answer(request) if callable(answer) else answer

    def client(self) -> Client:
        return Client(transport=self.transport)

    @property
    def requests(self) -> list[Request]:
        return self.transport.requests

    def urls(self) -> list[str]:
        return [request.url for request in self.requests]

    def cookies(self) -> list[str | None]:
        return [request.headers.get("Cookie") for request in self.requests]


def moved(location: str, status: int = 302, *cookies: str) -> Response:
    return Response(status, [("Location", location), *(("Set-Cookie", c) for c in cookies)])


def get(web: Web, url: str, guard: Guard | None = None, **kwargs):
    return fetch(url, client=web.client(), guard=guard or Guard(), cache=False, **kwargs)


# --- following ---------------------------------------------------------------------------------


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_every_redirect_status_is_followed(status) -> None:
    web = Web(
        {
            "http://a.test/old": moved("http://a.test/plain", status),
            "http://a.test/plain": Response(200, TEXT, b"moved here"),
        }
    )
    page = get(web, "http://a.test/old")
    assert (page.url, page.markdown) == ("http://a.test/plain", "moved here")


def test_ten_redirects_are_followed_and_an_eleventh_is_too_many() -> None:
    chain: dict[str, Answer] = {f"http://a.test/{n}": moved(f"/{n + 1}") for n in range(11)}
    web = Web({**chain, "http://a.test/10": Response(200, TEXT, b"arrived")})
    assert get(web, "http://a.test/0").markdown == "arrived"
    assert len(web.requests) == 11
    web = Web({**chain, "http://a.test/11": Response(200, TEXT, b"never")})
    with pytest.raises(HTTPError, match=r"was redirected more than 10 times$"):
        get(web, "http://a.test/0")
    assert len(web.requests) == 11


def test_a_redirect_loop_is_named() -> None:
    web = Web({"http://a.test/a": moved("/b"), "http://a.test/b": moved("/a")})
    with pytest.raises(HTTPError, match=r"more than 10 times \(a redirect loop\)"):
        get(web, "http://a.test/a")


def test_a_redirect_to_another_scheme_is_not_followed() -> None:
    web = Web({"http://a.test/ftp": moved("ftp://files.example.com/x")})
    with pytest.raises(InvalidURL, match=r"ftp://files\.example\.com/x"):
        get(web, "http://a.test/ftp")
    assert web.urls() == ["http://a.test/ftp"]


def test_the_fragment_asked_for_survives_unless_the_redirect_names_its_own() -> None:
    web = Web(
        {
            "http://a.test/old": moved("/new"),
            "http://a.test/own": moved("/new#theirs"),
            "http://a.test/new": Response(200, TEXT, b"x"),
        }
    )
    assert get(web, "http://a.test/old#mine").url == "http://a.test/new#mine"
    assert get(web, "http://a.test/own#mine").url == "http://a.test/new#theirs"


def test_an_error_status_carries_the_servers_reason() -> None:
    web = Web({"http://a.test/": Response(404, TEXT, b"x", reason="Gone \x1b[2JFishing")})
    # The spec's status line and nothing after it; what would help is in the advice (issue 32).
    with pytest.raises(HTTPError, match=r"^HTTP 404: Gone \[2JFishing$") as raised:
        get(web, "http://a.test/")
    assert raised.value.to_response()["advice"].startswith("Check the URL, or search")


# --- the guard: once per hop, before anything is sent to it -----------------------------------


def test_an_address_in_a_location_is_refused_with_any_client() -> None:
    """A client of the caller's without a guard: an address in a Location is still refused."""
    web = Web({"http://a.test/": moved("http://169.254.169.254/latest/")})
    with pytest.raises(URLNotAllowed, match="cloud metadata"):
        get(web, "http://a.test/")
    assert web.urls() == ["http://a.test/"]


def test_the_guard_sees_each_hops_host_once(monkeypatch) -> None:
    seen: list[str] = []
    real = Guard.check_host
    monkeypatch.setattr(
        Guard, "check_host", lambda self, host: seen.append(host) or real(self, host)
    )
    web = Web(
        {
            "http://a.test/": moved("http://b.test/"),
            "http://b.test/": moved("http://c.test/"),
            "http://c.test/": Response(200, TEXT, b"end"),
        }
    )
    assert get(web, "http://a.test/").markdown == "end"
    assert seen == ["a.test", "b.test", "c.test"]


# --- cookies across a redirect chain -----------------------------------------------------------


def test_a_cookie_set_on_a_redirect_is_sent_on_the_next_hop() -> None:
    web = Web(
        {
            "http://a.test/login": moved("/home", 302, "s=abc; Path=/"),
            "http://a.test/home": Response(200, TEXT, b"welcome"),
        }
    )
    assert get(web, "http://a.test/login").url == "http://a.test/home"
    assert web.cookies() == [None, "s=abc"]


def test_a_cookie_goes_back_only_to_the_host_that_set_it() -> None:
    web = Web(
        {
            "http://a.test/a": moved("http://b.test/away", 302, "s=abc; Domain=."),
            "http://b.test/away": moved("http://a.test/back"),
            "http://a.test/back": Response(200, TEXT, b"back"),
        }
    )
    assert get(web, "http://a.test/a").markdown == "back"
    assert web.cookies() == [None, None, "s=abc"]  # not to b.test; again to a.test


def test_an_expired_or_mismatched_cookie_is_not_sent() -> None:
    web = Web(
        {
            "http://a.test/one": moved("/two", 302, "gone=1; Max-Age=0"),
            "http://a.test/two": moved("/three", 302, "other=1; Path=/elsewhere"),
            "http://a.test/three": Response(200, TEXT, b"done"),
        }
    )
    get(web, "http://a.test/one")
    assert web.cookies() == [None, None, None]


def test_a_secure_cookie_is_sent_only_over_https() -> None:
    web = Web(
        {
            "https://a.test/s": moved("http://a.test/plain", 302, "s=1; Secure"),
            "http://a.test/plain": moved("https://a.test/tls"),
            "https://a.test/tls": Response(200, TEXT, b"ok"),
        }
    )
    get(web, "https://a.test/s")
    assert web.cookies() == [None, None, "s=1"]


# --- conditional requests ----------------------------------------------------------------------


def versioned(etag: str, body: bytes) -> Callable[[Request], Response]:
    def answer(request: Request) -> Response:
        if request.headers.get("If-None-Match") == etag:
            return Response(304, {"ETag": etag})
        return Response(200, {**TEXT, "ETag": etag}, body)

    return answer


def test_revalidation_asks_only_the_hop_that_gave_the_validator(monkeypatch) -> None:
    monkeypatch.setenv("WEBTAP_FETCH_CACHE_TTL", "0")  # every cached page is stale
    web = Web({"http://a.test/old": moved("/v"), "http://a.test/v": versioned('"v1"', b"one")})
    first = fetch("http://a.test/old", client=web.client(), guard=Guard(), cache=True)
    again = fetch("http://a.test/old", client=web.client(), guard=Guard(), cache=True)
    assert first == again and again.markdown == "one"
    asked = [request.headers.get("If-None-Match") for request in web.requests]
    assert web.urls() == ["http://a.test/old", "http://a.test/v"] * 2
    assert asked == [None, None, None, '"v1"']
