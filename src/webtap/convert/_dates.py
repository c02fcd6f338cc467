"""Dates as pages write them, read into ISO 8601.

Two readers. :func:`iso_date` reads a machine's date (a ``<meta>`` value, JSON-LD, a
``<time datetime>``): ISO 8601 and its loose variants, RFC 2822, and otherwise what a person
would write. :func:`spoken_date` reads a person's date in a line of text ("12 March 2024",
"12. März 2024", "le 12 mars 2024", "12 marca 2024", "March 12, 2024", "12.03.2024",
"11/19/19"), in the languages of the web's pages, and only a whole date: a month and year, a
weekday, or a relative date ("3 days ago", "vor 3 Tagen", "wczoraj") is no date. A date and
time keeps the zone it was given in; one written without a zone stays without.
"""

from __future__ import annotations

import re
import time

__all__ = ["day_number", "iso_date", "spoken_date"]

_FIRST_YEAR = 1990  # before the web had dated pages: a number, not a publication year

# Month names, full and shortened, in the languages of the web's pages (the Polish and Russian
# in the genitive a date uses, and Polish in the nominative too).
_MONTH_NAMES = (
    # English
    "january february march april may june july august september october november december",
    "jan feb mar apr may jun jul aug sep oct nov dec",
    "- - - - - - - - sept - - -",
    # German (and Austrian)
    "januar februar märz april mai juni juli august september oktober november dezember",
    "jänner feber maerz - - - - - - - - -",
    "- - mär apr - - - - - okt - dez",
    "- - mrz - - - - - - - - -",
    # French
    "janvier février mars avril mai juin juillet août septembre octobre novembre décembre",
    "janv févr - avr - - juil aout sept oct nov déc",
    "- fevrier - - - - - - - - - decembre",
    "- fév - - - - - - - - - -",
    # Spanish
    "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre",
    "ene - - abr - - - ago setiembre - - dic",
    # Italian
    "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre",
    "gen - - - mag giu lug - set ott - -",
    # Portuguese
    "janeiro fevereiro março abril maio junho julho agosto setembro outubro novembro dezembro",
    "- fev - - - - - - - out - dez",
    # Dutch
    "januari februari maart april mei juni juli augustus september oktober november december",
    "- - mrt - - - - - - - - -",
    # Polish: genitive, nominative, short
    "stycznia lutego marca kwietnia maja czerwca lipca sierpnia września października "
    "listopada grudnia",
    "styczeń luty marzec kwiecień maj czerwiec lipiec sierpień wrzesień październik "
    "listopad grudzień",
    "sty lut - kwi - cze lip sie wrz paź lis gru",
    # Swedish, Danish, Norwegian
    "- - - - - - - augusti - - - -",
    "- - marts - - - - - - - - -",
    # Russian (genitive)
    "января февраля марта апреля мая июня июля августа сентября октября ноября декабря",
)
MONTHS: dict[str, int] = {}
for _row in _MONTH_NAMES:
    for _number, _name in enumerate(_row.split(), 1):
        if _name != "-":
            MONTHS.setdefault(_name, _number)

# Any word may be a month's name: `MONTHS` says which (one alternation of them all would cost
# the converter's first page milliseconds to compile).
_MONTH = r"(?P<month>[^\W\d_]{3,12})\.?"
_DAY = r"(?P<day>[0-3]?\d)(?:st|nd|rd|th|er|\.|º)?"
_YEAR = r"(?P<year>(?:19|20)\d\d)"
_WORD_END = r"(?![^\W\d_])"
# (Each pattern starting with a digit says so first, "(?=\d)": sre then passes over the other
# characters of a line at once, not trying the lookbehinds at each: half the time.)
# "12 March 2024", "12. März 2024", "22 de outubro de 2010", "le 1er mars 2024"; not the end
# of a range of days ("9-23 Feb 2017", "vom 9. bis 23. Februar": an exhibition's, not a day)
_NOT_A_RANGE = "".join(
    f"(?<!\\d{joint})" for joint in ("-", "–", ". -", ". –", " - ", " – ", ".-", ".–", ". bis ",
                                      " bis ", " to ", " au ", " al ", " do ")
)  # fmt: skip
_DAY_MONTH_YEAR = re.compile(
    rf"(?=\d)(?<![\w.]){_NOT_A_RANGE}{_DAY}\s*(?:de\s+)?{_MONTH}{_WORD_END},?\s*(?:de\s+)?{_YEAR}(?!\d)",
    re.I,
)
# "March 12, 2024", "Nov. 19, 2019", "Nov 20 2019"
_MONTH_DAY_YEAR = re.compile(rf"(?<![^\W\d_]){_MONTH}{_WORD_END}\s*{_DAY},?\s+{_YEAR}(?!\d)", re.I)
# 2024-03-12, 2024/03/12, 2024.03.12
_YEAR_FIRST = re.compile(
    r"(?=[12])(?<![\d.])(?P<year>(?:19|20)\d\d)([-/.])(?P<a>[01]?\d)\2(?P<b>[0-3]?\d)(?!\d)"
)
# 12.03.2024, 12/03/2024, 11/19/19, 12-03-2024
_YEAR_LAST = re.compile(
    r"(?=\d)(?<![\d.:/])(?P<a>[0-3]?\d)([-/.])(?P<b>[0-3]?\d)\2(?P<year>(?:19|20)?\d\d)(?![\d/]|\.\d)"
)
# Machine dates: 2024-03-12T10:00:00.000+01:00 and its loose variants, 20240312.
_ISO = re.compile(
    r"\s*(?P<year>\d{4})-?(?P<month>\d\d)-?(?P<day>\d\d)"
    r"(?:[T\s]+(?P<hour>\d\d):?(?P<minute>\d\d)(?::?(?P<second>\d\d)(?:[.,]\d+)?)?"
    r"\s*(?P<zone>Z|UTC|GMT|[+-]\d\d(?::?\d\d)?)?)?(?!\d)",
    re.I,
)


