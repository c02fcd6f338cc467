"""``webtap sql``: DuckDB with the ``stps_*`` functions loaded — a query, a file, or a prompt."""

from __future__ import annotations

import argparse
import contextlib
import csv
import sys
import threading
from typing import Any

import duckdb

from webtap.cli._output import (
    console,
    err_console,
    escape,
    exit_abandoned,
    fail,
    print_json,
    read_text,
    table,
)
from webtap.errors import WebtapError
from webtap.host.process import stop_tools_on_signals
from webtap.settings import SQL_CANCEL_WAIT
from webtap.signals import Terminated, run_stoppable
from webtap.sql import (
    DEFAULT_CONCURRENCY,
    SqlFunctions,
    drop_statement_echo,
    key_literals,
    mentions_key_setter,
    redact_keys,
)

__all__ = ["RowProgress", "run"]

PROMPT, MORE = "webtap> ", "   ...> "


def run(args: argparse.Namespace) -> int:
    stop_tools_on_signals()  # SIGTERM/SIGHUP stop the command as Ctrl-C does

    text = None
    if args.query is not None and args.file is not None:
        return fail("give a query or --file, not both", 2)
    if args.file is not None:
        try:
            text = read_text(args.file)
        except ValueError as exc:
            return fail(str(exc))
    elif args.query is not None:
        text = args.query
    elif not sys.stdin.isatty():
        text = sys.stdin.read()

    try:
        connection = duckdb.connect(args.db)
    except duckdb.Error as exc:
        return fail(f"cannot open the database {args.db}: {exc}")
    try:
        cancel_wait = SQL_CANCEL_WAIT.get()  # tests raise it: only a real cancel ends the command
        functions = SqlFunctions(
            concurrency=DEFAULT_CONCURRENCY if args.concurrency is None else args.concurrency,
            cache=args.cache,
            progress=None if args.no_progress or not sys.stderr.isatty() else RowProgress(),
        )
    except (ValueError, WebtapError) as exc:
        connection.close()
        return fail(str(exc), 2)
    session = Session(connection, functions.register(connection), args)
    session.cancel_wait = cancel_wait
    if args.model:
        functions.set_model(args.model)
    try:
        if text is None:
            return session.interactive()
        return session.run_script(text)
    except KeyboardInterrupt as exc:
        if session.abandoned:
            exit_abandoned(exc)
        raise
    finally:
        functions.close()
        if not session.abandoned:
            connection.close()


