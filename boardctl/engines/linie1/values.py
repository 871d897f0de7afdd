"""Linie 1 values: options, actions and the game state."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any


@dataclass(frozen=True, slots=True)
class Options:
    """Linie 1's options; docs/engine-linie1.md says what each means."""

    #: 2 to 5
    players: int = 2
    #: "cards": line and route cards stay physical and are shown when a trip
    #: starts; "dealt": the game deals them (chance) and shows each privately
    secrets: str = "cards"
    #: with the cards on the table, the seats (numbers from 1, as "2" or
    #: "2,3") whose cards the game deals them privately all the same: the
    #: computer's (the controller sets it from the seats)
    dealt_to: str = ""
    #: with cards the game deals to some seats only (``dealt_to``), what a
    #: person's start showing the line card the game dealt such a seat does:
    #: "redeal" (the start stands and the game deals that seat another line,
    #: privately, from the order it dealt it at the start) or "refuse" (the
    #: start is refused: the seat keeps its line, which the person then knows)
    dealt_clash: str = "redeal"
    #: "die" (roll, then drive) or "speed" (drive up to one cell more than the
    #: previous move, the first move one cell)
    movement: str = "die"
    #: the die's faces: digits and "H" (drive to the next stop sign or terminal)
    die: str = "1234HH"
    #: whether legal_actions lists drives after which the goal cannot be
    #: reached (wrong turns); they are legal either way and send the car back
    list_wrong_turns: bool = False
    #: a replacement board as JSON text (docs/engine-linie1.md, "Data"); empty
    #: for the Goldsieber board
    board_data: str = ""


# -- actions -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Lay:
    """``e5:3E``: lay a tile on a free cell, or exchange the tile on an occupied
    one; ``e5:4N+e6:3S`` exchanges two side-by-side tiles together. Each part
    is (cell, canonical tile code)."""

    parts: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class Pass:
    """``pass``: lay nothing more this turn (only when no tile can be laid)."""


@dataclass(frozen=True, slots=True)
class Draw:
    """``draw:3`` (chance): the next tile from the stacks is of kind 3."""

    kind: int


@dataclass(frozen=True, slots=True)
class Take:
    """``take:3``: with the stacks empty, take a kind 3 tile from the face-up
    hand of a player on their trip."""

    kind: int


@dataclass(frozen=True, slots=True)
class Deal:
    """``deal:L3`` / ``deal:B2`` (chance, option secrets=dealt): the next
    player in seat order is dealt line card 3, or route card B2."""

    card: str


@dataclass(frozen=True, slots=True)
class Start:
    """``start:t2a/B3``: begin the inaugural trip at terminal t2a, showing line
    card 2 and route card B3 (``start:t2a`` when the engine already knows the
    cards)."""

    terminal: int
    card: str = ""


@dataclass(frozen=True, slots=True)
class Roll:
    """``roll:3`` / ``roll:H`` (chance): the die shows this face."""

    face: str


@dataclass(frozen=True, slots=True)
class Drive:
    """``>d5-d6-e6``: drive the streetcar along these sites (cells, or
    terminals passed through), the last where it stops. Stored as positions
    (see :mod:`boardctl.engines.linie1.trip`)."""

    path: tuple[int, ...]


Action = Lay | Pass | Draw | Take | Deal | Start | Roll | Drive


# -- state ---------------------------------------------------------------------

# phases
DEAL, LAY, DRAW, ROLL, DRIVE, OVER = range(6)
PHASE_NAMES = ("deal", "lay", "draw", "roll", "drive", "over")


@dataclass(frozen=True, slots=True)
class State:
    """A Linie 1 position: an immutable, hashable value.

    ``tiles`` holds one byte per frame cell (0 empty, else a tile code);
    ``stops[b]`` is the cell of building b's stop sign or -1; ``hands[p]`` and
    ``stacks`` count tiles per kind (index 0 unused). ``lines``/``routes`` are
    each player's line (0-based) and route card (index in the set) or -1 while
    the engine does not know them; ``shown[p]`` whether player p has shown
    them. ``cars[p]`` is the streetcar's position (-1 none), ``origin[p]`` the
    terminal its trip started at, ``visited[p]`` the stops made so far (a bit
    per building), ``last[p]`` the previous move's length (speed rule).
    """

    tiles: bytes
    stops: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    stacks: tuple[int, ...]
    player: int = 0
    phase: int = LAY
    #: tiles laid this turn (an exchange of two counts two)
    laid: int = 0
    #: tiles to draw before the turn passes
    owed: int = 0
    #: the die face to drive (0 none, 1..9, 10 for H)
    roll: int = 0
    #: deals done (option secrets=dealt)
    dealt: int = 0
    lines: tuple[int, ...] = ()
    routes: tuple[int, ...] = ()
    shown: tuple[bool, ...] = ()
    cars: tuple[int, ...] = ()
    origin: tuple[int, ...] = ()
    visited: tuple[int, ...] = ()
    last: tuple[int, ...] = ()
    #: per player, the line cards the game deals them privately, in order,
    #: when a person shows their line at a trip (option dealt_clash=redeal):
    #: every other line, dealt at the start; empty for the others
    spares: tuple[tuple[int, ...], ...] = ()
    #: whether the player to act was caught starting a trip on an
    #: incomplete route this turn (they lay track instead)
    caught: bool = False
    #: turns in a row in which nothing could be laid, drawn or driven
    idle: int = 0
    winner: int = -1
    #: why the game ended: "", "trip" or "stuck"
    end: str = ""
    #: what the engine worked out about this state, never compared, hashed,
    #: shown or pickled: the rails of its tiles (``listing.Rails``, shared
    #: with every state of the same tiles) and its lays (``listing.Listing``)
    _rails: Any = field(default=None, compare=False, hash=False, repr=False)
    _listing: Any = field(default=None, compare=False, hash=False, repr=False)

    def __getstate__(self) -> tuple[Any, ...]:
        return tuple(getattr(self, f.name) for f in fields(self) if not f.name.startswith("_"))

    def __setstate__(self, values: tuple[Any, ...]) -> None:
        for f, value in zip(fields(self), (*values, None, None), strict=True):
            object.__setattr__(self, f.name, value)
