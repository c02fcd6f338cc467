"""robots.txt for a fetch the model chose: read through the fetch's own session, and kept for
every process in the page cache's file (decision: What a fetch got).

:mod:`webtap.fetch.robots` decides; this module gets it the file. robots.txt is asked for through
the fetch's :class:`~webtap.fetch.session.Session` (its guard, its client, its deadline, at
most :data:`ROBOTS_SECONDS` of it), following up to five redirects (RFC 9309 2.3.1.2), at most
512 KiB of it read. Each answer is kept twice:

- in the process (:func:`webtap.fetch.robots.robots_cache`): one read per origin per process, also
  when calls run at once (the MCP server, the ask loop, SQL's rows);
- in ``pages.sqlite3`` (:mod:`webtap.fetch.page_cache`), under the guard's policy and the
  robots.txt URL, with its status: an answer for an hour, a 5xx or no answer at all for five
  minutes. So ten calls of ``web-fetch-tool`` on one site read its robots.txt once.
  ``WEBTAP_CACHE=off`` leaves only the process's own.

A guard refusal is the page's business, not robots.txt's: a robots.txt the guard refuses (its
host's address, or a redirect to one) counts as unreadable, which allows, and is not kept; the
page's own request is then refused by the guard as always, with the page's URL in the message.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from webtap.errors import HTTPError, InvalidURL, NetworkError, URLNotAllowed
from webtap.fetch.page_cache import guard_policy
from webtap.fetch.robots import MAX_ROBOTS_BYTES, RULES_TTL, UNREACHABLE_TTL, check_robots

if TYPE_CHECKING:
    from webtap.cache import Cache
    from webtap.fetch.redirects import Permit
    from webtap.fetch.session import Session

__all__ = ["ROBOTS_ACCEPT", "ROBOTS_REDIRECTS", "ROBOTS_SECONDS", "read_robots", "robots_permit"]

ROBOTS_SECONDS = 10.0  # of the fetch's deadline, at most, for robots.txt
ROBOTS_REDIRECTS = 5  # RFC 9309 2.3.1.2: at least five
ROBOTS_ACCEPT = "text/plain, */*;q=0.5"


def robots_permit(session: Session) -> Permit:
    """``permit(url)`` for the session's requests (:attr:`Session.permit
    <webtap.fetch.session.Session.permit>`): raises :class:`~webtap.errors.RobotsDisallowed`
    when the robots.txt of ``url``'s origin refuses it to webtap's product token; robots.txt
    read with ``session``, kept in its page cache's file too."""
    cache = session.pages.cache if session.pages is not None else None

    def fetch_robots(where: str) -> tuple[int, bytes | str]:
        return read_robots(where, session, cache)

    def permit(url: str) -> None:
        check_robots(url, fetch_robots)

    return permit


def read_robots(where: str, session: Session, cache: Cache | None) -> tuple[int, bytes | str]:
    """``(status, body)`` of the robots.txt at ``where``: from ``cache`` while fresh, else asked
    for with ``session`` (and kept). ``NetworkError`` when no answer came (kept as such)."""
    key = f"robots|{guard_policy(session.guard)}|{where}" if cache is not None else None
    known = _known(cache, key)
    if known is not None:
        return known
    try:
        status, body = _ask(where, session)
    except URLNotAllowed as exc:
        raise NetworkError(f"the SSRF guard refused it ({exc.message})") from None
    except (HTTPError, InvalidURL) as exc:  # too many redirects, one to another scheme
        _keep(cache, key, 0, "", exc.message)
        raise NetworkError(exc.message) from None
    except NetworkError as exc:
        _keep(cache, key, 0, "", exc.message)
        raise
    _keep(cache, key, status, body, "")
    return status, body


def _ask(where: str, session: Session) -> tuple[int, str]:
    from webtap.net import Deadline, Limits  # a request: robots.txt from the cache needs none

    got = session.get(
        where,
        headers={"Accept": ROBOTS_ACCEPT},
        limits=Limits(max_body=MAX_ROBOTS_BYTES, max_redirects=ROBOTS_REDIRECTS),
        deadline=Deadline(max(0.0, min(session.deadline().remaining(), ROBOTS_SECONDS))),
        robots=False,
        whole=False,
    )
    if 300 <= got.status < 400:  # a redirect without a Location: no file
        return got.status, ""
    return got.status, got.body.decode("utf-8", errors="replace")


def _known(cache: Cache | None, key: str | None) -> tuple[int, str] | None:
    """A kept answer while fresh; a kept "no answer" raises as it did."""
    if cache is None or key is None:
        return None
    entry = cache.get(key)
    if entry is None or not isinstance(entry.value, dict):
        return None
    value: dict[str, Any] = entry.value
    status, body = value.get("status"), value.get("body")
    if type(status) is not int or not isinstance(body, str):
        return None
    if entry.age() >= _lifetime(status):
        return None
    if status == 0:
        raise NetworkError(str(value.get("why") or "no answer"))
    return status, body


def _keep(cache: Cache | None, key: str | None, status: int, body: str, why: str) -> None:
    if cache is not None and key is not None:
        cache.put(key, {"status": status, "body": body, "why": why})


def _lifetime(status: int) -> float:
    """Seconds an answer is kept: as long as the process keeps it (webtap.fetch.robots)."""
    return UNREACHABLE_TTL if status == 0 or status >= 500 else RULES_TTL
