"""DuploLine values: piece kinds, actions, options and the game state."""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from boardctl.engines.duploline.board import POSITION
from boardctl.errors import BadNotation, excerpt
from boardctl.message import M_

COLOURS = ("white", "black")


class Kind(enum.Enum):
    """The two kinds of piece; the value is the letter of the notation."""

    DISC = "D"
    RING = "R"

    def __repr__(self) -> str:
        return f"Kind.{self.name}"

    @property
    def index(self) -> int:
        return 0 if self is Kind.DISC else 1

    @property
    def word(self) -> str:
        return "disc" if self is Kind.DISC else "ring"


KINDS = (Kind.DISC, Kind.RING)

_ACTION = re.compile(r"([DR])(?:\+([a-g][1-7])|([a-g][1-7])-([a-g][1-7]))")


@dataclass(frozen=True, slots=True)
class Add:
    """``D+d4`` / ``R+d4``: a disc or ring from the hand onto ``cell``.

    Onto an empty cell next to an opponent piece, or (the forced add) into a
    cell holding only the other kind of piece.
    """

    kind: Kind
    cell: str

    def __str__(self) -> str:
        return f"{self.kind.value}+{self.cell}"


@dataclass(frozen=True, slots=True)
class Move:
    """``Dd4-e4`` moves the disc at d4 into the ring at e4; ``Rd4-e4`` moves
    the ring at d4 around the disc at e4."""

    kind: Kind
    src: str
    dst: str

    def __str__(self) -> str:
        return f"{self.kind.value}{self.src}-{self.dst}"


Action = Add | Move


def parse_action(text: str) -> Action:
    """Read ``D+d4``, ``R+d4``, ``Dd4-e4`` or ``Rd4-e4``."""
    m = _ACTION.fullmatch(text.strip())
    if m is None:
        raise BadNotation(
            M_(
                "{text} is not a DuploLine action; write D+d4 or R+d4 to add a disc or ring,"
                " Dd4-e4 or Rd4-e4 to move one",
                text=excerpt(text),
            )
        )
    kind = Kind(m.group(1))
    cells = [c for c in m.group(2, 3, 4) if c is not None]
    for cell in cells:
        if cell not in POSITION:
            raise BadNotation(
                M_(
                    "{text}: {cell} is not a cell of the DuploLine board",
                    text=excerpt(text),
                    cell=cell,
                )
            )
    if len(cells) == 1:
        return Add(kind, cells[0])
    if cells[0] == cells[1]:
        raise BadNotation(M_("{text}: a move needs two different cells", text=excerpt(text)))
    return Move(kind, cells[0], cells[1])


@dataclass(frozen=True, slots=True)
class Options:
    """The rule points the seed text leaves open (see docs/engines.md)."""

    #: a disc inside a ring still counts for a line of discs, and the ring for
    #: a line of rings; False: only a piece alone in its cell counts
    locked_pieces_count: bool = True
    #: who wins when an action leaves lines of both players: "mover",
    #: "opponent" or "draw"
    both_lines: str = "mover"
    #: where the forced add may go: into a lone piece of the other kind of
    #: "either" colour, only the mover's "own", only the "opponent"'s, or
    #: "off" (no forced add)
    forced_add: str = "either"
    #: when the player to act has no option at all: "draw", or "loss" for
    #: that player
    no_option: str = "draw"


class Phase(enum.IntEnum):
    """What the player to act may do next."""

    OPENING = 0
    EITHER = 1
    DISC = 2
    RING = 3
    OVER = 4


EXPECTS = ("opening", "disc-or-ring", "disc", "ring", "nothing")


class End(enum.IntEnum):
    """Why the game ended (PLAYING while it has not)."""

    PLAYING = 0
    DISC_LINE = 1
    RING_LINE = 2
    BOTH_LINES = 3
    FULL_BOARD = 4
    NO_OPTION = 5


@dataclass(frozen=True, slots=True)
class State:
    """A DuploLine position: an immutable, hashable value.

    ``discs[p]`` and ``rings[p]`` are masks of the cells holding player p's
    discs and rings (see :mod:`boardctl.engines.duploline.board`); a cell may
    hold one disc and one ring (a locked pair). ``hand`` is the pieces not yet
    on the board: white discs, white rings, black discs, black rings.
    ``player`` is the player to act (the last mover once the game is over).
    """

    discs: tuple[int, int] = (0, 0)
    rings: tuple[int, int] = (0, 0)
    hand: tuple[int, int, int, int] = (18, 18, 18, 18)
    player: int = 0
    phase: Phase = Phase.OPENING
    end: End = End.PLAYING
    winner: int = -1
