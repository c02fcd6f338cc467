"""A whole file of URLs to fetch, or of questions to ask: ``webtap batch fetch|ask IN OUT``.

IN and OUT are Parquet or CSV files (by their extension; DuckDB reads and writes them). OUT has
every column of IN and the results (:data:`webtap.scale.rows.FETCH_COLUMNS` or
``answer``/``error``). A run is resumable: rows whose key (the URL; the context and prompt) is
already in OUT are not fetched or asked again (with ``retry_errors``, those that ended in an
error are), and the rows a run finishes are kept as they finish in ``OUT.parts/``, so a run that
is stopped (a :class:`~webtap.scale.rows.Stop`, or killed) loses at most the rows in flight; the
next run starts with them and merges everything into OUT at its end. Every file is written whole
under a temporary name and then renamed, and the merge is two renames that the next run
completes if a kill came between them, so no stop at any moment loses a finished row or counts
one twice.

The engine is ``local`` (this process: one callable from :mod:`webtap.scale.rows`, its rows on
threads) or ``ray`` (:mod:`webtap.scale.cluster`: a pool of actors on an existing cluster at
``address``, or on one started on this machine, bound to 127.0.0.1). A :class:`Progress` is told
the rows done and the errors as they come.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple, Protocol

import duckdb
import pyarrow.parquet as pq

import webtap.scale.cluster as on_ray
from webtap.answer_schema import parse as parse_schema
from webtap.errors import ConfigError, InvalidInput
from webtap.scale.rows import (
    ASK_COLUMNS,
    FETCH_COLUMNS,
    TYPED_COLUMNS,
    AskRows,
    FetchPages,
    Stop,
)

__all__ = [
    "ENGINES",
    "FORMATS",
    "KINDS",
    "BatchResult",
    "Job",
    "Progress",
    "check_format",
    "forwarded_env",
    "ray_session",
    "run_batch",
    "write_table",
]

KINDS = ("fetch", "ask")
ENGINES = ("local", "ray")
FORMATS = {".parquet": "parquet", ".pq": "parquet", ".csv": "csv", ".jsonl": "json"}
_COPY_OPTIONS = {"parquet": "FORMAT parquet", "csv": "FORMAT csv, HEADER", "json": "FORMAT json"}
# Settings a cluster's actors get from this process (keys are not sent: set them on the nodes).
FORWARDED = (
    "WEBTAP_",
    "ANTHROPIC_BASE_URL",
    "BRAVE_SEARCH_URL",
    "GOOGLE_SEARCH_URL",
    "SEARXNG_URL",
)


class Progress(Protocol):
    """Told how a run goes: ``start`` once, ``advance`` as rows finish, ``end`` once."""

    def start(self, total: int, skipped: int) -> None: ...

    def advance(self, rows: int, errors: int) -> None: ...

    def end(self) -> None: ...


class Job(NamedTuple):
    """What to run on each row, and how."""

    kind: str = "fetch"
    column: str = "url"  # fetch: the URL column
    context: str = "context"  # ask: the context column
    prompt: str = "prompt"  # ask: the prompt column
    model: str | None = None
    max_tokens: int | None = None
    threads: int = 16  # fetches (or model calls) at once per worker
    workers: int = 2  # Ray actors
    mode: str | None = None  # fetch: main content or the whole page
    schema: str | None = None  # ask: answers as data that fits it (typed ``answer`` column)

    def key_columns(self) -> tuple[str, ...]:
        return (self.column,) if self.kind == "fetch" else (self.context, self.prompt)

    def results(self) -> tuple[str, ...]:
        if self.kind == "fetch":
            return FETCH_COLUMNS
        return TYPED_COLUMNS if self.schema is not None else ASK_COLUMNS

    def udf(self, stop: Stop | None = None) -> FetchPages | AskRows:
        if self.kind == "fetch":
            return FetchPages(self.column, threads=self.threads, mode=self.mode, stop=stop)
        return AskRows(
            self.context,
            self.prompt,
            model=self.model,
            max_tokens=self.max_tokens,
            concurrency=self.threads,
            stop=stop,
            schema=self.schema,
        )

    def chunk(self) -> int:
        return max(8, 2 * self.threads)


DEFAULT_JOB = Job()


class BatchResult(NamedTuple):
    total: int  # rows in IN
    skipped: int  # rows already in OUT
    done: int  # rows this run finished
    errors: int  # of those, rows that ended in an error
    output: str
    stopped: bool = False  # stopped before the end: the rows done are in OUT.parts/, not OUT


def run_batch(
    source: str | Path,
    target: str | Path,
    job: Job = DEFAULT_JOB,
    *,
    engine: str = "local",
    address: str | None = None,
    retry_errors: bool = False,
    progress: Progress | None = None,
    stop: Stop | None = None,
) -> BatchResult:
    """Run ``job`` on every row of ``source`` not yet in ``target``; write ``target``.

    ``stop``, set from another thread, ends the run at once: the rows finished are kept in
    ``OUT.parts/`` for the next run, and the result says ``stopped``."""
    if job.kind not in KINDS:
        raise InvalidInput(f"unknown batch job {job.kind!r}: use fetch or ask")
    if job.schema is not None:
        parse_schema(job.schema)  # a schema that cannot be read is said before any row
    if engine not in ENGINES:
        raise InvalidInput(f"unknown engine {engine!r}: use local or ray")
    source, target = Path(source), Path(target)
    _format(source), _format(target)
    if not source.is_file():
        raise InvalidInput(f"no such input file: {source}")
    table = _read(source)
    missing = [name for name in job.key_columns() if name not in table.schema.names]
    if missing:
        raise InvalidInput(
            f"{source} has no column {', '.join(map(repr, missing))} (it has: "
            f"{', '.join(table.schema.names)}); name the column with "
            f"{'--column' if job.kind == 'fetch' else '--context/--prompt'}"
        )
    kept = _previous(target, retry_errors)
    done_keys = _keys(kept, job.key_columns()) if kept is not None else set()
    todo_mask = [
        key not in done_keys for key in zip(*_key_columns(table, job.key_columns()), strict=True)
    ]
    todo = table.filter(todo_mask) if table.num_rows else table
    skipped = table.num_rows - todo.num_rows
    if progress is not None:
        progress.start(table.num_rows, skipped)
    parts = _parts_dir(target)
    done = errors = 0
    try:
        for result in _results(todo, job, engine, address, stop):
            if result.num_rows:
                _write_part(parts, result)
            failed = result.num_rows - result.column("error").null_count
            done, errors = done + result.num_rows, errors + failed
            if progress is not None:
                progress.advance(result.num_rows, failed)
            if stop is not None and stop.is_set():
                break
        if stop is not None and stop.is_set():
            return BatchResult(table.num_rows, skipped, done, errors, str(target), True)
        _merge(target, kept, parts)
    finally:
        if progress is not None:
            progress.end()
    return BatchResult(table.num_rows, skipped, done, errors, str(target))


def _results(
    todo: Any, job: Job, engine: str, address: str | None, stop: Stop | None
) -> Iterator[Any]:
    if not todo.num_rows:
        return
    if engine == "ray":
        yield from _on_ray(todo, job, address, stop)
        return
    udf = job.udf(stop)
    try:
        for start in range(0, todo.num_rows, job.chunk()):
            if stop is not None and stop.is_set():
                return
            yield udf(todo.slice(start, job.chunk()))
    finally:
        udf.close()


def _on_ray(todo: Any, job: Job, address: str | None, stop: Stop | None) -> Iterator[Any]:
    with ray_session(address, stop):
        dataset = on_ray.from_table(todo, job.chunk())
        if job.kind == "fetch":
            mapped = on_ray.fetch_pages(
                dataset,
                job.column,
                actors=job.workers,
                threads=job.threads,
                batch_size=job.chunk(),
                mode=job.mode,
                env=forwarded_env(),
            )
        else:
            mapped = on_ray.ask_rows(
                dataset,
                job.context,
                job.prompt,
                actors=job.workers,
                concurrency=job.threads,
                batch_size=job.chunk(),
                model=job.model,
                max_tokens=job.max_tokens,
                env=forwarded_env(),
                schema=job.schema,
            )
        yield from mapped.iter_batches(batch_format="pyarrow", batch_size=None)


@contextmanager
def ray_session(address: str | None, stop: Stop | None = None) -> Iterator[Any]:
    """Ray (the module), joined at ``address`` or started on this machine bound to 127.0.0.1
    for the block; a cluster started so ends with it. ``--engine ray``'s way in, for a batch
    and a crawl alike."""
    if importlib.util.find_spec("ray") is None:
        raise ConfigError(
            "--engine ray needs Ray: pip install 'webtap[ray]' (or use --engine local)"
        )
    try:
        started = on_ray.connect(address)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        where = f"the Ray cluster at {address}" if address else "a local Ray instance"
        raise ConfigError(f"cannot start or reach {where}: {exc}") from None
    import ray  # after connect(), which sets the variables Ray reads when imported

    if started and stop is not None:
        # Stopped: the driver lets go of the cluster at once (a local one ends with it), which
        # ends the wait for the next result; the workers' work in flight is abandoned.
        stop.on_set(ray.shutdown)
    try:
        yield ray
    finally:
        if started:
            ray.shutdown()


def forwarded_env() -> dict[str, str]:
    """The settings of this process a cluster's workers get (:data:`FORWARDED`)."""
    return {name: value for name, value in os.environ.items() if name.startswith(FORWARDED)}


