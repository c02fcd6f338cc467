"""web_fetch renders pages built by JavaScript, through the real front doors and a real browser:
the executable (one browser per call), ``webtap fetch --render`` and ``webtap mcp`` (one browser
for all its calls). What each decided is read from the result, the site's request log and the
browser starts a counting ``WEBTAP_BROWSER`` noted; never from seconds.

The shells here are shells by any judgement (an empty ``<div id="root">``, a ``<noscript>`` that
asks for JavaScript, a script bundle), and by the converter's state (judged by
``webtap/verdict/_content.py`` from the converter's facts).
"""

from __future__ import annotations

import json
import signal
import time

import pytest
from tests.browser.processes import Mcp, wait_until_gone

# A single-page app: the server sends the shell, a script builds the page from a JSON endpoint.
SHELL = """<!doctype html><html><head><title>Release notes</title>
<script type="module" src="/assets/app.js"></script></head><body>
<noscript>You need to enable JavaScript to run this app.</noscript>
<div id="root"></div>
</body></html>"""
APP_JS = """
fetch("/api/notes.json").then((r) => r.json()).then((notes) => {
  document.getElementById("root").innerHTML = "<h1>Release notes</h1>" +
    notes.map((n) => `<h2>${n.version}</h2><p>${n.text}</p>`).join("");
});
"""
NOTES = [
    {"version": "2.0", "text": "Pages built by JavaScript are rendered in a browser."},
    {"version": "1.9", "text": "The page cache keeps converted pages for ten minutes."},
]
# A page the server renders: an article, and one line a script adds.
ARTICLE = """<!doctype html><html><head><title>Field notes</title></head><body><article>
<h1>Field notes</h1>
<p>The river rose two metres overnight and the lower meadow is under water again this spring.
The ferry keeps running from the upper landing, and the footbridge is closed until the water
falls back below the markers painted on its pillars.</p>
<p id="late"></p>
<script>document.getElementById("late").textContent = "Added by a script after loading.";</script>
</article></body></html>"""
# A shell that stays one: its script builds nothing.
DEAD_SHELL = """<!doctype html><html><head><title>Dashboard</title></head><body>
<div id="app"></div><script>window.started = true;</script></body></html>"""

JS = {"Content-Type": "application/javascript"}


def serve_app(app) -> str:
    app.route("/assets/app.js", APP_JS, headers=JS)
    app.route("/api/notes.json", json.dumps(NOTES), headers={"Content-Type": "application/json"})
    return app.page("/", SHELL)


@pytest.fixture
def env(launches) -> dict[str, str]:
    """The executable's environment: rendering as by default (auto), the counting browser, the
    guard off for the test's own server (test_fetch_ssrf.py keeps it on)."""
    return {"WEBTAP_RENDER": "", "WEBTAP_ALLOW_PRIVATE_NETWORKS": "1", **launches.env}


@pytest.fixture
def fetch_exe(run_exe):
    def run(url: str, env: dict[str, str], **fields) -> dict:
        result = run_exe("web-fetch-tool", stdin={"url": url, **fields}, env=env, timeout=60)
        assert result.returncode == 0 and result.stderr == "", result.stderr
        return result.json

    return run


def test_a_script_built_app_comes_back_as_content_in_auto(app, env, launches, fetch_exe):
    response = fetch_exe(serve_app(app), env)
    assert response["success"] is True and response["rendered"] is True
    assert "page_state" not in response  # the page rendered is content
    assert response["content"] == (
        "# Release notes\n\n## 2.0\n\nPages built by JavaScript are rendered in a browser.\n\n"
        "## 1.9\n\nThe page cache keeps converted pages for ten minutes.\n"
    )
    assert launches.count() == 1
    # The plain fetch first (its conversion judged the shell), then the browser's own requests,
    # all with webtap's one User-Agent.
    assert app.paths() == ["/", "/", "/assets/app.js", "/api/notes.json"]
    agents = {seen.headers.get("user-agent", "") for seen in app.requests}
    assert len(agents) == 1 and agents.pop().startswith("webtap/")


def test_no_browser_survives_the_executable(app, env, launches, fetch_exe):
    assert fetch_exe(serve_app(app), env)["rendered"] is True
    [browser] = launches.pids()
    assert wait_until_gone(browser) == []


def test_auto_leaves_a_server_rendered_page_unrendered(app, env, launches, fetch_exe):
    response = fetch_exe(app.page("/", ARTICLE), env)
    assert "rendered" not in response
    assert "The river rose two metres" in response["content"]
    assert "Added by a script" not in response["content"]
    assert launches.count() == 0
    assert app.paths() == ["/"]


# The spec's error field is the message alone; the advice is a field of its own (issue 32).
SHELL_ERROR = (
    "The page is a JavaScript application shell: its content is drawn by scripts, which this "
    "fetch does not run. {note}"
)
SHELL_ADVICE = (
    "Fetching it again the same way will not help; a fetch that renders the page would, or "
    "another URL for the same information (an API, a static version)."
)


