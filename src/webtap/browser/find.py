"""Which browser: ``WEBTAP_BROWSER`` (:data:`webtap.settings.BROWSER`), else the usual names of
Chrome-family browsers on PATH.

webtap ships no browser and downloads none: it uses one the person installed
(``apt-get install chromium-headless-shell``, or any Chrome or Chromium). The headless shell is
looked for first: it is the smallest and starts fastest. Debian puts a ``sh`` wrapper in
``/usr/bin`` that runs the real binary from ``/usr/lib/chromium/`` without ``exec``; the real
binary is taken instead, so the browser is our child, not a shell's.
"""

from __future__ import annotations

import os
import shutil

from webtap.errors import ConfigError, clip
from webtap.settings import BROWSER

__all__ = [
    "BROWSER_ENV",
    "INSTALL_HINT",
    "NAMES",
    "BrowserNotFound",
    "browser_path",
    "find_browser",
]

BROWSER_ENV = BROWSER.name

NAMES = (
    "chromium-headless-shell",
    "chrome-headless-shell",
    "chromium",
    "chromium-browser",
    "google-chrome",
    "google-chrome-stable",
    "chrome",
    "microsoft-edge",
)

INSTALL_HINT = (
    "install one (`apt-get install chromium-headless-shell`, or any Chrome or Chromium) "
    f"or set {BROWSER_ENV} to its path"
)

_DEBIAN_LIB = "/usr/lib/chromium"


class BrowserNotFound(ConfigError):
    """No Chrome-family browser is installed, or ``WEBTAP_BROWSER`` names none."""


def find_browser() -> str | None:
    """The browser to run, or ``None`` when none is installed.

    Raises :class:`BrowserNotFound` when ``WEBTAP_BROWSER`` is set to something that is not
    an executable file: a setting that names nothing is a mistake to report, not to skip.
    """
    named = BROWSER.get()
    if isinstance(named, str):
        path = shutil.which(named)
        if path is None:
            raise BrowserNotFound(
                f"{BROWSER_ENV} is {clip(named)!r}, which is not an executable file; "
                f"set it to a Chrome or Chromium binary, or unset it to look for one on PATH"
            )
        return _unwrapped(path)
    for name in NAMES:
        path = shutil.which(name)
        if path is not None:
            return _unwrapped(path)
    return None


def browser_path() -> str:
    """:func:`find_browser`, or :class:`BrowserNotFound` saying how to get a browser."""
    path = find_browser()
    if path is None:
        raise BrowserNotFound(f"No Chrome-family browser was found: {INSTALL_HINT}")
    return path


def _unwrapped(path: str) -> str:
    """Debian's real binary for its ``/usr/bin`` wrapper script, else ``path`` itself."""
    real = os.path.join(_DEBIAN_LIB, os.path.basename(path))
    wrapper = os.path.dirname(os.path.realpath(path)) != _DEBIAN_LIB and _is_script(path)
    if wrapper and os.path.isfile(real) and os.access(real, os.X_OK) and not _is_script(real):
        return real
    return path


def _is_script(path: str) -> bool:
    try:
        with open(path, "rb") as handle:
            return handle.read(2) == b"#!"
    except OSError:
        return False
