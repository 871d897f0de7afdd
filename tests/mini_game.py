"""A made-up game whose board is whatever cells its options name, for the
tests of board profiles and bring-up tools that need a game of their own
size rather than a real game's board.

Two players take turns putting a stone of their own on an empty cell; the
game is drawn when the board is full. Option ``cells`` names the cells
(default ``"a1 a2 a3"``). The :func:`mini_game` fixture makes it one of the
games for the duration of a test.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from boardctl.engines import Engine, Outcome, Status
from boardctl.engines.base import PLAYING
from boardctl.engines.describe import BoardSpec, PieceSpec, PlayerSpec, SiteSpec
from boardctl.errors import BadNotation, BadOptions


@dataclass(frozen=True, slots=True)
class MiniOptions:
    cells: str = "a1 a2 a3"


@dataclass(frozen=True, slots=True)
class MiniState:
    #: the owner of each cell, -1 when empty
    cells: tuple[int, ...]
    mover: int = 0


class Mini(Engine[MiniState, str]):
    name: ClassVar[str] = "mini"
    Options: ClassVar[type[Any]] = MiniOptions

    def __init__(self, options: MiniOptions | None = None) -> None:
        self.options = options or MiniOptions()
        self.players = 2
        names = tuple(self.options.cells.split())
        if not names:
            raise BadOptions("mini: option 'cells' names no cell")
        self.names = names
        self._board = BoardSpec(
            tuple(SiteSpec(n, "cell", x=i, y=0) for i, n in enumerate(names)),
            (PieceSpec("p0", "white stone", owner=0), PieceSpec("p1", "black stone", owner=1)),
            (PlayerSpec("white", "#f0f0f0"), PlayerSpec("black", "#303030")),
        )

    def initial(self) -> MiniState:
        return MiniState((-1,) * len(self.names))

    def legal_actions(self, state: MiniState) -> Iterator[str]:
        if self.outcome(state).over:
            return iter(())
        return iter([n for n, o in zip(self.names, state.cells, strict=True) if o < 0])

    def why_illegal(self, state: MiniState, action: str) -> str | None:
        if action not in self.names:
            return f"there is no cell {action}"
        if state.cells[self.names.index(action)] >= 0:
            return f"{action} is taken"
        return None

    def apply_unchecked(self, state: MiniState, action: str) -> MiniState:
        cells = list(state.cells)
        cells[self.names.index(action)] = state.mover
        return MiniState(tuple(cells), 1 - state.mover)

    def to_move(self, state: MiniState) -> int | None:
        return None if self.outcome(state).over else state.mover

    def expects(self, state: MiniState) -> str:
        return "nothing" if self.outcome(state).over else "stone"

    def task(self, state: MiniState) -> str:
        return "nothing" if self.outcome(state).over else "put a stone on an empty cell"

    def outcome(self, state: MiniState) -> Outcome:
        if all(o >= 0 for o in state.cells):
            return Outcome(Status.DRAW, None, "the board is full")
        return PLAYING

    def parse_action(self, text: str) -> str:
        if text not in self.names:
            raise BadNotation(f"{text!r} is not a cell: write one of {', '.join(self.names)}")
        return text

    def format_action(self, action: str) -> str:
        return action

    def state_to_json(self, state: MiniState) -> dict[str, Any]:
        return {"cells": list(state.cells), "mover": state.mover}

    def state_from_json(self, data: Mapping[str, Any]) -> MiniState:
        return MiniState(tuple(data["cells"]), int(data["mover"]))

    def board(self) -> BoardSpec:
        return self._board

    def layout(self, state: MiniState) -> Mapping[str, str]:
        return {n: f"p{o}" for n, o in zip(self.names, state.cells, strict=True) if o >= 0}

    def render(self, state: MiniState) -> str:
        return " ".join(".xo"[o + 1] for o in state.cells)


@pytest.fixture
def mini_game(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """``mini`` is one of the games while the test runs."""
    import boardctl.engines as engines
    import hardware.profiles.games as games

    module = types.ModuleType("boardctl.engines.mini")
    module.ENGINE = Mini  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "boardctl.engines.mini", module)
    known = tuple(sorted({*engines.GAMES, "mini"}))
    monkeypatch.setattr(engines, "GAMES", known)
    monkeypatch.setattr(games, "GAMES", known)
    yield
