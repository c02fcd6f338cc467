"""One provider request: deadlines, one retry, JSON decoding, and errors that carry no key.

Both providers send a GET with the key in a header (Brave) or a query parameter (Google).
Nothing from the HTTP stack reaches a message unfiltered: transport errors go through
:func:`webtap.net.translate_errors`, and every :class:`WebtapError` leaving :func:`redacting`
has each secret replaced by ``***``. Requests go through one :class:`webtap.net.Client` per
process (kept-alive connections, proxies from the environment); each reply's body is capped
at :data:`MAX_BODY` decoded bytes.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, NamedTuple

from webtap.budget.rate import Pace, RateBudget
from webtap.errors import APIError, ConfigError, InvalidInput, NetworkError, WebtapError
from webtap.net import ACCEPT_ENCODING, Client, Deadline, decode_capped, translate_errors
from webtap.net.url import MAX_URL_LENGTH, URLProblem, parse_url, with_params
from webtap.protocol import loads_json
from webtap.redact import quote, redact, redact_value, remember
from webtap.settings import SEARCH_DEADLINE, SEARCH_TIMEOUT

__all__ = [
    "DEFAULT_CALL_TIMEOUT",
    "DEFAULT_DEADLINE",
    "MAX_BODY",
    "ProviderReply",
    "call_timeout",
    "endpoint",
    "get",
    "new_client",
    "owned_client",
    "redacting",
    "search_deadline",
    "shared_client",
]

DEFAULT_CALL_TIMEOUT = SEARCH_TIMEOUT.default  # seconds for one provider call
DEFAULT_DEADLINE = SEARCH_DEADLINE.default  # seconds for the whole tool, retries included
MAX_BODY = 5 * 1024 * 1024  # a search page is tens of kB; more is not a search response
RETRY_PAUSE = 0.25  # seconds before the one retry of a 5xx


def search_deadline() -> Deadline:
    """The clock for one whole tool call, retries and waits included."""
    return Deadline(SEARCH_DEADLINE.get())


def call_timeout(deadline: Deadline) -> float:
    """Seconds one provider call may take: its own timeout, cut to what the deadline has left."""
    return min(SEARCH_TIMEOUT.get(), deadline.remaining())


class ProviderReply(NamedTuple):
    status: int
    headers: Mapping[str, str]  # names in lower case
    body: Any  # the decoded JSON, or None when the body was not JSON
    text: str  # the body as text, for messages; quoted only through webtap.redact.quote

    def not_json(self) -> str:
        kind = self.headers.get("content-type", "").split(";")[0].strip() or "no content type"
        start = quote(self.text, 80)  # redacted before the cut: no half key is left
        return f"not JSON ({kind}, starting {start!r})" if start else f"empty ({kind})"

    def describe(self) -> str:
        """The body's own words when it has no error field we know."""
        if self.body is None:
            return f"the answer is {self.not_json()}"
        return quote(self.text, 200) or "no details"


def endpoint(variable: str, default: str) -> str:
    """The provider URL, overridable for tests and private deployments (decision: Endpoints)."""
    url = os.environ.get(variable, "").strip() or default
    if not url.lower().startswith(("http://", "https://")):
        raise ConfigError(f"{variable} must be an http:// or https:// URL (got {url!r}).")
    return url


@contextmanager
def owned_client(client: Client | None) -> Iterator[Client]:
    """The caller's client, or the process's shared one."""
    yield client if client is not None else shared_client()


_shared: Client | None = None
_shared_lock = threading.Lock()


def shared_client() -> Client:
    """One client (and so one connection pool) for every search of the process: the MCP
    server, the ask loop and SQL rows stop paying for a new connection and TLS handshake on
    each call. The client is safe to share between threads."""
    global _shared
    with _shared_lock:
        if _shared is None or _shared.closed:
            _shared = new_client()
        return _shared


def new_client() -> Client:
    """A client for search calls: proxies from the environment honoured, compressed answers
    welcome; timeouts are set per call from the deadline."""
    return Client(proxies=True, headers={"Accept-Encoding": ACCEPT_ENCODING})


