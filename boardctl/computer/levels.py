"""The computer opponent's five levels: how much it may think, and how.

Weakness never comes from a random blunder. Each level is a budget and a
style: a lower level evaluates fewer positions, so it looks less far ahead
and sees fewer of the opponent's replies; levels 1 and 2 judge positions by
the game's beginner's glance (:meth:`Playing.glance`: in DuploLine their own
lines only, in bidiline the sticks counted; elsewhere the evaluation itself);
level 5 searches by alpha-beta where the game suits it
(:attr:`Playing.suits_alphabeta`: DuploLine, bidiline), the tree search
elsewhere. A game may instead fix how many actions ahead each level reads
(:attr:`Playing.reading_depths`): bidiline's levels 2 to 4 read 3, 3 and 6
actions ahead by alpha-beta (each its whole depth) and count the sticks
beyond, since its race evaluation makes every level given it play alike.
A game may also give a level a view of its own (:meth:`Playing.judged_at`):
bidiline's level 3 also sees an end one move from a dead end; Linie 1's
levels 1 to 3 all look one tile ahead (a turn offers more lays than their
budgets), so level 1 sees its own route alone, level 2 also the drive and
the others' routes by half, levels 3 to 5 the whole race. Its moves are
still the best it found, so they look natural.

The budget is a number of positions evaluated (never a time, so a level
plays the same everywhere, on this machine or a Raspberry Pi), multiplied by
the game's :attr:`~boardctl.engines.playing.Playing.search_scale`: a game
whose positions cost more to look at scales its budget down so each level
thinks about as long in every game: DuploLine, whose rules test that every
move keeps the pieces connected, uses 0.7; Shiftago with three or four
players, whose evaluation weighs every seat, 0.5; Beeline, whose evaluation
floods the board, 0.4; Linie 1, whose evaluation searches every route
for one streetcar, 0.043; the others 1. docs/computer.md describes the levels
for players; docs/benchmarks.md gives how long each thinks.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from boardctl.engines.playing import Playing
from boardctl.errors import UnknownLevel


class Sight(enum.Enum):
    """How a level judges the positions it reaches."""

    #: the game's evaluation (:meth:`Playing.evaluate`)
    FULL = "full"
    #: the game's beginner's view (:meth:`Playing.glance`): in a game that
    #: offers one, each player's own chances only, blind to the other's
    #: threats; elsewhere the evaluation itself
    GLANCE = "glance"


class Method(enum.Enum):
    """How a level searches."""

    #: Monte Carlo tree search (:mod:`.search`): every game
    TREE = "tree"
    #: alpha-beta (:mod:`.alphabeta`) in a game that suits it
    #: (:attr:`Playing.suits_alphabeta`), the tree search elsewhere
    ALPHABETA = "alphabeta"


@dataclass(frozen=True, slots=True)
class Level:
    """One level of the computer opponent."""

    #: 1 (weakest) to 5 (strongest)
    number: int
    #: what people call it
    name: str
    #: positions the search evaluates before it chooses, in a game whose
    #: ``search_scale`` is 1 (1: only the positions right after its own
    #: actions, a look one action ahead)
    positions: int
    #: how readily the search tries an action that looks worse so far (the
    #: UCT constant; values are in 0..1)
    exploration: float
    #: how it plays, in words for people
    style: str
    #: how it judges a position: the full evaluation or a beginner's glance
    sight: Sight = Sight.FULL
    #: how it searches
    method: Method = Method.TREE

    def reads(self, engine: Playing[Any, Any]) -> int | None:
        """How many actions ahead it reads ``engine``'s game by alpha-beta,
        where the game fixes that per level
        (:attr:`Playing.reading_depths`: bidiline); None elsewhere."""
        depths = engine.reading_depths
        if depths is None or not engine.suits_alphabeta:
            return None
        return depths[self.number - 1]

    def judge(self, engine: Playing[Any, Any]) -> Callable[[Any], tuple[float, ...]]:
        """How this level values a position of ``engine``'s game: the game's
        own view for this level (:meth:`Playing.judged_at`), else the glance
        where it reads a fixed number of actions ahead, else by its
        :attr:`sight`."""
        own = engine.judged_at(self.number)
        if own is not None:
            return own
        if self.sight is Sight.GLANCE or self.reads(engine) is not None:
            return engine.glance
        return engine.evaluate

    def alphabeta(self, engine: Playing[Any, Any]) -> bool:
        """Whether it searches ``engine``'s game by alpha-beta."""
        if self.reads(engine) is not None:
            return True
        return self.method is Method.ALPHABETA and engine.suits_alphabeta

    def budget(self, engine: Playing[Any, Any]) -> int:
        """The positions it evaluates in ``engine``'s game: :attr:`positions`
        times the game's ``search_scale``, at least 1; where it reads a fixed
        number of actions ahead, :data:`READING_POSITIONS` instead (times the
        scale), so the depth, not the budget, bounds it."""
        positions = self.positions if self.reads(engine) is None else READING_POSITIONS
        return max(1, round(positions * engine.search_scale))


#: the positions a level that reads a fixed number of actions ahead
#: (:attr:`Playing.reading_depths`) may evaluate: level 5's, so it reaches its
#: depth even from the empty board (bidiline's 6 actions need up to some
#: 24,000 there, a few hundred later) and never thinks longer than level 5
READING_POSITIONS = 30_000


#: the levels, weakest first; ``LEVELS[n - 1].number == n``
LEVELS: tuple[Level, ...] = (
    Level(
        1,
        "Puppy",
        1,
        0.5,
        "Plays the move that looks best right now to a beginner's eye and takes a win it can "
        "see at once, but never thinks about your reply: a friendly opponent for children "
        "and first games.",
        Sight.GLANCE,
    ),
    Level(
        2,
        "Easy",
        200,
        0.5,
        "Plans its own move a little ahead, still with a beginner's eye (in DuploLine its "
        "own lines, in bidiline the sticks counted): it falls for a threat it does not look "
        "at and rarely makes one of its own.",
        Sight.GLANCE,
    ),
    Level(
        3,
        "Medium",
        2_000,
        0.5,
        "Looks at every move and your best replies: it blocks a line you could finish next "
        "turn and finishes its own, but does not plan far ahead.",
    ),
    Level(
        4,
        "Hard",
        8_000,
        0.5,
        "Reads a few moves ahead along the lines that matter and builds threats of its own.",
    ),
    Level(
        5,
        "Master",
        30_000,
        0.5,
        "Thinks as far as the time allows (about half a second here, three seconds on a "
        "Raspberry Pi Zero 2 W): sets up double threats and defends early. In DuploLine and "
        "bidiline it reads exact sequences by alpha-beta.",
        Sight.FULL,
        Method.ALPHABETA,
    ),
)


def level(number: int) -> Level:
    """The level numbered ``number`` (1 to 5); :class:`UnknownLevel` else."""
    if isinstance(number, int) and not isinstance(number, bool) and 1 <= number <= len(LEVELS):
        return LEVELS[number - 1]
    raise UnknownLevel(
        f"there is no computer level {number!r}: the levels are 1 to {len(LEVELS)} "
        f"({', '.join(f'{lv.number} {lv.name}' for lv in LEVELS)})"
    )