# -- files ---------------------------------------------------------------------------------


def _format(path: Path) -> str:
    kind = FORMATS.get(path.suffix.lower())
    if kind is None:
        raise InvalidInput(
            f"{path}: use a .parquet, .csv or .jsonl file (the extension says which)"
        )
    return kind


def check_format(path: str | Path) -> None:
    """Raise ``INVALID_INPUT`` unless ``path``'s extension names a format OUT can have."""
    _format(Path(path))


def _reader(path: Path) -> str:
    kind = _format(path)
    if kind == "parquet":
        return "read_parquet($1)"
    if kind == "json":
        return "read_json($1, format = 'newline_delimited')"
    return "read_csv($1, header = true, all_varchar = true)"


def write_table(target: str | Path, table: Any) -> None:
    """Write the Arrow ``table`` to ``target`` in its format, whole or not at all (under a
    temporary name, then renamed): what OUT is, for a batch's merge and a crawl alike."""
    import duckdb

    target = Path(target)
    partial = _partial(target)
    con = duckdb.connect()
    con.register("written", table)
    con.execute(f"COPY written TO '{_quoted(partial)}' ({_COPY_OPTIONS[_format(target)]})")
    con.close()
    os.replace(partial, target)


def _read(path: Path) -> Any:
    try:
        return (
            duckdb.connect()
            .sql(f"SELECT * FROM {_reader(path)}", params=[str(path)])
            .to_arrow_table()
        )
    except duckdb.Error as exc:
        raise InvalidInput(f"cannot read {path}: {str(exc).splitlines()[0]}") from None


