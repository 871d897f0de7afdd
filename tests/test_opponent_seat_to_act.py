"""Who is asked to act: the seat played apart whose turn it is, position by position."""

from __future__ import annotations

from boardctl.controller.opponent import Opponent
from boardctl.engines import create
from boardctl.seats import Seats


def test_the_seat_to_act_follows_the_position_and_the_seats() -> None:
    engine = create("shiftago")
    opponent = Opponent(None)
    start = engine.initial()
    assert opponent.seat_to_act(engine, start) is None  # every seat by hands
    opponent.begin(Seats.from_str("computer:3"))
    assert opponent.seat_to_act(engine, start) is not None  # the same position, new seats
    assert opponent.seat_to_act(engine, start) is not None  # asked again of it
    after = engine.apply(start, next(iter(engine.legal_actions(start))))
    assert opponent.seat_to_act(engine, after) is None  # the hands' turn now
    opponent.begin(Seats.from_str("hands,computer:3"))
    assert opponent.seat_to_act(engine, after) is not None
    assert opponent.seat_to_act(engine, start) is None
