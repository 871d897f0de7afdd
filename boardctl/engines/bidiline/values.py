"""Bidirectional Line Game values: colours, the action, options and the state."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Colour(enum.Enum):
    """The two colours of the line; the value is the letter of the notation.

    Seat 0 draws the first segment, in colour A (amber); seat 1 the second,
    in colour B (blue). Each player scores the segments of that colour.
    """

    A = "A"
    B = "B"

    def __repr__(self) -> str:
        return f"Colour.{self.name}"

    @property
    def word(self) -> str:
        """The colour's name ("amber", "blue")."""
        return COLOUR_WORDS[self.value]

    @property
    def seat(self) -> int:
        """The seat whose first segment is of this colour, and who scores it."""
        return 0 if self is Colour.A else 1


#: the colour letter -> its word, also the players' names (seat 0, seat 1)
COLOUR_WORDS = {"A": "amber", "B": "blue"}


@dataclass(frozen=True, slots=True)
class Extend:
    """``A:c3-c4``: the end of colour A, at c3, is extended to c4 by a segment
    of colour A. ``src`` is the point the end is at, ``dst`` a point next to
    it (up, down, left or right)."""

    colour: Colour
    src: str
    dst: str

    def __str__(self) -> str:
        return f"{self.colour.value}:{self.src}-{self.dst}"


#: the game's only kind of action
Action = Extend


@dataclass(frozen=True, slots=True)
class Options:
    """The Bidirectional Line Game's options (docs/engine-bidiline.md)."""

    #: points per side of the grid, 2 to 26 (the seed suggests 6 or more)
    n: int = 7


class End(enum.IntEnum):
    """Whether the game is over, and which end of the line can go no further."""

    PLAYING = 0
    A_STUCK = 1
    B_STUCK = 2
    BOTH_STUCK = 3


@dataclass(frozen=True, slots=True)
class State:
    """A position: an immutable, hashable value.

    ``drawn`` is the set of segments drawn so far and ``amber`` those of colour
    A (both masks over the grid's segment numbers, see
    :mod:`boardctl.engines.bidiline.grid`); the rest of ``drawn`` is colour B.
    ``end_a`` and ``end_b`` are the points the two ends are at (-1 before the
    first move; after it the B end is the point the first segment started
    from). ``moves`` is the number of segments drawn: the player to act is
    ``moves % 2``. ``end`` says whether the game is over.
    """

    drawn: int = 0
    amber: int = 0
    end_a: int = -1
    end_b: int = -1
    moves: int = 0
    end: End = End.PLAYING
