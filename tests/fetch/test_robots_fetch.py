"""robots.txt in the fetch (issue 22, decision: What a fetch got): obeyed for the URLs a model chose
(the executable), not for a person's (``webtap fetch``), ``WEBTAP_ROBOTS`` over both; read through
the same guard and client, once per origin for ten executable calls (the page cache's file), every
redirect hop asked; the statuses of robots.txt itself; the User-Agent's token.

The rules themselves (wildcards, ``$``, the longest match, groups) are webtap.fetch.robots's, tested
in tests/test_robots.py; here they are asked by real fetches of the fake site.
"""

from __future__ import annotations

import pytest
from tests.fakes.site import Site

from webtap.errors import RobotsDisallowed
from webtap.fetch import fetch
from webtap.guard import Guard
from webtap.net import Client, MockTransport, Request, Response

PRIVATE = "User-agent: *\nDisallow: /private/\n"
HTML = {"Content-Type": "text/html; charset=utf-8"}
PAGE = "<html><head><title>Open</title></head><body><p>Plenty of open words here.</p></body></html>"


def robots(site: Site, text: str = PRIVATE, status: int = 200) -> None:
    site.route("/robots.txt", text, status=status, headers={"Content-Type": "text/plain"})


def pages(site: Site, *paths: str) -> list[str]:
    return [site.route(path, PAGE, headers=HTML) for path in paths]


@pytest.mark.usefixtures("allow_private")
def test_ten_executable_calls_on_one_origin_read_robots_txt_once(site, fetch_tool) -> None:
    robots(site)
    for url in pages(site, *(f"/p{n}" for n in range(10))):
        assert fetch_tool(url)["success"] is True
    assert site.robots_reads() == 1
    assert site.paths() == [f"/p{n}" for n in range(10)]


@pytest.mark.usefixtures("allow_private")
def test_without_the_caches_each_process_reads_robots_txt_itself(site, fetch_tool) -> None:
    robots(site)
    first, second = pages(site, "/a", "/b")
    for url in (first, second):
        assert fetch_tool(url, env={"WEBTAP_CACHE": "off"})["success"] is True
    assert site.robots_reads() == 2


@pytest.mark.usefixtures("allow_private")
def test_a_disallowed_url_is_refused_quoting_the_rule(site, fetch_tool) -> None:
    robots(site, "User-agent: *\nAllow: /private/open\nDisallow: /private/\n")
    refused, allowed = pages(site, "/private/report", "/private/open/x")
    response = fetch_tool(refused)
    assert response["error_code"] == "ROBOTS_DISALLOWED"
    assert response["error"] == (
        f"robots.txt disallows fetching {refused}: {site.url('/robots.txt')} has the rule "
        "'Disallow: /private/' in the group 'User-agent: *'."
    )
    assert response["advice"] == (
        "Do not retry it: tell the user, who can fetch it themselves, or use another source."
    )
    assert response["robots_rule"] == "Disallow: /private/"
    assert (response["retryable"], response["retry_with"]) == (False, "another_url")
    assert fetch_tool(allowed)["success"] is True  # the longer Allow wins
    assert site.paths() == ["/private/open/x"]  # the refused page was never asked for


@pytest.mark.usefixtures("allow_private")
def test_a_person_is_not_held_to_robots_txt_unless_asked(site, run_exe, fetch_tool) -> None:
    robots(site, "User-agent: *\nDisallow: /\n")
    (url,) = pages(site, "/story")
    person = run_exe("webtap", "fetch", url, timeout=30)
    assert (person.returncode, person.stderr) == (0, "")
    assert "Plenty of open words" in person.stdout
    assert site.robots_reads() == 0  # not even read
    obeying = run_exe("webtap", "fetch", url, env={"WEBTAP_ROBOTS": "obey"}, timeout=30)
    assert obeying.returncode == 1 and obeying.stderr.endswith("[ROBOTS_DISALLOWED]\n")
    assert fetch_tool(url)["error_code"] == "ROBOTS_DISALLOWED"  # the model's fetch obeys
    assert fetch_tool(url, env={"WEBTAP_ROBOTS": "ignore"})["success"] is True
    assert site.paths() == ["/story"]  # the person's; WEBTAP_ROBOTS=ignore's from the cache


@pytest.mark.usefixtures("allow_private")
@pytest.mark.parametrize(
    ("status", "allowed"), [(401, False), (403, False), (404, True), (410, True), (500, True)]
)
def test_what_robots_txts_own_status_means(site, fetch_call, status, allowed) -> None:
    robots(site, "User-agent: *\nDisallow: /\n", status=status)
    (url,) = pages(site, "/page")
    response = fetch_call(url)
    assert response["success"] is allowed
    if not allowed:
        assert response["error_code"] == "ROBOTS_DISALLOWED"
        assert f"answered HTTP {status}, which means nothing may be fetched" in response["error"]


