"""One User-Agent, one override, and the robots.txt token taken from it."""

from __future__ import annotations

import pytest

from webtap import __version__
from webtap.errors import ConfigError
from webtap.useragent import DEFAULT_USER_AGENT, robots_token, user_agent


def test_the_default_is_honest() -> None:
    assert (
        user_agent()
        == DEFAULT_USER_AGENT
        == (f"webtap/{__version__} (+https://pypi.org/project/webtap/)")
    )
    assert robots_token() == "webtap"


def test_the_net_client_sends_the_same_string_today() -> None:
    from webtap.net.client import USER_AGENT

    assert USER_AGENT == DEFAULT_USER_AGENT


def test_the_override_and_its_token(monkeypatch) -> None:
    monkeypatch.setenv("WEBTAP_USER_AGENT", "  research-crawler/2.1 (+https://lab.example/bot) ")
    assert user_agent() == "research-crawler/2.1 (+https://lab.example/bot)"
    assert robots_token() == "research-crawler"
    monkeypatch.setenv("WEBTAP_USER_AGENT", "")
    assert user_agent() == DEFAULT_USER_AGENT


@pytest.mark.parametrize(
    ("agent", "token"),
    [("Mozilla/5.0 (X11)", "Mozilla"), ("my_bot", "my_bot"), ("42bot/1", "webtap"), ("", "webtap")],
)
def test_the_token_is_the_leading_product_name(agent, token) -> None:
    assert robots_token(agent) == token


@pytest.mark.parametrize(
    "value", ["bot/1\r\nX-Injected: 1", "bot/1\x1b[31m", "robot/1 ☃", "b" * 513]
)
def test_a_value_that_cannot_be_a_header_is_refused(monkeypatch, value) -> None:
    monkeypatch.setenv("WEBTAP_USER_AGENT", value)
    with pytest.raises(ConfigError, match="WEBTAP_USER_AGENT must be printable ASCII"):
        user_agent()


def test_the_search_tools_send_it_too(brave, run_exe) -> None:
    # One User-Agent for every request webtap makes: the search providers' client included.
    agent = "research-crawler/2.1 (+https://lab.example/bot)"
    brave.answer()
    run = run_exe(
        "web-search-brave-tool", stdin={"query": "first"}, env={"WEBTAP_USER_AGENT": agent}
    )
    assert run.json["success"] is True
    run = run_exe("web-search-brave-tool", stdin={"query": "second"})
    assert run.json["success"] is True
    sent = [request.headers["User-Agent"] for request in brave.requests()]
    assert sent == [agent, DEFAULT_USER_AGENT]
