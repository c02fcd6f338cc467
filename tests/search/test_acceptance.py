"""The spec's acceptance lines (003), for both search executables."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

SCHEMAS = Path(__file__).parents[2] / "src" / "webtap" / "schemas"
TOOLS = [
    ("web-search-brave-tool", "web_search_brave", "Brave", ["count", "offset"]),
    ("web-search-google-tool", "web_search_google", "Google", ["num", "start"]),
]
CONFIG_REQUIRED = {
    "web_search_brave": (
        "⚠ Configuration Required\n\nWeb search needs an API key. Brave Search offers 2,000 "
        "free searches/month.\n\nGet your key: https://brave.com/search/api/\nAdd to: "
        '~/.config/ikigai/credentials.json\n\nExample:\n{\n  "web_search": {\n    "brave": '
        '{\n      "api_key": "your-api-key-here"\n    }\n  }\n}'
    ),
    "web_search_google": (
        "⚠ Configuration Required\n\nWeb search needs an API key and Search Engine ID. Google "
        "Custom Search offers 100 free searches/day.\n\nGet API key: "
        "https://developers.google.com/custom-search/v1/overview\nGet Search Engine ID: "
        "https://programmablesearchengine.google.com/controlpanel/create\nAdd to: "
        '~/.config/ikigai/credentials.json\n\nExample:\n{\n  "web_search": {\n    "google": '
        '{\n      "api_key": "your-api-key-here",\n      "engine_id": "your-search-engine-id"'
        "\n    }\n  }\n}"
    ),
}
AUTH_MISSING = {
    "web_search_brave": (
        "Web search requires API key configuration.\n\nBrave Search offers 2,000 free "
        "searches/month.\nGet your key: https://brave.com/search/api/\nAdd to: "
        "~/.config/ikigai/credentials.json as 'web_search.brave.api_key'"
    ),
    "web_search_google": (
        "Web search requires API key configuration.\n\nGoogle Custom Search offers 100 free "
        "searches/day.\nGet API key: https://developers.google.com/custom-search/v1/overview\n"
        "Get Search Engine ID: https://programmablesearchengine.google.com/controlpanel/create\n"
        "Add to: ~/.config/ikigai/credentials.json as 'web_search.google.api_key' and "
        "'web_search.google.engine_id'"
    ),
}
DATA = {
    "web_search_brave": {
        "tool": "web_search_brave",
        "credential": "api_key",
        "signup_url": "https://brave.com/search/api/",
    },
    "web_search_google": {"tool": "web_search_google", "credentials": ["api_key", "engine_id"]},
}


@pytest.mark.parametrize(("exe", "name", "provider", "params"), TOOLS)
def test_schema_is_exactly_the_spec(run_exe, exe, name, provider, params) -> None:
    run = run_exe(exe, "--schema")
    assert run.returncode == 0
    assert run.stdout == (SCHEMAS / f"{name}.json").read_text()
    schema = run.json
    assert schema["name"] == name and f"{provider}" in schema["description"]
    props = schema["parameters"]["properties"]
    assert list(props) == ["query", *params, "allowed_domains", "blocked_domains"]
    assert schema["parameters"]["required"] == ["query"]


@pytest.mark.parametrize(("exe", "name", "provider", "params"), TOOLS)
@pytest.mark.parametrize("stdin", [b"", b"{not json"])
def test_empty_or_invalid_stdin_exits_1(run_exe, exe, name, provider, params, stdin) -> None:
    run = run_exe(exe, stdin=stdin)
    assert run.returncode == 1 and run.stdout == ""
    assert "Traceback" not in run.stderr and run.stderr.strip()


@pytest.mark.parametrize(("exe", "name", "provider", "params"), TOOLS)
def test_without_credentials_exit_0_auth_missing_and_config_required(
    run_exe, exe, name, provider, params
) -> None:
    run = run_exe(exe, stdin=b'{"query":"test"}')
    assert run.returncode == 0
    out = run.json
    assert out["success"] is False and out["error_code"] == "AUTH_MISSING"
    assert out["error"] == AUTH_MISSING[name]
    assert out["_event"] == {
        "kind": "config_required",
        "content": CONFIG_REQUIRED[name],
        "data": DATA[name],
    }


@pytest.mark.parametrize(("exe", "name", "provider", "params"), TOOLS)
def test_bad_parameters_are_invalid_input_for_the_model(run_exe, exe, name, provider, params):
    run = run_exe(exe, stdin=json.dumps({"query": "test", params[0]: 50}))
    assert run.returncode == 0
    assert run.json["error_code"] == "INVALID_INPUT" and params[0] in run.json["error"]
    bad_domain = run_exe(exe, stdin={"query": "test", "allowed_domains": ["ok.org", ""]})
    assert bad_domain.json["error_code"] == "INVALID_INPUT"
    assert "allowed_domains[1]" in bad_domain.json["error"]
