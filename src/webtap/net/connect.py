"""Opening a connection: names resolved by webtap within the deadline, every address checked.

For URLs nobody vetted (a model's, a web page's redirect), :func:`open_socket` takes the SSRF
guard (``webtap.guard``): it resolves the name with the system resolver, lets the guard check
every address, and connects only to an address it checked, so DNS rebinding cannot slip a
private address in between check and use. The host name still goes to TLS (SNI, certificate
check) and to the ``Host`` header.
"""

from __future__ import annotations

import ipaddress
import socket
import threading
from typing import TYPE_CHECKING, Any

from webtap.errors import clip
from webtap.net.deadline import Deadline
from webtap.net.errors import ConnectFailed, ConnectTimeout, connect_reason

if TYPE_CHECKING:
    from webtap.guard import Guard

__all__ = ["open_socket", "resolve"]


def resolve(host: str, port: int, timeout: float) -> list[tuple[Any, ...]]:
    """``getaddrinfo`` with a timeout: the lookup runs in a daemon thread we stop waiting for."""
    box: dict[str, Any] = {}
    done = threading.Event()

    def lookup() -> None:
        try:
            box["infos"] = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except OSError as exc:
            box["error"] = exc.strerror or str(exc)
        except UnicodeError as exc:  # the idna codec: an empty or over-63-character label
            box["error"] = f"the host name is not valid ({exc.__cause__ or exc})"
        except Exception as exc:  # anything else must still end the wait, not the thread
            box["error"] = f"{type(exc).__name__}: {exc}"
        done.set()

    threading.Thread(target=lookup, name="webtap-dns", daemon=True).start()
    if not done.wait(timeout):
        raise ConnectTimeout(f"DNS lookup of {clip(host)} timed out")
    if "error" in box:
        raise ConnectFailed(f"DNS lookup of {clip(host)} failed: {box['error']}")
    return box["infos"]


def open_socket(
    host: str, port: int, deadline: Deadline, timeout: float, guard: Guard | None = None
) -> socket.socket:
    """A TCP connection to ``host`` within ``timeout`` and the deadline; with a ``guard``,
    only after it has checked every address the name resolves to."""
    infos = resolve(host, port, deadline.clamp(timeout, ConnectTimeout))
    if guard is not None:
        addresses = [ipaddress.ip_address(info[4][0].split("%", 1)[0]) for info in infos]
        guard.check_resolved(host, addresses)
    last: Exception | None = None
    for family, kind, proto, _, address in infos:
        sock = socket.socket(family, kind, proto)
        try:
            sock.settimeout(deadline.clamp(timeout, ConnectTimeout))
            sock.connect(address)
        except TimeoutError:
            sock.close()
            last = ConnectTimeout(f"connecting to {clip(host)} timed out")
        except OSError as exc:
            sock.close()
            last = ConnectFailed(connect_reason(exc))
        except BaseException:
            sock.close()
            raise
        else:
            # Requests are small writes answered at once: Nagle's delay would only add latency.
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            return sock
    raise last or ConnectFailed(f"DNS lookup of {clip(host)} returned no addresses")
