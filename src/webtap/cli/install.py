"""``webtap install`` / ``webtap uninstall``: launchers for webtap's tools where hosts look."""

from __future__ import annotations

import argparse
from typing import Any

from webtap.cli._output import fail

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Any) -> None:
    for name, verb in (
        ("install", "put launchers for web-fetch-tool, web-search-*-tool"),
        ("uninstall", "remove the launchers webtap install wrote"),
    ):
        parser = subparsers.add_parser(
            name,
            help=f"{verb} (--user, --project or --system PREFIX)",
            description=f"{verb[0].upper()}{verb[1:]}: ~/.ikigai/tools (--user), "
            "./.ikigai/tools (--project) or PREFIX/libexec/ikigai (--system PREFIX).",
        )
        where = parser.add_mutually_exclusive_group(required=True)
        where.add_argument("--user", action="store_true", help="~/.ikigai/tools")
        where.add_argument("--project", action="store_true", help="./.ikigai/tools")
        where.add_argument("--system", metavar="PREFIX", help="PREFIX/libexec/ikigai")
        parser.set_defaults(run=run)


def _folder(args: argparse.Namespace) -> Any:
    from webtap.host import target_folder

    if args.system is not None:  # `--system ""` (an unset $PREFIX) is refused, not "project"
        return target_folder("system", prefix=args.system)
    return target_folder("user" if args.user else "project")


def run(args: argparse.Namespace) -> int:
    """``webtap install`` or ``webtap uninstall``: the launchers written or removed, one a line."""
    from webtap.host import InstallError, install, uninstall

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
    import os

    from webtap.host import tool_folders
    from webtap.settings import SYSTEM_TOOLS_DIR

    system = dict(tool_folders())["system"]
    if args.system and os.path.realpath(folder) != os.path.realpath(system):
        fail(
            f"note: discovery reads system tools from {system}; "
            f"set {SYSTEM_TOOLS_DIR.name}={folder} to use these",
            0,
        )
