"""The executables' entry points: answer ``--schema`` before importing anything else.

The host spawns every tool with ``--schema`` at each cold discovery, so that path reads one
file and exits; every other invocation goes to :func:`webtap.tools.main`.
"""

import os
import sys

__all__ = ["brave_main", "closed_stdout", "fetch_main", "google_main", "searxng_main"]


def _run(name: str) -> int:
    try:
        if sys.argv[1:] == ["--schema"]:
            schema = os.path.join(os.path.dirname(__file__), "schemas", f"{name}.json")
            with open(schema, "rb") as file:
                sys.stdout.buffer.write(file.read())
                sys.stdout.flush()
            return 0
        from webtap.tools import main  # after --schema: the boundary in the docstring

        return main(name)
    except BrokenPipeError:
        return closed_stdout()


def closed_stdout() -> int:
    """Whoever read stdout has gone (``| head -1``, a host that gave up): stop quietly.

    stdout is pointed at /dev/null, so that the interpreter's last flush at exit does not fail
    again with "Exception ignored ... BrokenPipeError"; the exit status is 0, as for ``head``'s
    writer in a shell pipeline, since nothing went wrong that the reader wants to hear about.
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass  # stdout has no file descriptor: nothing will be flushed to it
    return 0


def fetch_main() -> int:
    return _run("web_fetch")


def brave_main() -> int:
    return _run("web_search_brave")


def google_main() -> int:
    return _run("web_search_google")


def searxng_main() -> int:
    return _run("web_search_searxng")