def get(
    client: Client,
    url: str,
    *,
    params: Mapping[str, Any],
    headers: Mapping[str, str],
    deadline: Deadline,
    what: str,
) -> ProviderReply:
    """One GET within the deadline; the body is read in full (capped) and decoded as JSON."""
    seconds = call_timeout(deadline)
    if seconds <= 0:
        raise NetworkError(f"{what}: timed out (the search deadline passed)")
    full = with_params(url, params)
    if len(full) > MAX_URL_LENGTH:  # fail clearly before sending
        raise InvalidInput(
            f"Invalid input: the request is too long to send to {what} (a URL of {len(full)} "
            f"characters, at most {MAX_URL_LENGTH}); shorten the query"
        )
    try:
        host = parse_url(url).host
    except URLProblem as exc:
        raise ConfigError(f"{what}: the endpoint URL cannot be used ({exc})") from None
    call = Deadline(seconds)  # this call's share: what each step may take, retries aside
    # The host says which endpoint failed: the provider's, or BRAVE/GOOGLE_SEARCH_URL's.
    with (
        translate_errors(f"{what} at {host}"),
        client.request(
            "GET",
            full,
            headers=headers,
            deadline=call,
            connect_timeout=seconds,
            read_timeout=seconds,
        ) as response,
    ):

        def too_large() -> APIError:
            return APIError(
                f"{what} sent more than {MAX_BODY // (1024 * 1024)} MB (decoded); that is not "
                "a search response, so it was not read further"
            )

        coding = response.headers.get("content-encoding", "")
        declared = response.headers.get("content-length", "")
        if not coding and declared.isdigit() and int(declared) > MAX_BODY:
            raise too_large()
        chunks: list[bytes] = []
        # Decoded here, capped while decoding: a small compressed body may expand to gigabytes.
        for chunk in decode_capped(response.iter_raw(), coding, MAX_BODY, too_large):
            if call.expired:  # each read is bounded by the client; this bounds the whole call
                raise NetworkError(f"{what}: timed out after {seconds:g} s")
            chunks.append(chunk)
    return _reply(response.status, response.headers, b"".join(chunks))


def call_provider(
    client: Client,
    url: str,
    *,
    params: Mapping[str, Any],
    headers: Mapping[str, str],
    deadline: Deadline,
    what: str,
    error_for: Callable[[ProviderReply], WebtapError | None],
    pause_for: Callable[[ProviderReply, WebtapError], float | None] | None = None,
    budget: RateBudget | None = None,
    pace_of: Callable[[ProviderReply], Pace] | None = None,
) -> Any:
    """One provider call with at most one retry; the decoded JSON body of a success.

    ``error_for`` is the provider's reading of a reply: ``None`` for a success, else the error
    to raise. ``pause_for`` says how long to wait before the one retry, or ``None`` for no
    retry (default: a 5xx is retried after :data:`RETRY_PAUSE`). A retry that would not leave
    half a second of the deadline is not made. With a ``budget``, each request first waits its
    turn in the key's shared rate budget, and ``pace_of`` tells the budget what each reply
    said about the pace the provider allows.
    """
    pause_for = pause_for or server_error_pause
    retried = False
    while True:
        if budget is not None:
            budget.acquire(deadline)
        reply = get(client, url, params=params, headers=headers, deadline=deadline, what=what)
        if budget is not None and pace_of is not None:
            budget.learn(pace_of(reply))
        error = error_for(reply)
        if error is None:
            if reply.body is None:
                raise APIError(f"{what} returned a response that is {reply.not_json()}.")
            return reply.body
        pause = None if retried else pause_for(reply, error)
        if pause is None or pause >= deadline.remaining() - 0.5:
            raise error
        retried = True
        time.sleep(pause)


def server_error_pause(reply: ProviderReply, error: WebtapError) -> float | None:
    """The default retry rule: a 5xx once more after :data:`RETRY_PAUSE`."""
    return RETRY_PAUSE if reply.status >= 500 else None


def _reply(status: int, headers: Mapping[str, str], raw: bytes) -> ProviderReply:
    text = raw.decode("utf-8", "replace")
    try:
        body = loads_json(text)
    except ValueError:
        body = None
    return ProviderReply(status, headers, body, text)


@contextmanager
def redacting(secrets: Sequence[str]) -> Iterator[None]:
    """Replace every secret in an error leaving the block (message and event) by ``***``.

    The secrets are remembered for every quote made inside, wherever it is cut
    (:mod:`webtap.redact`).
    """
    remember(secrets)
    try:
        yield
    except WebtapError as exc:
        exc.message = redact(exc.message, secrets)
        exc.args = (exc.message,)
        exc.event = redact_value(exc.event, secrets)
        raise
    except Exception as exc:
        # A bug must not print a key either: report it, redacted, as the provider step's error.
        message = redact(f"{type(exc).__name__}: {exc}", secrets)
        raise APIError(f"Unexpected error while searching: {message}") from None
