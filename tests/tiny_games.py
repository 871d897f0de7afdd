"""A tiny game with a die and, optionally, a secret, to drive the controller
through chance and hidden information without a real game's rules.

Two players take turns on a row of six cells ``c1``..``c6``. Before each
turn a three-sided die is thrown (``d1``, ``d2``, ``d3``; the face 3 is
printed twice, so it weighs 2); the player then puts a stone on any empty
cell (``c4``) and scores the die's number. With ``secret = true`` each player
is first dealt a hidden bonus card (``deal:2``, read by the room as
``deal:?``), added to their score when the board is full. The higher score
wins.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar

from boardctl.board import BoardProfile, LedChain, Reports, Site
from boardctl.engines import CHANCE, Actor, Engine, Outcome, Status
from boardctl.engines.base import PLAYING
from boardctl.engines.describe import BoardSpec, PieceSpec, PlayerSpec, SiteSpec
from boardctl.errors import BadNotation

CELLS = tuple(f"c{i}" for i in range(1, 7))
#: what a player's private page shows for each card (words no public text holds)
CARD_NAMES = ("amber lantern", "birch compass", "cedar anchor")
FACES = (("d1", 1), ("d2", 1), ("d3", 2))
CARDS = (0, 1, 2)


@dataclass(frozen=True, slots=True)
class DiceOptions:
    secret: bool = False


@dataclass(frozen=True, slots=True)
class DiceState:
    #: the owner of each cell, -1 when empty
    cells: tuple[int, ...] = (-1,) * len(CELLS)
    #: each player's hidden card, -1 until dealt
    cards: tuple[int, int] = (-1, -1)
    scores: tuple[int, int] = (0, 0)
    mover: int = 0
    #: the die's number for the mover's turn, 0 before it is thrown
    roll: int = 0


@dataclass(frozen=True, slots=True)
class Deal:
    card: int

    def __str__(self) -> str:
        return f"deal:{self.card}"


@dataclass(frozen=True, slots=True)
class Roll:
    face: str

    def __str__(self) -> str:
        return self.face


@dataclass(frozen=True, slots=True)
class Place:
    cell: str

    def __str__(self) -> str:
        return self.cell


DiceAction = Deal | Roll | Place


class TinyDice(Engine[DiceState, DiceAction]):
    name: ClassVar[str] = "tinydice"
    Options: ClassVar[type[Any]] = DiceOptions

    def __init__(self, options: DiceOptions | None = None) -> None:
        self.options = options or DiceOptions()
        self.players = 2
        self.has_secrets = self.options.secret  # type: ignore[misc]
        self._board = BoardSpec(
            tuple(SiteSpec(c, "cell", x=float(i)) for i, c in enumerate(CELLS)),
            (PieceSpec("s0", "white stone", 0), PieceSpec("s1", "black stone", 1)),
            (PlayerSpec("white", "#ffffff"), PlayerSpec("black", "#000000")),
        )

    def initial(self) -> DiceState:
        return DiceState(cards=(-1, -1) if self.options.secret else (0, 0))

    def _dealing(self, state: DiceState) -> int | None:
        return next((p for p, c in enumerate(state.cards) if c < 0), None)

    def _over(self, state: DiceState) -> bool:
        return all(c >= 0 for c in state.cells)

    def actor(self, state: DiceState) -> Actor:
        if self._over(state):
            return None
        if self._dealing(state) is not None or state.roll == 0:
            return CHANCE
        return state.mover

    def to_move(self, state: DiceState) -> int | None:
        if self._over(state):
            return None
        dealing = self._dealing(state)
        return dealing if dealing is not None else state.mover

    def chance_outcomes(self, state: DiceState) -> tuple[tuple[DiceAction, int], ...]:
        if self.actor(state) is not CHANCE:
            return ()
        if self._dealing(state) is not None:
            return tuple((Deal(c), 1) for c in CARDS)
        return tuple((Roll(face), weight) for face, weight in FACES)

    def legal_actions(self, state: DiceState) -> Iterator[DiceAction]:
        if self.actor(state) is CHANCE:
            yield from (a for a, _ in self.chance_outcomes(state))
        elif not self._over(state):
            yield from (Place(c) for c, owner in zip(CELLS, state.cells, strict=True) if owner < 0)

    def why_illegal(self, state: DiceState, action: DiceAction) -> str | None:
        if self._over(state):
            return "the game is over"
        if self.actor(state) is CHANCE:
            if action in [a for a, _ in self.chance_outcomes(state)]:
                return None
            return "chance acts now"
        if not isinstance(action, Place):
            return "the die has been thrown: place a stone"
        if state.cells[CELLS.index(action.cell)] >= 0:
            return f"{action.cell} is taken"
        return None

    def apply_unchecked(self, state: DiceState, action: DiceAction) -> DiceState:
        if isinstance(action, Deal):
            p = self._dealing(state)
            assert p is not None
            cards = list(state.cards)
            cards[p] = action.card
            return DiceState(state.cells, (cards[0], cards[1]), state.scores, state.mover, 0)
        if isinstance(action, Roll):
            number = int(action.face[1:])
            return DiceState(state.cells, state.cards, state.scores, state.mover, number)
        cells = list(state.cells)
        cells[CELLS.index(action.cell)] = state.mover
        scores = list(state.scores)
        scores[state.mover] += state.roll
        return DiceState(tuple(cells), state.cards, (scores[0], scores[1]), 1 - state.mover, 0)

    def expects(self, state: DiceState) -> str:
        if self._over(state):
            return "nothing"
        return "place" if self.actor(state) is not CHANCE else "roll"

    def task(self, state: DiceState) -> str:
        return {"nothing": "nothing", "place": "place a stone", "roll": "wait for the die"}[
            self.expects(state)
        ]

    def outcome(self, state: DiceState) -> Outcome:
        if not self._over(state):
            return PLAYING
        totals = [s + c for s, c in zip(state.scores, state.cards, strict=True)]
        if totals[0] == totals[1]:
            return Outcome(Status.DRAW, None, f"both have {totals[0]}")
        winner = 0 if totals[0] > totals[1] else 1
        return Outcome(Status.WON, winner, f"player {winner} has {totals[winner]}")

    def public_action(self, state: DiceState, action: DiceAction) -> str:
        return "deal:?" if isinstance(action, Deal) else str(action)

    def private_view(self, state: DiceState, player: int) -> dict[str, Any]:
        card = state.cards[player]
        if not self.options.secret or card < 0:
            return {}
        return {"card": CARD_NAMES[card]}

    def public_view(self, state: DiceState) -> dict[str, Any]:
        data = self.state_to_json(state)
        del data["cards"]
        return data

    def render(self, state: DiceState) -> str:
        return self.public_render(state) + f"\ncards {state.cards[0]} {state.cards[1]}"

    def public_render(self, state: DiceState) -> str:
        row = " ".join("." if o < 0 else str(o) for o in state.cells)
        return f"{row}\nscores {state.scores[0]} {state.scores[1]}, die {state.roll or '-'}"

    def parse_action(self, text: str) -> DiceAction:
        if text.startswith("deal:") and text[5:].isdigit():
            return Deal(int(text[5:]))
        if text in dict(FACES):
            return Roll(text)
        if text in CELLS:
            return Place(text)
        raise BadNotation(f"{text!r} is not a tinydice action (deal:N, d1..d3, c1..c6)")

    def format_action(self, action: DiceAction) -> str:
        return str(action)

    def state_to_json(self, state: DiceState) -> dict[str, Any]:
        return {
            "cells": list(state.cells),
            "cards": list(state.cards),
            "scores": list(state.scores),
            "mover": state.mover,
            "roll": state.roll,
        }

    def state_from_json(self, data: Mapping[str, Any]) -> DiceState:
        return DiceState(
            tuple(data["cells"]),
            (data["cards"][0], data["cards"][1]),
            (data["scores"][0], data["scores"][1]),
            data["mover"],
            data["roll"],
        )

    def board(self) -> BoardSpec:
        return self._board

    def layout(self, state: DiceState) -> Mapping[str, str]:
        return {c: f"s{o}" for c, o in zip(CELLS, state.cells, strict=True) if o >= 0}


def engines(game: str, options: Mapping[str, Any]) -> Engine[Any, Any]:
    """The controller's engine factory for this module's games."""
    assert game == TinyDice.name, game
    return TinyDice.from_options(options)


def dice_profile(secret: bool = False) -> BoardProfile:
    """A board for the tiny game: a colour sensor and an LED under each cell."""
    return BoardProfile(
        name="tiny-row",
        game=TinyDice.name,
        game_options=MappingProxyType({"secret": secret}),
        sites=tuple(
            Site(c, "cell", i, Reports.CODE, (i,), x=float(i), y=0) for i, c in enumerate(CELLS)
        ),
        codes=MappingProxyType({1: "s0", 2: "s1"}),
        leds=LedChain(count=len(CELLS)),
    )
