"""A fetch's :class:`Session`: the settings of its requests, kept in one place, as an httpx
client keeps its own.

One fetch may make several requests (robots.txt, the page, the page's Markdown version) and
convert more than one answer (the page, the page as a browser rendered it). Each asks the
session, :meth:`Session.get` and :meth:`Session.convert`, which hold what they share: the SSRF
guard, the timeouts and the one deadline, the size cap and redirect limit, the client, the
content mode, the page cache, robots.txt's word on each hop, and what the caller said about
rendering. The client and the deadline are made on first use, so that a fetch answered from
the caches makes neither.

That is also where the request path starts: the HTTP stack (:mod:`webtap.net`,
:mod:`webtap.fetch.redirects`), the converter (:mod:`webtap.fetch.media`) and the verdict's
reader (:mod:`webtap.fetch.judge`) are imported by the methods that use them, so that a page
from the cache (paging through a long page: one process per call) loads none of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from webtap.fetch.page_cache import page_cache
from webtap.fetch.settings import checked_mode, fetch_limits, fetch_mode, fetch_timeouts, max_body
from webtap.guard import Guard

if TYPE_CHECKING:
    from collections.abc import Mapping

    from webtap.fetch.download import Download
    from webtap.fetch.judge import Inspection
    from webtap.fetch.media import Converted
    from webtap.fetch.page_cache import Conditions, PageCache
    from webtap.fetch.redirects import Permit
    from webtap.net import Client, Deadline, Limits, Timeouts

__all__ = ["Session", "with_language"]


class Session:
    """The settings of one fetch's requests, and the client and deadline they share.

    ``mode``: ``"main"`` or ``"page"`` (default: :func:`~webtap.fetch.settings.fetch_mode`);
    ``guard`` (default: :meth:`Guard.from_env`), ``timeouts`` and ``limits`` (default: the
    environment's, read on first use); ``client``: an embedder's own, kept open (by default
    webtap makes one, with the guard and no proxy); ``cache``: whether to use the page cache
    (default: only with webtap's own client, since a client of yours may see a different web);
    ``render``: the caller's word on rendering (:mod:`webtap.fetch.render`). :attr:`permit`,
    when set, is asked about every hop a request makes (robots.txt:
    :mod:`webtap.fetch.robots_file`).
    """

    __slots__ = (
        "_client",
        "_deadline",
        "_limits",
        "_timeouts",
        "embedded",
        "guard",
        "mode",
        "pages",
        "permit",
        "render",
    )

    def __init__(
        self,
        *,
        mode: str | None = None,
        guard: Guard | None = None,
        timeouts: Timeouts | None = None,
        limits: Limits | None = None,
        client: Client | None = None,
        cache: bool | None = None,
        render: bool | None = None,
    ) -> None:
        self.mode = fetch_mode() if mode is None else checked_mode(mode)
        self.guard = guard or Guard.from_env()
        self.embedded = client is not None
        self.pages: PageCache | None = (
            page_cache() if (not self.embedded if cache is None else cache) else None
        )
        self.render = render
        self.permit: Permit | None = None
        self._timeouts = timeouts
        self._limits = limits
        self._client = client
        self._deadline: Deadline | None = None

    @property
    def timeouts(self) -> Timeouts:
        if self._timeouts is None:
            self._timeouts = fetch_timeouts()
        return self._timeouts

    @property
    def limits(self) -> Limits:
        if self._limits is None:
            self._limits = fetch_limits()
        return self._limits

    @property
    def max_body(self) -> int:
        """The size cap, without importing the HTTP stack when the setting is left alone."""
        return max_body(self._limits)

    def client(self) -> Client:
        if self._client is None:
            from webtap.net import ACCEPT_ENCODING, Client  # the request path (module doc)

            # No proxy, ever: through one the guard would see only the proxy's address.
            self._client = Client(guard=self.guard, headers={"Accept-Encoding": ACCEPT_ENCODING})
        return self._client

    def deadline(self) -> Deadline:
        """The fetch's one deadline (``timeouts.total``), from its first request on."""
        if self._deadline is None:
            from webtap.net import Deadline  # the request path (module doc)

            self._deadline = Deadline(self.timeouts.total)
        return self._deadline

    def get(
        self,
        url: str,
        *,
        headers: Mapping[str, str] | None = None,
        conditions: Conditions | None = None,
        limits: Limits | None = None,
        deadline: Deadline | None = None,
        robots: bool = True,
        whole: bool = True,
    ) -> Download:
        """GET ``url`` with the session's settings, redirects followed, whatever the status
        (:func:`webtap.fetch.redirects.follow`: ``headers``, ``conditions`` and ``whole`` are
        its). ``limits`` and ``deadline`` stand in for the session's for this request;
        ``robots=False``: :attr:`permit` is not asked (robots.txt itself)."""
        from webtap.fetch.redirects import fetch_errors, follow  # the request path (module doc)

        deadline = deadline or self.deadline()
        with fetch_errors(deadline, self.timeouts):
            return follow(
                self,
                url,
                headers=headers,
                conditions=conditions,
                limits=limits or self.limits,
                deadline=deadline,
                permit=self.permit if robots else None,
                whole=whole,
            )

    def convert(self, got: Download) -> tuple[Converted | None, Inspection | None]:
        """``got`` as Markdown in the session's mode, and what the verdict saw of an HTML page
        as parsed; ``(None, None)`` for a status of 400 or more, which is not converted."""
        if got.status >= 400:
            return None, None
        from webtap.fetch.judge import Inspection  # the request path (module doc)
        from webtap.fetch.media import convert_body

        seen = Inspection(got.url)
        converted = convert_body(
            got.body,
            got.content_type,
            got.url,
            main_content=self.mode == "main",
            deadline=self.deadline(),
            inspect=seen,
        )
        return with_language(converted, got.headers), seen

    def close(self) -> None:
        """Close the client webtap made (an embedder's stays open)."""
        if not self.embedded and self._client is not None:
            self._client.close()
            self._client = None

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def with_language(converted: Converted, headers: Mapping[str, str]) -> Converted:
    """``converted`` with the ``Content-Language`` header's language when the page itself
    names none (``<html lang>``, ``og:locale``: `webtap.convert._metadata`)."""
    said = headers.get("content-language", "").split(",")[0].strip()
    if converted.metadata.language or not said or len(said) > 35 or not said.isascii():
        return converted
    return converted._replace(metadata=converted.metadata._replace(language=said))
