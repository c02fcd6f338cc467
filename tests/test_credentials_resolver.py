"""One table of key sources, one resolver, one choice of provider (issue 12, item 1).

The tools (environment → file) and the SQL side (value → environment → ~/.stps → file) read the
same table with different precedence; the CLI, the quota message and the ask loop pick the
provider with the same function, so they agree on every configuration.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from webtap import credentials
from webtap.cli.search import default_provider
from webtap.credentials import Keys
from webtap.errors import ConfigError
from webtap.providers import BRAVE, GOOGLE
from webtap.search import quota
from webtap.search.brave import brave_key
from webtap.search.google import google_credentials

SEARCH_KEYS = ["brave", "searxng", "google_api_key", "google_cse_id"]


def write_file(home: Path, data: object) -> Path:
    path = home / ".config" / "ikigai" / "credentials.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def file_with(name: str, value: str) -> dict:
    """A credentials file holding one key, at the table's path for it."""
    data: dict = {}
    node = data
    *parents, last = credentials.KEY_SOURCES[name].file_path
    for part in parents:
        node = node.setdefault(part, {})
    node[last] = value
    return data


@pytest.mark.parametrize("name", list(credentials.KEY_SOURCES))
def test_both_sides_read_each_key_from_the_same_variable_and_path(
    name: str, isolated_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = credentials.KEY_SOURCES[name]
    write_file(isolated_env, file_with(name, "from-file"))
    tools = (credentials.from_environment, credentials.CredentialsFile())
    assert credentials.resolve([name], *tools) == {
        name: ("from-file", "~/.config/ikigai/credentials.json")
    }
    assert getattr(Keys().resolve(), name) == "from-file"

    monkeypatch.setenv(source.env, "from-env")
    assert credentials.resolve([name], *tools)[name] == ("from-env", source.env)
    assert getattr(Keys().resolve(), name) == "from-env"

    # ~/.stps sits between the environment and the file on the SQL side only.
    monkeypatch.delenv(source.env)
    (isolated_env / ".stps").mkdir()
    (isolated_env / ".stps" / source.stps_file).write_text("from-stps\n")
    assert getattr(Keys().resolve(), name) == "from-stps"
    assert credentials.resolve([name], *tools)[name][0] == "from-file"


def test_the_resolver_takes_the_first_source_in_the_order_given() -> None:
    first = lambda name, source: ("one", "first") if name == "brave" else None  # noqa: E731
    second = lambda name, source: ("two", "second")  # noqa: E731

    found = credentials.resolve(["brave", "searxng"], first, second)

    assert found == {"brave": ("one", "first"), "searxng": ("two", "second")}
    assert credentials.resolve(["brave"], second, first) == {"brave": ("two", "second")}
    assert credentials.resolve(["brave"]) == {}  # no source: nothing resolves


def test_the_file_is_read_once_for_all_keys(isolated_env: Path, monkeypatch) -> None:
    write_file(isolated_env, {"web_search": {"google": {"api_key": "k", "engine_id": "cx"}}})
    reads = []
    real = credentials.read_file
    # The file is read where the sources are (webtap.credentials.sources).
    monkeypatch.setattr(credentials.sources, "read_file", lambda: reads.append(1) or real())

    assert google_credentials() == ("k", "cx")
    assert credentials.configured_providers() == {
        "brave": False,
        "searxng": False,
        "google": True,
    }
    assert len(reads) == 2  # one per call above, not one per key


def test_a_broken_file_is_one_error_for_the_tools_and_a_noted_problem_for_sql(
    isolated_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_file(isolated_env, '{"web_search": ')
    monkeypatch.setenv("BRAVE_API_KEY", "env-brave")

    with pytest.raises(ConfigError, match="is not valid JSON"):
        credentials.require(GOOGLE)
    assert brave_key() == "env-brave"  # the environment needs no file
    assert credentials.configured_keys() == {"brave": "env-brave"}

    found = Keys().resolve()
    assert found.brave == "env-brave"
    assert str(path) in (found.problem or "")


def test_a_bad_variable_makes_its_provider_unconfigured_not_the_others(
    isolated_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_file(isolated_env, {"web_search": {"brave": {"api_key": "file-brave"}}})
    monkeypatch.setenv("BRAVE_API_KEY", "bad key with spaces")
    monkeypatch.setenv("SEARXNG_URL", "http://127.0.0.1:8888")

    # The bad variable is not passed over for the file: the tool says what is wrong with it.
    with pytest.raises(ConfigError, match="key in BRAVE_API_KEY is not usable"):
        credentials.require(BRAVE)
    assert credentials.configured_providers() == {
        "brave": False,
        "searxng": True,
        "google": False,
    }
    assert default_provider() == "searxng"


@pytest.mark.parametrize(
    ("keys", "preferred", "among", "expected"),
    [
        ({}, None, credentials.PROVIDER_ORDER, None),
        ({"brave": "b", "searxng": "u"}, None, credentials.PROVIDER_ORDER, "brave"),
        ({"searxng": "u", "google_api_key": "g"}, None, credentials.PROVIDER_ORDER, "searxng"),
        ({"google_api_key": "g"}, None, credentials.PROVIDER_ORDER, None),  # needs the cse id
        ({"google_api_key": "g", "google_cse_id": "c"}, None, ("brave", "google"), "google"),
        ({"brave": "b", "searxng": "u"}, None, ("searxng", "brave"), "searxng"),
        ({"brave": "b", "searxng": "u"}, "searxng", credentials.PROVIDER_ORDER, "searxng"),
        ({"brave": "b"}, "google", credentials.PROVIDER_ORDER, None),
        ({"brave": "b"}, "none", credentials.PROVIDER_ORDER, None),
        ({"brave": "b"}, "bing", credentials.PROVIDER_ORDER, None),
        ({"brave": "", "searxng": None}, None, credentials.PROVIDER_ORDER, None),
    ],
)
def test_pick_provider(keys, preferred, among, expected) -> None:
    assert credentials.pick_provider(keys, preferred, among) == expected


CONFIGURATIONS = [
    ({}, None),
    ({"GOOGLE_SEARCH_API_KEY": "g"}, None),
    ({"GOOGLE_SEARCH_API_KEY": "g", "GOOGLE_SEARCH_ENGINE_ID": "c"}, "google"),
    ({"SEARXNG_URL": "http://127.0.0.1:1", "GOOGLE_SEARCH_API_KEY": "g"}, "searxng"),
    ({"SEARXNG_URL": "http://127.0.0.1:1", "BRAVE_API_KEY": "b"}, "brave"),
]


@pytest.mark.parametrize(("env", "expected"), CONFIGURATIONS)
def test_cli_ask_loop_and_quota_agree_on_the_provider(
    env: dict[str, str], expected: str | None, isolated_env: Path, monkeypatch
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)

    assert Keys().resolve().search_provider() == expected
    assert default_provider() == (expected or "brave")  # the CLI's missing-key message is Brave's
    ready = credentials.configured_providers()
    assert [name for name, ok in ready.items() if ok][:1] == ([expected] if expected else [])

    # Google's quota is used up: the alternative named is the first configured of the others.
    event = quota.google_quota_exceeded().event["data"]
    others = [name for name in ("brave", "searxng") if ready[name]]
    assert event["alternative_tool"] == f"web_search_{(others or ['brave'])[0]}"
    assert event["alternative_configured"] is bool(others)


def test_brave_quota_names_searxng_before_google(monkeypatch, isolated_env: Path) -> None:
    monkeypatch.setenv("GOOGLE_SEARCH_API_KEY", "g")
    monkeypatch.setenv("GOOGLE_SEARCH_ENGINE_ID", "c")
    data = quota.brave_quota_exceeded(60.0).event["data"]
    assert (data["alternative_tool"], data["alternative_configured"]) == ("web_search_google", True)

    monkeypatch.setenv("SEARXNG_URL", "http://127.0.0.1:1")
    data = quota.brave_quota_exceeded(60.0).event["data"]
    assert (data["alternative_tool"], data["alternative_configured"]) == (
        "web_search_searxng",
        True,
    )
