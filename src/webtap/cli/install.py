"""``webtap install`` / ``webtap uninstall``: launchers for webtap's tools where hosts look."""

from __future__ import annotations

import argparse
from typing import Any

from webtap.cli._output import fail

__all__ = ["add_parser", "run", "run_install", "run_uninstall"]


def add_parser(subparsers: Any) -> None:
    for name, run, verb in (
        ("install", run_install, "put launchers for web-fetch-tool, web-search-*-tool"),
        ("uninstall", run_uninstall, "remove the launchers webtap install wrote"),
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

    if args.system:
        return target_folder("system", prefix=args.system)
    return target_folder("user" if args.user else "project")


def run_install(args: argparse.Namespace) -> int:
    import os

    from webtap.host import InstallError, install, tool_folders

    try:
        folder = _folder(args)
        paths = install(folder)
    except InstallError as exc:
        return fail(str(exc))
    for path in paths:
        print(path)
    system = dict(tool_folders())["system"]
    if args.system and os.path.realpath(folder) != os.path.realpath(system):
        fail(
            f"note: discovery reads system tools from {system}; "
            f"set WEBTAP_SYSTEM_TOOLS_DIR={folder} to use these",
            0,
        )
    return 0


def run_uninstall(args: argparse.Namespace) -> int:
    from webtap.host import InstallError, uninstall

    try:
        folder = _folder(args)
        removed = uninstall(folder)
    except InstallError as exc:
        return fail(str(exc))
    for path in removed:
        print(path)
    if not removed:
        fail(f"no webtap launchers in {folder}", 0)
    return 0


def run(args: argparse.Namespace) -> int:
    return run_uninstall(args) if args.command == "uninstall" else run_install(args)