def test_off_never_renders_and_says_how_to_turn_it_on(app, env, launches, fetch_exe):
    response = fetch_exe(serve_app(app), {**env, "WEBTAP_RENDER": "off"})
    # The shell keeps its state, which the verdict makes its error; the note says how to render.
    assert (response["error_code"], response["verdict"], response["retry_with"]) == (
        "NO_CONTENT",
        "script_shell",
        "render",
    )
    assert response["advice"] == SHELL_ADVICE
    assert response["error"] == SHELL_ERROR.format(
        note="Rendering in a browser is off (WEBTAP_RENDER=off): set WEBTAP_RENDER=auto, or ask "
        "for this page rendered (webtap fetch --render; web_fetch's render argument in webtap "
        "mcp)."
    )
    assert launches.count() == 0
    assert app.paths() == ["/"]


def test_webtap_fetch_render_renders_a_server_rendered_page(app, env, launches, run_exe):
    url = app.page("/", ARTICLE)
    printed = run_exe("webtap", "fetch", "--render", "--json", url, env=env, timeout=60)
    assert printed.returncode == 0, printed.stderr
    response = json.loads(printed.stdout)
    assert response["rendered"] is True
    assert "Added by a script after loading." in response["content"]
    assert launches.count() == 1
    plain = run_exe("webtap", "fetch", url, env={**env, "WEBTAP_CACHE": "off"}, timeout=60)
    assert "Added by a script" not in plain.stdout  # without --render: auto, no shell
    assert launches.count() == 1


def test_a_second_read_within_the_ttl_is_a_cache_hit_with_no_browser(app, env, launches, fetch_exe):
    url = serve_app(app)
    first = fetch_exe(url, env)
    asked = app.paths()
    second = fetch_exe(url, env)
    assert second == first and second["rendered"] is True
    assert launches.count() == 1
    assert app.paths() == asked  # not one request more


def test_a_shell_that_rendering_did_not_help_is_not_rendered_again(app, env, launches, fetch_exe):
    url = app.page("/", DEAD_SHELL)
    first = fetch_exe(url, env)
    assert first["error"] == SHELL_ERROR.format(
        note="A browser rendered it, and it showed no content there either."
    )
    second = fetch_exe(url, env)
    assert second["error"] == SHELL_ERROR.format(
        note="A browser rendered it earlier and it showed no content there either; ask for it "
        "rendered (render: true) to try again."
    )
    assert launches.count() == 1
    assert app.paths() == ["/", "/", "/"]  # the shell is never kept; the browser once


def test_a_url_rendering_helped_is_rendered_without_judging_again(
    app, env, launches, fetch_exe, run_exe
):
    """Asked for once with --render, the article grew (the script's text was more than it);
    read again in auto after its page went stale, it is rendered though it is no shell."""
    url = app.page("/", ARTICLE.replace("<p>The river", "<p hidden>The river"))
    stale = {**env, "WEBTAP_FETCH_CACHE_TTL": "0"}  # no page is fresh; the memory is a day
    printed = run_exe("webtap", "fetch", "--render", url, env=stale, timeout=60)
    assert "Added by a script after loading." in printed.stdout
    response = fetch_exe(url, stale)
    assert response["rendered"] is True
    assert "Added by a script after loading." in response["content"]
    assert launches.count() == 2


def test_the_mcp_server_renders_in_one_browser_and_takes_render(app, env, launches):
    shell = serve_app(app)
    article = app.page("/article", ARTICLE)
    dead = app.page("/dead", DEAD_SHELL)
    server = Mcp(env)
    try:
        instructions = server.hello["result"]["instructions"]
        assert "render=true asks for that rendering" in instructions
        assert server.fetch(url=shell)["rendered"] is True
        assert "Added by a script" not in server.fetch(url=article)["content"]
        rendered = server.fetch(url=article, render=True)
        assert rendered["rendered"] is True
        assert "Added by a script after loading." in rendered["content"]
        refused = server.fetch(url=dead, render=False)
        assert refused["error"] == SHELL_ERROR.format(
            note="It was not rendered in a browser (render was false); ask for it with "
            "render: true."
        )
        wrong = server.fetch(url=article, render="yes")
        assert wrong["error"] == "Invalid input: field 'render' must be true or false"
        assert launches.count() == 1  # one long-lived browser for every render
    finally:
        server.close()


@pytest.mark.parametrize("how", ["SIGTERM", "SIGHUP"])
def test_no_browser_survives_a_signal_to_webtap_mcp(app, env, launches, how):
    """Signalled with a render in flight (its JSON stalls): the server stops and its browser
    is gone, with every process it started."""
    app.route("/assets/app.js", APP_JS, headers=JS)
    app.route("/api/notes.json", "[]", headers={"Content-Type": "application/json"}, stall=60)
    url = app.page("/", SHELL)
    server = Mcp(env)
    try:
        server.start("tools/call", {"name": "web_fetch", "arguments": {"url": url}})
        while "/api/notes.json" not in app.paths():  # the browser is rendering the page
            assert server.process.poll() is None
            time.sleep(0.05)
        [browser] = launches.pids()
        server.process.send_signal(getattr(signal, how))
        assert server.process.wait(timeout=60) == 128 + getattr(signal, how)
        assert wait_until_gone(browser) == []
    finally:
        server.close()
