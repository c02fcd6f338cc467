"""Find every tool on the machine: three folders, ``--schema`` run concurrently, cached.

Folders, lowest precedence first (decision: Discovery): system ``<prefix>/libexec/ikigai/`` (prefix
is this environment's ``sys.prefix``; ``WEBTAP_SYSTEM_TOOLS_DIR`` names another folder), user
``~/.ikigai/tools/``, project ``./.ikigai/tools/``. A tool is an executable regular file whose name
ends in ``-tool``; its registry name is the file name without ``-tool``, hyphens made underscores. A
project tool shadows a user tool of the same name, which shadows a system one.

Every winner's ``--schema`` runs concurrently, each under a timeout (``WEBTAP_SCHEMA_TIMEOUT``,
1 s) and an output cap. Results (good schemas and lasting failures) are cached by path, size and
mtime in webtap's cache folder, so that discovering an unchanged set of tools spawns no process
at all. The cache obeys the one switch and the one folder every webtap cache obeys
(decision: Caches, :mod:`webtap.cache`): ``WEBTAP_CACHE=off`` asks every tool each time,
``WEBTAP_CACHE_DIR`` moves the file.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from webtap import __version__
from webtap.cache import cache_dir, enabled
from webtap.errors import ToolRunError, ToolTimeout
from webtap.files import write_atomic
from webtap.host.outcome import SCHEMA, json_output
from webtap.host.process import run_process
from webtap.host.validate import NAME_MAX, NAME_PATTERN, SchemaProblem, check_tool_schema
from webtap.protocol import loads_json
from webtap.settings import SCHEMA_TIMEOUT, SYSTEM_TOOLS_DIR

__all__ = [
    "DEFAULT_RUN_TIMEOUT",
    "DEFAULT_SCHEMA_LIMIT",
    "Discovery",
    "Rejected",
    "Shadowed",
    "Tool",
    "cache_path",
    "discover",
    "registry_name",
    "tool_folders",
]

DEFAULT_SCHEMA_LIMIT = 1024 * 1024  # bytes of --schema output
DEFAULT_RUN_TIMEOUT = 30.0  # seconds for a run, unless the schema sets "timeout" (ms)
SUFFIX = "-tool"
SOURCES = ("system", "user", "project")  # lowest precedence first
# Bump when the checks change, so that cached verdicts are taken again.
_CACHE_FORMAT = f"2/{__version__}"


@dataclass(frozen=True)
class Tool:
    """A discovered tool: its registry name, where it lives, and its checked schema."""

    name: str
    path: Path
    # Left out of ==/hash (dicts are unhashable): name and path identify a tool.
    schema: dict[str, Any] = field(repr=False, compare=False)
    description: str = field(repr=False, compare=False)
    input_schema: dict[str, Any] = field(repr=False, compare=False)
    source: str = "project"
    timeout: float = DEFAULT_RUN_TIMEOUT

    @property
    def executable(self) -> str:
        return self.path.name


class Rejected(NamedTuple):
    """A tool left out, and why (``webtap tools list --all``)."""

    path: Path
    reason: str


class Shadowed(NamedTuple):
    """A tool hidden by one of the same name in a folder of higher precedence."""

    path: Path
    by: Path


@dataclass
class Discovery:
    """The tools found (sorted by name), and those left out with their reasons."""

    tools: list[Tool]
    rejected: list[Rejected]
    shadowed: list[Shadowed] = field(default_factory=list)

    def get(self, name: str) -> Tool | None:
        return next((tool for tool in self.tools if tool.name == name), None)

    def names(self) -> list[str]:
        return [tool.name for tool in self.tools]


def tool_folders(cwd: str | Path | None = None) -> list[tuple[str, Path]]:
    """``(source, folder)`` pairs, lowest precedence first."""
    system = SYSTEM_TOOLS_DIR.get() or str(Path(sys.prefix) / "libexec" / "ikigai")
    home = os.environ.get("HOME") or str(Path.home())
    folders = [("system", Path(system)), ("user", Path(home) / ".ikigai" / "tools")]
    project = Path(cwd) if cwd is not None else current_folder()
    if project is not None:  # a working folder that was deleted holds no project tools
        folders.append(("project", project / ".ikigai" / "tools"))
    return folders


def current_folder() -> Path | None:
    """The working folder, or None when it no longer exists (deleted while we were in it)."""
    try:
        return Path.cwd()
    except OSError:
        return None


def registry_name(filename: str) -> str | None:
    """``web-fetch-tool`` -> ``web_fetch``; None when the name does not end in ``-tool``."""
    if not filename.endswith(SUFFIX) or len(filename) == len(SUFFIX):
        return None
    return filename[: -len(SUFFIX)].replace("-", "_")


def cache_path() -> Path:
    """The discovery cache's file, in the folder every webtap cache shares."""
    return cache_dir() / "tool-schemas.json"


