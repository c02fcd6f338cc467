"""Finding the browser: WEBTAP_BROWSER, else the usual names on PATH (no browser needed)."""

from __future__ import annotations

import os
import stat

import pytest

from webtap.browser import BROWSER_ENV, BrowserNotFound, browser_path, find_browser


def executable(path, text="#!/bin/sh\nexit 0\n"):
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def test_the_setting_names_the_browser(tmp_path, monkeypatch):
    chrome = executable(tmp_path / "my-chrome", "\x7fELF not really")
    monkeypatch.setenv(BROWSER_ENV, chrome)
    assert find_browser() == chrome


def test_a_setting_that_names_nothing_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv(BROWSER_ENV, str(tmp_path / "nothing-here"))
    with pytest.raises(BrowserNotFound) as caught:
        find_browser()
    assert str(caught.value) == (
        f"{BROWSER_ENV} is {str(tmp_path / 'nothing-here')!r}, which is not an executable file; "
        "set it to a Chrome or Chromium binary, or unset it to look for one on PATH"
    )
    assert caught.value.code == "CONFIG_ERROR"


def test_the_usual_names_are_looked_up_on_path_headless_shell_first(tmp_path, monkeypatch):
    monkeypatch.delenv(BROWSER_ENV, raising=False)
    executable(tmp_path / "google-chrome", "\x7fELF")
    monkeypatch.setenv("PATH", str(tmp_path))
    assert find_browser() == str(tmp_path / "google-chrome")
    executable(tmp_path / "chromium-headless-shell", "\x7fELF")
    assert find_browser() == str(tmp_path / "chromium-headless-shell")


def test_no_browser_says_how_to_get_one(tmp_path, monkeypatch):
    monkeypatch.delenv(BROWSER_ENV, raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert find_browser() is None
    with pytest.raises(BrowserNotFound) as caught:
        browser_path()
    assert "apt-get install chromium-headless-shell" in str(caught.value)
    assert BROWSER_ENV in str(caught.value)


@pytest.mark.skipif(
    not os.access("/usr/lib/chromium/chromium-headless-shell", os.X_OK),
    reason="Debian's chromium-headless-shell is not installed",
)
def test_debian_s_wrapper_script_is_replaced_by_the_real_binary(tmp_path, monkeypatch):
    monkeypatch.delenv(BROWSER_ENV, raising=False)
    executable(tmp_path / "chromium-headless-shell")  # a script, like Debian's /usr/bin one
    monkeypatch.setenv("PATH", str(tmp_path))
    assert find_browser() == "/usr/lib/chromium/chromium-headless-shell"
