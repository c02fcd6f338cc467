"""One reading of ``Retry-After`` and rate-header numbers for the verdicts, the model's retries,
the ask loop's rate budget and the SQL throttle."""

from __future__ import annotations

import time
from email.utils import formatdate

import pytest

from webtap.net.retry_after import header_number, retry_after


@pytest.mark.parametrize(
    ("value", "number"),
    [("7", 7.0), ("0.5", 0.5), ("0", 0.0), (None, None), ("", None), ("soon", None),
     ("-1", None), ("1e12", None), ("nan", None), ("inf", None)],
)  # fmt: skip
def test_a_header_number_is_finite_and_not_negative(value: str | None, number: float) -> None:
    assert header_number(value) == number


def test_milliseconds_come_before_seconds() -> None:
    assert retry_after({"retry-after-ms": "1500", "retry-after": "9"}) == 1.5
    assert retry_after({"retry-after-ms": "never", "retry-after": "9"}) == 9.0


def test_a_date_is_the_seconds_until_it_and_a_past_date_is_now() -> None:
    later = retry_after({"retry-after": formatdate(time.time() + 120, usegmt=True)})
    assert later is not None and 100 < later <= 120
    assert retry_after({"retry-after": formatdate(time.time() - 3600, usegmt=True)}) == 0.0


@pytest.mark.parametrize("value", ["", "  ", "tomorrow", "-5", "Wed, 21 Oct 2015 07:28:00"])
def test_nothing_readable_is_none(value: str) -> None:
    assert retry_after({"retry-after": value}) is None
    assert retry_after({}) is None


def test_the_verdicts_cap_a_wait_at_a_day() -> None:
    from webtap.verdict import retry_after as verdict_wait

    assert verdict_wait({"retry-after": "999999"}) == 86400.0
    assert verdict_wait({"retry-after": "30"}) == 30.0
