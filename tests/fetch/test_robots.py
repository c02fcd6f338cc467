"""robots.txt: the rules (through Protego), what robots.txt's own status means, the cache per
origin, the quoted rule, and who obeys (a model's fetch, not a person's)."""

from __future__ import annotations

import json
import subprocess
import sys
import threading

import pytest

from webtap.errors import ConfigError, NetworkError, RobotsDisallowed, URLNotAllowed
from webtap.fetch.robots import (
    MAX_ROBOTS_BYTES,
    RULES_TTL,
    UNREACHABLE_TTL,
    RobotsCache,
    obeys_robots,
    read_rules,
    robots_url,
)

SITE = "https://example.org"


def allowed(robots: str, path: str, token: str = "webtap") -> bool:
    return read_rules(200, robots, f"{SITE}/robots.txt").decide(SITE + path, token).allowed


# The cases urllib.robotparser gets wrong are marked: bench/robots_parsers.py prints both.
@pytest.mark.parametrize(
    ("robots", "path", "expected"),
    [
        ("User-agent: *\nDisallow: /*.pdf", "/docs/a.pdf", False),  # stdlib: allow
        ("User-agent: *\nDisallow: /*/private/", "/a/private/x", False),  # stdlib: allow
        ("User-agent: *\nDisallow: /*.php$", "/index.php", False),  # stdlib: allow
        ("User-agent: *\nDisallow: /*.php$", "/index.php?x=1", True),
        ("User-agent: *\nDisallow: /*?", "/search?q=1", False),  # stdlib: allow
        ("User-agent: *\nDisallow: /*?", "/search", True),
        ("User-agent: *\nDisallow: /shop\nAllow: /shop/public", "/shop/public/x", True),  # stdlib
        ("User-agent: *\nAllow: /a\nDisallow: /a/b", "/a/b/c", False),  # stdlib: allow
        ("User-agent: *\nDisallow: /page\nAllow: /page", "/page", True),  # stdlib: deny
        ("User-agent: webtap\nDisallow: /private\n\nUser-agent: *\nDisallow: /", "/public", True),
        ("User-agent: webtap\nDisallow: /private\n\nUser-agent: *\nDisallow: /", "/private", False),
        ("User-agent: WebTap\nDisallow: /", "/x", False),
        ("User-agent: webtap\nDisallow: /a\n\nUser-agent: o\nDisallow: /\n\n"
         "User-agent: webtap\nDisallow: /b", "/b/x", False),  # stdlib: allow
        ("User-agent: other\nUser-agent: webtap\nDisallow: /x", "/x/1", False),
        ("User-agent: otherbot\nDisallow: /", "/x", True),
        ("User-agent: otherbot\nAllow: /\n\nUser-agent: *\nDisallow: /", "/x", False),
        ("User-agent: *\nDisallow:", "/x", True),
        ("User-agent: *\nDisallow: /%7Ejoe/", "/~joe/index.html", False),
        ("Disallow: /\nUser-agent: *\nAllow: /", "/x", True),
        ("User-agent: *\nDisallow: /", "/robots.txt", True),  # stdlib: deny
    ],
)  # fmt: skip
def test_the_rules(robots, path, expected) -> None:
    assert allowed(robots, path) is expected


@pytest.mark.parametrize(
    ("status", "allows"),
    [
        (401, False),
        (403, False),
        (301, True),  # a redirect the fetch function did not follow (more than it follows)
        (404, True),
        (410, True),
        (429, True),
        (500, True),
        (503, True),
    ],
)
def test_what_robots_txts_own_status_means(status, allows) -> None:
    # 401/403: disallow all; other 4xx: allow. A 5xx allows too, as issue 22 asks (RFC 9309
    # would disallow all until the server answers).
    rules = read_rules(status, "User-agent: *\nDisallow: /", f"{SITE}/robots.txt")
    decision = rules.decide(f"{SITE}/page", "webtap")
    assert decision.allowed is allows
    assert f"answered HTTP {status}" in decision.why


class Counting:
    """A fetch_robots that answers from a table and counts the requests per URL."""

    def __init__(self, answers: dict[str, tuple[int, str]]) -> None:
        self.answers = answers
        self.calls: list[str] = []
        self.lock = threading.Lock()

    def __call__(self, url: str) -> tuple[int, str]:
        with self.lock:
            self.calls.append(url)
        if url not in self.answers:
            raise NetworkError("Failed to fetch URL: connection refused")
        return self.answers[url]


def test_ten_fetches_of_one_origin_read_robots_txt_once() -> None:
    fetch = Counting({f"{SITE}/robots.txt": (200, "User-agent: *\nDisallow: /private/")})
    cache = RobotsCache()
    for i in range(10):
        cache.check(f"{SITE}/page/{i}", fetch)
    with pytest.raises(RobotsDisallowed):
        cache.check(f"{SITE}/private/x", fetch)
    cache.check("https://other.example/x", fetch)  # no answer: allowed, and asked once
    cache.check("https://other.example/y", fetch)
    assert fetch.calls == [f"{SITE}/robots.txt", "https://other.example/robots.txt"]


