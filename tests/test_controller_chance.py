"""Chance through the controller: a die thrown by the daemon's seeded source
(or by an operator's hand) is an ordinary recorded action, the record replays
exactly, and the same seed gives the same game."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from controller_support import Table
from tiny_games import TinyDice, dice_profile, engines
from transitions.core import MachineError

from boardctl.controller.loop import Loop
from boardctl.controller.machine import Controller, ControllerError
from boardctl.controller.phases import SOURCES, can
from boardctl.controller.store import Store
from boardctl.controller.view import Phase
from boardctl.daemon.chance import RandomChance
from boardctl.engines import Match
from boardctl.sensing import SensorSnapshot


def _controller(seed: int | None, **kwargs: Any) -> Controller:
    chance = RandomChance(random.Random(seed)) if seed is not None else None
    return Controller(dice_profile(), engines=engines, chance=chance, **kwargs)


def _play(table: Table, limit: int = 20) -> None:
    """The player to act puts a stone on the first empty cell, until the end."""
    c = table.controller
    for _ in range(limit):
        if c.match.outcome().over:
            return
        assert c.state is Phase.AWAITING_MOVE, c.status()
        empty = next(s for s in ("c1", "c2", "c3", "c4", "c5", "c6") if s not in table.layout)
        table.hands(f"place {empty} s{c.match.to_move()}")


def test_a_whole_game_with_a_die_is_recorded_and_replays_exactly(tmp_path: Path) -> None:
    with Store(tmp_path / "g.db") as store:
        c = _controller(7, recorder=store)
        table = Table(c)
        table.settle()
        _play(table)
        assert c.state is Phase.GAME_OVER
        moves = c.match.moves_text()
        assert [m for m in moves if m.startswith("d")] == moves[0::2], "a throw before each stone"
        assert len(moves) == 12
        record = store.record_of()
        assert record["moves"] == moves
    replayed = Match.from_moves(TinyDice(), record["moves"])
    assert replayed.states == c.match.states


def test_the_same_seed_gives_the_same_game_and_another_seed_another() -> None:
    games = []
    for seed in (7, 7, 8):
        table = Table(_controller(seed))
        table.settle()
        _play(table)
        games.append(table.controller.match.moves_text())
    assert games[0] == games[1]
    assert games[0] != games[2]


def test_a_resumed_game_draws_what_it_would_have_drawn(tmp_path: Path) -> None:
    whole = Table(_controller(7))
    whole.settle()
    _play(whole)
    with Store(tmp_path / "g.db") as store:
        table = Table(_controller(7, recorder=store))
        table.settle()
        _play(table, limit=3)
        stored = store.current()
        seed = store.seed()
        assert stored is not None and seed is not None
    # the daemon restarts with another generator for new seeds: the stored one counts
    resumed = Controller(
        dice_profile(),
        engines=engines,
        chance=RandomChance(random.Random(99)),
        resume=stored,
        seed=seed,
    )
    again = Table(resumed)
    again.layout = dict(table.layout)
    resumed.feed(SensorSnapshot(tuple(table.controller.values)), again.now)
    again.settle()
    _play(again)
    assert resumed.match.moves_text() == whole.controller.match.moves_text()


def test_an_undo_takes_back_the_players_stone_not_just_the_next_throw() -> None:
    table = Table(_controller(7))
    table.settle()
    c = table.controller
    table.hands("place c1 s0")
    throw, stone, next_throw = c.match.moves_text()
    assert stone == "c1" and next_throw.startswith("d")
    assert c.undo(table.now) == "c1"
    assert c.match.moves_text() == [throw]
    table.hands("lift c1")
    assert c.state is Phase.AWAITING_MOVE
    table.hands("place c2 s0")
    assert c.match.moves_text() == [throw, "c2", next_throw], "the same throw again"


def test_an_operator_throws_the_die_when_the_board_takes_chance_by_hand() -> None:
    table = Table(_controller(None))
    table.settle()
    c = table.controller
    status = c.status()
    assert status["actor"] == "chance" and status["chance"] == "operator"
    assert status["outcomes"] == ["d1", "d2", "d3"]
    with pytest.raises(ControllerError, match="not an outcome"):
        c.roll("c3", table.now)
    loop = Loop(c, _Strip(), clock=lambda: table.now)
    reply = loop.command({"cmd": "chance", "action": "d2"}, table.now)
    assert reply["played"] == "d2" and reply["actor"] == 0
    with pytest.raises(ControllerError, match="a player's turn"):
        c.roll("d1", table.now)
    table.hands("place c4 s0")
    assert c.match.moves_text() == ["d2", "c4"]
    assert c.status()["actor"] == "chance"


def test_an_invalid_trigger_raises_and_the_controller_fires_only_valid_ones() -> None:
    c = _controller(7)
    assert c.state is Phase.STARTING
    assert not can("doze", Phase.LINKING) and can("begin", Phase.STARTING)
    with pytest.raises(MachineError):
        c.doze()
    assert set(SOURCES) >= {"begin", "observe", "move_made", "take_back", "new_game"}
    table = Table(c)  # start() twice and every event after: no invalid trigger fired
    c.start(table.now)
    c.fail("disk full", table.now)
    c.fail("still full", table.now)
    assert c.state is Phase.FAULT


class _Strip:
    def show(self, frame: Any) -> None:
        pass


def test_boardctl_roll_plays_the_outcome_and_status_says_chance_acts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from boardctl.cli.main import main
    from boardctl.controller.control import ControlServer

    table = Table(_controller(None))
    table.settle()
    loop = Loop(table.controller, _Strip(), clock=lambda: table.now)

    def answer(body: Any) -> dict[str, Any]:
        return {"ok": True, **loop.command(body, table.now)}

    with ControlServer(tmp_path / "control.sock", answer) as server:
        assert main(["status", "--socket", str(server.path)]) == 0
        assert "chance acts (boardctl roll OUTCOME): d1 d2 d3" in capsys.readouterr().out
        assert main(["roll", "d3", "--socket", str(server.path)]) == 0
        assert capsys.readouterr().out.strip() == "played d3"
    assert table.controller.match.moves_text() == ["d3"]


def test_with_chance_on_the_button_the_die_is_thrown_at_each_press() -> None:
    by_button = Table(_controller(7, chance_on_button=True))
    by_button.settle()
    c = by_button.controller
    assert c.match.moves_text() == [] and c.status()["chance"] == "button"
    by_button.wait(5.0)
    assert c.match.moves_text() == [], "no throw before the button is pressed"
    c.button("choose", by_button.now)
    by_button.settle()
    assert len(c.match.moves_text()) == 1
    by_button.hands("place c1 s0")
    assert len(c.match.moves_text()) == 2, "the stone, and no throw after it until a press"
    c.button("choose", by_button.now)
    by_button.settle()
    # the throws are those the same seed draws unasked
    drawn = Table(_controller(7))
    drawn.settle()
    drawn.hands("place c1 s0")
    assert c.match.moves_text() == drawn.controller.match.moves_text()


def test_the_control_socket_presses_a_button_and_refuses_one_the_boards_lack() -> None:
    table = Table(_controller(7, chance_on_button=True))
    table.settle()
    loop = Loop(table.controller, _Strip(), clock=lambda: table.now)
    reply = loop.command({"cmd": "press", "button": "choose"}, table.now)
    table.settle()
    assert reply["pressed"] == "choose"
    assert len(table.controller.match.moves_text()) == 1, "the die thrown at the press"
    with pytest.raises(ControllerError, match="no button 'roll'; the buttons are new, undo"):
        loop.command({"cmd": "press", "button": "roll"}, table.now)


def test_chance_on_the_button_is_refused_for_a_board_without_a_choose_button() -> None:
    from boardctl import config
    from boardctl.errors import ConfigError
    from hardware.profiles import load_profile

    cfg = config.load(None, ['controller.chance="button"'])
    cfg.check_board(load_profile("linie1"))
    with pytest.raises(ConfigError, match=r"\(shiftago-colour\) has none: give it one"):
        cfg.check_board(load_profile("shiftago-colour"))
