"""The loop's turn takes every event queued, then follows the board once (in
its tick): a hand's changes that arrive together are read as when each is
followed on its own, and the move they make is played the same."""

from __future__ import annotations

from typing import Any

import pytest
from controller_support import profile_for, readings

from boardctl.controller.loop import Loop
from boardctl.controller.machine import Controller
from boardctl.controller.view import Phase
from boardctl.engines import create
from boardctl.sensing import ButtonPress, LinkDown, LinkUp, SensorChange, SensorSnapshot
from boardctl.sim import hands


class _Strip:
    def __init__(self) -> None:
        self.frames: list[Any] = []

    def show(self, frame: Any) -> None:
        self.frames.append(frame)


def _changes(profile: Any, changes: list[hands.Change]) -> list[SensorChange]:
    back = {piece: value for value, piece in profile.codes.items()}
    out = []
    for change in changes:
        channel = profile.site(change.site).channel
        assert channel is not None
        if change.piece == hands.PULSE:  # a light gate broken and whole again
            out += [SensorChange(channel, 1), SensorChange(channel, 0)]
        else:
            out.append(SensorChange(channel, back[change.piece] if change.piece else 0))
    return out


def _two_boards() -> tuple[list[float], Loop, Controller]:
    """Shiftago's board twice, both linked and set up: one run by a loop that
    takes events a turn at a time (on ``clock``), one fed event by event."""
    profile = profile_for(create("shiftago"))
    clock = [0.0]
    together = Loop(Controller(profile), _Strip(), clock=lambda: clock[0])
    alone = Controller(profile)
    together.start()
    alone.start(0.0)
    for event in (LinkUp("test"), SensorSnapshot((0,) * profile.channel_count)):
        together.handle(event, 0.0)
        alone.feed(event, 0.0)
    return clock, together, alone


def _taken(
    events: list[Any], now: float, clock: list[float], together: Loop, alone: Controller
) -> None:
    """``events`` taken by the loop in one turn at ``now`` (its ``clock`` set
    there), and fed one by one to the other board, which then ticks at ``now``."""
    clock[0] = now
    for event in events:
        together.emit(event)
        alone.feed(event, now)
    assert together.turn(block=False)
    alone.tick(now)


def test_a_turn_follows_the_board_once_and_reads_it_as_each_change_alone() -> None:
    clock, together, alone = _two_boards()
    profile = alone.profile
    spec = alone.engine.board()
    assert together.controller.state is alone.state is Phase.AWAITING_MOVE

    follows: list[float] = []
    update = together.controller.update

    def counted(now: float) -> None:
        follows.append(now)
        update(now)

    together.controller.update = counted  # type: ignore[method-assign]
    layout: dict[str, str] = {}
    # three marbles in on one track: the last push moves the two before it on
    for n, piece in enumerate(("p0", "p1", "p0")):
        changes = hands.insert(spec, layout, "W3", piece)
        layout = hands.apply_changes(layout, changes)
        clock[0] += 1.0
        events = _changes(profile, changes)
        assert n < 2 or len(events) > 3  # the gate, the new marble, two moved on
        follows.clear()
        _taken(events, clock[0], clock, together, alone)
        assert len(follows) == 1, f"move {n + 1}: the board followed {len(follows)} times"
        mine, theirs = together.controller, alone
        assert (mine.state, mine.verdict) == (theirs.state, theirs.verdict)
        clock[0] += 1.0  # settled: the move is played
        _taken([], clock[0], clock, together, alone)
        assert mine.match.actions == theirs.match.actions
        assert len(mine.match.actions) == n + 1


def test_a_request_taken_after_a_change_in_the_same_turn_sees_the_board_followed() -> None:
    """An operator's question (or command) that comes right behind a change is
    answered about the board as followed after the change, not before it."""
    import threading

    from boardctl.controller.loop import _Request

    engine = create("shiftago")
    profile = profile_for(engine)
    clock = [0.0]
    loop = Loop(Controller(profile), _Strip(), clock=lambda: clock[0])
    loop.start()
    loop.handle(LinkUp("test"), 0.0)
    loop.handle(SensorSnapshot((0,) * profile.channel_count), 0.0)
    assert loop.controller.state is Phase.AWAITING_MOVE
    clock[0] = 1.0
    d4 = profile.site("d4").channel
    assert d4 is not None
    loop.emit(SensorChange(d4, 2))  # a marble set down in the middle: not a move
    asked = _Request({"cmd": "status"}, threading.Event())
    loop._queue.put(asked)
    assert loop.turn(block=False)
    assert asked.reply is not None and asked.reply["ok"]
    assert asked.reply["phase"] == loop.controller.state.value != "awaiting_move"


def _after_a_move(profile: Any, spec: Any) -> tuple[list[SensorChange], dict[str, str]]:
    """The changes of a first marble pushed in at W3, and the layout after it."""
    changes = hands.insert(spec, {}, "W3", "p0")
    return _changes(profile, changes), hands.apply_changes({}, changes)


@pytest.mark.parametrize(
    "kinds",
    [
        ("change", "undo"),  # a button pressed right after a piece set down
        ("change", "link down"),  # the cable pulled right after a change
        ("link down", "snapshot", "change"),  # the link back, then a change, in one turn
        ("snapshot", "change", "change"),
    ],
)
def test_events_of_every_kind_taken_in_one_turn_end_as_when_each_is_followed(
    kinds: tuple[str, ...],
) -> None:
    clock, together, alone = _two_boards()
    profile = alone.profile
    spec = alone.engine.board()
    move, layout = _after_a_move(profile, spec)  # a move played by both first
    _taken(move, 1.0, clock, together, alone)
    _taken([], 2.0, clock, together, alone)
    assert len(together.controller.match.actions) == len(alone.match.actions) == 1

    d4 = profile.site("d4").channel
    assert d4 is not None
    events: list[Any] = []
    for i, kind in enumerate(kinds):
        if kind == "change":  # a marble set down on d4, then lifted again
            events.append(SensorChange(d4, 0 if kinds[:i].count("change") % 2 else 2))
        elif kind == "undo":
            events.append(ButtonPress("undo"))
        elif kind == "link down":
            events.append(LinkDown("the cable pulled"))
        else:
            events.append(SensorSnapshot(readings(profile, layout)))
    _taken(events, 3.0, clock, together, alone)
    mine = together.controller
    assert (mine.state, mine.verdict, mine.fault) == (alone.state, alone.verdict, alone.fault)
    _taken([], 10.0, clock, together, alone)  # settled, any grace or hold past
    assert (mine.state, mine.verdict, mine.fault) == (alone.state, alone.verdict, alone.fault)
    assert mine.match.actions == alone.match.actions