def test_ten_fetches_at_once_read_robots_txt_once() -> None:
    gate = threading.Event()

    class Slow(Counting):
        def __call__(self, url: str) -> tuple[int, str]:
            gate.wait(5)
            return super().__call__(url)

    fetch = Slow({f"{SITE}/robots.txt": (200, "User-agent: *\nDisallow: /x")})
    cache = RobotsCache()
    threads = [
        threading.Thread(target=cache.check, args=(f"{SITE}/p{i}", fetch)) for i in range(10)
    ]
    for thread in threads:
        thread.start()
    gate.set()
    for thread in threads:
        thread.join(10)
    assert fetch.calls == [f"{SITE}/robots.txt"]


def test_rules_are_read_again_when_stale_and_failures_sooner() -> None:
    now = [1000.0]
    fetch = Counting({f"{SITE}/robots.txt": (200, "User-agent: *\nDisallow: /x")})
    cache = RobotsCache(clock=lambda: now[0])
    cache.check(f"{SITE}/a", fetch)
    now[0] += RULES_TTL - 1
    cache.check(f"{SITE}/a", fetch)
    assert len(fetch.calls) == 1
    now[0] += 2
    cache.check(f"{SITE}/a", fetch)
    assert len(fetch.calls) == 2

    down = Counting({})  # no answer at all: allowed, and asked again after UNREACHABLE_TTL
    cache.check("https://down.example/a", down)
    now[0] += UNREACHABLE_TTL + 1
    cache.check("https://down.example/a", down)
    assert len(down.calls) == 2


def test_an_error_other_than_no_answer_is_the_callers_and_not_kept() -> None:
    # The guard refusing robots.txt's address refuses the page's too: say that, once.
    def refused(url: str) -> tuple[int, str]:
        raise URLNotAllowed("Refusing to fetch: the address is private")

    cache = RobotsCache()
    with pytest.raises(URLNotAllowed):
        cache.check(f"{SITE}/a", refused)
    fetch = Counting({f"{SITE}/robots.txt": (200, "User-agent: *\nDisallow: /a")})
    with pytest.raises(RobotsDisallowed):
        cache.check(f"{SITE}/a", fetch)


def test_the_cache_is_bounded() -> None:
    fetch = Counting({})
    cache = RobotsCache(max_origins=2)
    for host in ("a", "b", "c", "a"):
        cache.check(f"https://{host}.example/", fetch)
    assert [url.split("//")[1][0] for url in fetch.calls] == ["a", "b", "c", "a"]


def test_a_refusal_quotes_the_rule_and_its_group() -> None:
    fetch = Counting(
        {f"{SITE}/robots.txt": (200, "User-agent: *\nAllow: /docs/public\nDisallow: /docs/\n")}
    )
    with pytest.raises(RobotsDisallowed) as refused:
        RobotsCache().check(f"{SITE}/docs/secret.html", fetch)
    response = refused.value.to_response()
    assert response["error_code"] == "ROBOTS_DISALLOWED"
    assert response["error"].startswith(
        f"robots.txt disallows fetching {SITE}/docs/secret.html: {SITE}/robots.txt has the rule "
        "'Disallow: /docs/' in the group 'User-agent: *'."
    )
    assert "tell the user" in response["advice"] and "tell the user" not in response["error"]
    assert response["robots_rule"] == "Disallow: /docs/"
    assert (response["retryable"], response["retry_with"]) == (False, "another_url")


def test_a_wildcard_rule_is_quoted_as_written() -> None:
    fetch = Counting({f"{SITE}/robots.txt": (200, "User-agent: webtap\nDisallow: /*.pdf$\n")})
    with pytest.raises(RobotsDisallowed, match=r"'Disallow: /\*\.pdf\$' in the group "):
        RobotsCache().check(f"{SITE}/files/a.pdf", fetch)


def test_a_refusal_for_401_says_so() -> None:
    fetch = Counting({f"{SITE}/robots.txt": (401, "")})
    with pytest.raises(RobotsDisallowed, match="answered HTTP 401, which means nothing may be"):
        RobotsCache().check(f"{SITE}/", fetch)


def test_the_user_agent_setting_names_the_group(monkeypatch) -> None:
    robots = "User-agent: mybot\nDisallow: /\n\nUser-agent: *\nAllow: /\n"
    fetch = Counting({f"{SITE}/robots.txt": (200, robots)})
    RobotsCache().check(f"{SITE}/x", fetch)  # webtap: the * group allows
    monkeypatch.setenv("WEBTAP_USER_AGENT", "mybot/2.0 (+https://example.net/bot)")
    with pytest.raises(RobotsDisallowed, match="User-agent: mybot"):
        RobotsCache().check(f"{SITE}/x", fetch)


