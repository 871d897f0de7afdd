"""When the controller must act although nothing happened.

The loop waits on its queue until the next deadline at most: the settle time
of a changed board (shorter behind a broken light gate), the grace before a
wrong board shows red, the hold of a takeback or of a cleared board, a board
on its way to an action for too long, the attract animation, a game put away
(:mod:`.idle`), a light-gate pulse forgotten, an option picked with the
buttons taken, a button's question no second press answered let go, a game
that could not be saved tried again, a failed computer player asked again.
Pure: the controller hands its own times.
"""

from __future__ import annotations

from boardctl.controller import idle
from boardctl.controller.phases import Timing
from boardctl.controller.tracking import BoardTracker
from boardctl.controller.view import Phase


def next_deadline(
    now: float,
    phase: Phase,
    board: BoardTracker,
    timing: Timing,
    *,
    played: int,
    over: bool,
    awaited: bool,
    option_taken_at: float | None = None,
    asked_until: float | None = None,
    save_again_at: float | None = None,
    think_again_at: float | None = None,
) -> float | None:
    """The first of the controller's deadlines after ``now`` (None: none).

    ``played``/``over``: the actions played and whether the game is over;
    ``awaited``: a player away from the board is to act (the game is never
    put away); the other times, when given, are the option picked being
    taken, a button's question let go, the game saved again, the computer
    asked again."""
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
    if board.pulses:
        times.extend(t + timing.pulse_memory for t in board.pulses.values())
    put_away = idle.put_away_at(
        phase, board.activity_at, played=played, over=over, timing=timing, awaited=awaited
    )
    if put_away is not None:
        times.append(put_away[0])
    for at in (option_taken_at, asked_until, save_again_at, think_again_at):
        if at is not None:
            times.append(at)
    future = [t for t in times if t > now]
    return min(future) if future else None