class _Candidate(NamedTuple):
    name: str
    path: Path
    source: str
    key: tuple[int, int]  # (size, mtime_ns)


def discover(
    cwd: str | Path | None = None,
    *,
    timeout: float | None = None,
    limit: int = DEFAULT_SCHEMA_LIMIT,
    use_cache: bool = True,
) -> Discovery:
    """Find, check and describe every tool visible from ``cwd``.

    Each ``--schema`` gets ``timeout`` seconds, by default ``WEBTAP_SCHEMA_TIMEOUT`` (1 s).
    ``use_cache=False``, or ``WEBTAP_CACHE=off``, asks every tool for its schema again and
    leaves the cache file alone.
    """
    use_cache = use_cache and enabled()
    seconds = SCHEMA_TIMEOUT.get() if timeout is None else timeout
    tools: list[Tool] = []
    rejected: list[Rejected] = []
    winners, shadowed = _scan(tool_folders(cwd), rejected)
    cache = _load_cache() if use_cache else {}
    to_probe: list[_Candidate] = []
    for candidate in winners:
        entry = cache.get(str(candidate.path))
        if entry and tuple(entry.get("key", ())) == candidate.key:
            _collect(candidate, entry, tools, rejected)
        else:
            to_probe.append(candidate)
    if to_probe:
        workers = min(16, len(to_probe))
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="webtap-schema") as pool:
            entries = list(pool.map(lambda c: _probe(c, seconds, limit), to_probe))
        for candidate, entry in zip(to_probe, entries, strict=True):
            _collect(candidate, entry, tools, rejected)
            if entry.pop("transient", False):
                cache.pop(str(candidate.path), None)
            else:
                cache[str(candidate.path)] = entry
        if use_cache:
            _save_cache(cache)
    tools.sort(key=lambda tool: tool.name)
    rejected.sort(key=lambda item: str(item.path))
    return Discovery(tools=tools, rejected=rejected, shadowed=shadowed)


def _scan(
    folders: list[tuple[str, Path]], rejected: list[Rejected]
) -> tuple[list[_Candidate], list[Shadowed]]:
    """The winning candidates and the shadowed; an unreadable folder goes into ``rejected``."""
    found: dict[str, _Candidate] = {}
    shadowed: list[Shadowed] = []
    for source, folder in folders:
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except FileNotFoundError:
            continue  # a folder that does not exist holds no tools
        except OSError as exc:
            # A path that is there but cannot be listed (a file, no permission) is a mistake
            # the person should see, such as WEBTAP_SYSTEM_TOOLS_DIR naming a file.
            reason = exc.strerror or str(exc)
            named = source == "system" and SYSTEM_TOOLS_DIR.is_set()
            hint = f" ({SYSTEM_TOOLS_DIR.name})" if named else ""
            rejected.append(
                Rejected(folder, f"cannot read the {source} tools folder{hint}: {reason}")
            )
            continue
        for entry in entries:
            name = registry_name(entry.name)
            if name is None:
                continue
            try:
                stat = entry.stat()  # follows symlinks: a link to an executable counts
            except OSError:
                continue
            if not _is_executable_file(entry.path, stat.st_mode):
                continue
            path = Path(entry.path)
            candidate = _Candidate(name, path, source, (stat.st_size, stat.st_mtime_ns))
            if name in found:
                shadowed.append(Shadowed(found[name].path, path))
            found[name] = candidate
    return list(found.values()), shadowed


