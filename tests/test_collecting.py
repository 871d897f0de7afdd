"""The daemon's loop collects Python's garbage between turns, not in the middle
of judging a change (boardctl.controller.collecting)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest
from controller_support import profile_for

from boardctl.controller.collecting import BACKSTOP, Collector
from boardctl.controller.frame import Frame
from boardctl.controller.loop import Loop
from boardctl.controller.machine import Controller
from boardctl.engines import create
from boardctl.sensing import LinkUp, SensorSnapshot


@pytest.fixture
def collector() -> Iterator[Collector]:
    thresholds = gc.get_threshold()
    collector = Collector()
    try:
        yield collector
    finally:
        collector.stop()
        assert gc.get_threshold() == thresholds, "Python's own collection is as it was"
        assert gc.get_freeze_count() == 0


def test_what_start_up_built_is_frozen_and_python_collects_only_as_a_backstop(
    collector: Collector,
) -> None:
    kept = [[n] for n in range(100)]  # built at start-up, alive all along
    young, middle, old = gc.get_threshold()
    collector.start()
    assert gc.get_freeze_count() >= len(kept)
    assert gc.get_threshold() == (young * BACKSTOP, middle, old)
    collector.stop()
    assert gc.get_freeze_count() == 0
    assert gc.get_threshold() == (young, middle, old)


def test_between_turns_the_generation_python_would_collect_is_collected(
    collector: Collector,
) -> None:
    collector.start()
    few = [[n] for n in range(collector.young // 2)]
    collector.between()
    assert collector.collected == [0, 0, 0], "nothing is due yet"
    _, middle, _ = gc.get_threshold()
    made = []
    for _ in range(middle + 2):
        made.append([[n] for n in range(collector.young + 1)])
        collector.between()
    # a young collection each time, then the middle generation once more young
    # collections than its threshold were made
    assert collector.collected == [middle + 1, 1, 0]
    assert gc.get_count()[0] < collector.young
    assert few and made


class _Strip:
    def show(self, frame: Frame) -> None:
        pass


def test_the_loop_collects_after_its_turn_and_not_while_an_event_waits(
    collector: Collector,
) -> None:
    profile = profile_for(create("shiftago"))
    loop = Loop(Controller(profile), _Strip(), clock=lambda: 0.0, collector=collector)
    arriving: list[object] = []

    def meanwhile(*_: object) -> None:
        """A sensor reports as the turn's frame goes out: the event waits."""
        while arriving:
            loop.emit(arriving.pop())  # type: ignore[arg-type]

    loop.watchers.append(meanwhile)
    loop.start()
    garbage = [[n] for n in range(collector.young + 1)]
    arriving.append(SensorSnapshot((0,) * profile.channel_count))
    loop.emit(LinkUp("test"))
    assert loop.turn(block=False)
    assert collector.collected == [0, 0, 0]
    assert loop.turn(block=False)  # the snapshot: nothing waits after it
    assert collector.collected == [1, 0, 0]
    assert garbage
