"""The one way to declare a setting: ``webtap.settings.declare`` and ``Setting.get``."""

from __future__ import annotations

import pytest

from webtap.errors import ConfigError
from webtap.settings import SETTINGS, Setting, declare


@pytest.fixture
def declared() -> list[str]:
    names: list[str] = []
    yield names
    for name in names:
        SETTINGS.pop(name, None)


def make(declared: list[str], name: str, kind: str, default: object, **kw: object) -> Setting:
    declared.append(name)
    return declare(name, kind, default, "a test setting", **kw)  # type: ignore[arg-type]


def test_a_setting_reads_the_environment_each_time(declared, monkeypatch) -> None:
    setting = make(declared, "WEBTAP_T_SECONDS", "seconds", 30.0)
    assert setting.get() == 30.0
    monkeypatch.setenv("WEBTAP_T_SECONDS", "2.5")
    assert setting.get() == 2.5
    monkeypatch.setenv("WEBTAP_T_SECONDS", "5s")
    with pytest.raises(ConfigError, match="WEBTAP_T_SECONDS must be a number above 0"):
        setting.get()


def test_each_kind_reads_its_values(declared, monkeypatch) -> None:
    ttl = make(declared, "WEBTAP_T_TTL", "ttl", 600.0)
    count = make(declared, "WEBTAP_T_COUNT", "count", 5, unit="calls")
    choice = make(declared, "WEBTAP_T_CHOICE", "choice", "main", choices=("main", "page"))
    flag = make(declared, "WEBTAP_T_FLAG", "flag", False)
    text = make(declared, "WEBTAP_T_TEXT", "text", None)
    monkeypatch.setenv("WEBTAP_T_TTL", "0")
    monkeypatch.setenv("WEBTAP_T_COUNT", "1_000")
    monkeypatch.setenv("WEBTAP_T_CHOICE", "PAGE")
    monkeypatch.setenv("WEBTAP_T_FLAG", "yes")
    monkeypatch.setenv("WEBTAP_T_TEXT", "  hello ")
    assert (ttl.get(), count.get(), choice.get(), flag.get(), text.get()) == (
        0.0,
        1000,
        "page",
        True,
        "hello",
    )
    monkeypatch.setenv("WEBTAP_T_CHOICE", "whole")
    with pytest.raises(ConfigError, match="'main' or 'page'"):
        choice.get()
    monkeypatch.setenv("WEBTAP_T_COUNT", "2.5")
    with pytest.raises(ConfigError, match="whole number of calls"):
        count.get()


def test_a_setting_is_declared_once(declared) -> None:
    make(declared, "WEBTAP_T_ONCE", "text", None)
    with pytest.raises(ValueError, match="declared twice"):
        declare("WEBTAP_T_ONCE", "text", None, "again")
    with pytest.raises(ValueError, match="unknown kind"):
        Setting("WEBTAP_T_KIND", "colour", None, "no such kind")


def test_defaults_as_the_docs_say_them(declared) -> None:
    assert make(declared, "WEBTAP_T_A", "seconds", 30.0).default_text() == "30"
    assert make(declared, "WEBTAP_T_B", "path", None, shown="user cache dir").default_text() == (
        "user cache dir"
    )
    assert make(declared, "WEBTAP_T_C", "flag", False).default_text() == "unset"
