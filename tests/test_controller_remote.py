"""A seat played at another board, through the controller, with the other
board's answers given by the test: its move lit and taken as the computer's,
and shown even when it comes while this board dozes."""

from __future__ import annotations

import itertools

import pytest
from controller_support import Table, profile_for

from boardctl.controller.machine import Controller, ControllerError
from boardctl.controller.opponent import RemoteMoved, Think
from boardctl.controller.phases import Timing
from boardctl.controller.view import Phase
from boardctl.engines import create
from boardctl.seats import REMOTE, Seats


class OtherBoard:
    """Keeps the controller's requests for the remote seat's turn."""

    def __init__(self) -> None:
        self.asked: list[Think] = []
        self.cancelled = 0

    def ask(self, request: Think) -> None:
        self.asked.append(request)

    def cancel(self) -> None:
        self.cancelled += 1


def _table(**timing: float) -> tuple[Table, OtherBoard]:
    other = OtherBoard()
    seeds = itertools.count(500)
    c = Controller(
        profile_for(create("shiftago")),
        seats=Seats.from_str("hands,remote:table-b"),
        remote=other,
        seeds=lambda: next(seeds),
        timing=Timing(**timing),
    )
    table = Table(c)
    table.settle()
    return table, other


def test_the_other_boards_move_is_lit_and_only_it_is_taken() -> None:
    table, other = _table()
    c = table.controller
    table.hands("insert W3", "p0")
    table.settle()
    (request,) = other.asked
    assert (request.kind, request.board, request.seat, request.ply) == (REMOTE, "table-b", 1, 1)
    assert c.status()["remote"] == {
        "seat": 1,
        "board": "table-b",
        "doing": "waiting",
        "moves": [],
    }
    with pytest.raises(ControllerError, match="the player at table-b plays this turn"):
        c.play("E1", table.now)
    c.computer_answered(RemoteMoved(request.id, ("E1",)), table.now)
    assert c.status()["remote"]["doing"] == "ready"
    assert c.status()["remote"]["moves"] == ["E1"]
    with pytest.raises(ControllerError, match="chose this move"):
        c.another(table.now)
    table.hands("insert E1", "p1")
    table.settle()
    assert c.status()["moves"] == ["W3", "E1"]
    with pytest.raises(ControllerError, match="not undone"):
        c.undo(table.now)


def test_a_move_that_comes_while_the_board_dozes_wakes_it() -> None:
    table, other = _table(attract_after=30.0)
    c = table.controller
    table.hands("insert W3", "p0")
    table.settle()
    table.wait(31.0)  # the other player thinks: the room is quiet
    assert c.state is Phase.ATTRACT
    request = other.asked[-1]
    assert other.cancelled == 0, "the other board is still asked while this one dozes"
    c.computer_answered(RemoteMoved(request.id, ("E1",)), table.now)
    assert c.state is Phase.AWAITING_MOVE
    assert c.status()["remote"]["doing"] == "ready"
    table.wait(10.0)
    assert c.state is Phase.AWAITING_MOVE, "not dozing again at once"


def test_a_move_taken_back_by_hand_is_not_undone_but_shown_to_restore() -> None:
    """With the computer, a board put back as it was before a move is an undo;
    with another board it is not (both boards keep one record): the board
    shows what to put back."""
    from boardctl.sim import hands

    table, _ = _table()
    c = table.controller
    before = dict(table.layout)
    table.hands("insert W3", "p0")
    table.settle()
    assert c.status()["moves"] == ["W3"]
    table.apply(
        [
            hands.Change(site, before.get(site))
            for site in sorted(set(before) | set(table.layout))
            if before.get(site) != table.layout.get(site)
        ]
    )
    table.wait(c.timing.takeback_hold + 2.0)
    status = c.status()
    assert status["moves"] == ["W3"] and status["phase"] == "wrong_board"
    assert status.get("restore")


def test_a_game_is_not_put_away_while_the_other_player_thinks() -> None:
    """The game left alone here is not abandoned while the player at the other
    board is to act: their move may come after any time, and the clock of the
    putting away starts again when it comes."""
    table, other = _table()
    c = table.controller
    table.hands("insert W3", "p0")
    table.settle()
    table.wait(25 * 60.0)  # the other player thinks for a long time
    assert c.status()["moves"] == ["W3"], "the game is kept for the other player"
    request = other.asked[-1]
    c.computer_answered(RemoteMoved(request.id, ("E1",)), table.now)
    assert c.status()["remote"]["moves"] == ["E1"]
    table.wait(c.timing.abandon_after - 60.0)
    assert c.status()["moves"] == ["W3"], "their move waits for the hands here"
    table.hands("insert E1", "p1")
    table.settle()
    assert c.status()["moves"] == ["W3", "E1"]
    table.wait(c.timing.abandon_after + 60.0)  # now this board's player walked away
    assert c.status()["moves"] == [] and c.state is Phase.ATTRACT
