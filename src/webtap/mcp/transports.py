"""How ``webtap mcp`` meets its clients -- stdio or streamable HTTP -- and how it stops.

The server (:func:`webtap.mcp.server.build_server`) does not care which transport carries it;
this module is what does, and it answers three questions:

- **Who may call?** On stdio, the process that started the server. Over HTTP on a loopback
  address, anyone on this machine (the SDK checks ``Host`` and ``Origin`` against DNS
  rebinding). Beyond loopback, only a client that sends the server's bearer token:
  :class:`BearerGate` answers every other request 401 before the MCP app sees it, so a
  stranger gets neither a tool list nor a call. Set in ``WEBTAP_MCP_TOKEN``, the token is
  required on loopback too.
- **What is in the way of stopping?** Nothing that cannot be dropped. The SDK's own stdio
  transport reads stdin in one of anyio's worker threads: not a daemon, and not cancellable,
  so a server told to stop waited for the client's next line (forever, when the client was
  the one stopping it). Here stdin and stdout are read and written by daemon threads that the
  event loop awaits and cancellation abandons (:class:`_Worker`); uvicorn, which would wait
  for every call in flight, finds them answered (:func:`webtap.mcp.server.stop_calls`) and
  gives what is still open :data:`STOP_GRACE` seconds.
- **Who stops it?** SIGINT, SIGTERM and SIGHUP (those the process was not started ignoring)
  are taken by the event loop: every running tool is killed with its process tree, the calls
  in flight are answered with an error result, the serving tasks end, and the serve function
  returns the signal's number, so the command exits with 128 + that number.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import ipaddress
import json
import logging
import os
import queue
import socket
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO

import anyio
import uvicorn
from mcp.server.stdio import stdio_server

from webtap.host.process import kill_running
from webtap.mcp.server import stop_calls
from webtap.redact import remember
from webtap.settings import MCP_TOKEN
from webtap.signals import stop_signals

__all__ = [
    "BearerGate",
    "is_loopback",
    "listen",
    "serve_http",
    "serve_stdio",
]

STOP_GRACE = 0.5  # seconds a stopping HTTP server gives its connections to finish


# --- stdio -------------------------------------------------------------------------------


async def serve_stdio(server: Any) -> int | None:
    """Serve one client over this process's stdin and stdout until it hangs up (None) or a
    stop signal comes (its number)."""
    stop = _Stop()
    with _claimed_stdio() as (wire_in, wire_out):
        async with anyio.create_task_group() as group:
            stop.on_signal(group.cancel_scope.cancel)
            group.start_soon(_watch_signals, stop)
            streams = stdio_server(stdin=_Lines(wire_in), stdout=_Writer(wire_out))  # type: ignore[arg-type]
            async with streams as (read_stream, write_stream):
                await server.run(read_stream, write_stream, server.create_initialization_options())
            group.cancel_scope.cancel()  # the client hung up: stop watching for signals
    return stop.signum


@contextlib.contextmanager
def _claimed_stdio() -> Iterator[tuple[BinaryIO, int]]:
    """The client's stdin and stdout, for the protocol alone: while serving, descriptor 0 reads
    the null device and 1 writes to stderr, so that nothing else in the process (a library's
    ``print``, a child that inherits them) reads the client's messages or garbles the replies.

    The private copies are never closed: a daemon thread may still be blocked on one after the
    server returns, and a closed descriptor's number could be reused under it.
    """
    sys.stdout.flush()
    wire_in, wire_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        os.dup2(null, 0)
        os.dup2(2, 1)
    finally:
        os.close(null)
    try:
        yield os.fdopen(wire_in, "rb", closefd=False), wire_out
    finally:
        sys.stdout.flush()
        os.dup2(wire_in, 0)
        os.dup2(wire_out, 1)


class _Worker:
    """One daemon thread that runs blocking calls one after another for the event loop.

    Awaiting a call can be cancelled, and a call stuck for good (a read no client answers, a
    write no client reads) never holds the process open at exit: the thread is dropped.
    """

    def __init__(self, name: str) -> None:
        self._name = name
        self._calls: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None

    async def run(self, function: Callable[..., Any], *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        if self._thread is None:
            self._thread = threading.Thread(target=self._serve, name=self._name, daemon=True)
            self._thread.start()
        self._calls.put((loop, future, function, args))
        return await future

    def _serve(self) -> None:
        while True:
            loop, future, function, args = self._calls.get()
            try:
                outcome: tuple[Any, Any] = (future.set_result, function(*args))
            except Exception as exc:
                outcome = (future.set_exception, exc)
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
                loop.call_soon_threadsafe(_settle, future, *outcome)


def _settle(future: asyncio.Future[Any], outcome: Callable[[Any], None], value: Any) -> None:
    if not future.done():  # not cancelled meanwhile
        outcome(value)


class _Lines:
    """The client's messages: stdin's lines, read on demand by a daemon thread, as the SDK's
    stdio transport iterates them (text, one JSON-RPC message a line)."""

    def __init__(self, wire: BinaryIO) -> None:
        self._wire = wire
        self._reader = _Worker("webtap-mcp-stdin")

    def __aiter__(self) -> _Lines:
        return self

    async def __anext__(self) -> str:
        line = await self._reader.run(self._read)
        if not line:
            raise StopAsyncIteration
        return line.decode("utf-8", "replace")

    def _read(self) -> bytes:
        try:
            return self._wire.readline()
        except (OSError, ValueError):
            return b""  # stdin is gone: as if the client hung up


class _Writer:
    """The replies, written to stdout whole by a daemon thread, one after another."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._writer = _Worker("webtap-mcp-stdout")

    async def write(self, text: str) -> None:
        await self._writer.run(self._write, text.encode("utf-8"))

    async def flush(self) -> None:
        pass  # every write goes straight to the descriptor

    def _write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self._fd, view) :]