class Session:
    """One connection with the functions loaded, and how results are printed."""

    def __init__(self, connection: Any, functions: Any, args: argparse.Namespace) -> None:
        self.connection = connection
        self.functions = functions
        self.format = "csv" if args.csv else "json" if args.json else "table"
        # Keys given to stps_set_*_key in this session's SQL: never printed back.
        self.keys: set[str] = set()
        self.sets_keys = False  # some SQL named a key function: its errors quote no statement
        self.cancel_wait = SQL_CANCEL_WAIT.default  # seconds a stopped statement gets to end
        # A stopped statement that did not wind down in time: DuckDB still runs it, so the
        # connection cannot be closed and the process must not wait for it.
        self.abandoned = False

    def redact(self, text: str) -> str:
        if self.sets_keys and "\nLINE " in text:
            # However a key was written, a statement that sets one is never echoed back.
            text = drop_statement_echo(text)
        return redact_keys(text, self.keys)

    def read(self, text: str) -> list[Any]:
        """The statements of ``text``, its keys noted first (a parse error may quote them)."""
        self.keys |= key_literals(text)
        self.sets_keys = self.sets_keys or mentions_key_setter(text)
        return self.connection.extract_statements(text)

    def run_script(self, text: str) -> int:
        """Run every statement; stop at the first error (exit 1)."""
        try:
            statements = self.read(text)
        except duckdb.Error as exc:
            return fail(self.redact(str(exc)))
        for statement in statements:
            try:
                columns, rows = self.execute(statement)
            except duckdb.Error as exc:
                return fail(self.redact(str(exc)))
            if columns is not None:
                self.show(columns, rows)
        return 0

    def interactive(self) -> int:
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401  (line editing and history for input(): a prompt's)
        screen = err_console()
        screen.print(
            "[dim]DuckDB with webtap's stps_* functions. End statements with ';'. "
            ".quit or Ctrl-D to leave.[/dim]"
        )
        buffer: list[str] = []
        while True:
            try:
                line = input(MORE if buffer else PROMPT)
            except EOFError:
                sys.stderr.write("\n")
                return 0
            except Terminated:
                raise  # SIGTERM/SIGHUP end the session; Ctrl-C only the line
            except KeyboardInterrupt:
                sys.stderr.write("\n")
                buffer = []
                continue
            if not buffer and line.strip() in (".quit", ".exit"):
                return 0
            buffer.append(line)
            text = "\n".join(buffer)
            if not text.strip().endswith(";"):
                continue
            buffer = []
            try:
                for statement in self.read(text):
                    columns, rows = self.execute(statement)
                    if columns is not None:
                        self.show(columns, rows)
            except duckdb.Error as exc:
                screen.print(f"[red]{escape(self.redact(str(exc)))}[/red]")
            except KeyboardInterrupt as exc:
                if isinstance(exc, Terminated) or self.abandoned:
                    raise  # SIGTERM/SIGHUP, or a statement that would not stop: the end
                screen.print("[yellow]interrupted[/yellow]")

    def execute(self, statement: Any) -> tuple[list[str] | None, list[tuple[Any, ...]]]:
        """Run one statement in a worker thread, so that Ctrl-C, SIGTERM and SIGHUP can stop
        it cleanly: waiting rows are dropped, the calls in flight abandoned, DuckDB told to
        stop; then the signal is raised here (``KeyboardInterrupt`` or
        :class:`~webtap.signals.Terminated`)."""
        done = threading.Event()

        def work() -> tuple[list[str] | None, list[tuple[Any, ...]]]:
            cursor = self.connection.execute(statement)
            description = cursor.description
            if not description:
                return None, []
            return [d[0] for d in description], cursor.fetchall()

        def stop() -> None:
            self.functions.cancel()
            self.connection.interrupt()

        try:
            return run_stoppable(work, stop, self.cancel_wait, done)
        finally:
            self.abandoned = not done.is_set()

    def show(self, columns: list[str], rows: list[tuple[Any, ...]]) -> None:
        columns = [self.redact(column) for column in columns]
        if self.format == "csv":
            writer = csv.writer(sys.stdout)
            writer.writerow(columns)
            writer.writerows(rows)
        elif self.format == "json":
            print_json([dict(zip(columns, _plain(row), strict=True)) for row in rows])
        else:
            shown = table(*columns, show_lines=any(_long(row) for row in rows))
            for row in rows:
                shown.add_row(*(escape("NULL" if v is None else str(v)) for v in row))
            console().print(shown)


class RowProgress:
    """``stps_ask_ai``'s rows done / total and their rate, drawn on stderr with rich; a
    :class:`webtap.sql.ProgressReporter`. A one-row query shows nothing."""

    def __init__(self, console: Any = None) -> None:
        self._console = console
        self._lock = threading.Lock()
        self._progress: Any = None
        self._task: Any = None

    def update(self, done: int, total: int) -> None:
        with self._lock:
            progress = self._progress = self._progress or _make_progress(self._console)
            if self._task is None or done == 0:  # done == 0: a new query
                if self._task is not None:
                    progress.remove_task(self._task)
                self._task = progress.add_task("stps_ask_ai", total=total)
            progress.update(self._task, completed=done, total=total)
            if total > 1 and not progress.live.is_started:
                progress.start()

    def end(self) -> None:
        with self._lock:
            if self._progress is not None and self._progress.live.is_started:
                self._progress.stop()


def _make_progress(console: Any) -> Any:
    # Once a query has two rows for the model (cli._output's docstring).
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        TextColumn,
        TimeElapsedColumn,
    )
    from rich.text import Text

    class RateColumn(ProgressColumn):
        def render(self, task: Any) -> Text:
            speed = task.finished_speed or task.speed
            return Text(f"{speed:.1f} rows/s" if speed else "", style="progress.data.speed")

    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("rows"),
        RateColumn(),
        TimeElapsedColumn(),
        console=console or err_console(),
        transient=True,
    )


def _plain(row: tuple[Any, ...]) -> list[Any]:
    """JSON-friendly values: numbers, strings, booleans and null as they are, others as text."""
    return [v if v is None or isinstance(v, bool | int | float | str) else str(v) for v in row]


def _long(row: tuple[Any, ...]) -> bool:
    return any(isinstance(v, str) and ("\n" in v or len(v) > 60) for v in row)
