"""Opening hours: when a venue's boards light up and play their attract mode.

Written as a venue writes them on its door, in the board's local time::

    ""                                   always open
    "10:00-18:00"                        every day
    "mon-fri 10:00-18:00; sat,sun 09:00-20:00"
    "fri,sat 18:00-01:30"                past midnight: the hours of the day it opens

:meth:`OpeningHours.parse` reads that text (errors say what to write instead) and
``str()`` prints it back in the same form. Pure: the caller gives the day and
the time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from boardctl.errors import BoardctlError
from boardctl.message import M_

DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
#: the longest hours text and the most periods it may hold
MAX_TEXT = 200
MAX_PERIODS = 14
_EXAMPLE = '"mon-fri 10:00-18:00; sat,sun 09:00-20:00"'
_TIME = re.compile(r"([01]?\d|2[0-4]):([0-5]\d)")


class HoursError(BoardctlError, ValueError):
    """Opening hours that cannot be read (the message says what to write)."""


@dataclass(frozen=True, slots=True)
class Period:
    """Open on ``days`` (0 Monday .. 6 Sunday) from ``start`` to ``end``, in
    minutes after midnight; an ``end`` not after ``start`` runs past midnight."""

    days: frozenset[int]
    start: int
    end: int

    def __str__(self) -> str:
        times = f"{_clock(self.start)}-{_clock(self.end)}"
        if len(self.days) == 7:
            return times
        return f"{_days_text(self.days)} {times}"

    def open_at(self, day: int, minute: int) -> bool:
        if self.start < self.end:
            return day in self.days and self.start <= minute < self.end
        # past midnight: the evening of an opening day, or the small hours after it
        return (day in self.days and minute >= self.start) or (
            (day - 1) % 7 in self.days and minute < self.end
        )


def _clock(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def _days_text(days: frozenset[int]) -> str:
    """Runs of three days or more as ``mon-fri``, others listed."""
    ordered = sorted(days)
    parts: list[str] = []
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and ordered[j + 1] == ordered[j] + 1:
            j += 1
        if j - i >= 2:
            parts.append(f"{DAYS[ordered[i]]}-{DAYS[ordered[j]]}")
        else:
            parts.extend(DAYS[d] for d in ordered[i : j + 1])
        i = j + 1
    return ",".join(parts)


_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def _day(word: str, rule: str) -> int:
    key = word.strip().lower()
    for n, (short, name) in enumerate(zip(DAYS, _NAMES, strict=True)):
        if key in (short, name):
            return n
    raise HoursError(
        M_(
            "{rule}: {word} is not a day; write mon, tue, wed, thu, fri, sat or sun",
            rule=repr(rule),
            word=repr(word.strip()),
        )
    )


def _days(text: str, rule: str) -> frozenset[int]:
    days: set[int] = set()
    for part in text.split(","):
        if "-" in part:
            first, last = (_day(w, rule) for w in part.split("-", 1))
            d = first
            while True:  # mon-fri, or fri-mon round the week's end
                days.add(d)
                if d == last:
                    break
                d = (d + 1) % 7
        else:
            days.add(_day(part, rule))
    return frozenset(days)


def _minutes(text: str, rule: str) -> int:
    m = _TIME.fullmatch(text.strip())
    if m is None or (m.group(1) == "24" and m.group(2) != "00"):
        raise HoursError(
            M_(
                "{rule}: {time} is not a time; write 24-hour HH:MM, e.g. 09:30",
                rule=repr(rule),
                time=repr(text.strip()),
            )
        )
    return int(m.group(1)) * 60 + int(m.group(2))


@dataclass(frozen=True, slots=True)
class OpeningHours:
    """When the boards are open; no periods: always open."""

    periods: tuple[Period, ...] = ()

    @classmethod
    def parse(cls, text: str) -> OpeningHours:
        if len(text) > MAX_TEXT:
            raise HoursError(
                M_(
                    "opening hours of {length} characters; at most {most}",
                    length=len(text),
                    most=MAX_TEXT,
                )
            )
        rules = [r.strip() for r in text.split(";") if r.strip()]
        if len(rules) > MAX_PERIODS:
            raise HoursError(
                M_(
                    "{count} periods of opening hours; at most {most}",
                    count=len(rules),
                    most=MAX_PERIODS,
                )
            )
        periods = []
        for rule in rules:
            words = rule.split()
            if len(words) == 1 and ":" not in words[0]:
                raise HoursError(
                    M_(
                        "{rule}: give the hours after the days, e.g. {example}",
                        rule=repr(rule),
                        example=_EXAMPLE,
                    )
                )
            if len(words) == 1:
                days, times = frozenset(range(7)), words[0]
            elif len(words) == 2:
                days, times = _days(words[0], rule), words[1]
            else:
                raise HoursError(
                    M_(
                        "{rule}: write days then hours, periods apart with ';', e.g. {example}",
                        rule=repr(rule),
                        example=_EXAMPLE,
                    )
                )
            if times.count("-") != 1:
                raise HoursError(
                    M_(
                        "{rule}: write the hours as opening-closing, e.g. 10:00-18:00",
                        rule=repr(rule),
                    )
                )
            start, end = (_minutes(t, rule) for t in times.split("-"))
            if start == end:
                raise HoursError(M_("{rule}: opens and closes at the same time", rule=repr(rule)))
            periods.append(Period(days, start % 1440, end))
        return cls(tuple(periods))

    def __str__(self) -> str:
        return "; ".join(str(p) for p in self.periods)

    @property
    def always(self) -> bool:
        return not self.periods

    def open_at(self, day: int, minute: int) -> bool:
        """Whether the venue is open on ``day`` (0 Monday) at ``minute`` after midnight."""
        return self.always or any(p.open_at(day, minute) for p in self.periods)
