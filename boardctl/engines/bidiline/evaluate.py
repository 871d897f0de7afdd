"""How well each player stands in the Bidirectional Line Game, for the computer opponent.

The game is decided by the segments of each colour when one end of the line
can go no further. So the lead counts (the player to act will most often add
one of their own), and the freedom of the two ends says how sure that lead
is: the segments still free at each end and one step beyond it. With little
room left the lead is close to final; with much, the game may turn. The
values come from :func:`~boardctl.engines.playing.shares`.

Pure and fast: the search calls it at every position it reaches.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardctl.engines.playing import shares, terminal_values

if TYPE_CHECKING:
    from boardctl.engines.bidiline.engine import BidiLine
    from boardctl.engines.bidiline.values import State

#: what having the move is worth, in segments
TEMPO = 0.5
#: how much less sure a lead of one segment is per free segment near the ends
DOUBT = 0.35


def room(engine: BidiLine, drawn: int, end: int) -> int:
    """The free segments at point ``end`` and at the points one free segment
    away (not counting that segment twice)."""
    grid = engine.grid
    incident = grid.incident
    free = ~drawn
    count = 0
    for bit, there in grid.steps[end]:
        if free & bit:
            count += 1 + (incident[there] & free & ~bit).bit_count()
    return count


def evaluate(engine: BidiLine, state: State) -> tuple[float, ...]:
    """Amber's and blue's values in [0, 1] (adding up to 1); the outcome
    once the game is over."""
    if state.end:
        a = state.amber.bit_count()
        b = state.drawn.bit_count() - a
        return terminal_values(2, None if a == b else (0 if a > b else 1))
    if state.moves == 0:
        return (0.5, 0.5)
    a = state.amber.bit_count()
    lead = 2 * a - state.drawn.bit_count() + (TEMPO if state.moves % 2 == 0 else -TEMPO)
    near = min(room(engine, state.drawn, state.end_a), room(engine, state.drawn, state.end_b))
    return shares((lead / 2, -lead / 2), 1.0 + DOUBT * near)
