"""``webtap install`` / ``webtap uninstall``: launchers for webtap's tools where hosts look."""

from __future__ import annotations

import argparse
import os
from typing import Any

from webtap.cli._output import fail
from webtap.host import InstallError, install, target_folder, tool_folders, uninstall
from webtap.settings import SYSTEM_TOOLS_DIR

__all__ = ["run"]


def _folder(args: argparse.Namespace) -> Any:
    if args.system is not None:  # `--system ""` (an unset $PREFIX) is refused, not "project"
        return target_folder("system", prefix=args.system)
    return target_folder("user" if args.user else "project")


def run(args: argparse.Namespace) -> int:
    """``webtap install`` or ``webtap uninstall``: the launchers written or removed, one a line."""
    removing = args.command == "uninstall"
    try:
        folder = _folder(args)
        paths = (uninstall if removing else install)(folder)
    except InstallError as exc:
        return fail(str(exc))
    for path in paths:
        print(path)
    if removing and not paths:
        fail(f"no webtap launchers in {folder}", 0)
    elif not removing:
        _note_other_system_folder(args, folder)
    return 0


def _note_other_system_folder(args: argparse.Namespace, folder: Any) -> None:
    system = dict(tool_folders())["system"]
    if args.system and os.path.realpath(folder) != os.path.realpath(system):
        fail(
            f"note: discovery reads system tools from {system}; "
            f"set {SYSTEM_TOOLS_DIR.name}={folder} to use these",
            0,
        )