def _previous(target: Path, retry_errors: bool) -> Any:
    """The rows already done: OUT's, after folding in those an unfinished run left in
    OUT.parts/ (with ``retry_errors``, less those that ended in an error)."""
    parts = _parts_dir(target)
    try:
        _finish_merge(target)
        if any(parts.glob("part-*.parquet")):
            _merge(target, _read(target) if target.is_file() else None, parts)
        if not target.is_file():
            return None
        query = f"SELECT * FROM {_reader(target)}"
        if retry_errors:
            query += " WHERE error IS NULL"
        return duckdb.connect().sql(query, params=[str(target)]).to_arrow_table()
    except (duckdb.Error, InvalidInput) as exc:
        problem = exc.message if isinstance(exc, InvalidInput) else str(exc).splitlines()[0]
        raise InvalidInput(
            f"cannot read the rows already done in {target}: {problem}; move it away to start "
            "afresh"
        ) from None


def _key_columns(table: Any, names: tuple[str, ...]) -> list[list[Any]]:
    return [[None if v is None else str(v) for v in table.column(n).to_pylist()] for n in names]


def _keys(table: Any, names: tuple[str, ...]) -> set[tuple[Any, ...]]:
    if any(name not in table.schema.names for name in names):
        return set()
    return set(zip(*_key_columns(table, names), strict=True))


def _parts_dir(target: Path) -> Path:
    return target.with_name(target.name + ".parts")


def _merged_dir(target: Path) -> Path:
    """Where the parts go once a merged OUT holds their rows, until OUT is replaced."""
    return target.with_name(target.name + ".parts.merged")


def _partial(target: Path) -> Path:
    return target.with_name(f".{target.name}.tmp")


def _write_part(parts: Path, table: Any) -> None:
    parts.mkdir(parents=True, exist_ok=True)
    name = f"part-{time.time_ns():020d}-{os.getpid()}.parquet"
    partial = parts / f".{name}.tmp"
    pq.write_table(table, partial)
    os.replace(partial, parts / name)  # a part is whole, or not there


def _merge(target: Path, kept: Any, parts: Path) -> None:
    """OUT := the rows kept from before and every part; then the parts go.

    In three steps, each a whole file or a rename: the merged rows are written beside OUT;
    the parts are set aside (``OUT.parts.merged``), which commits the merge; the merged file
    replaces OUT and the parts are deleted. A stop between the last two is completed by
    :func:`_finish_merge` when the next run starts; before the second, the merge is redone."""
    partial = _partial(target)
    partial.unlink(missing_ok=True)  # a merge stopped before it was committed
    con = duckdb.connect()
    sources = []
    if kept is not None:
        con.register("kept", kept)
        sources.append("SELECT * FROM kept")
    if any(parts.glob("part-*.parquet")):
        sources.append("SELECT * FROM read_parquet($parts, union_by_name = true)")
    if not sources:
        return
    query = " UNION ALL BY NAME ".join(f"({s})" for s in sources)
    options = _COPY_OPTIONS[_format(target)]
    params = {"parts": str(parts / "part-*.parquet")} if "$parts" in query else {}
    con.execute(f"COPY ({query}) TO '{_quoted(partial)}' ({options})", params or None)
    con.close()
    if parts.exists():
        os.replace(parts, _merged_dir(target))  # committed: OUT.tmp holds the parts' rows
        _finish_merge(target)
    else:
        os.replace(partial, target)


def _finish_merge(target: Path) -> None:
    """Complete a committed merge: the merged file replaces OUT (unless it already has), and
    the parts it holds go."""
    merged = _merged_dir(target)
    if not merged.exists():
        return
    partial = _partial(target)
    if partial.exists():
        os.replace(partial, target)
    shutil.rmtree(merged, ignore_errors=True)


def _quoted(path: Path) -> str:
    return str(path).replace("'", "''")
