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
import logging
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
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
#: the seed of the game's seeds (draws, rolls, the computer's thinking): one
#: whose game has the visitor exchange a tile and the computer a drive with
#: several ways (with other seeds the computer wins all the same)
SEED = 25


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
        if private:  # (a person's cards on the table are the table's)
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


@dataclass
class Played:
    """What a game showed: the last status, and the computer's exchanges,
    starts and drives made by the hands (``chosen``: the turns that began
    with a choice of several ways)."""

    status: dict[str, Any]
    exchanged: int = 0
    started: int = 0
    drives: int = 0
    chosen: int = 0


def _play(
    sim: Simulation,
    watch: Callable[[dict[str, Any], Played], None] = lambda status, played: None,
    until: Callable[[Played], bool] = lambda played: False,
) -> Played:
    """The visitor's hands and the computer's, from the first turn until the
    game is over (or ``until`` says to stop); ``watch`` sees each status."""
    status = sim.wait_status(lambda s: s["phase"] == "awaiting_move", WAIT)
    engine = create("linie1", status["options"])
    assert isinstance(engine, Linie1)
    net = Network(engine)
    seen = Played(status)
    for _ in range(120):
        seen.status = status
        watch(status, seen)
        if status["phase"] == "game_over" or until(seen):
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
                (s.get("computer") or {}).get("doing") == "ready"
                and s["phase"] in ("awaiting_move", "choosing")
            ),
            WAIT,
        )
        state = _state(sim, engine, status)
        played = len(status["moves"])
        moves = status["computer"]["moves"]
        # a drive with several ways: the daemon offers the choice, the computer
        # lights the way it takes and the hands drive the streetcar along it
        seen.chosen += status["phase"] == "choosing"
        if not all(engine.told(state, engine.parse_action(m)) for m in moves):
            _lit(sim, engine, state, moves)
        watch(status, seen)
        for text in moves:
            action = engine.parse_action(text)
            seen.started += isinstance(action, Start)
            seen.drives += isinstance(action, Drive)
            if isinstance(action, Lay) and any(state.tiles[cell] for cell, _ in action.parts):
                seen.exchanged += 1
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
                len(s["moves"]) >= n and s["phase"] in ("awaiting_move", "choosing", "game_over")
            ),
            WAIT,
        )
    seen.status = status
    return seen


def test_a_visitor_and_the_computer_play_a_whole_linie1_game(sim: Simulation) -> None:
    game = _play(sim)
    status = game.status
    assert status["phase"] == "game_over", status
    assert status["winner"] == COMPUTER, status
    assert game.exchanged and game.started == 1 and game.drives >= 2, game
    assert game.chosen, "a drive with several ways, driven along the one lit"
    # the record holds every card, tile drawn and roll, and the computer's turns
    record = GameRecord.from_json(sim.request({"cmd": "export"})["record"])
    assert record.moves[0].startswith("deal:L")
    assert any(m.startswith("roll:") for m in record.moves)
    assert record.seats.computer(COMPUTER) is not None


def test_with_the_cards_on_the_table_the_computers_own_are_dealt_to_it_privately(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The visitor's cards stay on the table; the game deals the computer's.
    Until its trip starts no public surface names them: the status, the web
    pages' state and lights, the LEDs (its terminals lit as every
    other), what the board says aloud, the log. At its start they are shown,
    as a person's are."""
    seeds = random.Random(SEED)
    monkeypatch.setattr(RandomChance, "new_seed", lambda self: seeds.getrandbits(62))
    caplog.set_level(logging.DEBUG, logger="boardctl")
    overrides = [
        *FAST,
        'game.seats="hands,computer:1"',
        'web.listen="127.0.0.1:0"',
        "sound.voice=true",
    ]
    with Simulation("linie1", overrides=overrides) as sim:
        status = sim.wait_status(lambda s: s["phase"] == "awaiting_move", WAIT)
        assert status["options"]["secrets"] == "cards"
        assert sim.request({"cmd": "private", "player": VISITOR})["private"] == {}
        mine = sim.request({"cmd": "private", "player": COMPUTER})["private"]
        line, card = mine["line"], mine["route_card"]
        engine = create("linie1", status["options"])
        secrets = [f"deal:L{line}", f"deal:{card}", f'"{card}"', f"line {line}"]
        secrets += [f'"{t}"' for t in mine["terminals"]]
        secrets.append('"spares"')  # the lines it is dealt when a person shows its own
        terminals = [site.name for site in engine.board().sites if site.kind == "terminal"]
        publisher = sim.daemon.web.publisher

        def public(status: dict[str, Any], game: Played) -> None:
            shown = (status.get("computer") or {}).get("moves", [])
            if game.started or any(m.startswith("start:") for m in shown):
                return  # its trip starts: the hands set its streetcar into its terminal
            texts = {
                "status": json.dumps(status),
                "the pages' state": publisher.encoded("state")[1].decode(),
                "the voice": json.dumps([h.text for h in sim.audio.heard]),
                "the log": caplog.text,
            }
            for where, text in texts.items():
                for secret in secrets:
                    assert secret not in text, f"{where} shows {secret} before the trip"
            assert status["position"]["lines"][COMPUTER] is None
            assert status["position"]["route_cards"][COMPUTER] is None
            # no terminal lit apart from the others, on the LEDs or the pages
            # (but by the light that goes round the board while it thinks)
            if (status.get("computer") or {}).get("doing") in ("thinking", "waiting"):
                return
            frame = sim.frame or ()
            leds = {frame[i] for t in terminals for i in sim.profile.site(t).leds}
            assert len(leds) <= 1, f"the LEDs light a terminal apart from the others: {leds}"
            pages = {publisher.get("lights").get(t) for t in terminals}
            assert len(pages) <= 1, f"the pages light a terminal apart from the others: {pages}"

        game = _play(sim, public, until=lambda g: g.drives >= 1)
        assert game.started == 1, game
        shown = sim.status()["position"]
        assert shown["lines"][COMPUTER] == line and shown["route_cards"][COMPUTER] == card
        assert any(h.text for h in sim.audio.heard), "the board spoke"
        # a new game with the computer in the first seat: that seat is dealt its cards
        reply = sim.request({"cmd": "new", "seats": "computer:1,hands"})
        assert reply["ok"], reply
        sim.clear_board()
        status = sim.wait_status(
            lambda s: s["seats"] == ["computer:1", "hands"] and len(s["moves"]) >= 2, WAIT
        )
        assert status["moves"][:2] == ["deal:L?", "deal:B?"]
        assert status["options"]["dealt_to"] == "1"
        assert sim.request({"cmd": "private", "player": 0})["private"]["route_card"]
        assert sim.request({"cmd": "private", "player": 1})["private"] == {}