def iso_date(text: str, month_first: bool = False) -> str:
    """A machine-written date as ISO 8601, ``""`` when it is none: ISO 8601 and its loose
    variants keep their time and zone; any other way of writing it gives the day."""
    text = text.strip()
    found = _ISO.match(text)
    if found is not None:
        day = _day(int(found["year"]), int(found["month"]), int(found["day"]))
        if not day or found["hour"] is None:
            return day
        hour, minute = int(found["hour"]), int(found["minute"])
        second = int(found["second"] or 0)
        if hour > 23 or minute > 59 or second > 59:
            return day
        return f"{day}T{hour:02d}:{minute:02d}:{second:02d}{_zone(found['zone'])}"
    return spoken_date(text, month_first)


def spoken_date(text: str, month_first: bool = False) -> str:
    """The first whole date written in ``text`` as ISO 8601 (the day), ``""`` when it holds
    none. ``month_first``: read an ambiguous 03/04/2024 as March 4 (American), not 3 April."""
    if len(text) > 2000:
        text = text[:2000]
    best: tuple[int, str] | None = None
    for pattern in (_DAY_MONTH_YEAR, _MONTH_DAY_YEAR):
        for found in pattern.finditer(text):
            month = MONTHS.get(found["month"].lower())
            day = _day(int(found["year"]), month or 0, int(found["day"]))
            if day:
                if best is None or found.start() < best[0]:
                    best = (found.start(), day)
                break
    for found in _YEAR_FIRST.finditer(text):
        day = _day(int(found["year"]), int(found["a"]), int(found["b"]))
        if day:
            if best is None or found.start() < best[0]:
                best = (found.start(), day)
            break
    for found in _YEAR_LAST.finditer(text):
        day = _numeric(found, month_first)
        if day:
            if best is None or found.start() < best[0]:
                best = (found.start(), day)
            break
    return best[1] if best is not None else ""


def _numeric(found: re.Match[str], month_first: bool) -> str:
    """12.03.2024 or 03/12/2024: the day first unless it cannot be, or the page is American
    (``month_first``) and it can be either; a year of two digits only with slashes."""
    a, b, year = int(found["a"]), int(found["b"]), found["year"]
    if len(year) == 2:
        if found[2] != "/":
            return ""
        year = f"20{year}" if int(year) <= time.gmtime().tm_year % 100 + 1 else f"19{year}"
    if a > 12 or (b <= 12 and not month_first):
        return _day(int(year), b, a)
    return _day(int(year), a, b)


def _day(year: int, month: int, day: int) -> str:
    """``YYYY-MM-DD`` for a real day from 1990 up to tomorrow, else ``""``. (By hand, not by
    `datetime`: its import would cost the converter's first page a millisecond.)"""
    if year < _FIRST_YEAR or not 1 <= month <= 12 or not 1 <= day <= _days_in(year, month):
        return ""
    if (year, month, day) > tuple(time.localtime(time.time() + 86400)[:3]):
        return ""
    return f"{year:04d}-{month:02d}-{day:02d}"


def _days_in(year: int, month: int) -> int:
    if month == 2:
        return 29 if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0) else 28
    return 30 if month in (4, 6, 9, 11) else 31


def day_number(day: str) -> int | None:
    """Days since 1 January 1970 of an ISO date (``YYYY-MM-DD...``), None when it is none."""
    found = _ISO.match(day)
    if found is None:
        return None
    year, month, date = int(found["year"]), int(found["month"]), int(found["day"])
    # Days from the civil calendar (Howard Hinnant's days_from_civil).
    year -= month <= 2
    era = year // 400
    of_era = year - era * 400
    of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + date - 1
    of_era_days = of_era * 365 + of_era // 4 - of_era // 100 + of_year
    return era * 146097 + of_era_days - 719468


def _zone(zone: str | None) -> str:
    """``+01:00`` from ``+0100``, ``+01``; ``Z`` from ``Z``, ``UTC``, ``GMT``; ``""`` for none."""
    if not zone:
        return ""
    if zone.upper() in ("Z", "UTC", "GMT"):
        return "Z"
    digits = zone[1:].replace(":", "")
    return f"{zone[0]}{digits[:2]}:{digits[2:4] or '00'}"
