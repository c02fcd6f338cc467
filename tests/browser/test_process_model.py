"""Which browser renders a fetch's page, in process: a browser per render, unless a long-lived
host holds the process's browser (``keep_browser``: the MCP server, the ask loop, the SQL
functions), whose renders share one until the last hold lets go; and a host's kill on a signal
takes every browser with it. Browser starts are counted by a ``WEBTAP_BROWSER`` that notes them
(tests/browser/processes.py); the pages are shells by any judgement (see test_fetch_render.py).
"""

from __future__ import annotations

import pytest
from tests.browser.processes import wait_until_gone
from tests.fakes.anthropic import message, text, tool_use

from webtap.browser.launch import session_members
from webtap.fetch import fetch
from webtap.fetch.render import keep_browser

APP = """<!doctype html><html><head><title>{name}</title></head><body><div id="root"></div>
<script>setTimeout(() => {{ root.innerHTML = "<h1>{name}</h1><p>Built by a script.</p>"; }},
100);</script></body></html>"""


@pytest.fixture
def rendering(monkeypatch, launches) -> None:
    """Rendering as by default (auto), through the counting browser; the guard off for the
    test's own server; and no hold on the process's kept browser but the test's own (a host
    that an earlier test in this process left open, an SqlFunctions never closed, would share
    its browser)."""
    from webtap.fetch import render

    monkeypatch.setattr(render, "_holds", 0)
    monkeypatch.setattr(render, "_kept", None)
    monkeypatch.setenv("WEBTAP_RENDER", "auto")
    monkeypatch.setenv("WEBTAP_ALLOW_PRIVATE_NETWORKS", "1")
    monkeypatch.setenv("WEBTAP_CACHE", "off")
    for name, value in launches.env.items():
        monkeypatch.setenv(name, value)


def apps(site, *names: str) -> list[str]:
    return [site.page(f"/{name}", APP.format(name=name)) for name in names]


def test_without_a_hold_each_render_has_a_browser_of_its_own(rendering, app, launches):
    for url in apps(app, "one", "two"):
        assert fetch(url).rendered is True
    first, second = launches.pids()
    assert first != second
    assert session_members(first) == [] and session_members(second) == []


def test_renders_share_the_kept_browser_until_the_last_hold_lets_go(rendering, app, launches):
    one, two, three = apps(app, "one", "two", "three")
    outer = keep_browser()
    with keep_browser():
        assert fetch(one).markdown == "# one\n\nBuilt by a script.\n"
        [browser] = launches.pids()
        assert fetch(two).rendered is True
    assert session_members(browser) != []  # the outer hold keeps it
    assert fetch(three).rendered is True
    assert launches.pids() == [browser]
    outer.close()
    outer.close()  # once only: the second close lets go of nothing
    assert session_members(browser) == []


def test_a_kept_browser_that_died_is_started_again(rendering, app, launches):
    import os
    import signal

    one, two = apps(app, "one", "two")
    with keep_browser():
        assert fetch(one).rendered is True
        [first] = launches.pids()
        os.killpg(first, signal.SIGKILL)
        assert fetch(two).rendered is True
        assert len(launches.pids()) == 2
    assert [session_members(pid) for pid in launches.pids()] == [[], []]


def test_the_hosts_kill_on_a_signal_kills_every_browser(rendering, app, launches):
    """What every front door calls on SIGTERM, SIGHUP and Ctrl-C (webtap.host.process)."""
    from webtap.host.process import kill_running

    hold = keep_browser()
    try:
        assert fetch(apps(app, "one")[0]).rendered is True
        [browser] = launches.pids()
        assert session_members(browser) != []
        kill_running()
        assert wait_until_gone(browser) == []
    finally:
        hold.close()


def test_the_sql_functions_keep_one_browser_until_closed(rendering, app, launches):
    from webtap.sql import SqlFunctions

    functions = SqlFunctions()
    for url in apps(app, "one", "two"):
        assert fetch(url).rendered is True
    [browser] = launches.pids()
    functions.close()
    assert session_members(browser) == []


def test_the_ask_loop_renders_a_questions_pages_in_one_browser(
    rendering, app, launches, anthropic_api
):
    from webtap import agent

    one, two = apps(app, "one", "two")
    anthropic_api.queue(
        message(tool_use("web_fetch", {"url": one}), stop_reason="tool_use"),
        message(tool_use("web_fetch", {"url": two}), stop_reason="tool_use"),
        message(text("Both pages are built by a script.")),
    )
    answer = agent.ask("What do the pages say?", max_tool_calls=2)
    assert answer.text == "Both pages are built by a script."
    results = [body["messages"][-1]["content"][0]["content"] for body in anthropic_api.bodies[1:]]
    assert all('"rendered": true' in result for result in results)
    [browser] = launches.pids()
    assert session_members(browser) == []  # closed with the question


def test_a_fetch_with_a_client_of_its_own_renders_only_when_asked(rendering, app, launches):
    """Like the page cache: the browser does not see the web a caller's client sees."""
    from webtap.errors import NoContent
    from webtap.net import Client

    [url] = apps(app, "one")
    with Client() as client:
        with pytest.raises(NoContent, match=r"not rendered in a browser \(render was false\)"):
            fetch(url, client=client)
        assert launches.count() == 0
        assert fetch(url, client=client, render=True).rendered is True
    assert launches.count() == 1
