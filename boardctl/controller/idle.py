"""A board left alone: when a game is put away for the next visitor.

A game under way that nobody touches for :attr:`~.phases.Timing.abandon_after`
seconds is abandoned: its actions are already saved, the store keeps it as
abandoned when the next game begins, and the board goes to attract mode with
what to clear lit. A finished game is put away the same way after the shorter
:attr:`~.phases.Timing.finished_after`. Either way the next visitor starts a
fresh game. A game whose turn is a player's away from the board (at another
board, on a phone) is never put away: their move may come after any time, and
when it comes it counts as the board being touched. Pure: the controller
asks, with its own times.
"""

from __future__ import annotations

import enum

from boardctl.controller.phases import Timing
from boardctl.controller.view import PLAYING, Phase

#: the phases in which a game can be left alone (the attract mode of a game
#: kept for a while counts: nobody came back to it)
_LEFT = frozenset({*PLAYING, Phase.SETUP, Phase.ATTRACT})


class PutAway(enum.Enum):
    """Why a game is put away for the next visitor."""

    #: a game under way, left alone
    ABANDONED = "abandoned"
    #: a finished game, left standing
    FINISHED = "finished"


def put_away_at(
    phase: Phase,
    activity_at: float,
    *,
    played: int,
    over: bool,
    timing: Timing,
    awaited: bool = False,
) -> tuple[float, PutAway] | None:
    """When the game of a board last touched at ``activity_at`` is to be put
    away, and why; None while it is not to be (nothing played yet, a fault,
    the putting away turned off with 0, or ``awaited``: a player away from the
    board is to act)."""
    if played == 0:
        return None
    if over:
        if phase not in (Phase.GAME_OVER, Phase.ATTRACT) or timing.finished_after <= 0:
            return None
        return activity_at + timing.finished_after, PutAway.FINISHED
    if awaited or phase not in _LEFT or timing.abandon_after <= 0:
        return None
    return activity_at + timing.abandon_after, PutAway.ABANDONED


def left_long_enough(activity_at: float, now: float, timing: Timing) -> bool:
    """Whether a board last touched at ``activity_at`` has been left alone
    long enough at ``now`` for some game to be put away: the cheap half of
    :func:`due`, asked first on every turn, so that what the game is (over,
    a player away to act) is asked only of a board left alone for minutes."""
    abandon, finished = timing.abandon_after, timing.finished_after
    return (abandon > 0 and now >= activity_at + abandon) or (
        finished > 0 and now >= activity_at + finished
    )


def due(
    phase: Phase,
    activity_at: float,
    now: float,
    *,
    played: int,
    over: bool,
    timing: Timing,
    awaited: bool = False,
) -> PutAway | None:
    """Why the game is to be put away at ``now``, if it is."""
    when = put_away_at(phase, activity_at, played=played, over=over, timing=timing, awaited=awaited)
    if when is None or now < when[0]:
        return None
    return when[1]
