"""Without a browser (none on PATH, no WEBTAP_BROWSER): a page judged to be a script shell is the
verdict's NO_CONTENT error, which says it needs JavaScript and how to get a browser;
``always`` (or ``--render``) is a configuration error that says how to get one; a page that is
no shell is fetched as ever. These run on any machine: no browser is needed to prove there is
none."""

from __future__ import annotations

import json

import pytest

SHELL = """<!doctype html><html><head><title>App</title></head><body>
<div id="root"></div><script src="/bundle.js"></script></body></html>"""
ERROR = (
    "The page is a JavaScript application shell: its content is drawn by scripts, which this "
    "fetch does not run. No browser is installed to render it: install one (`apt-get install "
    "chromium-headless-shell`, or any Chrome or Chromium) or set WEBTAP_BROWSER to its path."
)
SHELL_ADVICE = (
    "Fetching it again the same way will not help; a fetch that renders the page would, or "
    "another URL for the same information (an API, a static version)."
)


@pytest.fixture
def no_browser(tmp_path) -> dict[str, str]:
    """A PATH with no browser on it (the executables start by their full path)."""
    empty = tmp_path / "bin"
    empty.mkdir()
    return {"PATH": str(empty), "WEBTAP_RENDER": "", "WEBTAP_ALLOW_PRIVATE_NETWORKS": "1"}


def fetch(run_exe, url: str, env: dict[str, str]) -> dict:
    result = run_exe("web-fetch-tool", stdin={"url": url}, env=env, timeout=60)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    return result.json


def test_a_shell_says_it_needs_javascript_and_how_to_get_a_browser(app, no_browser, run_exe):
    response = fetch(run_exe, app.page("/", SHELL), no_browser)
    assert response["error"] == ERROR
    assert response["advice"] == SHELL_ADVICE
    assert (response["error_code"], response["verdict"], response["retry_with"]) == (
        "NO_CONTENT",
        "script_shell",
        "render",
    )
    second = fetch(run_exe, app.page("/", SHELL), no_browser)
    assert second["error"] == ERROR
    assert app.paths() == ["/", "/"]  # a shell is never kept: it is asked for again


def test_a_page_that_is_no_shell_is_fetched_as_ever(app, no_browser, run_exe):
    url = app.page("/", "<title>Plain</title><h1>Plain</h1><p>Served whole by the server.</p>")
    response = fetch(run_exe, url, no_browser)
    assert response["content"] == "# Plain\n\nServed whole by the server.\n"
    assert "rendered" not in response


@pytest.mark.parametrize("how", ["setting", "flag"])
def test_rendering_asked_for_without_a_browser_is_a_configuration_error(
    app, no_browser, run_exe, how
):
    url = app.page("/", SHELL)
    if how == "setting":
        result = run_exe(
            "web-fetch-tool", stdin={"url": url}, env={**no_browser, "WEBTAP_RENDER": "always"}
        )
        response = result.json
    else:
        result = run_exe("webtap", "fetch", "--render", "--json", url, env=no_browser)
        response = json.loads(result.stdout)
    assert response["error_code"] == "CONFIG_ERROR"
    assert response["error"] == (
        "No Chrome-family browser was found: install one (`apt-get install "
        "chromium-headless-shell`, or any Chrome or Chromium) or set WEBTAP_BROWSER to its path"
    )


def test_a_browser_setting_that_names_nothing_is_said_so(app, no_browser, run_exe, tmp_path):
    missing = str(tmp_path / "no-such-browser")
    env = {**no_browser, "WEBTAP_BROWSER": missing}
    response = fetch(run_exe, app.page("/", SHELL), env)
    assert response["error_code"] == "CONFIG_ERROR"
    assert response["error"].startswith(f"WEBTAP_BROWSER is {missing!r}, which is not an")


def test_a_bad_render_setting_is_named(app, no_browser, run_exe):
    response = fetch(run_exe, app.page("/", SHELL), {**no_browser, "WEBTAP_RENDER": "sometimes"})
    assert response["error_code"] == "CONFIG_ERROR"
    assert response["error"] == (
        "WEBTAP_RENDER must be 'auto' or 'always' or 'off' (got 'sometimes'); fix it, or unset "
        "it to use the default (auto)"
    )
