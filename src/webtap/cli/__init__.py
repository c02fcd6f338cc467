"""The ``webtap`` command: a thin front door over the library.

The parser comes from :mod:`webtap.cli.arguments`, which imports only what the help texts need,
so that ``webtap --help`` stays fast. Each command runs in a module of its own here
(``webtap.cli.fetch``, ...; ``run(args)``), which imports what it needs at its top: the one
deferred import is :func:`main`'s, of the chosen command's module.
"""

from __future__ import annotations

import argparse
import sys
from importlib import import_module

from webtap import __version__
from webtap.cli._output import stopped
from webtap.cli.arguments import add_parsers
from webtap.entry import closed_stdout

__all__ = ["main"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="webtap",
        description="The web for LLM agents: fetch, search, ask, SQL, tools and MCP.",
    )
    parser.add_argument("--version", action="version", version=f"webtap {__version__}")
    add_parsers(parser.add_subparsers(dest="command", metavar="COMMAND"))
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
    owner = getattr(args, "_parser", parser)
    if extra:
        owner.error(f"unrecognized arguments: {' '.join(extra)}")
    if not getattr(args, "run", None):  # webtap, webtap tools, webtap batch: what to give
        owner.print_help(sys.stderr)
        return 2
    try:
        return int(import_module(f"webtap.cli.{args.run}").run(args) or 0)
    except KeyboardInterrupt as exc:
        # Ctrl-C, or SIGTERM/SIGHUP where a command asked for it (webtap.signals.Terminated).
        return stopped(exc)
    except BrokenPipeError:
        return closed_stdout()
