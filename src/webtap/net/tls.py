"""TLS: one context per process, its CA certificates loaded as cheaply as the platform allows."""

from __future__ import annotations

import os
import re
import socket
import ssl
import sys
import threading
from functools import cache
from typing import Any

from webtap.net.deadline import Deadline
from webtap.net.errors import ConnectFailed, ConnectTimeout, connect_reason

__all__ = ["ssl_context", "start_tls"]


def start_tls(sock: socket.socket, host: str, deadline: Deadline, timeout: float) -> socket.socket:
    """``sock`` after a TLS handshake for ``host`` (SNI and the certificate's name), within
    ``timeout`` and the deadline."""
    sock.settimeout(deadline.clamp(timeout, ConnectTimeout))
    try:
        return ssl_context().wrap_socket(sock, server_hostname=host)
    except TimeoutError:
        raise ConnectTimeout("the TLS handshake timed out") from None
    except (ssl.SSLError, ssl.CertificateError) as exc:
        raise ConnectFailed(f"TLS error: {exc}") from None
    except OSError as exc:
        raise ConnectFailed(connect_reason(exc)) from None


@cache
def ssl_context() -> ssl.SSLContext:
    """The TLS context of every webtap client: built once per process, its CA certificates
    loaded at the first TLS handshake (a call to http:// or one that fails before connecting
    loads none), from the cheapest source that says the same:

    ``SSL_CERT_FILE`` and ``SSL_CERT_DIR`` first, as httpx and OpenSSL read them. Else the
    system's hashed CA folder (``/etc/ssl/certs``): OpenSSL then reads only the certificate a
    handshake needs, where a bundle (certifi's, ~150 certificates) is parsed whole, 25-40 ms of
    a tool's start. certifi's bundle where the system has no such folder.
    """
    return LazyCAContext()


class LazyCAContext(ssl.SSLContext):
    """``ssl.create_default_context()``'s settings; the CA certificates on first use."""

    def __new__(cls) -> LazyCAContext:
        return super().__new__(cls, ssl.PROTOCOL_TLS_CLIENT)

    def __init__(self) -> None:
        super().__init__()
        self._ca_lock = threading.Lock()
        self._ca_loaded = False
        # What create_default_context adds to PROTOCOL_TLS_CLIENT's defaults
        # (CERT_REQUIRED, check_hostname).
        if sys.version_info >= (3, 13):
            self.verify_flags |= ssl.VERIFY_X509_PARTIAL_CHAIN | ssl.VERIFY_X509_STRICT
        keylog = os.environ.get("SSLKEYLOGFILE")
        if keylog and not sys.flags.ignore_environment:
            self.keylog_filename = keylog

    def load_certificates(self) -> None:
        """Load the CA certificates (see :func:`ssl_context`), once."""
        with self._ca_lock:
            if not self._ca_loaded:
                self.load_verify_locations(**_ca_locations())
                self._ca_loaded = True

    def wrap_socket(self, *args: Any, **kwargs: Any) -> ssl.SSLSocket:
        self.load_certificates()
        return super().wrap_socket(*args, **kwargs)

    def wrap_bio(self, *args: Any, **kwargs: Any) -> ssl.SSLObject:
        self.load_certificates()
        return super().wrap_bio(*args, **kwargs)


def _ca_locations() -> dict[str, str | None]:
    cafile = os.environ.get("SSL_CERT_FILE", "").strip() or None
    capath = os.environ.get("SSL_CERT_DIR", "").strip() or None
    if cafile or capath:
        return {"cafile": cafile, "capath": capath}
    folder = _hashed_ca_folder()
    if folder is not None:
        return {"capath": folder}
    import certifi  # only where the system has no CA folder (it loads importlib.resources)

    return {"cafile": certifi.where()}


_HASHED_NAME = re.compile(r"[0-9a-f]{8}\.[0-9]+")


def _hashed_ca_folder() -> str | None:
    """OpenSSL's CA folder when it holds hashed certificate names (``5ad8a5d6.0``), else None."""
    paths = ssl.get_default_verify_paths()
    for folder in dict.fromkeys(p for p in (paths.capath, paths.openssl_capath) if p):
        try:
            with os.scandir(folder) as entries:
                if any(_HASHED_NAME.fullmatch(entry.name) for entry in entries):
                    return folder
        except OSError:
            continue
    return None
