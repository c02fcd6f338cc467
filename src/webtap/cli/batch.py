"""``webtap batch``: fetch or ask over a whole Parquet or CSV file, locally or on Ray.

The run goes on a thread of its own; the main thread waits with SIGINT (Ctrl-C), SIGTERM and
SIGHUP only noted (:func:`webtap.host.process.noted_signals`: an exception raised by a signal's
handler can land inside a lock's wait and stop both threads). The first such signal stops the
run (:class:`webtap.rows.Stop`): no row starts, the rows finished stay in ``OUT.parts/``, the
rows in flight are abandoned on their daemon threads, and the Ray engine's driver lets go of its
cluster (one it started ends). After at most ``WEBTAP_BATCH_STOP_WAIT`` seconds (1 s), or a
second signal, the command ends with 128 + the signal's number, as every front door does; the
next run goes on from the rows kept. A run that has not wound down by then is left to the OS:
the process ends at once (``os._exit``), since the interpreter's teardown would wait for it.
"""

from __future__ import annotations

import argparse
import sys
import threading
from typing import Any

__all__ = ["BatchProgress", "add_parser", "run"]

EPILOG = (
    "Rows already in OUT are skipped, so a stopped run resumes where it was. Rate budgets: "
    "WEBTAP_BUDGET=file (one machine, the default), ray (one Ray cluster) or redis://HOST:PORT "
    "(any engine); WEBTAP_HOST_RATE: fetches a second per web host (default 1). See docs/scale.md."
)


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "batch",
        help="fetch or ask over a Parquet or CSV file, resumable, locally or on Ray",
        description="Run fetch or ask on every row of IN and write OUT (Parquet or CSV, by the "
        "extension), with every column of IN and the results.",
        epilog=EPILOG,
    )
    parser.set_defaults(run=lambda args: _help(parser))
    jobs = parser.add_subparsers(dest="kind", metavar="JOB")

    p = jobs.add_parser(
        "fetch",
        help="fetch each URL: final_url, title, markdown, verdict, error",
        epilog=EPILOG,
    )
    _files(p)
    p.add_argument("--column", default="url", help="the URL column (default: url)")
    p.add_argument("--full", action="store_true", help="whole pages, not their main content")
    _engine(p, threads=16)

    p = jobs.add_parser("ask", help="ask the model about each row: answer, error", epilog=EPILOG)
    _files(p)
    p.add_argument("--context", default="context", help="the context column (default: context)")
    p.add_argument("--prompt", default="prompt", help="the prompt column (default: prompt)")
    p.add_argument("--model", help="the model (default: WEBTAP_MODEL or webtap's default)")
    p.add_argument("--max-tokens", type=int, metavar="N", help="the longest answer in tokens")
    _engine(p, threads=8)


def _files(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", metavar="IN", help="the input file (.parquet or .csv)")
    parser.add_argument("target", metavar="OUT", help="the output file (.parquet or .csv)")


def _engine(parser: argparse.ArgumentParser, threads: int) -> None:
    parser.add_argument(
        "--engine", choices=["local", "ray"], default="local", help="where to run (default: local)"
    )
    parser.add_argument(
        "--address", help="an existing Ray cluster (default: start one on this machine)"
    )
    parser.add_argument(
        "--workers", type=int, default=2, metavar="N", help="Ray actors at most (default: 2)"
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=threads,
        metavar="N",
        help=f"rows at once per worker (default: {threads})",
    )
    parser.add_argument(
        "--retry-errors", action="store_true", help="redo the rows of OUT that ended in an error"
    )
    parser.add_argument("--no-progress", action="store_true", help="never show progress")
    parser.set_defaults(run=run)


def _help(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    from webtap.batch import Job, run_batch
    from webtap.cli._output import cell, err_console, exit_abandoned, fail
    from webtap.errors import WebtapError
    from webtap.host.process import run_stoppable
    from webtap.rows import Stop
    from webtap.settings import BATCH_STOP_WAIT

    if args.threads < 1 or args.workers < 1:
        return fail("--threads and --workers must be 1 or more", 2)
    if args.engine == "local" and args.address:
        return fail("--address names a Ray cluster: use it with --engine ray", 2)
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

    try:
        result = run_stoppable(work, lambda: _stop(stop), BATCH_STOP_WAIT.get(), done)
    except WebtapError as exc:
        return fail(exc.message)
    except KeyboardInterrupt as exc:
        if progress is not None:
            progress.end()
        err_console().print(
            f"[dim]The rows finished so far are kept; run the same command again to go on "
            f"({cell(args.target)}.parts/).[/dim]"
        )
        if not done.is_set():
            exit_abandoned(exc)
        raise
    err_console().print(
        f"{result.total} rows: {result.skipped} already in {cell(result.output)}, "
        f"{result.done} done now, {result.errors} of them with an error."
    )
    return 0


def _stop(stop: Any) -> None:
    """Stop the run. Its engine's complaints about being stopped are not for the user: Ray
    logs a traceback from each of its threads that finds the driver gone."""
    import logging

    logging.disable(logging.CRITICAL)
    stop.set()


class BatchProgress:
    """Rows done of those to do, their rate, the errors and the time left, on stderr."""

    def __init__(self, console: Any = None) -> None:
        self._console = console
        self._lock = threading.Lock()
        self._progress: Any = None
        self._task: Any = None

    def start(self, total: int, skipped: int) -> None:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
        )

        from webtap.cli._output import err_console

        with self._lock:
            self._progress = Progress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("rows"),
                TextColumn("{task.fields[rate]}"),
                TextColumn("{task.fields[errors]} errors"),
                TimeRemainingColumn(),
                console=self._console or err_console(),
                transient=True,
            )
            self._task = self._progress.add_task(
                f"batch ({skipped} already done)", total=total - skipped, errors=0, rate=""
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
                rate=f"{speed:.1f} rows/s" if speed else "",
            )

    def end(self) -> None:
        with self._lock:
            if self._progress is not None:
                self._progress.stop()
