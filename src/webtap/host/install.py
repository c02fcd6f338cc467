"""Put launchers for webtap's three tools where discovery finds them, and take them away.

A launcher is a two-line ``sh`` script that ``exec``s this environment's executable, so the
tools run with webtap's own Python and packages wherever they are found. It carries a marker
line; ``uninstall`` removes only files with that marker, never a file webtap did not write.
"""

from __future__ import annotations

import os
import shlex
import sys
import sysconfig
from pathlib import Path

from webtap.files import write_atomic
from webtap.host.discovery import current_folder
from webtap.tools import TOOLS

__all__ = [
    "MARKER",
    "InstallError",
    "install",
    "is_launcher",
    "launcher_text",
    "scripts_path",
    "target_folder",
    "uninstall",
]

MARKER = "# webtap-launcher:"


class InstallError(Exception):
    """Installing or removing launchers cannot go on; the message says why and what to do."""


def target_folder(
    scope: str, *, prefix: str | Path | None = None, cwd: str | Path | None = None
) -> Path:
    """The folder for ``scope`` (``user``, ``project`` or ``system``), as discovery reads it."""
    if scope == "user":
        home = os.environ.get("HOME") or str(Path.home())
        return Path(home) / ".ikigai" / "tools"
    if scope == "project":
        project = Path(cwd) if cwd is not None else current_folder()
        if project is None:
            raise InstallError(
                "the current folder no longer exists; cd into the project and run this again"
            )
        return project / ".ikigai" / "tools"
    if scope == "system":
        if not prefix:
            raise InstallError("--system needs a PREFIX (tools go to PREFIX/libexec/ikigai)")
        return Path(prefix) / "libexec" / "ikigai"
    raise InstallError(f"unknown scope {scope!r} (user, project or system)")


def scripts_path(name: str) -> Path | None:
    """This environment's executable ``name``, or None when it is not installed."""
    for folder in (sysconfig.get_path("scripts"), str(Path(sys.executable).parent)):
        path = Path(folder) / name
        if path.is_file() and os.access(path, os.X_OK):
            return path.absolute()
    return None


def _executable(name: str) -> Path:
    path = scripts_path(name)
    if path is not None:
        return path
    raise InstallError(
        f"{name} is not installed in this environment ({sys.prefix}); reinstall webtap"
    )


def launcher_text(executable: Path) -> str:
    return (
        "#!/bin/sh\n"
        f"{MARKER} written by `webtap install`; `webtap uninstall` removes it.\n"
        f'exec {shlex.quote(str(executable))} "$@"\n'
    )


def is_launcher(path: Path) -> bool:
    """True for a file that ``webtap install`` wrote."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(512)
    except OSError:
        return False
    return MARKER.encode() in head


def install(folder: Path) -> list[Path]:
    """Write (or refresh) the three launchers in ``folder``; returns their paths."""
    executables = {spec.executable: _executable(spec.executable) for spec in TOOLS.values()}
    targets = [folder / name for name in sorted(executables)]
    foreign = [p for p in targets if (p.exists() or p.is_symlink()) and not is_launcher(p)]
    if foreign:
        names = ", ".join(str(p) for p in foreign)
        raise InstallError(f"{names} already exists and was not written by webtap; move it away")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for target in targets:
            # Never through a fixed temporary name: a project may plant a link under it.
            write_atomic(target, launcher_text(executables[target.name]), 0o755)
    except OSError as exc:
        raise InstallError(f"cannot write to {folder}: {exc.strerror or exc}") from None
    return targets


def uninstall(folder: Path) -> list[Path]:
    """Remove the launchers ``install`` wrote in ``folder``; returns what was removed."""
    removed: list[Path] = []
    for spec in sorted(TOOLS.values(), key=lambda s: s.executable):
        path = folder / spec.executable
        if path.is_file() and not path.is_symlink() and is_launcher(path):
            try:
                path.unlink()
            except OSError as exc:
                raise InstallError(f"cannot remove {path}: {exc.strerror or exc}") from None
            removed.append(path)
    return removed