def test_only_the_first_512_kib_are_read() -> None:
    padding = "# " + "x" * 98 + "\n"
    robots = "User-agent: *\n" + padding * (MAX_ROBOTS_BYTES // 100) + "Disallow: /late\n"
    assert allowed(robots, "/late")
    assert not allowed("User-agent: *\nDisallow: /late\n" + padding * 6000, "/late")


def test_bytes_with_a_bom_and_bad_utf8_are_read() -> None:
    body = b"\xef\xbb\xbfUser-agent: *\nDisallow: /caf\xc3\xa9\nDisallow: /\xff\xfe\n"
    rules = read_rules(200, body, f"{SITE}/robots.txt")
    assert not rules.decide(f"{SITE}/caf%C3%A9/menu", "webtap").allowed
    assert rules.decide(f"{SITE}/other", "webtap").allowed


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://Example.ORG/a/b?c#d", "https://example.org/robots.txt"),
        ("http://example.org:80/x", "http://example.org/robots.txt"),
        ("https://example.org:8443/x", "https://example.org:8443/robots.txt"),
        ("http://[::1]:8080/x", "http://[::1]:8080/robots.txt"),
    ],
)
def test_robots_url(url, expected) -> None:
    assert robots_url(url) == expected


def test_a_person_does_not_obey_a_model_does(monkeypatch) -> None:
    assert obeys_robots(model_chose=True) is True
    assert obeys_robots(model_chose=False) is False
    monkeypatch.setenv("WEBTAP_ROBOTS", "ignore")
    assert obeys_robots(model_chose=True) is False
    monkeypatch.setenv("WEBTAP_ROBOTS", "OBEY")
    assert obeys_robots(model_chose=False) is True
    monkeypatch.setenv("WEBTAP_ROBOTS", "auto")  # the default, spelled out
    assert (obeys_robots(model_chose=True), obeys_robots(model_chose=False)) == (True, False)
    monkeypatch.setenv("WEBTAP_ROBOTS", "sometimes")
    with pytest.raises(ConfigError, match="WEBTAP_ROBOTS must be 'auto' or 'obey' or 'ignore'"):
        obeys_robots(model_chose=True)


PROBE = """
import json, sys
from webtap.fetch.robots import read_rules
rules = read_rules(200, sys.argv[1], "https://example.org/robots.txt")
allowed = rules.decide("https://example.org/x", "webtap").allowed
print(json.dumps({"allowed": allowed, "protego": "protego" in sys.modules,
                  "logging": "logging" in sys.modules}))
"""


@pytest.mark.parametrize(
    ("robots", "allowed", "parsed"),
    [
        ("", True, False),
        ("User-agent: *\nAllow: /\nSitemap: /s.xml", True, False),
        # No Disallow starts /x: decided without Protego (it costs a fresh process 3-5 ms).
        ("User-agent: *\nDisallow: /y\nDisallow: /z/*.pdf$\n\nUser-agent: b\nDisallow: /a", True,
         False),
        ("User-agent: *\nDisallow /x", False, True),  # Protego's spelling without a colon
        ("User-agent: *\ndissallow: /x", False, True),  # and a misspelling it accepts
        ("User-agent: *\nDisallow: /*.pdf", True, True),  # a wildcard: Protego judges
        ("User-agent: *\nDisallow: /%78", False, True),  # percent-encoded /x: Protego judges
        ("User-agent: *\nDisallow: x", True, True),  # not a path: Protego judges
    ],
    ids=["empty", "no disallow", "no rule starts the url", "no colon", "misspelled",
         "wildcard", "percent-encoded", "not a path"],
)  # fmt: skip
def test_protego_is_imported_only_for_a_url_a_rule_may_refuse(robots, allowed, parsed) -> None:
    run = subprocess.run(
        [sys.executable, "-c", PROBE, robots], capture_output=True, text=True, check=True
    )
    answer = json.loads(run.stdout)
    assert answer == {"allowed": allowed, "protego": parsed, "logging": parsed}


def test_robots_txt_from_a_real_server_through_webtaps_client(httpserver) -> None:
    """The wiring's shape: fetch_robots is a guarded GET with webtap's client that returns
    any status; ten pages of one origin cost one request for robots.txt."""
    from webtap.guard import Guard
    from webtap.net import Client, Deadline, read_body
    from webtap.useragent import user_agent

    httpserver.expect_request("/robots.txt").respond_with_data(
        "User-agent: webtap\nDisallow: /admin/\n", content_type="text/plain"
    )
    guard = Guard(allowed_networks=Guard.from_env().allowed_networks + _loopback())
    seen: list[str] = []

    def fetch_robots(url: str) -> tuple[int, bytes]:
        with Client(guard=guard, headers={"User-Agent": user_agent()}) as client:
            deadline = Deadline(5.0)
            with client.request("GET", url, deadline=deadline) as response:
                seen.append(response.headers.get("content-type", ""))
                return response.status, read_body(response, MAX_ROBOTS_BYTES, deadline)

    cache = RobotsCache()
    for i in range(10):
        cache.check(httpserver.url_for(f"/page/{i}"), fetch_robots)
    with pytest.raises(RobotsDisallowed, match="Disallow: /admin/"):
        cache.check(httpserver.url_for("/admin/users"), fetch_robots)
    requests = [request for request, _ in httpserver.log]
    assert [r.path for r in requests] == ["/robots.txt"]
    assert requests[0].headers["User-Agent"].startswith("webtap/")


def _loopback() -> tuple:
    from ipaddress import ip_network

    return (ip_network("127.0.0.0/8"),)
