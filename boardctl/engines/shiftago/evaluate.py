"""How well each player stands in a Shiftago position, for the computer opponent.

A line grows in a window: any ``line_length`` cells in a row, a column or a
diagonal (5 with two players, 4 with three or four). A window that holds
marbles of one player only is that player's chance; the fewer marbles it
lacks, the more it counts, and a window one marble short counts most for the
player who acts next (they may close it now). Expert adds the points (a
line waiting to be scored counts as scored) and the marbles in hand (scored
lines give marbles back). The strengths become values with
:func:`~boardctl.engines.playing.shares`.

Pure and fast: the search calls it at every position it reaches.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardctl.engines.playing import shares, terminal_values
from boardctl.engines.shiftago.geometry import DIRECTIONS, SIZE, cell_bit, on_board

if TYPE_CHECKING:
    from boardctl.engines.shiftago.engine import Shiftago, ShiftagoState


def _windows(length: int) -> tuple[int, ...]:
    """Every run of ``length`` cells along a row, column or diagonal, as a mask."""
    found = []
    for _, dr, dc in DIRECTIONS:
        for r in range(SIZE):
            for c in range(SIZE):
                end = (r + (length - 1) * dr, c + (length - 1) * dc)
                if on_board(*end):
                    found.append(sum(cell_bit(r + k * dr, c + k * dc) for k in range(length)))
    return tuple(found)


#: the windows by line length (5: two players; 4: three or four)
WINDOWS = {5: _windows(5), 4: _windows(4)}

#: what a window of one player's marbles is worth, by how many marbles it lacks
#: (0: a line waiting to be scored, Expert)
LACKING = (120.0, 24.0, 6.0, 1.5, 0.4, 0.1)
#: the same by how many marbles it holds, per line length
BY_COUNT = {n: tuple(LACKING[n - k] for k in range(n + 1)) for n in WINDOWS}
#: a window one marble short, for the player who acts next: a line in reach
IN_REACH = 60.0
#: a point of Expert's score, and a marble in hand
POINT = 22.0
MARBLE = 0.6
#: the strength difference worth a factor e in the shares
SCALE = 45.0


def evaluate(engine: Shiftago, state: ShiftagoState) -> tuple[float, ...]:
    """Per player, a value in [0, 1] of how well they stand (the values add
    up to 1); the outcome once the game is over."""
    players = engine.players
    if engine.to_move(state) is None:
        return terminal_values(players, state.winner if state.winner >= 0 else None)
    length = engine.line_length
    worth = BY_COUNT[length]
    short = length - 1
    boards = state.boards
    strength = [0.0] * players
    near = [False] * players
    if players == 2:
        mine, theirs = boards
        for window in WINDOWS[length]:
            a = mine & window
            if a:
                if not theirs & window:
                    k = a.bit_count()
                    strength[0] += worth[k]
                    if k == short:
                        near[0] = True
            else:
                b = theirs & window
                if b:
                    k = b.bit_count()
                    strength[1] += worth[k]
                    if k == short:
                        near[1] = True
    else:
        for window in WINDOWS[length]:
            holder = -1
            for seat, board in enumerate(boards):
                if board & window:
                    if holder >= 0:
                        holder = -2
                        break
                    holder = seat
            if holder >= 0:
                k = (boards[holder] & window).bit_count()
                strength[holder] += worth[k]
                if k == short:
                    near[holder] = True
    mover = state.mover
    if near[mover]:
        # the mover closes a line now (most often: the gap may be out of reach)
        strength[mover] += IN_REACH
    if engine.expert:
        scores, supply = state.scores, state.supply
        for seat in range(players):
            strength[seat] += POINT * scores[seat] + MARBLE * supply[seat]
    return shares(strength, SCALE)
