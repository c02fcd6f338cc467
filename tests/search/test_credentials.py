"""Credential discovery: environment, then ~/.config/ikigai/credentials.json, then AUTH_MISSING."""

from __future__ import annotations

import pytest

from webtap import credentials
from webtap.errors import AuthMissing, ConfigError
from webtap.providers import BRAVE, GOOGLE
from webtap.search.brave import brave_key
from webtap.search.google import google_credentials

# Copied from spec 000 ("Error Response" and "config_required Event" of each search tool).
BRAVE_ERROR = (
    "Web search requires API key configuration.\n\nBrave Search offers 2,000 free "
    "searches/month.\nGet your key: https://brave.com/search/api/\nAdd to: "
    "~/.config/ikigai/credentials.json as 'web_search.brave.api_key'"
)
GOOGLE_ERROR = (
    "Web search requires API key configuration.\n\nGoogle Custom Search offers 100 free "
    "searches/day.\nGet API key: https://developers.google.com/custom-search/v1/overview\nGet "
    "Search Engine ID: https://programmablesearchengine.google.com/controlpanel/create\nAdd to: "
    "~/.config/ikigai/credentials.json as 'web_search.google.api_key' and "
    "'web_search.google.engine_id'"
)


def test_nothing_configured_is_auth_missing_with_the_spec_text_and_event() -> None:
    with pytest.raises(AuthMissing) as brave:
        credentials.require(BRAVE)
    assert brave.value.message == BRAVE_ERROR
    assert brave.value.event["kind"] == "config_required"
    assert brave.value.event["data"] == {
        "tool": "web_search_brave",
        "credential": "api_key",
        "signup_url": "https://brave.com/search/api/",
    }
    with pytest.raises(AuthMissing) as google:
        credentials.require(GOOGLE)
    assert google.value.message == GOOGLE_ERROR
    assert google.value.event["data"] == {
        "tool": "web_search_google",
        "credentials": ["api_key", "engine_id"],
    }
    assert brave_key() is None
    assert google_credentials() is None


def test_environment_beats_the_file(monkeypatch, write_credentials) -> None:
    write_credentials({"web_search": {"brave": {"api_key": "from-file"}}})
    monkeypatch.setenv("BRAVE_API_KEY", "from-env")
    found = credentials.require(BRAVE)
    assert (found.api_key, found.source) == ("from-env", "BRAVE_API_KEY")
    assert "from-env" not in repr(found)


def test_an_empty_variable_counts_as_unset(monkeypatch, write_credentials) -> None:
    write_credentials({"web_search": {"brave": {"api_key": "from-file"}}})
    monkeypatch.setenv("BRAVE_API_KEY", "  ")
    assert brave_key() == "from-file"


def test_the_file_follows_home(isolated_env, write_credentials) -> None:
    path = write_credentials({"web_search": {"google": {"api_key": "g-key", "engine_id": "g-cx"}}})
    assert path == isolated_env / ".config" / "ikigai" / "credentials.json"
    assert credentials.credentials_path() == path
    assert google_credentials() == ("g-key", "g-cx")


def test_google_fields_resolve_one_by_one(monkeypatch, write_credentials) -> None:
    write_credentials({"web_search": {"google": {"engine_id": "file-cx"}}})
    assert google_credentials() is None  # no key anywhere
    monkeypatch.setenv("GOOGLE_SEARCH_API_KEY", "env-key")
    assert google_credentials() == ("env-key", "file-cx")
    assert "GOOGLE_SEARCH_API_KEY and" in credentials.require(GOOGLE).source


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        ('{"web_search": {"brave": {"api_key": "sekrit-123",}}}', "is not valid JSON"),
        ('["sekrit-123"]', "must hold a JSON object"),
        ('{"web_search": {"brave": {"api_key": 12345}}}', "'web_search.brave.api_key' must be"),
        ('{"web_search": {"brave": "sekrit-123"}}', "'web_search.brave' must be an object"),
        ('{"web_search": ["sekrit-123"]}', "'web_search' must be an object with 'brave' in it"),
    ],
)
def test_a_malformed_file_is_a_config_error_naming_the_file(
    write_credentials, content, fragment
) -> None:
    path = write_credentials(content)
    with pytest.raises(ConfigError) as error:
        credentials.require(BRAVE)
    assert str(path) in error.value.message
    assert fragment in error.value.message
    assert "sekrit" not in error.value.message and "12345" not in error.value.message
    assert brave_key() is None  # the non-raising lookup says "not available"


def test_an_unreadable_file_is_a_config_error(isolated_env) -> None:
    path = isolated_env / ".config" / "ikigai" / "credentials.json"
    path.mkdir(parents=True)  # a directory where the file should be: reading fails
    with pytest.raises(ConfigError, match="Cannot read the credentials file"):
        credentials.require(GOOGLE)


def test_the_environment_alone_needs_no_readable_file(monkeypatch, write_credentials) -> None:
    write_credentials("{ broken")
    monkeypatch.setenv("BRAVE_API_KEY", "env-key")
    assert brave_key() == "env-key"
