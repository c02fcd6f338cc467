"""The ``webtap`` command: a thin front door over the library.

Each subcommand lives in its own module here with ``add_parser(subparsers)`` and ``run(args)``;
a module imports what it needs inside ``run`` so that ``webtap --help`` stays fast.
"""

from __future__ import annotations

import argparse
import sys
from importlib import import_module

from webtap import __version__

__all__ = ["main"]

# Subcommand modules, in the order --help lists them.
COMMANDS = ["fetch", "search", "ask", "verify", "sql", "batch", "tools", "events", "install", "mcp"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="webtap",
        description="The web for LLM agents: fetch, search, ask, SQL, tools and MCP.",
    )
    parser.add_argument("--version", action="version", version=f"webtap {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = import_module(f"webtap.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"webtap.cli.{name}":
                continue  # not built yet
            raise
        module.add_parser(subparsers)
    _mark_owners(parser)
    return parser


def _mark_owners(parser: argparse.ArgumentParser) -> None:
    """Let every (sub)command's namespace name its own parser, the innermost winning.

    argparse reports a stray argument from the top-level parser ("webtap: error: unrecognized
    arguments"), with the top-level usage; :func:`main` reports it from the command that was
    given it, whose usage is the one that helps.
    """
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                sub.set_defaults(_parser=sub)
                _mark_owners(sub)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:
        owner = getattr(args, "_parser", parser)
        owner.error(f"unrecognized arguments: {' '.join(extra)}")
    if not getattr(args, "run", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.run(args) or 0)
    except KeyboardInterrupt as exc:
        # Ctrl-C, or SIGTERM/SIGHUP where a command asked for it (webtap.signals.Terminated).
        from webtap.cli._output import stopped

        return stopped(exc)
    except BrokenPipeError:
        from webtap.entry import closed_stdout

        return closed_stdout()
