"""A used-up free quota: the spec's RATE_LIMIT message for the model, and a ``rate_limited``
event for the person saying when the quota resets and which other provider can step in."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from webtap.errors import RateLimit

__all__ = [
    "BRAVE_QUOTA_MESSAGE",
    "GOOGLE_QUOTA_MESSAGE",
    "brave_quota_exceeded",
    "google_quota_exceeded",
    "next_pacific_midnight",
]

# The spec's exact texts (000, "When rate limit exceeded").
BRAVE_QUOTA_MESSAGE = "Rate limit exceeded. You've used your free search quota (2,000/month)."
GOOGLE_QUOTA_MESSAGE = "Rate limit exceeded. You've used your free search quota (100/day)."


def brave_quota_exceeded(resets_in: float | None, now: datetime | None = None) -> RateLimit:
    """Brave's monthly quota is used up; ``resets_in`` is seconds from X-RateLimit-Reset."""
    now = now or datetime.now(UTC)
    resets_at = now + timedelta(seconds=resets_in) if resets_in is not None else None
    return _exceeded(
        BRAVE_QUOTA_MESSAGE,
        tool="web_search_brave",
        provider="Brave Search",
        period="monthly",
        resets_at=resets_at,
        now=now,
        alternative=_alternative(("searxng", "google")),
    )


def google_quota_exceeded(now: datetime | None = None) -> RateLimit:
    """Google's daily quota is used up; it resets at midnight Pacific time."""
    now = now or datetime.now(UTC)
    return _exceeded(
        GOOGLE_QUOTA_MESSAGE,
        tool="web_search_google",
        provider="Google Custom Search",
        period="daily",
        resets_at=next_pacific_midnight(now),
        now=now,
        alternative=_alternative(("brave", "searxng")),
    )


def next_pacific_midnight(now: datetime) -> datetime:
    """The next midnight in America/Los_Angeles (when Google's daily quotas reset), in UTC."""
    try:
        from zoneinfo import ZoneInfo

        zone: Any = ZoneInfo("America/Los_Angeles")
    except Exception:  # no time zone database: Pacific standard time is close enough
        from datetime import timezone

        zone = timezone(timedelta(hours=-8))
    local = now.astimezone(zone)
    midnight = datetime.combine(local.date() + timedelta(days=1), datetime.min.time(), zone)
    return midnight.astimezone(UTC)


def _exceeded(
    message: str,
    *,
    tool: str,
    provider: str,
    period: str,
    resets_at: datetime | None,
    now: datetime,
    alternative: tuple[str, str, bool],
) -> RateLimit:
    alt_tool, alt_provider, alt_ready = alternative
    lines = [f"⚠ {provider}: the {period} free search quota is used up."]
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
        "tool": tool,
        "period": period,
        "resets_at": resets_at.strftime("%Y-%m-%dT%H:%M:%SZ") if resets_at else None,
        "resets_in_seconds": int((resets_at - now).total_seconds()) if resets_at else None,
        "alternative_tool": alt_tool,
        "alternative_configured": alt_ready,
    }
    event = {"kind": "rate_limited", "content": "\n".join(lines), "data": data}
    return RateLimit(message, event=event)


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


PROVIDER_NAMES = {"brave": "Brave Search", "searxng": "SearXNG", "google": "Google Custom Search"}


def _alternative(candidates: tuple[str, ...]) -> tuple[str, str, bool]:
    """The first of ``candidates`` that is configured, else the first: (tool, name, ready)."""
    from webtap.credentials import configured_keys, pick_provider

    chosen = pick_provider(configured_keys(), among=candidates)
    name = chosen or candidates[0]
    return f"web_search_{name}", PROVIDER_NAMES[name], chosen is not None
