"""Key precedence for the ask side (decision: Ask keys): set value, environment, ~/.stps,
credentials file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from webtap.credentials import Keys
from webtap.errors import AuthMissing


def write_stps(home: Path, name: str, text: str) -> None:
    (home / ".stps").mkdir(exist_ok=True)
    (home / ".stps" / name).write_text(text)


def write_credentials(home: Path, data: object) -> Path:
    path = home / ".config" / "ikigai" / "credentials.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return path


ALL_IN_FILE = {
    "anthropic": {"api_key": "from-file-anthropic"},
    "web_search": {
        "brave": {"api_key": "from-file-brave"},
        "google": {"api_key": "from-file-google", "engine_id": "from-file-cse"},
    },
}


def test_each_source_in_order(isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    keys = Keys()
    write_credentials(isolated_env, ALL_IN_FILE)
    assert keys.resolve().anthropic == "from-file-anthropic"

    write_stps(isolated_env, "anthropic_api_key", "from-stps\nsecond line ignored\n")
    assert keys.resolve().anthropic == "from-stps"

    monkeypatch.setenv("ANTHROPIC_API_KEY", "from-env")
    assert keys.resolve().anthropic == "from-env"

    keys.set("anthropic", "from-sql")
    assert keys.resolve().anthropic == "from-sql"

    keys.set("anthropic", None)  # clearing falls back to the next source
    assert keys.resolve().anthropic == "from-env"


def test_search_keys_follow_the_same_order(
    isolated_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_credentials(isolated_env, ALL_IN_FILE)
    write_stps(isolated_env, "brave_api_key", "stps-brave\n")
    write_stps(isolated_env, "google_cse_id", "stps-cse")
    monkeypatch.setenv("GOOGLE_SEARCH_API_KEY", "env-google")

    found = Keys().resolve()

    assert found.brave == "stps-brave"
    assert found.google_api_key == "env-google"
    assert found.google_cse_id == "stps-cse"


def test_empty_values_count_as_unset(isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "  ")
    write_stps(isolated_env, "anthropic_api_key", "\n")
    keys = Keys()
    keys.set("brave", "")

    found = keys.resolve()

    assert found.anthropic is None and found.brave is None


def test_the_provider_in_effect(monkeypatch: pytest.MonkeyPatch) -> None:
    keys = Keys()
    assert keys.resolve().search_provider() is None

    keys.set("google_api_key", "g")
    assert keys.resolve().search_provider() is None  # needs the engine id too
    keys.set("google_cse_id", "cse")
    assert keys.resolve().search_provider() == "google"

    monkeypatch.setenv("BRAVE_API_KEY", "b")
    assert keys.resolve().search_provider() == "brave"  # Brave first when both resolve
    assert keys.resolve().search_provider("google") == "google"
    keys.set("google_cse_id", None)
    assert keys.resolve().search_provider("google") is None


def test_a_missing_anthropic_key_says_how_to_set_it() -> None:
    with pytest.raises(AuthMissing, match="ANTHROPIC_API_KEY"):
        Keys().resolve().require_anthropic()


def test_a_broken_credentials_file_is_named_not_quoted(isolated_env: Path) -> None:
    path = write_credentials(isolated_env, '{"anthropic": {"api_key": "sk-secret-in-broken-file"')

    found = Keys().resolve()

    with pytest.raises(AuthMissing) as caught:
        found.require_anthropic()
    assert str(path) in caught.value.message
    assert "sk-secret" not in caught.value.message


def test_keys_never_show_in_repr(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-visible?")

    assert "sk-ant-visible" not in repr(Keys().resolve())


def test_unknown_key_names_are_refused() -> None:
    from webtap.errors import InvalidInput

    with pytest.raises(InvalidInput, match="acme"):  # "openai" is a model provider's key now
        Keys().set("acme", "x")


def test_an_unreadable_stps_file_does_not_hide_the_credentials_file(isolated_env: Path) -> None:
    write_credentials(isolated_env, ALL_IN_FILE)
    (isolated_env / ".stps").mkdir()
    (isolated_env / ".stps" / "anthropic_api_key").mkdir()  # a folder: cannot be read as a file

    found = Keys().resolve()

    assert found.anthropic == "from-file-anthropic"
    assert found.brave == "from-file-brave"
    assert "anthropic_api_key" in (found.problem or "")
