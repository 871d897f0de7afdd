"""Who plays each seat of a game: hands at this board, the computer at a level,
or another board's hands.

Written as people type it, one word per seat in seat order, separated by
commas: ``hands,computer:3`` (seat 1 hands, seat 2 the computer at level 3),
``hands,remote:grandma`` (seat 2 played at the board ``grandma``, through the
broker: docs/fleet.md). ``computer`` alone is level :data:`DEFAULT_LEVEL`;
seats not listed are played by hands, so the empty text is every seat by
hands (the daemon's default).

A computer seat of a game under way also carries the seed its thinking is
drawn from: the same seed, level and position always give the same move, so a
game record that names them replays exactly. A remote seat of a game under
way carries, in the same place, the number both boards know the game by.
Pure.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from boardctl.errors import BoardctlError
from boardctl.message import M_

HANDS = "hands"
COMPUTER = "computer"
REMOTE = "remote"
#: a player away from the board who chooses their moves on their phone's private page
PHONE = "phone"
#: another board's id, as its topics on the broker name it
BOARD_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
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
    """One seat: ``hands``, the computer at ``level`` (with its ``seed``
    once a game begins), or the hands at the other ``board`` (with, as its
    ``seed``, the number both boards know the game by)."""

    kind: str = HANDS
    level: int = 0
    seed: int | None = None
    board: str = ""

    @property
    def computer(self) -> bool:
        return self.kind == COMPUTER

    @property
    def remote(self) -> bool:
        return self.kind == REMOTE

    @property
    def phone(self) -> bool:
        return self.kind == PHONE

    @property
    def apart(self) -> bool:
        """Played elsewhere than by the hands at this board."""
        return self.kind != HANDS

    @property
    def person(self) -> bool:
        """Played by a person away from the board (another board's, or on a phone)."""
        return self.kind in (REMOTE, PHONE)

    @property
    def who(self) -> str:
        """Who plays the seat, in words: ``the player at table-2``."""
        if self.phone:
            return M_("the player on their phone")
        if self.remote:
            return M_("the player at {board}", board=self.board)
        return M_("the computer") if self.computer else M_("the hands at this board")

    @classmethod
    def from_str(cls, text: str) -> Seat:
        """``hands``, ``computer`` or ``computer:N``; :class:`SeatError` otherwise."""
        word, colon, number = text.strip().partition(":")
        word = word.lower()
        if word == HANDS and not colon:
            return cls()
        if word == PHONE and not colon:
            return cls(PHONE)
        if word == REMOTE:
            if BOARD_ID.fullmatch(number):
                return cls(REMOTE, board=number)
            raise SeatError(
                M_(
                    "seat {seat}: a remote seat names the other board by its id "
                    "([mqtt] board_id there), e.g. remote:table-2",
                    seat=repr(text.strip()),
                )
            )
        if word == COMPUTER:
            if not colon:
                return cls(COMPUTER, DEFAULT_LEVEL)
            if number in {str(n) for n in LEVELS}:
                return cls(COMPUTER, int(number))
            raise SeatError(
                M_(
                    "seat {seat}: the computer's level is a number from {low} to {high}, "
                    "e.g. computer:3",
                    seat=repr(text.strip()),
                    low=LEVELS[0],
                    high=LEVELS[-1],
                )
            )
        raise SeatError(
            M_(
                "seat {seat}: a seat is played by hands, by the computer at a level or at "
                "another board: write hands, computer or computer:N (N from {low} to {high}), "
                "remote:BOARD, or phone (a player's private page)",
                seat=repr(text.strip()),
                low=LEVELS[0],
                high=LEVELS[-1],
            )
        )

    def __str__(self) -> str:
        if self.phone:
            return PHONE
        if self.remote:
            return f"{REMOTE}:{self.board}"
        return f"{COMPUTER}:{self.level}" if self.computer else HANDS

    def to_json(self) -> dict[str, Any]:
        if self.phone:
            return {"player": PHONE}
        if self.remote:
            out: dict[str, Any] = {"player": REMOTE, "board": self.board}
            if self.seed is not None:
                out["game"] = self.seed
            return out
        if not self.computer:
            return {"player": HANDS}
        out = {"player": COMPUTER, "level": self.level}
        if self.seed is not None:
            out["seed"] = self.seed
        return out

    @classmethod
    def from_json(cls, data: object, where: str = "seat") -> Seat:
        if not isinstance(data, dict) or data.get("player") not in (HANDS, COMPUTER, REMOTE, PHONE):
            raise SeatError(
                M_(
                    "{where}: a seat is {hands}, {computer} or {remote}",
                    where=where,
                    hands='{"player": "hands"}',
                    computer='{"player": "computer", "level": 3, "seed": 12345}',
                    remote='{"player": "remote", "board": "table-2", "game": 12345}',
                )
            )
        if data["player"] == HANDS:
            return cls()
        if data["player"] == PHONE:
            return cls(PHONE)
        if data["player"] == REMOTE:
            board, game = data.get("board"), data.get("game")
            if not isinstance(board, str) or not BOARD_ID.fullmatch(board):
                raise SeatError(
                    M_(
                        '{where}: "board" must be the other board\'s id, e.g. "table-2"',
                        where=where,
                    )
                )
            if game is not None and not (_whole(game) and 0 <= game <= MAX_SEED):
                raise SeatError(
                    M_(
                        "{where}: {key} must be a whole number from 0 to {high}",
                        where=where,
                        key='"game"',
                        high=MAX_SEED,
                    )
                )
            return cls(REMOTE, 0, game, board)
        level, seed = data.get("level"), data.get("seed")
        if not isinstance(level, int) or isinstance(level, bool) or level not in LEVELS:
            raise SeatError(
                M_(
                    "{where}: {key} must be a whole number from {low} to {high}",
                    where=where,
                    key='"level"',
                    low=LEVELS[0],
                    high=LEVELS[-1],
                )
            )
        if seed is not None and not (_whole(seed) and 0 <= seed <= MAX_SEED):
            raise SeatError(
                M_(
                    "{where}: {key} must be a whole number from 0 to {high}",
                    where=where,
                    key='"seed"',
                    high=MAX_SEED,
                )
            )
        return cls(COMPUTER, level, seed)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class Seats:
    """The seats of a game, in seat order; seats past the last listed are hands."""

    listed: tuple[Seat, ...] = ()
    #: how many seats were written, the hands left off the end included (a
    #: game must have that many players)
    named: int = field(default=0, compare=False)

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
        while listed and not listed[-1].apart:
            listed.pop()
        return Seats(tuple(listed), max(self.named, len(self.listed)))

    def __getitem__(self, seat: int) -> Seat:
        return self.listed[seat] if 0 <= seat < len(self.listed) else Seat()

    def __iter__(self) -> Iterator[Seat]:
        return iter(self.listed)

    @property
    def computers(self) -> frozenset[int]:
        """The seats (from 0) the computer plays."""
        return frozenset(i for i, s in enumerate(self.listed) if s.computer)

    @property
    def any_computer(self) -> bool:
        return any(s.computer for s in self.listed)

    @property
    def any_phone(self) -> bool:
        return any(s.phone for s in self.listed)

    @property
    def any_person(self) -> bool:
        """Whether a person away from the board plays a seat (another board's, a phone)."""
        return any(s.person for s in self.listed)

    @property
    def any_remote(self) -> bool:
        return any(s.remote for s in self.listed)

    @property
    def any_apart(self) -> bool:
        """Whether any seat is played elsewhere than by this board's hands."""
        return any(s.apart for s in self.listed)

    def apart(self, seat: int | None) -> Seat | None:
        """The seat ``seat`` when the computer or another board plays it, else None."""
        if seat is None:
            return None
        found = self[seat]
        return found if found.apart else None

    def computer(self, seat: int | None) -> Seat | None:
        """The computer seat ``seat``, or None for hands (or nobody)."""
        if seat is None:
            return None
        found = self[seat]
        return found if found.computer else None

    def check(self, players: int, game: str) -> Seats:
        """These seats, refused if they are more than ``game``'s ``players``."""
        count = max(len(self.listed), self.named)
        if count > players:
            written = ",".join([str(self), *[HANDS] * (count - len(self.listed))]).lstrip(",")
            raise SeatError(
                M_(
                    "seats {seats} name {count} seats, and this game of {game} has {players} "
                    "players: name one seat per player",
                    seats=repr(written),
                    count=count,
                    game=game,
                    players=players,
                )
            )
        boards = {s.board for s in self.listed if s.remote}
        if len(boards) > 1:
            raise SeatError(
                M_(
                    "seats {seats} name {count} other boards: a game is played with one other "
                    "board at most",
                    seats=repr(str(self)),
                    count=len(boards),
                )
            )
        if boards and self.any_computer:
            raise SeatError(
                M_(
                    "seats {seats}: a game with another board seats no computer here; the other "
                    "board may seat one",
                    seats=repr(str(self)),
                )
            )
        if boards and len(self.listed) == players and all(s.remote for s in self.listed):
            raise SeatError(
                M_(
                    "seats {seats}: every seat at another board leaves none here: name hands "
                    "for this board's own",
                    seats=repr(str(self)),
                )
            )
        return self

    def seeded(self, new_seed: Callable[[], int], keep: bool = False) -> Seats:
        """The seats with a fresh seed for every computer seat (a new game);
        ``keep``: only for those without one. A remote seat keeps its game's
        number (an invitation accepted), and gets one without it."""
        return Seats(
            tuple(
                Seat(s.kind, s.level, new_seed(), s.board)
                if s.apart and not ((keep or s.remote) and s.seed is not None)
                else s
                for s in self.listed
            )
        )

    def unseeded(self, keep_remote: bool = False) -> Seats:
        """The seats without their seeds (and games' numbers, unless ``keep_remote``)."""
        return Seats(
            tuple(
                s if keep_remote and s.remote else Seat(s.kind, s.level, None, s.board)
                for s in self.listed
            )
        )

    def to_json(self) -> list[dict[str, Any]]:
        return [s.to_json() for s in self.listed]

    @classmethod
    def from_json(cls, data: object, where: str = "seats") -> Seats:
        if not isinstance(data, list):
            raise SeatError(
                M_(
                    "{where}: the seats are a list, one per seat, e.g. {example}",
                    where=where,
                    example=(
                        '[{"player": "hands"}, {"player": "computer", "level": 3, "seed": 12345}]'
                    ),
                )
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
