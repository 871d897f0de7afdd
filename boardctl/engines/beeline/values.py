"""Beeline values: piece kinds, actions, options and the game state."""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field, fields
from typing import Any

from boardctl.engines.beeline.board import SIDES
from boardctl.errors import BadNotation, excerpt
from boardctl.message import M_

#: the players' colours, seat 0 first (Black plays first)
COLOURS = ("black", "red")
#: the letter of each colour in the notation
COLOUR_LETTERS = ("B", "R")
MARKS_PER_KIND = 12
GROUP = 3
GROUPS = 4
NODES = 6


class Kind(enum.IntEnum):
    """The three kinds of MARK; ``letter`` is the notation's."""

    STRAIGHT = 0
    ANGLE = 1
    SHARP = 2

    def __repr__(self) -> str:
        return f"Kind.{self.name}"

    @property
    def letter(self) -> str:
        return "SAH"[self]

    @property
    def word(self) -> str:
        return ("straight", "angle", "sharp")[self]

    @property
    def turns(self) -> tuple[int, ...]:
        """Exit side minus entry side (mod 6) for this kind: a straight leaves
        by the opposite side, an angle two sides away from the entry, a sharp
        by a side next to it."""
        return ((3,), (2, 4), (1, 5))[self]


#: the kind of MARK that turns by (exit - entry) % 6 (None for 0)
KIND_OF_TURN: tuple[Kind | None, ...] = (
    None,
    Kind.SHARP,
    Kind.ANGLE,
    Kind.STRAIGHT,
    Kind.ANGLE,
    Kind.SHARP,
)
KINDS = (Kind.STRAIGHT, Kind.ANGLE, Kind.SHARP)
_KIND_OF_LETTER = {k.letter: k for k in KINDS}
_SIDE = {s: i for i, s in enumerate(SIDES)}

_CELL = r"[a-z][0-9]{1,2}"
_SIDE_RE = r"ne|nw|se|sw|e|w"
_MARK = re.compile(rf"([SAH])({_CELL})({_SIDE_RE})")
_NODE = re.compile(rf"N([BR])({_CELL})")
_REPLACE = re.compile(rf"N([BR])x({_CELL})/([SAH])({_CELL})({_SIDE_RE})")


@dataclass(frozen=True, slots=True)
class Mark:
    """``Sf6ne``: a MARK from the hand continues the mover's line on ``cell``,
    leaving it by side ``exit`` (0 east .. 5 south-east)."""

    kind: Kind
    cell: str
    exit: int

    def __str__(self) -> str:
        return f"{self.kind.letter}{self.cell}{SIDES[self.exit]}"


@dataclass(frozen=True, slots=True)
class Node:
    """``NBf6``: a NODE from the hand, ``colour`` (0 black, 1 red) up, on the
    empty ``cell``: a continuation of the mover's line when it is the mover's
    colour played in the mover's RUT, else a NODE standing alone."""

    colour: int
    cell: str

    def __str__(self) -> str:
        return f"N{COLOUR_LETTERS[self.colour]}{self.cell}"


@dataclass(frozen=True, slots=True)
class Replace:
    """``NBxf6/Hg7e``: a NODE from the hand, ``colour`` up, replaces the MARK
    on ``cell``; that MARK (of ``kind``) is then played on the end of its line,
    on ``to``, leaving by side ``exit``."""

    colour: int
    cell: str
    kind: Kind
    to: str
    exit: int

    def __str__(self) -> str:
        c = COLOUR_LETTERS[self.colour]
        return f"N{c}x{self.cell}/{self.kind.letter}{self.to}{SIDES[self.exit]}"


Action = Mark | Node | Replace

_HELP = M_(
    "write Sf6ne (a straight, A angle, H sharp, on f6 leaving by the north-east side;"
    " sides e ne nw w sw se), NBf6 (a NODE black up on f6; NR red up) or NBxf6/Hg7e"
    " (a NODE replaces the MARK on f6, which goes on g7 leaving east)"
)


def parse_action(text: str, cells: frozenset[str] | None = None) -> Action:
    """Read an action; with ``cells``, every cell it names must be one of them."""
    s = text.strip()
    action: Action
    if m := _MARK.fullmatch(s):
        action = Mark(_KIND_OF_LETTER[m.group(1)], m.group(2), _SIDE[m.group(3)])
        named = [action.cell]
    elif m := _NODE.fullmatch(s):
        action = Node(COLOUR_LETTERS.index(m.group(1)), m.group(2))
        named = [action.cell]
    elif m := _REPLACE.fullmatch(s):
        action = Replace(
            COLOUR_LETTERS.index(m.group(1)),
            m.group(2),
            _KIND_OF_LETTER[m.group(3)],
            m.group(4),
            _SIDE[m.group(5)],
        )
        named = [action.cell, action.to]
    else:
        raise BadNotation(
            M_("{text} is not a Beeline action; {help}", text=excerpt(text), help=_HELP)
        )
    if cells is not None:
        for cell in named:
            if cell not in cells:
                raise BadNotation(
                    M_(
                        "{text}: {cell} is not a cell of this Beeline board",
                        text=excerpt(text),
                        cell=cell,
                    )
                )
    return action


