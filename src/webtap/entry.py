"""The executables' entry points: answer ``--schema`` before importing anything else.

The host spawns every tool with ``--schema`` at each cold discovery, so that path reads one
file and exits; every other invocation goes to :func:`webtap.tools.main`.
"""

import sys

__all__ = ["brave_main", "fetch_main", "google_main"]


def _run(name: str) -> int:
    if sys.argv[1:] == ["--schema"]:
        from os import path

        with open(path.join(path.dirname(__file__), "schemas", f"{name}.json"), "rb") as file:
            sys.stdout.buffer.write(file.read())
        return 0
    # httpx imports its own command-line client (click, rich, pygments: some 40 ms of every
    # tool start) unless that import fails; a tool never uses it.
    sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]
    from webtap.tools import main

    return main(name)


def fetch_main() -> int:
    return _run("web_fetch")


def brave_main() -> int:
    return _run("web_search_brave")


def google_main() -> int:
    return _run("web_search_google")
