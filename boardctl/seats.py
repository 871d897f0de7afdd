"""Who plays each seat of a game: hands at this board, or the computer at a level.

Written as people type it, one word per seat in seat order, separated by
commas: ``hands,computer:3`` (seat 1 hands, seat 2 the computer at level 3).
``computer`` alone is level :data:`DEFAULT_LEVEL`; seats not listed are played
by hands, so the empty text is every seat by hands (the daemon's default).

A computer seat of a game under way also carries the seed its thinking is
drawn from: the same seed, level and position always give the same move, so a
game record that names them replays exactly. Pure.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from boardctl.errors import BoardctlError

HANDS = "hands"
COMPUTER = "computer"
#: the computer's levels, weakest first (docs/computer.md says what each does)
LEVELS = range(1, 6)
#: the level of a seat written ``computer`` without one
DEFAULT_LEVEL = 3
#: the largest seed a seat may carry (a record's seed fits SQLite's integers)
MAX_SEED = 2**62 - 1


class SeatError(BoardctlError, ValueError):
    """Seats written in a way that cannot be read, or that do not fit the game."""


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat: ``hands``, or the computer at ``level`` (with its ``seed``
    once a game begins)."""

    kind: str = HANDS
    level: int = 0
    seed: int | None = None

    @property
    def computer(self) -> bool:
        return self.kind == COMPUTER

    @classmethod
    def from_str(cls, text: str) -> Seat:
        """``hands``, ``computer`` or ``computer:N``; :class:`SeatError` otherwise."""
        word, colon, number = text.strip().lower().partition(":")
        if word == HANDS and not colon:
            return cls()
        if word == COMPUTER:
            if not colon:
                return cls(COMPUTER, DEFAULT_LEVEL)
            if number in {str(n) for n in LEVELS}:
                return cls(COMPUTER, int(number))
            raise SeatError(
                f"seat {text.strip()!r}: the computer's level is a number from "
                f"{LEVELS[0]} to {LEVELS[-1]}, e.g. computer:3"
            )
        raise SeatError(
            f"seat {text.strip()!r}: a seat is played by hands or by the computer at a level: "
            f"write hands, computer or computer:N (N from {LEVELS[0]} to {LEVELS[-1]})"
        )

    def __str__(self) -> str:
        return f"{COMPUTER}:{self.level}" if self.computer else HANDS

    def to_json(self) -> dict[str, Any]:
        if not self.computer:
            return {"player": HANDS}
        out: dict[str, Any] = {"player": COMPUTER, "level": self.level}
        if self.seed is not None:
            out["seed"] = self.seed
        return out

    @classmethod
    def from_json(cls, data: object, where: str = "seat") -> Seat:
        if not isinstance(data, dict) or data.get("player") not in (HANDS, COMPUTER):
            raise SeatError(
                f'{where}: a seat is {{"player": "hands"}} or '
                f'{{"player": "computer", "level": 3, "seed": 12345}}'
            )
        if data["player"] == HANDS:
            return cls()
        level, seed = data.get("level"), data.get("seed")
        if not isinstance(level, int) or isinstance(level, bool) or level not in LEVELS:
            raise SeatError(
                f'{where}: "level" must be a whole number from {LEVELS[0]} to {LEVELS[-1]}'
            )
        if seed is not None and not (_whole(seed) and 0 <= seed <= MAX_SEED):
            raise SeatError(f'{where}: "seed" must be a whole number from 0 to {MAX_SEED}')
        return cls(COMPUTER, level, seed)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class Seats:
    """The seats of a game, in seat order; seats past the last listed are hands."""

    listed: tuple[Seat, ...] = ()

    @classmethod
    def from_str(cls, text: str) -> Seats:
        """``hands,computer:3``; the empty text is every seat by hands."""
        if not text.strip():
            return cls()
        return cls(tuple(Seat.from_str(word) for word in text.split(","))).trimmed()

    def __str__(self) -> str:
        return ",".join(str(s) for s in self.listed)

    def trimmed(self) -> Seats:
        """The same seats without the hands listed last (they are the default)."""
        listed = list(self.listed)
        while listed and not listed[-1].computer:
            listed.pop()
        return Seats(tuple(listed))

    def __getitem__(self, seat: int) -> Seat:
        return self.listed[seat] if 0 <= seat < len(self.listed) else Seat()

    def __iter__(self) -> Iterator[Seat]:
        return iter(self.listed)

    @property
    def any_computer(self) -> bool:
        return any(s.computer for s in self.listed)

    def computer(self, seat: int | None) -> Seat | None:
        """The computer seat ``seat``, or None for hands (or nobody)."""
        if seat is None:
            return None
        found = self[seat]
        return found if found.computer else None

    def check(self, players: int, game: str) -> Seats:
        """These seats, refused if they are more than ``game``'s ``players``."""
        if len(self.listed) > players:
            raise SeatError(
                f"seats {str(self)!r} name {len(self.listed)} seats, and this game of {game} "
                f"has {players} players: name one seat per player"
            )
        return self

    def seeded(self, new_seed: Callable[[], int], keep: bool = False) -> Seats:
        """The seats with a fresh seed for every computer seat (a new game);
        ``keep``: only for those without one."""
        return Seats(
            tuple(
                Seat(s.kind, s.level, new_seed())
                if s.computer and not (keep and s.seed is not None)
                else s
                for s in self.listed
            )
        )

    def unseeded(self) -> Seats:
        return Seats(tuple(Seat(s.kind, s.level) for s in self.listed))

    def to_json(self) -> list[dict[str, Any]]:
        return [s.to_json() for s in self.listed]

    @classmethod
    def from_json(cls, data: object, where: str = "seats") -> Seats:
        if not isinstance(data, list):
            raise SeatError(
                f'{where}: the seats are a list, one per seat, e.g. [{{"player": "hands"}}, '
                f'{{"player": "computer", "level": 3, "seed": 12345}}]'
            )
        return cls(tuple(Seat.from_json(s, f"{where}[{n}]") for n, s in enumerate(data))).trimmed()

    @classmethod
    def of(cls, value: str | Sequence[str] | Seats) -> Seats:
        """Seats given as text, as a list of words (a TOML list) or as seats."""
        if isinstance(value, Seats):
            return value
        if isinstance(value, str):
            return cls.from_str(value)
        return cls(tuple(Seat.from_str(word) for word in value)).trimmed()


#: every seat played by hands: the daemon's default
ALL_HANDS = Seats()
