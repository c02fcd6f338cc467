"""robots.txt for the fetches a model chose (decision: What a fetch got), as the MCP fetch
server does it.

A fetch the model chose obeys the site's robots.txt for webtap's product token
(:func:`webtap.useragent.robots_token`); a fetch a person asked for (``webtap fetch URL``) does
not; ``WEBTAP_ROBOTS=obey|ignore`` overrides both (:func:`obeys_robots`).

The file is read by the caller's own fetch function (``fetch_robots(url) -> (status, body)``),
so that it goes through the same SSRF guard, client and page cache as any page; this module
only decides. What an answer means:

- 2xx: the rules in the body (its first 512 KiB, as RFC 9309 lets a parser stop there), read
  by Protego (Scrapy's parser: ``*`` and ``$`` wildcards, the longest match wins, ``Allow``
  wins a tie, user-agent groups merged; the standard library's ``urllib.robotparser`` gets
  the first three wrong). A file with no ``Disallow`` line is "allow all" without Protego,
  and so is a URL that no ``Disallow`` rule's literal start begins (:class:`RuleText`):
  Protego is imported only for a URL a rule may refuse.
- 401 or 403: disallow everything.
- any other 4xx, a 5xx, a redirect left unfollowed, or no answer (``NetworkError``): allow
  everything. RFC 9309 2.3.1.4 says a 5xx means "disallow all" for now; issue 22 asks for
  allow, as the MCP fetch server does, so that a site's outage does not read as a refusal.

Each origin's rules are kept in the process (:class:`RobotsCache`, one hour; a failed read for
five minutes), and ten fetches from one origin cost one read of its robots.txt, also when
they run at once. A refused URL is a :class:`~webtap.errors.RobotsDisallowed` whose message
quotes the rule that matched.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from typing import Any, NamedTuple
from urllib.parse import urlsplit

from webtap.errors import Advice, NetworkError, RobotsDisallowed, clip
from webtap.settings import ROBOTS
from webtap.useragent import robots_token

__all__ = [
    "MAX_ROBOTS_BYTES",
    "ROBOTS_CHOICES",
    "Decision",
    "FetchRobots",
    "RobotsCache",
    "RuleText",
    "Rules",
    "check_robots",
    "obeys_robots",
    "read_rules",
    "robots_cache",
    "robots_url",
]

ROBOTS_CHOICES = ("auto", "obey", "ignore")
MAX_ROBOTS_BYTES = 512 * 1024
RULES_TTL = 3600.0
UNREACHABLE_TTL = 300.0
MAX_ORIGINS = 256

FetchRobots = Callable[[str], tuple[int, "bytes | str"]]
"""``fetch_robots(robots_url) -> (status, body)``: the caller's guarded, cached GET. It returns
any HTTP answer (4xx and 5xx included) and raises ``NetworkError`` when none came."""

# Any spelling of "disallow" Protego accepts ("dissallow", "disalow", ...) has these letters in
# this order; a file without one allows everything, and needs no parser.
_MAY_DISALLOW = r"(?i)d\w*?a\w*?l\w*?w"


def obeys_robots(model_chose: bool) -> bool:
    """Whether a fetch obeys robots.txt: ``WEBTAP_ROBOTS`` (``obey`` or ``ignore``) when set,
    else (``auto``) only when the model chose the URL."""
    choice = ROBOTS.get()
    return model_chose if choice == "auto" else choice == "obey"


def robots_url(url: str) -> str:
    """The robots.txt that governs ``url``: same scheme, host and port, path ``/robots.txt``."""
    parts = urlsplit(url)
    return f"{parts.scheme.lower()}://{_authority(url)}/robots.txt"


def _authority(url: str) -> str:
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    if ":" in host:
        host = f"[{host}]"
    default = {"http": 80, "https": 443}.get(parts.scheme.lower())
    port = parts.port
    return host if port in (None, default) else f"{host}:{port}"


class Decision(NamedTuple):
    """Whether ``url`` may be fetched, and why: the rule that decided (``Disallow: /private/``)
    and its group (``User-agent: *``), or what the answer for robots.txt itself meant."""

    allowed: bool
    why: str
    rule: str | None = None
    group: str | None = None


class Rules(NamedTuple):
    """One origin's robots.txt as webtap reads it."""

    robots_url: str
    verdict: str  # "rules", "allow_all" or "disallow_all"
    why: str  # what the answer was, for messages
    parser: Any = None  # the file's :class:`RuleText`, for "rules"
    expires: float = 0.0  # time.monotonic() after which it is read again

    def decide(self, url: str, token: str) -> Decision:
        """The decision for ``url`` under the group for ``token``."""
        if urlsplit(url).path == "/robots.txt":  # RFC 9309 2.2.4: always allowed
            return Decision(True, "robots.txt itself is always allowed")
        if self.verdict != "rules":
            return Decision(self.verdict == "allow_all", self.why)
        if not self.parser.may_disallow(url):
            return Decision(True, self.why)
        parser = self.parser.protego()
        if parser.can_fetch(url, token):
            return Decision(True, self.why)
        rule, group = _deciding_rule(parser, url, token)
        if rule is None:
            return Decision(False, f"{self.robots_url} disallows it for {token}")
        where = f" in the group {group!r}" if group else ""
        return Decision(False, f"{self.robots_url} has the rule {rule!r}{where}", rule, group)