# --- HTTP --------------------------------------------------------------------------------


def listen(host: str, port: int) -> Any:
    """A socket listening at HOST:PORT, or ``OSError`` (address in use, not this machine's).

    Bound before serving so that the person gets that error as one clear line, not a log
    message from uvicorn after "serving" was announced.
    """
    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError:
        sock.close()
        raise
    return sock


def is_loopback(sock: Any) -> bool:
    """Whether a bound socket only takes connections from this machine: its address is a
    loopback one (``0.0.0.0`` and ``::`` are every interface, so they are not)."""
    address = str(sock.getsockname()[0]).partition("%")[0]
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


async def serve_http(
    server: Any, host: str, port: int, sock: Any = None, *, token: str | None = None
) -> int | None:
    """Serve the streamable HTTP transport at ``http://HOST:PORT/mcp`` (on ``sock`` if given);
    with ``token``, only to requests that carry it (:class:`BearerGate`). Returns the number
    of the signal that stopped it."""

    class Server(uvicorn.Server):
        def capture_signals(self) -> Any:
            return contextlib.nullcontext()  # the event loop takes the signals: _watch_signals

    app: Any = server.streamable_http_app(host=host)
    if token:
        app = BearerGate(app, token)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_config=None,
        access_log=False,
        log_level="warning",
        # uvicorn annotates whole seconds, and hands the value to asyncio.wait_for, which
        # takes any number of seconds.
        timeout_graceful_shutdown=STOP_GRACE,  # type: ignore[arg-type]
    )
    web = Server(config)

    def stop_now() -> None:
        # The calls in flight are answered at once (stop_calls), so uvicorn's shutdown finds
        # their requests settled; what is still open after STOP_GRACE (a client's stream of
        # notifications) is cancelled. That is the stop asked for, not an error: the
        # tracebacks uvicorn and the SDK would log for it are not shown.
        logging.disable(logging.ERROR)
        web.should_exit = True

    stop = _Stop()
    stop.on_signal(stop_now)
    async with anyio.create_task_group() as group:
        group.start_soon(_watch_signals, stop)
        await web.serve(sockets=[sock] if sock is not None else None)
        group.cancel_scope.cancel()
    return stop.signum


class BearerGate:
    """ASGI middleware: every HTTP request must carry ``Authorization: Bearer <token>``.

    The token is compared in constant time (:func:`hmac.compare_digest`) on every request;
    without it, or with another, the answer is 401 with ``WWW-Authenticate: Bearer`` and a
    JSON body that says what to send, and the MCP app never sees the request. The token is
    registered with :mod:`webtap.redact`, so no message webtap writes can quote it.
    """

    def __init__(self, app: Any, token: str) -> None:
        remember([token])
        self.app = app
        self._token = token.encode("utf-8")

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket") or self._carries_token(scope):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})  # policy violation
            return
        # RFC 6750 3.1: a request without credentials gets no error code, a wrong token
        # "invalid_token".
        challenge = 'Bearer realm="webtap"'
        if _authorization(scope):
            challenge += ', error="invalid_token"'
        body = json.dumps(
            {
                "error": "unauthorized",
                "error_description": "This webtap MCP server needs its bearer token: send the "
                "header 'Authorization: Bearer <token>' with the token webtap mcp printed at "
                f"start or was given in {MCP_TOKEN.name}.",
            }
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 401,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"www-authenticate", challenge.encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    def _carries_token(self, scope: dict[str, Any]) -> bool:
        scheme, _, given = _authorization(scope).partition(b" ")
        # compare_digest does not stop at the first wrong byte: the timing tells nothing of
        # the token's content.
        return scheme.lower() == b"bearer" and hmac.compare_digest(given.strip(), self._token)


def _authorization(scope: dict[str, Any]) -> bytes:
    for name, value in scope.get("headers") or ():
        if name.lower() == b"authorization":
            return bytes(value)
    return b""


# --- Stopping ----------------------------------------------------------------------------


class _Stop:
    """Which stop signal came (``signum``), and what to do when one does."""

    def __init__(self) -> None:
        self.signum: int | None = None
        self._actions: list[Callable[[], Any]] = []

    def on_signal(self, action: Callable[[], Any]) -> None:
        self._actions.append(action)

    def __call__(self, signum: int) -> None:
        self.signum = signum
        for action in self._actions:
            action()


async def _watch_signals(stop: _Stop) -> None:
    """Wait for a stop signal; then kill every running tool (its whole tree) and ``stop``."""
    with contextlib.ExitStack() as stack:
        try:
            received = stack.enter_context(anyio.open_signal_receiver(*stop_signals()))
        except (NotImplementedError, ValueError, RuntimeError):
            # No signals here (Windows, or not the main thread): the process's handlers act.
            await anyio.sleep_forever()
        async for signum in received:
            kill_running()  # nothing a call started outlives the server
            stop_calls()  # and every call in flight is answered: the server is stopping
            stop(signum)
            return