@dataclass(frozen=True, slots=True)
class Options:
    """The rule points the seed text leaves open (see docs/engine-beeline.md)."""

    #: the board layout, by name (boardctl/engines/beeline/layouts.py)
    layout: str = "standard"
    #: MARKS removed when a line is sent back: "open_group" (they join the
    #: group being played, which must be used up before the next is opened) or
    #: "apart" (held apart and playable at any time, before the open group's)
    returned_pieces: str = "open_group"
    #: whether a MARK may be played so that its RUT is closed for good (off the
    #: board, out of bounds, the opponent's dark area, a NODE the line may not
    #: enter); False refuses such a MARK
    dead_ends: bool = False
    #: a player who holds pieces but has no legal play at the start of a turn:
    #: "pass" (the turn goes to the opponent, as for a player who has run out)
    #: or "loses"
    blocked: str = "pass"
    #: when the opponent's RUT must be left free (a replaced piece, and the
    #: piece that must free it after one): "after_send_back" (as the position
    #: stands once any line the piece sends back is taken off) or "as_placed"
    #: (as the piece is put down, before any send-back)
    rut_checked: str = "after_send_back"
    #: whether a replaced piece may be played on the opponent's line so that
    #: it reaches the mover's own start (the opponent then wins at once)
    replaced_at_own_start: bool = True
    #: whether a piece that wins at once is excused from leaving the
    #: opponent's RUT free
    winning_piece_excused: bool = True


class End(enum.IntEnum):
    """Why the game ended (PLAYING while it has not)."""

    PLAYING = 0
    GOAL = 1
    TIE = 2
    BLOCKED = 3


#: a player's pieces off the board: MARKS of the open group (straight, angle,
#: sharp), groups not yet opened, MARKS held apart after a send-back (straight,
#: angle, sharp; option returned_pieces="apart") and NODES
Hand = tuple[int, int, int, int, int, int, int, int]
FULL_HAND: Hand = (0, 0, 0, GROUPS, 0, 0, 0, NODES - 1)


@dataclass(frozen=True, slots=True)
class State:
    """A Beeline position: an immutable, hashable value.

    ``cells`` holds one piece code per cell (see :func:`piece`), ``lines``
    each player's line as the cells it passes from its start (a NODE may be
    passed more than once), ``hop[p]`` whether player p's line ended by
    playing into a NODE (the next piece may then leave from a NODE next to it).
    ``left`` is how many pieces the player to act may still play this turn;
    ``owe`` that the piece must leave the opponent's RUT free (a replacement
    earlier in the turn closed it). ``player`` is the player to act (the last
    mover once the game is over).
    """

    cells: bytes
    lines: tuple[tuple[int, ...], tuple[int, ...]]
    hop: tuple[bool, bool]
    hands: tuple[Hand, Hand]
    player: int = 0
    left: int = 1
    owe: bool = False
    end: End = End.PLAYING
    winner: int = -1
    #: what the engine worked out about this state (masks, the legal actions):
    #: a cache, never compared, hashed, shown or pickled (``position.Index``)
    _ix: Any = field(default=None, compare=False, hash=False, repr=False)

    def __getstate__(self) -> tuple[Any, ...]:
        return tuple(getattr(self, f.name) for f in fields(self) if f.name != "_ix")

    def __setstate__(self, values: tuple[Any, ...]) -> None:
        for f, value in zip(fields(self), (*values, None), strict=True):
            object.__setattr__(self, f.name, value)


# piece codes in State.cells: 0 empty, 1 a NODE black up, 2 red up, and
# 3 + 18 * owner + 6 * kind + exit side for a MARK
EMPTY = 0
MARK0 = 3


def node_code(colour: int) -> int:
    return 1 + colour


def mark_code(owner: int, kind: int, exit_side: int) -> int:
    return MARK0 + 18 * owner + 6 * kind + exit_side


def mark_parts(code: int) -> tuple[int, int, int]:
    """(owner, kind, exit side) of a MARK's code."""
    v = code - MARK0
    return v // 18, (v % 18) // 6, v % 6


def piece_name(code: int) -> str:
    """The layout code of a piece: ``node-black``, ``red-sharp-ne``."""
    if code < MARK0:
        return f"node-{COLOURS[code - 1]}"
    owner, kind, side = mark_parts(code)
    return f"{COLOURS[owner]}-{KINDS[kind].word}-{SIDES[side]}"