def read_rules(status: int, body: bytes | str, url: str, *, now: float | None = None) -> Rules:
    """The :class:`Rules` an answer for robots.txt (``status``, ``body``) at ``url`` means."""
    now = time.monotonic() if now is None else now
    expires = now + RULES_TTL
    if status in (401, 403):
        why = f"{url} answered HTTP {status}, which means nothing may be fetched"
        return Rules(url, "disallow_all", why, expires=expires)
    if not 200 <= status < 300:
        why = f"{url} answered HTTP {status}, which means everything may be fetched"
        # A server error may pass: ask again sooner than for a 404, which is an answer.
        later = now + UNREACHABLE_TTL if status >= 500 else expires
        return Rules(url, "allow_all", why, expires=later)
    if isinstance(body, bytes):
        body = body[:MAX_ROBOTS_BYTES].decode("utf-8", errors="replace")
    text = body[:MAX_ROBOTS_BYTES].lstrip("\ufeff")
    if not re.search(_MAY_DISALLOW, text):
        return Rules(url, "allow_all", f"{url} disallows nothing", expires=expires)
    return Rules(url, "rules", f"{url} has rules", RuleText(text), expires)


# Characters a path or a rule's literal start may hold for the plain prefix test below: those
# Protego's percent-encoding leaves as they are, so both sides compare as Protego compares.
_PLAIN = r"[A-Za-z0-9\-._~/!&'()+,;=:@?]*"
_DISALLOW_FIELD = r"d\w*?a\w*?l\w*?w"


