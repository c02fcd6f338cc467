"""``webtap fetch``: the real command as a subprocess against a 127.0.0.1 site."""

from __future__ import annotations

import json

import pytest

from webtap.convert import convert

TEXT = "".join(f"row {n}\n" for n in range(1, 8))
HTML = "<html><head><title>Doc</title></head><body><h1>Doc</h1><p>See <a href='/b'>b</a>.</p>"


@pytest.fixture
def webtap_fetch(run_exe):
    def run(*args, env=None):
        result = run_exe("webtap", "fetch", *args, env=env, timeout=30)
        assert "Traceback" not in result.stderr
        return result

    return run


def test_prints_the_markdown(site, webtap_fetch, allow_private):
    url = site.page("/doc", HTML)
    result = webtap_fetch(url)
    assert result.returncode == 0
    assert result.stdout == convert(HTML, base_url=url).markdown
    assert result.stderr == ""


def test_offset_and_limit_select_lines(site, webtap_fetch, allow_private):
    url = site.route("/t", TEXT, headers={"Content-Type": "text/plain"})
    assert webtap_fetch(url, "--offset", "2", "--limit", "3").stdout == "row 2\nrow 3\nrow 4\n"
    assert webtap_fetch(url, "--offset", "7").stdout == "row 7\n"
    assert webtap_fetch(url, "--offset", "99").stdout == ""


def test_text_without_a_final_newline_ends_with_one_on_a_terminal(
    site, webtap_fetch, allow_private
):
    url = site.route("/t", "no newline", headers={"Content-Type": "text/plain"})
    assert webtap_fetch(url).stdout == "no newline\n"


def test_json_prints_the_tool_response(site, webtap_fetch, allow_private, run_exe):
    url = site.route("/t", TEXT, headers={"Content-Type": "text/plain"})
    result = webtap_fetch(url, "--limit", "2", "--json")
    tool = run_exe("web-fetch-tool", stdin={"url": url, "limit": 2})
    assert result.returncode == 0
    assert (
        json.loads(result.stdout)
        == tool.json
        == {
            "success": True,
            "url": url,
            "title": "",
            "content": "row 1\nrow 2\n",
            "total_lines": 7,
        }
    )


def test_http_error_is_one_line_on_stderr(site, webtap_fetch, allow_private):
    result = webtap_fetch(site.url("/missing"))
    assert result.returncode == 1
    assert result.stdout == ""
    # The spec's status line, then what would help (issue 22), then the code.
    assert result.stderr == (
        "webtap: HTTP 404: Not Found. Check the URL, or search for the page's current address. "
        "[HTTP_ERROR]\n"
    )


def test_refusal_says_how_to_allow(site, webtap_fetch):
    result = webtap_fetch(site.url("/"))
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1
    assert "127.0.0.1 is a loopback address" in result.stderr
    assert "WEBTAP_ALLOW_PRIVATE_NETWORKS=1" in result.stderr
    assert site.requests == []


def test_json_error_is_the_envelope_with_a_failing_exit(webtap_fetch):
    result = webtap_fetch("ftp://example.com/", "--json")
    assert result.returncode == 1
    assert json.loads(result.stdout)["error_code"] == "INVALID_URL"


@pytest.mark.parametrize("args", [["--offset", "0"], ["--limit", "x"], []])
def test_bad_arguments_are_usage_errors(webtap_fetch, args):
    result = webtap_fetch(*args) if args else webtap_fetch()
    assert result.returncode == 2
    assert "usage: webtap fetch" in result.stderr


def test_a_stray_argument_is_reported_by_the_command_it_was_given_to(webtap_fetch):
    result = webtap_fetch("https://example.com/", "extra")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("usage: webtap fetch ")
    assert result.stderr.endswith("webtap fetch: error: unrecognized arguments: extra\n")
