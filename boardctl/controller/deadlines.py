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

from collections.abc import Callable

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
    game: Callable[[], tuple[int, bool, bool]],
    option_taken_at: float | None = None,
    asked_until: float | None = None,
    save_again_at: float | None = None,
    think_again_at: float | None = None,
) -> float | None:
    """The first of the controller's deadlines after ``now`` (None: none).

    ``game``: the actions played, whether the game is over and whether a
    player away from the board is to act (the game is never put away),
    asked only when the game's being put away could come first (most turns
    a touch of the board moved it minutes ahead); the other times, when
    given, are the option picked being taken, a button's question let go,
    the game saved again, the computer asked again. The earliest is kept as
    the times are met, without a list of them built on every turn."""
    best: float | None = None
    changed = board.changed_at
    activity = board.activity_at
    base = changed + board.settle_time(timing.settle, timing.settle_gated)
    attract = timing.attract_after > 0 and phase is not Phase.ATTRACT
    for at in (
        base,
        base + timing.grace,
        base + timing.takeback_hold,
        base + timing.clear_hold,
        changed + timing.in_progress,
        activity + timing.attract_after if attract else None,
        option_taken_at,
        asked_until,
        save_again_at,
        think_again_at,
    ):
        if at is not None and at > now and (best is None or at < best):
            best = at
    if board.pulses:
        memory = timing.pulse_memory
        for pulse in board.pulses.values():
            at = pulse + memory
            if at > now and (best is None or at < best):
                best = at
    if _may_come_first(activity + timing.abandon_after, timing.abandon_after, now, best) or (
        _may_come_first(activity + timing.finished_after, timing.finished_after, now, best)
    ):
        played, over, awaited = game()
        put_away = idle.put_away_at(
            phase, activity, played=played, over=over, timing=timing, awaited=awaited
        )
        if put_away is not None:
            at = put_away[0]
            if at > now and (best is None or at < best):
                best = at
    return best


def _may_come_first(at: float, after: float, now: float, best: float | None) -> bool:
    """Whether a game put away ``after`` seconds from the last touch (0:
    never), at ``at``, could be the first deadline after ``now``."""
    return after > 0 and at > now and (best is None or at < best)
