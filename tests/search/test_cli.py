"""``webtap search``: a numbered list for a person, the tool's JSON with --json."""

from __future__ import annotations

import json
import re

from webtap.credentials import BRAVE_CONFIG_REQUIRED, BRAVE_EVENT_DATA


def test_a_numbered_list_of_results(brave, kit, run_exe) -> None:
    brave.expect_request(kit.BRAVE_PATH).respond_with_response(
        kit.recorded("brave/web_search_physics")
    )
    run = run_exe("webtap", "search", "Physics", "--count", "3")
    assert run.returncode == 0, run.stderr
    ((request, _),) = brave.log
    assert request.args.to_dict() == {"q": "Physics", "count": "3", "offset": "0"}
    items = kit.json_of("brave/web_search_physics")["web"]["results"][:3]
    lines = run.stdout.splitlines()
    for number, item in enumerate(items, 1):
        assert f"{number}. {item['title']}" in lines
        assert f"   {item['url']}" in lines
    assert "<strong>" not in run.stdout


def test_json_is_the_tools_json(brave, kit, run_exe) -> None:
    brave.expect_request(kit.BRAVE_PATH).respond_with_response(
        kit.recorded("brave/web_search_brave_search")
    )
    cli = run_exe("webtap", "search", "--json", "brave", "search", "--block", "brave.com")
    tool = run_exe(
        "web-search-brave-tool", stdin={"query": "brave search", "blocked_domains": ["brave.com"]}
    )
    assert json.loads(cli.stdout) == tool.json
    assert all("brave.com/" not in r["url"] for r in tool.json["results"])


def test_missing_key_shows_the_setup_text_and_fails(run_exe) -> None:
    run = run_exe("webtap", "search", "anything")
    assert run.returncode == 1
    assert run.stdout == ""
    # The spec's config_required text, whole (tests/test_contract.py holds it to the spec).
    assert run.stderr.startswith(BRAVE_CONFIG_REQUIRED + "\n")
    json_run = run_exe("webtap", "search", "--json", "anything")
    assert json.loads(json_run.stdout)["_event"] == {
        "kind": "config_required",
        "content": BRAVE_CONFIG_REQUIRED,
        "data": BRAVE_EVENT_DATA,
    }


def test_google_is_the_default_when_only_google_is_set_up(google, kit, run_exe) -> None:
    google.expect_request(kit.GOOGLE_PATH).respond_with_response(
        kit.recorded("google/customsearch_testing")
    )
    run = run_exe("webtap", "search", "testing", "--count", "4", "--allow", "a.org", "--json")
    ((request, _),) = google.log
    assert request.args["num"] == "4" and request.args["siteSearch"] == "a.org"
    assert json.loads(run.stdout)["success"] is True


def test_errors_are_one_readable_line(brave, kit, run_exe) -> None:
    brave.expect_request(kit.BRAVE_PATH).respond_with_response(
        kit.recorded("brave/error_429_quota_limited")
    )
    run = run_exe("webtap", "search", "quota")
    assert run.returncode == 1
    assert "RATE_LIMIT: Rate limit exceeded." in run.stderr
    assert "resets in" in run.stderr  # the event for the person
    assert "Traceback" not in run.stderr


def test_the_setup_text_is_dim_yellow_on_a_colour_terminal(run_exe) -> None:
    # Spec 000: the config_required event is "displayed to users in dim yellow".
    run = run_exe("webtap", "search", "anything", env={"FORCE_COLOR": "1", "NO_COLOR": ""})
    dim_yellow = "\x1b[2;33m"
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert lines[0] == f"{dim_yellow}⚠ Configuration Required\x1b[0m"
    assert all(line.startswith(dim_yellow) for line in lines)
    plain = re.sub(r"\x1b\[[0-9;]*m", "", run.stderr)
    assert plain.startswith(BRAVE_CONFIG_REQUIRED + "\n")