class RuleText:
    """A robots.txt with rules: Protego's parser, made only for a URL a ``Disallow`` may match.

    Importing Protego costs a fresh process some 3–5 ms (it loads ``logging``). Most URLs are
    not under any ``Disallow`` of their site, and whether one is can be told without it: a rule
    matches only URLs that start with its literal start (the text before its first ``*`` or
    ``$``), in any group. So the literal starts of every ``Disallow`` line (in any of Protego's
    spellings, in any group) are read once, and a URL that starts with none of them is allowed
    at once. Anything this test cannot judge exactly (a rule that does not start with ``/``,
    percent-encoding, characters that would be encoded) goes to Protego.
    """

    __slots__ = ("_parser", "prefixes", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._parser: Any = None
        self.prefixes = _disallowed_starts(text)

    def may_disallow(self, url: str) -> bool:
        """False when no ``Disallow`` line of the file can match ``url``."""
        if self.prefixes is None:
            return True
        plain = url.partition("#")[0]
        parts = urlsplit(plain)
        path = (parts.path or "/") + (f"?{parts.query}" if "?" in plain else "")
        if not re.fullmatch(_PLAIN, path):
            return True
        return path.startswith(self.prefixes)

    def protego(self) -> Any:
        """The file parsed by Protego (once)."""
        if self._parser is None:
            from protego import Protego  # only for a file a plain reading cannot decide

            self._parser = Protego.parse(self.text)
        return self._parser


def _disallowed_starts(text: str) -> tuple[str, ...] | None:
    """The literal starts of every ``Disallow`` rule in ``text``, or None when one of them is
    not a plain path (then only Protego can judge). A line is read both as ``field: value``
    and as ``field value``, as Protego reads it."""
    starts = []
    for line in text.splitlines():
        line = line.partition("#")[0].strip()
        readings = []
        if ":" in line:
            readings.append(line.split(":", 1))
        readings.append(line.split(None, 1))
        for reading in readings:
            if len(reading) != 2 or not re.fullmatch(_DISALLOW_FIELD, reading[0].strip().lower()):
                continue
            value = reading[1].strip()
            if not value:
                continue
            start = re.split(r"[*$]", value, maxsplit=1)[0]
            if not value.startswith("/") or not re.fullmatch(_PLAIN, start):
                return None
            starts.append(start)
    return tuple(starts)


def _deciding_rule(parser: Any, url: str, token: str) -> tuple[str | None, str | None]:
    """The rule that refused ``url`` and its group, as robots.txt spells them (after Protego's
    normalisation), or ``(None, None)`` when Protego does not say.

    Protego answers only yes or no. Its rule set for the token keeps the rules in the order it
    tries them (longest first, ``Allow`` before ``Disallow`` on a tie), so the first one that
    matches is the one that decided; whether a rule matches is asked of Protego itself, with a
    file of that one rule. The names read here are Protego's own (the same from 0.5 to 0.7);
    if a release renames them the refusal still stands, only without the quote.
    """
    from protego import Protego  # loaded already: the file was parsed by it

    try:
        rule_set = parser._get_matching_rule_set(token)
        rules = [(rule.field, rule.value._pattern) for rule in rule_set._rules]
        group = f"User-agent: {rule_set.user_agent}"
    except (AttributeError, TypeError):
        return None, None
    if not all(isinstance(pattern, str) for _, pattern in rules):
        return None, None
    for field, pattern in rules:
        if not Protego.parse(f"User-agent: *\nDisallow: {pattern}").can_fetch(url, "*"):
            return (f"Disallow: {pattern}", group) if field == "disallow" else (None, None)
    return None, None


class RobotsCache:
    """Each origin's :class:`Rules`, read once per ``RULES_TTL`` by one thread at a time.

    Bounded to ``max_origins`` (the oldest read goes first). ``clock`` is for tests.
    """

    def __init__(
        self, max_origins: int = MAX_ORIGINS, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._rules: dict[str, Rules] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._lock = threading.Lock()
        self._max = max_origins
        self._clock = clock

    def rules(self, url: str, fetch_robots: FetchRobots) -> Rules:
        """The rules for ``url``'s origin, read with ``fetch_robots`` when not known or stale."""
        where = robots_url(url)
        with self._lock:
            known = self._fresh(where)
            if known is not None:
                return known
            origin_lock = self._locks.setdefault(where, threading.Lock())
        with origin_lock:  # one read per origin: the others wait for it, then use it
            with self._lock:
                known = self._fresh(where)
            if known is not None:
                return known
            rules = self._read(where, fetch_robots)
            with self._lock:
                self._rules.pop(where, None)
                self._rules[where] = rules
                while len(self._rules) > self._max:
                    oldest = next(iter(self._rules))
                    del self._rules[oldest]
                    self._locks.pop(oldest, None)
            return rules

    def _fresh(self, where: str) -> Rules | None:
        rules = self._rules.get(where)
        return rules if rules is not None and self._clock() < rules.expires else None

    def _read(self, where: str, fetch_robots: FetchRobots) -> Rules:
        now = self._clock()
        try:
            status, body = fetch_robots(where)
        except NetworkError as exc:
            why = f"{where} could not be read ({exc.message}), so everything may be fetched"
            return Rules(where, "allow_all", why, expires=now + UNREACHABLE_TTL)
        return read_rules(status, body, where, now=now)

    def check(self, url: str, fetch_robots: FetchRobots, token: str | None = None) -> Decision:
        """Raise :class:`RobotsDisallowed` when robots.txt refuses ``url`` to ``token`` (default:
        webtap's own, :func:`webtap.useragent.robots_token`); else the decision."""
        if token is None:
            token = robots_token()
        decision = self.rules(url, fetch_robots).decide(url, token)
        if not decision.allowed:
            raise _refusal(url, decision)
        return decision

    def clear(self) -> None:
        with self._lock:
            self._rules.clear()
            self._locks.clear()


def _refusal(url: str, decision: Decision) -> RobotsDisallowed:
    """The error for a URL robots.txt refuses, quoting the rule that matched."""
    advice = Advice(
        retryable=False,
        retry_with="another_url",
        hint="Do not retry it: tell the user, who can fetch it themselves, or use another source.",
    )
    return RobotsDisallowed(
        f"robots.txt disallows fetching {clip(url)}: {decision.why}.",
        advice=advice,
        details={"robots_rule": decision.rule} if decision.rule else None,
    )


_CACHE = RobotsCache()


def robots_cache() -> RobotsCache:
    """The process's one :class:`RobotsCache`."""
    return _CACHE


def check_robots(url: str, fetch_robots: FetchRobots, *, token: str | None = None) -> Decision:
    """:meth:`RobotsCache.check` on the process's cache: the one call the fetch path makes, for
    each URL it requests (the first and every redirect hop) when :func:`obeys_robots`."""
    return _CACHE.check(url, fetch_robots, token)
