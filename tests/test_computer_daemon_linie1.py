"""A whole Linie 1 game of a visitor against the computer through the real
daemon: the reference board, the virtual microcontroller's hands, the
computer thinking in its own process (tests/test_computer_daemon.py plays the
other games so).

The game deals the cards (``secrets = "dealt"``): each seat's line and route
card are shown only to that seat (the control socket's ``private``); the
daemon draws the tiles and rolls the die. The visitor is a friendly one: its
hands lay each tile where the computer's route needs it most (one of them an
exchange of a tile on the board), so the game is short. The computer lays its
own tiles, starts its trip once its route can be driven and drives its
streetcar by the die; each of its moves is lit, then made by the hands (a
tile laid, the streetcar set into its terminal, the streetcar moved along
the cells it drives), until it enters its other terminal and wins.

The game's seeds (the daemon's draws and rolls, the computer's thinking) are
fixed, so the game is the same on every run; nothing else in the daemon is
touched.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from computer_support import shows_move

from boardctl.daemon.chance import RandomChance
from boardctl.engines import create
from boardctl.engines.linie1 import Lay, Linie1, State
from boardctl.engines.linie1.evaluate import Flood, Network, corridor, route_tiles
from boardctl.engines.linie1.values import Drive, Start
from boardctl.records import GameRecord
from boardctl.sim import hands
from boardctl.sim.session import Simulation

#: a short settle and grace keep the game quick (the hands are the firmware's)
FAST = ["controller.settle_ms=40", "controller.grace_ms=100"]
WAIT = 30.0
VISITOR, COMPUTER = 0, 1
#: the seed of the game's seeds (draws, rolls, the computer's thinking)
SEED = 20


@pytest.fixture
def sim(monkeypatch: pytest.MonkeyPatch) -> Iterator[Simulation]:
    seeds = random.Random(SEED)
    monkeypatch.setattr(RandomChance, "new_seed", lambda self: seeds.getrandbits(62))
    simulation = Simulation(
        "linie1",
        overrides=[*FAST, 'game.seats="hands,computer:1"', 'game.secrets="dealt"'],
    )
    simulation.start()
    try:
        yield simulation
    finally:
        simulation.close()


def _state(sim: Simulation, engine: Linie1, status: dict[str, Any]) -> State:
    """The whole position: the public one, with each seat's cards as only
    that seat is shown them."""
    data = json.loads(json.dumps(status["position"]))
    for seat in range(engine.players):
        private = sim.request({"cmd": "private", "player": seat})["private"]
        data["lines"][seat] = private["line"]
        data["route_cards"][seat] = private["route_card"]
    return engine.state_from_json(data)


def _make(sim: Simulation, engine: Linie1, state: State, action: Any) -> State:
    """The hands make ``action``: pieces lifted and put down until the board
    shows the position after it (a piece that changes, a tile exchanged or a
    tile the streetcar comes onto, is lifted first)."""
    after = engine.apply(state, action)
    want = sim.profile.projected_layout(engine.layout(after))
    lifts = [hands.Change(s, None) for s in sorted(sim.layout) if s not in want]
    puts = [hands.Change(s, p) for s, p in sorted(want.items()) if sim.layout.get(s) != p]
    swaps = [hands.Change(c.site, None) for c in puts if c.site in sim.layout]
    sim.apply(lifts + swaps + puts)
    return after


def _friendly(engine: Linie1, net: Network, state: State) -> Lay:
    """The visitor's lay: of those on the computer's shortest routes, the one
    that leaves it the fewest tiles to lay; once its route is complete, the
    same for the visitor's own route."""
    lays = [a for a in engine.legal_actions(state) if isinstance(a, Lay)]

    def left(action: Lay, seat: int) -> int:
        after = engine.apply_unchecked(state, action)
        return route_tiles(engine, net, Flood(net, after.tiles), after, seat)

    for seat in (COMPUTER, VISITOR):
        cells = corridor(engine, net, state, seat)
        near = [a for a in lays if all(cells >> cell & 1 for cell, _ in a.parts)]
        if near:
            return min(near, key=lambda a, p=seat: left(a, p))
    return lays[0]


def _lit(sim: Simulation, engine: Linie1, state: State, moves: list[str]) -> None:
    """Wait until the LEDs show the computer's move (the frame after its
    answer may still be on its way)."""
    deadline = time.monotonic() + WAIT
    while not shows_move(sim, engine, state, moves):
        seen = sim.news
        assert time.monotonic() < deadline, f"the computer's move {moves} is not lit"
        sim.wait_news(seen, 0.05)


def test_a_visitor_and_the_computer_play_a_whole_linie1_game(sim: Simulation) -> None:
    status = sim.wait_status(lambda s: s["phase"] == "awaiting_move", WAIT)
    engine = create("linie1", status["options"])
    assert isinstance(engine, Linie1)
    net = Network(engine)
    exchanged = started = drives = 0
    for _ in range(120):
        if status["phase"] == "game_over":
            break
        state = _state(sim, engine, status)
        played = len(status["moves"])
        if status.get("computer") is None:
            assert status["to_move"] == VISITOR, status
            _make(sim, engine, state, _friendly(engine, net, state))
            status = sim.wait_status(
                lambda s, n=played: len(s["moves"]) > n and s["phase"] != "move_in_progress",
                WAIT,
            )
            continue
        # the computer's turn: its moves are lit, then made by the hands
        status = sim.wait_status(
            lambda s: (
                (s.get("computer") or {}).get("doing") == "ready" and s["phase"] == "awaiting_move"
            ),
            WAIT,
        )
        state = _state(sim, engine, status)
        played = len(status["moves"])
        moves = status["computer"]["moves"]
        if not all(engine.told(state, engine.parse_action(m)) for m in moves):
            _lit(sim, engine, state, moves)
        for text in moves:
            action = engine.parse_action(text)
            started += isinstance(action, Start)
            drives += isinstance(action, Drive)
            if isinstance(action, Lay) and any(state.tiles[cell] for cell, _ in action.parts):
                exchanged += 1
            if engine.told(state, action):
                state = engine.apply(state, action)  # no board shows it: the daemon plays it
            else:
                state = _make(sim, engine, state, action)
            played += 1
            status = sim.wait_status(
                lambda s, n=played: len(s["moves"]) >= n and s["phase"] != "move_in_progress",
                WAIT,
            )
        status = sim.wait_status(
            lambda s, n=played: (
                len(s["moves"]) >= n and s["phase"] in ("awaiting_move", "game_over")
            ),
            WAIT,
        )
    assert status["phase"] == "game_over", status
    assert status["winner"] == COMPUTER, status
    assert exchanged and started == 1 and drives >= 2, (exchanged, started, drives)
    # the record holds every card, tile drawn and roll, and the computer's turns
    record = GameRecord.from_json(sim.request({"cmd": "export"})["record"])
    assert record.moves[0].startswith("deal:L")
    assert any(m.startswith("roll:") for m in record.moves)
    assert record.seats.computer(COMPUTER) is not None