@pytest.mark.usefixtures("allow_private")
def test_a_server_error_on_robots_txt_is_kept_too(site, fetch_tool) -> None:
    # An outage reads as "allow" (as the MCP fetch server does it), for five minutes: ten
    # processes do not each ask a failing server again.
    robots(site, "oops", status=503)
    first, second = pages(site, "/a", "/b")
    assert fetch_tool(first)["success"] is True
    assert fetch_tool(second)["success"] is True
    assert site.robots_reads() == 1


@pytest.mark.usefixtures("allow_private")
def test_every_redirect_hop_is_asked(site, fetch_tool) -> None:
    robots(site)
    site.redirect("/moved", "/private/target")
    pages(site, "/private/target")
    response = fetch_tool(site.url("/moved"))
    assert response["error_code"] == "ROBOTS_DISALLOWED"
    assert "/private/target" in response["error"]
    assert site.paths() == ["/moved"]  # the disallowed hop was never sent


@pytest.mark.usefixtures("allow_private")
def test_a_page_a_person_cached_is_still_refused_to_a_model(site, run_exe, fetch_tool) -> None:
    robots(site)
    (url,) = pages(site, "/private/notes")
    assert run_exe("webtap", "fetch", url, timeout=30).returncode == 0
    assert fetch_tool(url)["error_code"] == "ROBOTS_DISALLOWED"  # robots.txt comes first
    assert site.paths() == ["/private/notes"]


@pytest.mark.usefixtures("allow_private")
def test_the_user_agent_names_the_group(site, fetch_tool) -> None:
    robots(site, "User-agent: mybot\nDisallow: /\n\nUser-agent: *\nAllow: /\n")
    (url,) = pages(site, "/page")
    agent = {"WEBTAP_USER_AGENT": "mybot/2.0 (+https://example.org/bot)"}
    refused = fetch_tool(url, env=agent)
    assert refused["error_code"] == "ROBOTS_DISALLOWED"
    assert "in the group 'User-agent: mybot'" in refused["error"]
    assert site.log[-1].headers["user-agent"] == agent["WEBTAP_USER_AGENT"]  # robots.txt's
    assert fetch_tool(url)["success"] is True  # webtap's own token: the * group
    assert site.requests[-1].headers["user-agent"].startswith("webtap/")


def test_robots_txt_goes_through_the_guard(site, fetch_tool) -> None:
    # The guard is on: the page's address is refused as such, and robots.txt is not asked.
    robots(site)
    (url,) = pages(site, "/page")
    response = fetch_tool(url)
    assert response["error_code"] == "URL_NOT_ALLOWED"
    assert response["error"].startswith(f"Refusing to fetch {url}: 127.0.0.1 is a loopback")
    assert site.log == []


def test_robots_txt_redirected_where_the_guard_refuses_is_unreadable_not_a_refusal() -> None:
    seen: list[str] = []

    def web(request: Request) -> Response:
        seen.append(request.url)
        if request.url == "http://shop.test/robots.txt":
            return Response(301, {"Location": "http://10.0.0.1/robots.txt"})
        return Response(200, {"Content-Type": "text/plain"}, b"the catalogue")

    client = Client(transport=MockTransport(web))
    page = fetch("http://shop.test/catalogue", client=client, guard=Guard(), model_chose=True)
    assert page.markdown == "the catalogue"
    assert seen == ["http://shop.test/robots.txt", "http://shop.test/catalogue"]


def test_robots_txt_and_the_page_share_the_fetchs_client() -> None:
    # One client per fetch: robots.txt, the page and a redirect's hop all go through the one
    # the fetch was given (its guard, its transport).
    seen: list[str] = []

    def web(request: Request) -> Response:
        seen.append(request.url)
        if request.url.endswith("/robots.txt"):
            return Response(200, {"Content-Type": "text/plain"}, PRIVATE.encode())
        if request.url == "http://a.test/old":
            return Response(302, {"Location": "http://b.test/private/new"})
        return Response(200, {"Content-Type": "text/plain"}, b"hello")

    client = Client(transport=MockTransport(web))
    with pytest.raises(RobotsDisallowed, match=r"http://b\.test/robots\.txt has the rule"):
        fetch("http://a.test/old", client=client, guard=Guard(), model_chose=True)
    assert seen == ["http://a.test/robots.txt", "http://a.test/old", "http://b.test/robots.txt"]
    assert fetch("http://a.test/old", client=client, guard=Guard()).markdown == "hello"
