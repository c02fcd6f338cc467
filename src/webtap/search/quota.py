"""A used-up free quota: the spec's RATE_LIMIT message for the model, and a ``rate_limited``
event for the person saying when the quota resets and which other provider can step in."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any

from webtap.credentials import configured_keys, pick_provider
from webtap.errors import RateLimit
from webtap.providers import BRAVE, GOOGLE, PROVIDERS

if TYPE_CHECKING:
    from webtap.providers import Provider

__all__ = [
    "BRAVE_QUOTA_MESSAGE",
    "GOOGLE_QUOTA_MESSAGE",
    "brave_quota_exceeded",
    "exceeded",
    "google_quota_exceeded",
    "next_pacific_midnight",
]

# The spec's exact texts (000, "When rate limit exceeded"), held by each provider's record.
BRAVE_QUOTA_MESSAGE = BRAVE.quota_message
GOOGLE_QUOTA_MESSAGE = GOOGLE.quota_message


def exceeded(provider: Provider, resets_in: float | None, now: datetime | None = None) -> RateLimit:
    """``provider``'s free quota is used up; it resets in ``resets_in`` seconds (None: not
    known)."""
    now = now or datetime.now(UTC)
    resets_at = now + timedelta(seconds=resets_in) if resets_in is not None else None
    return _exceeded(provider, resets_at, now)


def brave_quota_exceeded(resets_in: float | None, now: datetime | None = None) -> RateLimit:
    """Brave's monthly quota is used up; ``resets_in`` is seconds from X-RateLimit-Reset."""
    return exceeded(BRAVE, resets_in, now)


def google_quota_exceeded(now: datetime | None = None) -> RateLimit:
    """Google's daily quota is used up; it resets at midnight Pacific time."""
    now = now or datetime.now(UTC)
    return _exceeded(GOOGLE, next_pacific_midnight(now), now)


def next_pacific_midnight(now: datetime) -> datetime:
    """The next midnight in America/Los_Angeles (when Google's daily quotas reset), in UTC."""
    try:
        from zoneinfo import ZoneInfo  # it loads sysconfig: only Google's quota needs it

        zone: Any = ZoneInfo("America/Los_Angeles")
    except Exception:  # no time zone database: Pacific standard time is close enough
        zone = timezone(timedelta(hours=-8))
    local = now.astimezone(zone)
    midnight = datetime.combine(local.date() + timedelta(days=1), datetime.min.time(), zone)
    return midnight.astimezone(UTC)


def _exceeded(provider: Provider, resets_at: datetime | None, now: datetime) -> RateLimit:
    period = provider.quota_period
    alt_tool, alt_provider, alt_ready = _alternative(provider)
    quota = f"{period} free search quota" if period else "free search quota"
    lines = [f"⚠ {provider.title}: the {quota} is used up."]
    if resets_at is not None:
        lines.append(
            f"It resets in {_duration(resets_at - now)} "
            f"(around {resets_at.strftime('%Y-%m-%d %H:%M')} UTC)."
        )
    if alt_ready:
        lines.append(f"{alt_provider} ({alt_tool}) is configured and can be used meanwhile.")
    else:
        lines.append(
            f"{alt_provider} ({alt_tool}) could step in, but it has no credentials yet: "
            "see ~/.config/ikigai/credentials.json."
        )
    data: dict[str, Any] = {
        "tool": provider.tool,
        "period": period,
        "resets_at": resets_at.strftime("%Y-%m-%dT%H:%M:%SZ") if resets_at else None,
        "resets_in_seconds": int((resets_at - now).total_seconds()) if resets_at else None,
        "alternative_tool": alt_tool,
        "alternative_configured": alt_ready,
    }
    event = {"kind": "rate_limited", "content": "\n".join(lines), "data": data}
    return RateLimit(provider.quota_message or "Rate limit exceeded.", event=event)


def _duration(delta: timedelta) -> str:
    seconds = max(0, int(delta.total_seconds()))
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        return f"{days} d {hours} h"
    if hours:
        return f"{hours} h {minutes} min"
    return f"{max(minutes, 1)} min"


def _alternative(provider: Provider) -> tuple[str, str, bool]:
    """The first other provider that is configured (the order "Which search" decides), else the
    first other one: (its tool, its title, whether it is configured)."""
    others = [name for name in PROVIDERS if name != provider.name]
    chosen = pick_provider(configured_keys(), among=others)
    other = PROVIDERS[chosen or others[0]]
    return other.tool, other.title, chosen is not None
