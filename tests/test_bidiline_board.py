"""The Bidirectional Line Game on a board: what the hands do and what the
controller makes of it (the whole games through the twins are in
tests/test_twin_games.py)."""

from __future__ import annotations

import pytest
from controller_support import Table, profile_for

from boardctl.controller.machine import Controller
from boardctl.controller.phases import Timing
from boardctl.controller.view import Phase
from boardctl.engines import create
from boardctl.errors import BadNotation
from boardctl.sim import board
from boardctl.sim.hands import Change, HandCommand
from hardware.profiles import load_profile


def _table(presence: bool = False) -> Table:
    engine = create("bidiline")
    table = Table(
        Controller(profile_for(engine, presence=presence), timing=Timing(attract_after=0))
    )
    table.settle()
    for stick, colour in (("d4-d5", "A"), ("d3-d4", "B")):
        table.hands(f"place {stick} {colour}")
        table.settle()
    assert table.controller.match.moves_text() == ["A:d4-d5", "B:d4-d3"]
    return table


@pytest.mark.parametrize("presence", [False, True])
def test_two_sticks_at_once_blink_and_are_never_recorded(presence: bool) -> None:
    table = _table(presence)
    c = table.controller
    # amber's stick and another at the same instant: each alone would be a
    # move, and nothing tells which was laid first
    table.step = 0.0
    table.apply([Change("d5-d6", "A"), Change("c3-d3", "B")])
    table.wait(c.timing.settle + c.timing.grace + 0.1)
    assert c.state is Phase.WRONG_BOARD
    assert c.status()["offending"] == ["c3-d3", "d5-d6"]
    assert c.match.moves_text() == ["A:d4-d5", "B:d4-d3"]
    table.hands("lift c3-d3")
    table.settle()
    assert c.match.moves_text() == ["A:d4-d5", "B:d4-d3", "A:d5-d6"]
    assert c.state is Phase.AWAITING_MOVE


@pytest.mark.parametrize("presence", [False, True])
def test_two_players_sticks_laid_20_ms_apart_are_both_recorded_in_the_order_laid(
    presence: bool,
) -> None:
    table = _table(presence)
    c = table.controller
    table.apply([Change("d5-d6", "A"), Change("c3-d3", "B")])  # 20 ms apart
    table.settle()
    assert c.match.moves_text() == ["A:d4-d5", "B:d4-d3", "A:d5-d6", "B:d3-c3"]
    assert c.state is Phase.AWAITING_MOVE


def test_two_sticks_an_operator_undid_are_not_played_again_while_the_board_shows_them() -> None:
    table = _table()
    c = table.controller
    table.hands("place d5-d6 A")
    table.hands("place c3-d3 B")
    assert c.match.moves_text() == ["A:d4-d5", "B:d4-d3", "A:d5-d6", "B:d3-c3"]
    c.undo(table.now)
    c.undo(table.now)
    table.wait(c.timing.settle + c.timing.grace + 0.1)
    assert c.match.moves_text() == ["A:d4-d5", "B:d4-d3"]
    assert c.state is Phase.WRONG_BOARD
    assert c.status()["undone_on_board"] == ["B:d3-c3", "A:d5-d6"]


def test_lifting_the_last_stick_and_holding_takes_it_back() -> None:
    table = _table()
    c = table.controller
    table.hands("lift d3-d4")
    table.wait(c.timing.settle + c.timing.takeback_hold + 0.1)
    assert c.match.moves_text() == ["A:d4-d5"]
    assert c.state is Phase.AWAITING_MOVE


@pytest.mark.parametrize("profile", ["bidiline", "bidiline-presence"])
def test_the_simulator_lays_and_lifts_sticks_by_segment_and_colour(profile: str) -> None:
    loaded = load_profile(profile)
    spec = board.spec_of("bidiline")
    lay = board.plan(loaded, spec, HandCommand.parse("place c3-c4 A"), {}, 0)
    assert lay == [Change("c3-c4", "A")]
    writes = board.writes_for(loaded, lay[0])
    assert writes == [board.Write(loaded.site("c3-c4").channel or 0, 2 if loaded.codes else 1)]
    blue = board.plan(loaded, spec, HandCommand.parse('place c3-d3 "blue stick"'), {}, 1)
    assert blue == [Change("c3-d3", "B")]
    lift = board.plan(loaded, spec, HandCommand.parse("lift c3-c4"), {"c3-c4": "A"}, 0)
    assert lift == [Change("c3-c4", None)]
    with pytest.raises(BadNotation, match="write A, B"):
        board.plan(loaded, spec, HandCommand.parse("place c3-c4 red"), {}, 0)
