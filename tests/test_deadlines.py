"""The controller's next deadline, kept as the times are met, is the first
of all its deadlines after now: the same as listing them all and taking the
earliest one in the future (the plain formula below), whatever the times."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from boardctl.controller import idle
from boardctl.controller.deadlines import next_deadline
from boardctl.controller.phases import Timing
from boardctl.controller.view import Phase


@dataclass
class _Board:
    changed_at: float
    activity_at: float
    settle: float
    pulses: dict[str, float] = field(default_factory=dict)

    def settle_time(self, settle: float, gated: float) -> float:
        return self.settle


def _listed(now: float, phase: Phase, board: Any, timing: Timing, **given: Any) -> float | None:
    """Every deadline listed, the earliest after ``now`` taken."""
    base = board.changed_at + board.settle_time(timing.settle, timing.settle_gated)
    times = [
        base,
        base + timing.grace,
        base + timing.takeback_hold,
        base + timing.clear_hold,
        board.changed_at + timing.in_progress,
    ]
    if timing.attract_after > 0 and phase is not Phase.ATTRACT:
        times.append(board.activity_at + timing.attract_after)
    times.extend(t + timing.pulse_memory for t in board.pulses.values())
    put_away = idle.put_away_at(
        phase,
        board.activity_at,
        played=given["played"],
        over=given["over"],
        timing=timing,
        awaited=given["awaited"],
    )
    if put_away is not None:
        times.append(put_away[0])
    for name in ("option_taken_at", "asked_until", "save_again_at", "think_again_at"):
        if given[name] is not None:
            times.append(given[name])
    future = [t for t in times if t > now]
    return min(future) if future else None


_TIME = st.floats(0, 5000, allow_nan=False)
_SPAN = st.sampled_from([0.0, 0.06, 1.5, 3.0, 300.0, 600.0, 1200.0]) | st.floats(0, 2000)
_MAYBE = st.none() | _TIME


@given(
    now=_TIME,
    phase=st.sampled_from(list(Phase)),
    changed_at=_TIME,
    activity_at=_TIME,
    settle=_SPAN,
    pulses=st.lists(_TIME, max_size=3),
    spans=st.lists(_SPAN, min_size=8, max_size=8),
    played=st.integers(0, 3),
    over=st.booleans(),
    awaited=st.booleans(),
    others=st.lists(_MAYBE, min_size=4, max_size=4),
)
def test_the_next_deadline_is_the_first_of_all_after_now(
    now: float,
    phase: Phase,
    changed_at: float,
    activity_at: float,
    settle: float,
    pulses: list[float],
    spans: list[float],
    played: int,
    over: bool,
    awaited: bool,
    others: list[float | None],
) -> None:
    grace, takeback, clear, in_progress, memory, attract, abandon, finished = spans
    timing = Timing(
        grace=grace,
        takeback_hold=takeback,
        clear_hold=clear,
        in_progress=in_progress,
        pulse_memory=memory,
        attract_after=attract,
        abandon_after=abandon,
        finished_after=finished,
    )
    board = _Board(changed_at, activity_at, settle, {f"g{n}": t for n, t in enumerate(pulses)})
    times = dict(
        zip(
            ("option_taken_at", "asked_until", "save_again_at", "think_again_at"),
            others,
            strict=True,
        )
    )
    expected = _listed(
        now, phase, board, timing, played=played, over=over, awaited=awaited, **times
    )
    got = next_deadline(
        now,
        phase,
        board,
        timing,
        game=lambda: (played, over, awaited),
        **times,  # type: ignore[arg-type]
    )
    assert got == expected
