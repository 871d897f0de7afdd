"""Positions and helpers shared by the computer opponent's tests."""

from __future__ import annotations

import random
from typing import Any

from boardctl.computer import Level, random_action
from boardctl.engines import CHANCE, Engine, create
from boardctl.engines.shiftago import ShiftagoState
from boardctl.engines.shiftago.geometry import CELL_INDEX
from boardctl.sim.session import Simulation

#: a level with a small budget, for tests that play many positions
QUICK = Level(0, "quick", 60, 0.5, "a test's small budget")


def play_randomly(engine: Engine[Any, Any], rng: random.Random, actions: int) -> Any:
    """The state after up to ``actions`` random actions from the start."""
    state = engine.initial()
    for _ in range(actions):
        if engine.actor(state) is None:
            break
        state = engine.apply_unchecked(state, random_action(engine, state, rng))
    return state


def to_a_player(engine: Engine[Any, Any], state: Any, rng: random.Random) -> Any:
    """``state``, after chance has acted if it is chance's turn."""
    while engine.actor(state) is CHANCE:
        state = engine.apply_unchecked(state, random_action(engine, state, rng))
    return state


def winning_actions(engine: Engine[Any, Any], state: Any) -> list[Any]:
    """The actions after which the player to act has won at once."""
    seat = engine.actor(state)
    return [
        a
        for a in engine.legal_actions(state)
        if engine.outcome(engine.apply(state, a)).winner == seat
    ]


def cells(*names: str) -> int:
    """A Shiftago board mask of the named cells."""
    return sum(1 << CELL_INDEX[name] for name in names)


def shiftago_position(blue: tuple[str, ...], red: tuple[str, ...], mover: int) -> ShiftagoState:
    """A two-player Shiftago position with blue's and red's marbles placed."""
    return ShiftagoState(
        boards=(cells(*blue), cells(*red)),
        supply=(22 - len(blue), 22 - len(red)),
        scores=(0, 0),
        mover=mover,
        phase=0,
        skips=0,
    )


#: blue (to move) has a1-d1: W1 or Se makes five in a row
SHIFTAGO_WIN = shiftago_position(("a1", "b1", "c1", "d1"), ("g7", "f6", "c5", "g3"), 0)
#: red has a1-d1 and blue is to move: blue must break the row (Sa..Sd)
SHIFTAGO_THREAT = shiftago_position(("c4", "e6", "g3", "b6"), ("a1", "b1", "c1", "d1"), 0)


def duploline_position(white: str, black: str, player: int) -> Any:
    """A DuploLine position from the cells of White's and Black's pieces:
    ``"D:d2,d3 R:c3"`` (discs, rings), the player to act with both actions left."""
    engine = create("duploline")
    layout: dict[str, str] = {}
    for colour, text in (("white", white), ("black", black)):
        for part in text.split():
            kind, names = part.split(":")
            word = "disc" if kind == "D" else "ring"
            for name in names.split(","):
                layout[name] = f"{colour}-{word}"
    return engine.state_from_json({"cells": layout, "player": player, "phase": "either"})


#: White (to act) has discs d2-d4; D+d5 (beside Black's e5) makes four
DUPLOLINE_WIN = duploline_position("D:d2,d3,d4", "D:e5,e6 R:c3", 0)
#: Black has discs d2-d4 and White is to act: White must close d5
DUPLOLINE_THREAT = duploline_position("D:e5,e6 R:c3", "D:d2,d3,d4", 0)


def bidiline_position_with_a_win(seed: int = 0) -> Any:
    """A bidiline position, reached by random play from a fixed seed, where the
    player to act can win at once and not every action wins."""
    engine = create("bidiline")
    rng = random.Random(seed)
    while True:
        state = play_randomly(engine, rng, 6 + rng.randrange(30))
        if engine.actor(state) is None:
            continue
        wins = winning_actions(engine, state)
        if wins and len(wins) < len(list(engine.legal_actions(state))):
            return state


def shows_move(sim: Simulation, engine: Engine[Any, Any], state: Any, moves: list[str]) -> bool:
    """Whether the LEDs show the computer's move: every site where it goes
    in the computer's colour (breathing, never dimmer than a third of it),
    brighter than the tint of whose turn it is."""
    from boardctl.controller.opponent import directions

    seat = engine.actor(state)
    colour = sim.lights[seat]
    states, actions = [state], [engine.parse_action(m) for m in moves]
    for action in actions[:-1]:
        states.append(engine.apply(states[-1], action))
    to = directions(engine, states, actions).to
    frame = sim.frame or ()
    assert to, moves
    for site in to:
        for i in sim.profile.site(site).leds:
            led = frame[i]
            f = max(led) / max(colour)
            if f < 0.3 or any(abs(a - b * f) > 3 for a, b in zip(led, colour, strict=True)):
                return False
    return True
