"""Listeners that count what reaches them: ``Trap`` counts every TCP connection (or UDP datagram)
that arrives, for the SSRF tests that assert the count stays 0; ``WebSocketHello`` is a
WebSocket server that greets each client once, for a test that allowed traffic gets through."""

from __future__ import annotations

import contextlib
import socket
import threading

__all__ = ["Trap", "WebSocketHello"]


class Trap:
    """A listener that counts arrivals: TCP connections accepted, or UDP datagrams."""

    def __init__(self, host: str = "127.0.0.1", udp: bool = False) -> None:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        kind = socket.SOCK_DGRAM if udp else socket.SOCK_STREAM
        self.sock = socket.socket(family, kind)
        self.sock.bind((host, 0))
        self.port = self.sock.getsockname()[1]
        self.arrivals = 0
        if not udp:
            self.sock.listen(16)
        threading.Thread(target=self._count, args=(udp,), daemon=True).start()

    def _count(self, udp: bool) -> None:
        while True:
            try:
                if udp:
                    self.sock.recv(65536)
                else:
                    conn, _ = self.sock.accept()
                    conn.close()
            except OSError:
                return
            self.arrivals += 1

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()


class WebSocketHello:
    """A WebSocket server on 127.0.0.1 that greets each client with one text message."""

    GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    def __init__(self, greeting: str) -> None:
        self.greeting = greeting.encode()
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        import base64
        import hashlib

        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            with contextlib.suppress(OSError):
                head = b""
                while b"\r\n\r\n" not in head:
                    head += conn.recv(4096)
                key = next(
                    line.split(b":", 1)[1].strip()
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"sec-websocket-key:")
                )
                accept = base64.b64encode(hashlib.sha1(key + self.GUID.encode()).digest())
                conn.sendall(
                    b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                    b"Connection: Upgrade\r\nSec-WebSocket-Accept: " + accept + b"\r\n\r\n"
                )
                conn.sendall(bytes([0x81, len(self.greeting)]) + self.greeting)
                conn.recv(4096)  # until the browser closes

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()
