"""``webtap batch``: fetch or ask over a whole Parquet or CSV file, locally or on Ray.

The run goes on a thread of its own; the main thread waits with SIGINT (Ctrl-C), SIGTERM and
SIGHUP only noted (:func:`webtap.signals.noted_signals`: an exception raised by a signal's
handler can land inside a lock's wait and stop both threads). The first such signal stops the
run (:class:`webtap.scale.rows.Stop`): no row starts, the rows finished stay in ``OUT.parts/``, the
rows in flight are abandoned on their daemon threads, and the Ray engine's driver lets go of its
cluster (one it started ends). After at most ``WEBTAP_BATCH_STOP_WAIT`` seconds (1 s), or a
second signal, the command ends with 128 + the signal's number, as every front door does; the
next run goes on from the rows kept. A run that has not wound down by then is left to the OS:
the process ends at once (``os._exit``), since the interpreter's teardown would wait for it.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import threading
from collections.abc import Callable
from typing import Any

from webtap.cli._output import cell, err_console, exit_abandoned, fail
from webtap.cli.ask import read_schema
from webtap.errors import WebtapError
from webtap.scale.batch import Job, run_batch
from webtap.scale.rows import Stop
from webtap.settings import BATCH_STOP_WAIT
from webtap.signals import run_stoppable

__all__ = ["BatchProgress", "run", "run_resumable", "stop_run"]


def _schema(given: str | None) -> str | None:
    """``--schema`` as the JSON text of its schema (a file read here, as ``webtap ask`` does)."""
    return None if given is None else json.dumps(read_schema(given))


def run(args: argparse.Namespace) -> int:
    if args.threads < 1 or args.workers < 1:
        return fail("--threads and --workers must be 1 or more", 2)
    if args.engine == "local" and args.address:
        return fail("--address names a Ray cluster: use it with --engine ray", 2)
    try:
        schema = _schema(getattr(args, "schema", None))
    except WebtapError as exc:
        return fail(exc.message, 2)
    job = Job(
        kind=args.kind,
        column=getattr(args, "column", "url"),
        context=getattr(args, "context", "context"),
        prompt=getattr(args, "prompt", "prompt"),
        model=getattr(args, "model", None),
        max_tokens=getattr(args, "max_tokens", None),
        threads=args.threads,
        workers=args.workers,
        mode="page" if getattr(args, "full", False) else None,
        schema=schema,
    )
    shown = not args.no_progress and sys.stderr.isatty()
    progress = BatchProgress() if shown else None
    stop, done = Stop(), threading.Event()

    def work() -> Any:
        return run_batch(
            args.source,
            args.target,
            job,
            engine=args.engine,
            address=args.address,
            retry_errors=args.retry_errors,
            progress=progress,
            stop=stop,
        )

    kept = (
        "The rows finished so far are kept; run the same command again to go on "
        f"({cell(args.target)}.parts/)."
    )
    result = run_resumable(work, stop, done, progress, kept)
    if isinstance(result, int):
        return result
    err_console().print(
        f"{result.total} rows: {result.skipped} already in {cell(result.output)}, "
        f"{result.done} done now, {result.errors} of them with an error."
    )
    return 0


def run_resumable(
    work: Callable[[], Any], stop: Stop, done: threading.Event, progress: Any, kept: str
) -> Any:
    """``work()`` stoppable by signal (:func:`webtap.signals.run_stoppable`), as ``webtap
    batch`` and ``webtap crawl`` run: its result, or the exit status of a failure (one line on
    stderr). A stop says ``kept`` (what the next run goes on from) and exits as the signal
    asks, once the run has wound down or ``WEBTAP_BATCH_STOP_WAIT`` has passed."""
    try:
        return run_stoppable(work, lambda: stop_run(stop), BATCH_STOP_WAIT.get(), done)
    except WebtapError as exc:
        return fail(exc.message)
    except KeyboardInterrupt as exc:
        if progress is not None:
            progress.end()
        err_console().print(f"[dim]{kept}[/dim]")
        if not done.is_set():
            exit_abandoned(exc)
        raise


def stop_run(stop: Any) -> None:
    """Stop the run. Its engine's complaints about being stopped are not for the user: Ray
    logs a traceback from each of its threads that finds the driver gone."""
    logging.disable(logging.CRITICAL)
    stop.set()


class BatchProgress:
    """Rows done of those to do, their rate, the errors and the time left, on stderr.

    ``label`` and ``unit`` name the job and what it counts (``webtap crawl``: pages); a job
    whose total grows as it goes (a crawl's queue) says so with :meth:`retotal`."""

    def __init__(self, console: Any = None, label: str = "batch", unit: str = "rows") -> None:
        self._console = console
        self._label = label
        self._unit = unit
        self._skipped = 0
        self._lock = threading.Lock()
        self._progress: Any = None
        self._task: Any = None

    def start(self, total: int, skipped: int) -> None:
        # On a terminal only (cli._output's docstring).
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
        )

        with self._lock:
            self._skipped = skipped
            self._progress = Progress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn(self._unit),
                TextColumn("{task.fields[rate]}"),
                TextColumn("{task.fields[errors]} errors"),
                TimeRemainingColumn(),
                console=self._console or err_console(),
                transient=True,
            )
            self._task = self._progress.add_task(
                f"{self._label} ({skipped} already done)",
                total=total - skipped,
                errors=0,
                rate="",
            )
            self._progress.start()

    def advance(self, rows: int, errors: int) -> None:
        with self._lock:
            if self._progress is None:
                return
            self._progress.advance(self._task, rows)
            task = self._progress.tasks[0]
            speed = task.speed
            fields = task.fields
            self._progress.update(
                self._task,
                errors=fields["errors"] + errors,
                rate=f"{speed:.1f} {self._unit}/s" if speed else "",
            )

    def retotal(self, total: int) -> None:
        """The job now counts ``total`` in all (those already done before it started too)."""
        with self._lock:
            if self._progress is not None:
                self._progress.update(self._task, total=max(0, total - self._skipped))

    def end(self) -> None:
        with self._lock:
            if self._progress is not None:
                self._progress.stop()
