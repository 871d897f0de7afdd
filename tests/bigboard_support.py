"""A synthetic game the size of Linie 1, for the reconciler's tests and bench.

Not a registered game: a 12 x 12 board (144 cells ``a1`` .. ``l12``), 24 tile
codes ``t00`` .. ``t23``, two players; a turn is two placements by the same
player. A placement puts any tile on an empty cell, or replaces the tile on a
cell with a different one (as Linie 1 lets a tile be exchanged). About 3,500
legal actions in every position, so listing them all per reconcile is slow.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar

from boardctl.board import BoardProfile, LedChain, Reports, Site
from boardctl.engines.base import PLAYING, Engine, Outcome, Status
from boardctl.engines.describe import BoardSpec, PieceSpec, PlayerSpec, SiteSpec

SIZE = 12
FILES = "abcdefghijkl"
CELLS = tuple(f"{FILES[c]}{r + 1}" for r in range(SIZE) for c in range(SIZE))
INDEX = {name: i for i, name in enumerate(CELLS)}
CODES = tuple(f"t{i:02d}" for i in range(24))
#: placements each player makes per turn
PER_TURN = 2


@dataclass(frozen=True, slots=True)
class Place:
    """``t05@c7``: tile t05 onto c7 (empty, or holding another tile)."""

    code: str
    cell: str

    def __str__(self) -> str:
        return f"{self.code}@{self.cell}"


@dataclass(frozen=True, slots=True)
class BigState:
    #: the tile code on each cell, "" for empty, in CELLS order
    cells: tuple[str, ...] = ("",) * (SIZE * SIZE)
    mover: int = 0
    #: placements the mover has made this turn
    made: int = 0
    #: placements left in the game (it ends when none are left)
    left: int = 200


@dataclass(frozen=True, slots=True)
class BigOptions:
    pass


_PLACES = {(code, cell): Place(code, cell) for code in CODES for cell in CELLS}


class BigBoard(Engine[BigState, Place]):
    """12 x 12 cells, 24 tiles, two placements a turn."""

    name: ClassVar[str] = "bigboard"
    Options: ClassVar[type[Any]] = BigOptions

    def __init__(self, options: BigOptions | None = None) -> None:
        self.options = options if options is not None else BigOptions()
        self.players = 2
        sites = tuple(
            SiteSpec(name, "cell", x=i % SIZE + 1, y=i // SIZE + 1) for i, name in enumerate(CELLS)
        )
        pieces = tuple(PieceSpec(code, f"tile {code}") for code in CODES)
        players = (PlayerSpec("one", "#2060e0"), PlayerSpec("two", "#e02020"))
        self._board = BoardSpec(sites, pieces, players)

    def initial(self) -> BigState:
        return BigState()

    def legal_actions(self, state: BigState) -> Iterator[Place]:
        if not state.left:
            return
        for cell, held in zip(CELLS, state.cells, strict=True):
            for code in CODES:
                if code != held:
                    yield _PLACES[code, cell]

    def actions_touching(self, state: BigState, sites: frozenset[str]) -> Iterator[Place]:
        if not state.left:
            return
        for i in sorted(INDEX[s] for s in sites if s in INDEX):
            cell, held = CELLS[i], state.cells[i]
            for code in CODES:
                if code != held:
                    yield _PLACES[code, cell]

    def why_illegal(self, state: BigState, action: Place) -> str | None:
        if not state.left:
            return "the game is over"
        if action.cell not in INDEX or action.code not in CODES:
            return f"{action} is not a placement on this board"
        if state.cells[INDEX[action.cell]] == action.code:
            return f"{action.cell} already holds {action.code}"
        return None

    def apply_unchecked(self, state: BigState, action: Place) -> BigState:
        i = INDEX[action.cell]
        board = list(state.cells)
        board[i] = action.code
        cells = tuple(board)
        made = state.made + 1
        if made == PER_TURN:
            return BigState(cells, 1 - state.mover, 0, state.left - 1)
        return BigState(cells, state.mover, made, state.left - 1)

    def to_move(self, state: BigState) -> int | None:
        return state.mover if state.left else None

    def expects(self, state: BigState) -> str:
        return "place" if state.left else "nothing"

    def outcome(self, state: BigState) -> Outcome:
        return PLAYING if state.left else Outcome(Status.DRAW, None, "no placements left")

    def parse_action(self, text: str) -> Place:
        code, _, cell = text.partition("@")
        return Place(code, cell)

    def format_action(self, action: Place) -> str:
        return str(action)

    def state_to_json(self, state: BigState) -> dict[str, Any]:
        return {"cells": list(state.cells), "mover": state.mover, "made": state.made}

    def state_from_json(self, data: Mapping[str, Any]) -> BigState:
        return BigState(tuple(data["cells"]), int(data["mover"]), int(data["made"]))

    def board(self) -> BoardSpec:
        return self._board

    def touches(self, state: BigState, action: Place) -> frozenset[str]:
        return frozenset({action.cell})

    def layout(self, state: BigState) -> Mapping[str, str]:
        return {name: code for name, code in zip(CELLS, state.cells, strict=True) if code}

    def render(self, state: BigState) -> str:
        return "\n".join(
            " ".join(state.cells[r * SIZE + c] or "..." for c in range(SIZE))
            for r in reversed(range(SIZE))
        )


class BigBoardListed(BigBoard):
    """The same game with the interface's default ``actions_touching`` (every
    legal action filtered by ``touches``)."""

    def actions_touching(self, state: BigState, sites: frozenset[str]) -> Iterator[Place]:
        return (a for a in self.legal_actions(state) if self.touches(state, a) & sites)


def big_profile() -> BoardProfile:
    """A board that reads every tile's code on every cell."""
    sites = tuple(
        Site(name, "cell", i, Reports.CODE, (i,), x=float(i % SIZE), y=float(i // SIZE))
        for i, name in enumerate(CELLS)
    )
    return BoardProfile(
        name="test-bigboard",
        game="bigboard",
        game_options=MappingProxyType({}),
        sites=sites,
        codes=MappingProxyType({i + 1: code for i, code in enumerate(CODES)}),
        leds=LedChain(count=len(sites)),
    )
