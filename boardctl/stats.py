"""Statistics of the games a board (or a venue's boards) finished. Pure.

:func:`summary` counts finished games (:class:`Finished`, as the store keeps
them) into what the pages plot: games per day over the last :data:`DAYS` days
(local dates), how long games last (moves, in buckets of :data:`BUCKET`), and
in each game the wins by seat and by colour, and the draws. Summaries of
several boards add up (:func:`merge`): the venue's page plots the sum of what
its boards publish. :func:`csv_text` is one line per game, local times. The
local time zone is given (``tz``), never read here.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, tzinfo
from typing import Any

#: days the games-per-day plot covers, today the last
DAYS = 14
#: moves per bucket of the game-length plot; the last bucket holds every longer game
BUCKET = 10
BUCKETS = 8


@dataclass(frozen=True, slots=True)
class Finished:
    """A finished game: its number, game, times (UTC, ISO 8601), moves played,
    winner's seat (None: a draw) and the names of the seats' colours."""

    id: int
    game: str
    started: str
    ended: str
    moves: int
    winner: int | None
    players: tuple[str, ...] = ()
    scores: tuple[int, ...] | None = None


def local(text: str, tz: tzinfo) -> datetime | None:
    """A UTC time written ``2026-11-26T18:02:11Z``, in the time zone ``tz``;
    None if it is not one."""
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except (ValueError, AttributeError):
        return None
    return (when if when.tzinfo is not None else when.replace(tzinfo=UTC)).astimezone(tz)


def _bucket(moves: int) -> int:
    return min(max(moves - 1, 0) // BUCKET, BUCKETS - 1)


def bucket_labels() -> list[str]:
    labels = [f"{n * BUCKET + 1}-{(n + 1) * BUCKET}" for n in range(BUCKETS - 1)]
    return [*labels, f"{(BUCKETS - 1) * BUCKET + 1}+"]


def colour(players: Sequence[str], seat: int) -> str:
    return players[seat] if 0 <= seat < len(players) else f"player {seat + 1}"


def summary(games: Iterable[Finished], today: date, tz: tzinfo = UTC) -> dict[str, Any]:
    """What the plots show of ``games``: per day (the :data:`DAYS` days to
    ``today``, dates in the time zone ``tz``), by length, and by game the wins
    by seat and colour."""
    first = today - timedelta(days=DAYS - 1)
    per_day = {(first + timedelta(days=n)).isoformat(): 0 for n in range(DAYS)}
    lengths = [0] * BUCKETS
    by_game: dict[str, dict[str, Any]] = {}
    count = 0
    for g in games:
        count += 1
        ended = local(g.ended, tz)
        if ended is not None and ended.date().isoformat() in per_day:
            per_day[ended.date().isoformat()] += 1
        lengths[_bucket(g.moves)] += 1
        entry = by_game.setdefault(g.game, {"games": 0, "draws": 0, "seats": {}, "colours": {}})
        entry["games"] += 1
        if g.winner is None:
            entry["draws"] += 1
        else:
            seat = str(g.winner + 1)
            entry["seats"][seat] = entry["seats"].get(seat, 0) + 1
            name = colour(g.players, g.winner)
            entry["colours"][name] = entry["colours"].get(name, 0) + 1
    return {"games": count, "per_day": per_day, "lengths": lengths, "by_game": by_game}


def merge(summaries: Iterable[Mapping[str, Any]], today: date) -> dict[str, Any]:
    """The sum of several boards' summaries (the venue's); what does not read
    as a summary is left out."""
    out = summary((), today)
    for s in summaries:
        try:
            days = s["per_day"]
            lengths = s["lengths"]
            games = s["by_game"]
            count = s["games"]
        except (KeyError, TypeError):
            continue
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            continue  # 1e400 (infinity), -3, 2.5, true: not a count of games
        out["games"] += count
        if isinstance(days, Mapping):
            for day, n in days.items():
                if day in out["per_day"]:
                    out["per_day"][day] += _whole(n)
        if isinstance(lengths, list) and len(lengths) == BUCKETS:
            out["lengths"] = [a + _whole(b) for a, b in zip(out["lengths"], lengths, strict=True)]
        if isinstance(games, Mapping):
            for name, g in list(games.items())[:64]:
                if not isinstance(g, Mapping):
                    continue
                entry = out["by_game"].setdefault(
                    str(name), {"games": 0, "draws": 0, "seats": {}, "colours": {}}
                )
                entry["games"] += _whole(g.get("games"))
                entry["draws"] += _whole(g.get("draws"))
                for key in ("seats", "colours"):
                    counts = g.get(key)
                    if isinstance(counts, Mapping):
                        for k, n in list(counts.items())[:16]:
                            entry[key][str(k)] = entry[key].get(str(k), 0) + _whole(n)
    return out


def _whole(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


CSV_FIELDS = ("game_id", "game", "started", "ended", "minutes", "moves", "winner_seat", "winner")


class _Lines:
    """Where the CSV writer writes: the lines kept."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def write(self, text: str) -> None:
        self.parts.append(text)


def csv_text(games: Iterable[Finished], tz: tzinfo = UTC) -> str:
    """One line per game, times in the time zone ``tz`` (``2026-11-26 18:02``),
    the winner named."""
    out = _Lines()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_FIELDS)
    for g in games:
        start, end = local(g.started, tz), local(g.ended, tz)
        minutes = round((end - start).total_seconds() / 60, 1) if start and end else ""
        writer.writerow(
            (
                g.id,
                g.game,
                start.strftime("%Y-%m-%d %H:%M") if start else "",
                end.strftime("%Y-%m-%d %H:%M") if end else "",
                minutes,
                g.moves,
                "" if g.winner is None else g.winner + 1,
                "draw" if g.winner is None else colour(g.players, g.winner),
            )
        )
    return "".join(out.parts)
