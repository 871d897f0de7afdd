"""The loop's turn takes every event queued, then follows the board once (in
its tick): a hand's changes that arrive together are read as when each is
followed on its own, and the move they make is played the same."""

from __future__ import annotations

from typing import Any

from controller_support import profile_for

from boardctl.controller.loop import Loop
from boardctl.controller.machine import Controller
from boardctl.controller.view import Phase
from boardctl.engines import create
from boardctl.sensing import LinkUp, SensorChange, SensorSnapshot
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


def test_a_turn_follows_the_board_once_and_reads_it_as_each_change_alone() -> None:
    engine = create("shiftago")
    profile = profile_for(engine)
    spec = engine.board()
    clock = [0.0]
    together = Loop(Controller(profile), _Strip(), clock=lambda: clock[0])
    alone = Controller(profile)
    together.start()
    alone.start(0.0)
    for event in (LinkUp("test"), SensorSnapshot((0,) * profile.channel_count)):
        together.handle(event, 0.0)
        alone.feed(event, 0.0)
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
        for event in events:
            together.emit(event)
            alone.feed(event, clock[0])
        follows.clear()
        assert together.turn(block=False)
        assert len(follows) == 1, f"move {n + 1}: the board followed {len(follows)} times"
        alone.tick(clock[0])
        mine, theirs = together.controller, alone
        assert (mine.state, mine.verdict) == (theirs.state, theirs.verdict)
        clock[0] += 1.0  # settled: the move is played
        assert together.turn(block=False)
        alone.tick(clock[0])
        assert mine.match.actions == theirs.match.actions
        assert len(mine.match.actions) == n + 1
