"""How well each player stands in the Bidirectional Line Game, for the computer opponent.

The game ends as soon as an end of the line can go no further, and the
colour with more segments wins. Drawing in one's own colour, the first player
(amber) leads by one after each of their moves and the two are level after
each of blue's: so amber wins by walking the amber end into a dead end (a
point whose other segments are all drawn), and blue draws by getting the blue
end stuck first. The evaluation is that race: how many moves each end needs
to get stuck (looked for up to :data:`HORIZON` moves ahead), who gets there
first, and the lead then; the nearer the end of the race, the surer the
value. With neither end near a dead end, the lead counts, made less sure the
more room the two ends have. The values come from
:func:`~boardctl.engines.playing.shares`.

:func:`glance` is the beginner's view the weakest levels judge by: the
sticks counted and nothing else, so it takes a win it can see but walks
into a race it has lost. Between the two, the middle level judges by the
race seen only as far as an end one move from a dead end (``horizon``
:data:`NEAR`): it sees a race about to end, not one that ends later.

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
#: moves of one end looked at for a dead end
HORIZON = 3
#: the same for the middle level's view (:meth:`BidiLine.judged_at`): only
#: an end one move from a dead end, the race about to end
NEAR = 1
#: how sure a race's result is: the scale of the margin, plus this per move to go
RACE_SURE, RACE_DOUBT = 0.6, 0.25


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


def moves_to_dead_end(engine: BidiLine, drawn: int, end: int, horizon: int = HORIZON) -> int:
    """The fewest moves of the end at point ``end`` (each along a free
    segment) that leave it where it can go no further; ``horizon + 1`` when
    more than ``horizon`` are needed."""
    grid = engine.grid
    incident = grid.incident
    steps = grid.steps
    frontier = [(end, drawn)]
    for depth in range(1, horizon + 1):
        further = []
        for point, used in frontier:
            for bit, there in steps[point]:
                if used & bit:
                    continue
                now = used | bit
                if not incident[there] & ~now:
                    return depth
                further.append((there, now))
        frontier = further
    return horizon + 1


def evaluate(engine: BidiLine, state: State, horizon: int = HORIZON) -> tuple[float, ...]:
    """Amber's and blue's values in [0, 1] (adding up to 1); the outcome
    once the game is over. ``horizon``: how many moves of each end it
    follows to look for a dead end (fewer: the race seen less far, as the
    middle level sees it, :data:`NEAR`)."""
    if state.end:
        a = state.amber.bit_count()
        b = state.drawn.bit_count() - a
        return terminal_values(2, None if a == b else (0 if a > b else 1))
    if state.moves == 0:
        return (0.5, 0.5)
    drawn = state.drawn
    lead = 2 * state.amber.bit_count() - drawn.bit_count()
    mover = state.moves % 2
    amber_moves = moves_to_dead_end(engine, drawn, state.end_a, horizon)
    blue_moves = moves_to_dead_end(engine, drawn, state.end_b, horizon)
    if amber_moves <= horizon or blue_moves <= horizon:
        # plies until each player can end the game with a move of their own
        amber_plies = 2 * amber_moves - (mover == 0)
        blue_plies = 2 * blue_moves - (mover == 1)
        plies = min(amber_plies, blue_plies)
        mover_moves = (plies + 1) // 2
        other_moves = plies // 2
        margin = lead + (mover_moves - other_moves if mover == 0 else other_moves - mover_moves)
        scale = RACE_SURE + RACE_DOUBT * plies
        return shares((margin / 2, -margin / 2), scale)
    ahead = lead + (TEMPO if mover == 0 else -TEMPO)
    near = min(room(engine, drawn, state.end_a), room(engine, drawn, state.end_b))
    return shares((ahead / 2, -ahead / 2), 1.0 + DOUBT * near)


def glance(state: State) -> tuple[float, ...]:
    """Amber's and blue's values from the sticks alone: the lead, blind to
    the race of the ends; the outcome once the game is over."""
    amber = state.amber.bit_count()
    blue = state.drawn.bit_count() - amber
    if state.end:
        return terminal_values(2, None if amber == blue else (0 if amber > blue else 1))
    return shares((amber / 2, blue / 2), 1.0)
