"""Whole games of a visitor against the computer, through the real daemon: the
virtual microcontroller's hands on each game's reference board, the computer
thinking in its own process. The computer's move is lit and then made by the
hands; a wrong execution is flagged; another move is asked for; an undo takes
back the computer's move with the visitor's; a new game while it thinks; and
the record replays the computer's turns exactly."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from computer_support import shows_move

from boardctl.daemon.chance import RandomChance
from boardctl.engines import Engine, Match, create
from boardctl.records import GameRecord
from boardctl.sim import hands
from boardctl.sim.session import Simulation

#: a short settle and grace keep the games quick (the hands are the firmware's)
FAST = ["controller.settle_ms=60", "controller.grace_ms=300"]
WAIT = 30.0
#: the seed of the computer's thinking in the whole games
COMPUTER_SEED = 1


@pytest.fixture
def sim_of() -> Iterator[Any]:
    made: list[Simulation] = []

    def make(game: str, seats: str) -> Simulation:
        sim = Simulation(game, overrides=[*FAST, f"game.seats={json.dumps(seats)}"])
        made.append(sim)
        sim.start()
        # the pieces a game begins with (Beeline's starting NODES) are set out
        engine = create(game)
        start = sim.profile.projected_layout(engine.layout(engine.initial()))
        if start:
            sim.apply([hands.Change(s, p) for s, p in sorted(start.items())])
        return sim

    yield make
    for sim in made:
        sim.close()


def _match(status: dict[str, Any]) -> Match[Any, Any]:
    return Match.from_moves(create(status["game"], status["options"]), status["moves"])


def _make(sim: Simulation, engine: Engine[Any, Any], state: Any, texts: list[str]) -> None:
    """The hands make ``texts`` from ``state``: a marble pushed in through its
    track, or pieces lifted and put down until the board shows the position after."""
    for text in texts:
        action = engine.parse_action(text)
        after = engine.apply(state, action)
        spec = engine.board()
        tracks = sorted(
            s
            for s in engine.touches(state, action)
            if spec.has_site(s) and spec.site(s).kind == "track"
        )
        if tracks:
            piece = engine.layout(after)[spec.site(tracks[0]).path[0]]
            sim.apply(hands.insert(spec, sim.layout, tracks[0], piece))
        else:
            want = sim.profile.projected_layout(engine.layout(after))
            lifts = [hands.Change(s, None) for s in sorted(sim.layout) if s not in want]
            puts = [hands.Change(s, p) for s, p in sorted(want.items()) if sim.layout.get(s) != p]
            # a piece that changes (a disc put into a ring) is lifted first
            swaps = [hands.Change(c.site, None) for c in puts if c.site in sim.layout]
            sim.apply(lifts + swaps + puts)
        state = after


def _computer_ready(sim: Simulation, moves: int) -> dict[str, Any]:
    return sim.wait_status(
        lambda s: (
            len(s["moves"]) == moves
            and (s.get("computer") or {}).get("doing") == "ready"
            and s["phase"] in ("awaiting_move", "choosing")
        ),
        WAIT,
    )


def _visitors_turn(sim: Simulation, moves: int) -> dict[str, Any]:
    return sim.wait_status(
        lambda s: (
            len(s["moves"]) >= moves
            and "computer" not in s
            and s["phase"] in ("awaiting_move", "choosing", "game_over")
        ),
        WAIT,
    )


GAMES = [
    pytest.param("shiftago", id="shiftago"),
    pytest.param("duploline", id="duploline"),
    pytest.param("bidiline", id="bidiline"),
    pytest.param("beeline", id="beeline"),
]


@pytest.mark.parametrize("game", GAMES)
def test_a_visitor_plays_a_whole_game_against_the_computer(
    sim_of: Any, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the computer's seed fixed, as the visitor's: the same game every run, so
    # what it must show (Beeline's NODE put in place of a MARK) never hangs on a draw
    monkeypatch.setattr(RandomChance, "new_seed", lambda self: COMPUTER_SEED)
    sim = sim_of(game, "hands,computer:1")
    rng = random.Random(5)
    status = sim.wait_status(lambda s: s["phase"] == "awaiting_move", WAIT)
    wrong_shown = another_asked = undone = False
    made_for_it: list[str] = []
    for _ in range(200):
        if status["phase"] == "game_over":
            break
        match = _match(status)
        engine, state = match.engine, match.state
        computer = status.get("computer")
        if computer is None:
            # the visitor: a random legal turn
            turn: list[str] = []
            while engine.actor(state) == status["to_move"] and not engine.outcome(state).over:
                action = rng.choice(list(engine.legal_actions(state)))
                turn.append(engine.format_action(action))
                state = engine.apply(state, action)
            _make(sim, engine, match.state, turn)
            want = len(status["moves"]) + len(turn)
            status = sim.wait_status(
                lambda s, n=want: (
                    (len(s["moves"]) == n and s["phase"] != "move_in_progress")
                    or s["phase"] == "choosing"
                ),
                WAIT,
            )
            if len(status["moves"]) < want:
                # a board several turns explain (a stick laid where two ends meet): say which
                reply = sim.request({"cmd": "choose", "option": " then ".join(turn)})
                assert reply["ok"], reply
                status = sim.wait_status(lambda s, n=want: len(s["moves"]) == n, WAIT)
            continue
        status = _computer_ready(sim, len(status["moves"]))
        moves = status["computer"]["moves"]
        assert shows_move(sim, engine, match.state, moves), "the computer's move is lit"
        if not another_asked:
            reply = sim.request({"cmd": "another"})
            assert reply["ok"], reply
            assert reply["instead_of"] == moves[0]
            status = _computer_ready(sim, len(status["moves"]))
            assert status["computer"]["moves"][0] != moves[0]
            moves = status["computer"]["moves"]
            another_asked = True
        if not wrong_shown:
            others = [
                engine.format_action(a)
                for a in engine.legal_actions(match.state)
                if engine.format_action(a) not in moves
            ]
            before = dict(sim.layout)
            _make(sim, engine, match.state, [rng.choice(others)])
            wrong = sim.wait_status(lambda s: s["phase"] == "wrong_board", WAIT)
            assert wrong["moves"] == status["moves"], "a wrong execution is not played"
            assert wrong.get("offending") or wrong.get("restore")
            back = [
                hands.Change(s, before.get(s))
                for s in sorted(set(before) | set(sim.layout))
                if before.get(s) != sim.layout.get(s)
            ]
            sim.apply(back)
            status = _computer_ready(sim, len(status["moves"]))
            wrong_shown = True
        _make(sim, engine, match.state, list(moves))
        made_for_it += moves
        status = _visitors_turn(sim, len(status["moves"]) + len(moves))
        if not undone and len(status["moves"]) >= 4 and status["phase"] != "game_over":
            before_undo = status["moves"]
            reply = sim.request({"cmd": "undo"})
            assert reply["ok"], reply
            undone_to = sim.status()["moves"]
            assert len(undone_to) < len(before_undo) - len(moves), (
                "the computer's move and the visitor's before it are taken back"
            )
            # the hands put the board back as it was
            back_match = _match(sim.status())
            want = sim.profile.projected_layout(back_match.engine.layout(back_match.state))
            sim.apply(
                [
                    hands.Change(s, want.get(s))
                    for s in sorted(set(want) | set(sim.layout))
                    if want.get(s) != sim.layout.get(s)
                ]
            )
            status = _visitors_turn(sim, len(undone_to))
            undone = True
    assert status["phase"] == "game_over", status
    assert wrong_shown and another_asked and undone
    if game == "beeline":
        # a NODE put in place of a MARK, and the MARK moved on by the hands
        assert any("x" in m for m in made_for_it), made_for_it
    record = sim.request({"cmd": "export"})["record"]
    parsed = GameRecord.from_json(record)
    assert parsed.seats.computer(1) is not None
    from boardctl.daemon.thinking import rethink

    turns = rethink(parsed)
    assert turns and all(t.same for t in turns), [t for t in turns if not t.same]


def test_a_new_game_while_the_computer_thinks_and_a_computer_that_begins(sim_of: Any) -> None:
    sim = sim_of("shiftago", "hands,computer:5")
    status = sim.wait_status(lambda s: s["phase"] == "awaiting_move", WAIT)
    match = _match(status)
    _make(sim, match.engine, match.state, ["W4"])
    # at once, while it thinks at its strongest: a game where the computer begins
    reply = sim.request({"cmd": "new", "seats": "computer:1,hands"})
    assert reply["ok"], reply
    sim.clear_board()
    status = _computer_ready(sim, 0)
    assert status["seats"] == ["computer:1", "hands"]
    assert status["computer"]["seat"] == 0
    match = _match(status)
    _make(sim, match.engine, match.state, status["computer"]["moves"])
    status = _visitors_turn(sim, 1)
    assert len(status["moves"]) == 1, "the answer to the game left behind never played"
