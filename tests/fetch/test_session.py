"""A fetch's Session: each request and each conversion takes the session's settings, and one
request may stand in its own (robots.txt: its limits, no permit), on a mock transport.
"""

from __future__ import annotations

import pytest
from tests.fetch.test_redirects import TEXT, Web, moved

from webtap.errors import HTTPError, RobotsDisallowed
from webtap.fetch.download import Download
from webtap.fetch.session import Session
from webtap.guard import Guard
from webtap.net import Limits, Response

HTML = {"Content-Type": "text/html; charset=utf-8"}


def refusing(prefix: str, asked: list[str]):
    def permit(url: str) -> None:
        asked.append(url)
        if url.startswith(prefix):
            raise RobotsDisallowed(f"robots.txt refuses {url}")

    return permit


def test_every_hop_asks_the_sessions_permit_but_robots_txt_itself_does_not() -> None:
    web = Web(
        {
            "http://a.test/go": moved("http://a.test/private/page"),
            "http://a.test/private/page": Response(200, TEXT, b"secret"),
        }
    )
    asked: list[str] = []
    with Session(guard=Guard(), client=web.client()) as session:
        session.permit = refusing("http://a.test/private/", asked)
        with pytest.raises(RobotsDisallowed):
            session.get("http://a.test/go")
        assert asked == ["http://a.test/go", "http://a.test/private/page"]
        assert web.urls() == ["http://a.test/go"]  # the refused hop was never sent
        got = session.get("http://a.test/go", robots=False)
    assert (got.url, got.body) == ("http://a.test/private/page", b"secret")
    assert len(asked) == 2


def test_a_requests_own_limits_stand_in_for_the_sessions() -> None:
    web = Web(
        {
            "http://a.test/0": moved("/1"),
            "http://a.test/1": moved("/2"),
            "http://a.test/2": Response(200, TEXT, b"x" * 100),
        }
    )
    with Session(guard=Guard(), client=web.client(), limits=Limits(max_body=1000)) as session:
        assert session.get("http://a.test/0").body == b"x" * 100
        head = session.get("http://a.test/2", limits=Limits(max_body=10), whole=False)
        assert head.body == b"x" * 10  # only the head is read, as of robots.txt
        with pytest.raises(HTTPError, match="redirected more than 1 times"):
            session.get("http://a.test/0", limits=Limits(max_redirects=1))


@pytest.mark.parametrize(("mode", "trimmed"), [("main", True), ("page", False)])
def test_convert_takes_the_sessions_mode(mode, trimmed) -> None:
    page = (
        "<html><head><title>T</title>"
        '<link rel="alternate" type="text/markdown" href="/t.md"></head><body>'
        "<nav><a href='/'>Home</a> <a href='/about'>About</a></nav>"
        f"<article><h1>T</h1><p>{'A sentence of the article. ' * 30}</p></article>"
        "<footer>Copyright and a long list of links to other places</footer></body></html>"
    )
    got = Download("http://a.test/t", HTML["Content-Type"], page.encode(), {})
    with Session(mode=mode, guard=Guard(), client=Web({}).client()) as session:
        converted, seen = session.convert(got)
        assert session.convert(got._replace(status=404)) == (None, None)
    assert converted is not None and seen is not None
    assert converted.trimmed is trimmed
    assert ("Copyright" in converted.markdown) is not trimmed
    assert seen.alternate == "http://a.test/t.md"  # the verdict's reader saw the same parse


def test_the_session_closes_its_own_client_and_leaves_an_embedders_open() -> None:
    web = Web({"http://a.test/": Response(200, TEXT, b"one")})
    client = web.client()
    with Session(guard=Guard(), client=client) as session:
        assert session.pages is None  # nor, by default, the page cache: it may see another web
        session.get("http://a.test/")
    assert not client.closed
    with Session(guard=Guard(), cache=False) as session:
        own = session.client()  # made on first use, never sent anything here
        assert session.client() is own
    assert own.closed