def _is_executable_file(path: str, mode: int) -> bool:
    return stat.S_ISREG(mode) and os.access(path, os.X_OK)


def _probe(candidate: _Candidate, timeout: float, limit: int) -> dict[str, Any]:
    """Run ``--schema`` and check it: a cache entry with ``schema`` or ``reason``."""
    entry: dict[str, Any] = {"key": list(candidate.key)}
    if not NAME_PATTERN.match(candidate.name) or len(candidate.name) > NAME_MAX:
        entry["reason"] = (
            f"the file name gives the tool name '{candidate.name}', which must start with a "
            f"letter and hold only letters, digits and hyphens (at most {NAME_MAX}); rename it"
        )
        return entry
    try:
        done = run_process([str(candidate.path), "--schema"], timeout=timeout, limit=limit)
    except OSError as exc:
        entry["reason"] = f"could not be started: {exc.strerror or exc}"
        return entry
    try:
        schema = json_output(done, SCHEMA, seconds=timeout, limit=limit)
    except ToolRunError as exc:
        entry["reason"] = exc.message
        if isinstance(exc, ToolTimeout):
            entry["transient"] = True  # a busy machine may do better next time
        return entry
    try:
        checked = check_tool_schema(schema, candidate.name)
    except SchemaProblem as exc:
        entry["reason"] = f"invalid tool schema: {exc}"
        return entry
    if "parameters" not in schema and "inputSchema" not in schema:
        schema = {**schema, "parameters": checked["input_schema"]}  # takes no arguments
    entry["schema"] = schema
    return entry


def _collect(
    candidate: _Candidate, entry: dict[str, Any], tools: list[Tool], rejected: list[Rejected]
) -> None:
    schema = entry.get("schema")
    if schema is None:
        rejected.append(Rejected(candidate.path, entry.get("reason", "unknown problem")))
        return
    input_schema = schema.get("parameters", schema.get("inputSchema"))
    timeout_ms = schema.get("timeout")
    tools.append(
        Tool(
            name=candidate.name,
            path=candidate.path,
            schema=schema,
            description=schema["description"],
            input_schema=input_schema,
            source=candidate.source,
            timeout=timeout_ms / 1000 if timeout_ms else DEFAULT_RUN_TIMEOUT,
        )
    )


def _load_cache() -> dict[str, Any]:
    try:
        data = loads_json(cache_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("format") != _CACHE_FORMAT:
        return {}
    entries = data.get("entries")
    if not isinstance(entries, dict):
        return {}
    return {path: entry for path, entry in entries.items() if _well_formed(entry)}


def _well_formed(entry: Any) -> bool:
    """An entry as :func:`_probe` writes it: the file is ours, but anything may have edited it,
    and :func:`_collect` trusts what it reads there."""
    if not isinstance(entry, dict) or not isinstance(entry.get("key"), list):
        return False
    schema = entry.get("schema")
    if schema is None:
        return isinstance(entry.get("reason"), str)
    if not isinstance(schema, dict):
        return False
    timeout = schema.get("timeout")
    return (
        isinstance(schema.get("description"), str)
        and isinstance(schema.get("parameters", schema.get("inputSchema")), dict)
        and (timeout is None or (type(timeout) is int and timeout > 0))
    )


def _save_cache(entries: dict[str, Any]) -> None:
    # Forget tools that are gone, then replace the file atomically: concurrent discoveries
    # may race, and the last complete write wins.
    kept = {path: entry for path, entry in entries.items() if os.path.exists(path)}
    path = cache_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, json.dumps({"format": _CACHE_FORMAT, "entries": kept}))
    except OSError:
        pass  # a read-only cache folder only costs speed
