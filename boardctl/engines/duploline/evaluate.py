"""How well each player stands in a DuploLine position, for the computer opponent.

A line of four grows in a window: four cells in a row along one of the
board's three axes. For each kind of piece, a window that holds discs (or
rings) of one colour only, and no disc (ring) of the other, is that player's
chance; three of four with the fourth cell still open is a threat, and it
counts most for the player to act while that kind of action is still theirs
this turn (they may close it now). Mobility: the empty cells beside the
opponent's pieces, where a player may add. The strengths become values with
:func:`~boardctl.engines.playing.shares`.

:func:`glance` is the beginner's view the weakest level judges by: each
player's own windows only, each valued as if the other were not there, so
it builds its lines and never blocks the other's.

Pure and fast: the search calls it at every position it reaches.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardctl.engines.duploline.board import AXES, NAME, VALID, grow
from boardctl.engines.duploline.values import Phase
from boardctl.engines.playing import shares, terminal_values

if TYPE_CHECKING:
    from boardctl.engines.duploline.engine import DuploLine
    from boardctl.engines.duploline.values import State


def _windows() -> tuple[int, ...]:
    found = []
    for pos in range(64):
        for step in AXES:
            cells = [pos + k * step for k in range(4)]
            if all(c < 64 and NAME[c] for c in cells):
                found.append(sum(1 << c for c in cells))
    return tuple(found)


#: every four cells in a row along an axis, as masks
WINDOWS = _windows()
#: what a window of one player's discs (or rings) is worth, by how many it holds
BY_COUNT = (0.0, 0.5, 4.0, 20.0, 100.0)
#: three of four when that kind of action is still the mover's this turn
IN_REACH = 40.0
#: an empty cell beside the opponent's pieces (a place to add)
ROOM = 0.4
#: the strength difference worth a factor e in the shares
SCALE = 6.0

#: per phase, whether the mover may still make a disc action, a ring action
_OPEN = {
    Phase.OPENING: (True, True),
    Phase.EITHER: (True, True),
    Phase.DISC: (True, False),
    Phase.RING: (False, True),
}


def evaluate(engine: DuploLine, state: State) -> tuple[float, ...]:
    """White's and Black's values in [0, 1] (adding up to 1); the outcome
    once the game is over."""
    phase = state.phase
    if phase is Phase.OVER:
        return terminal_values(2, state.winner if state.winner >= 0 else None)
    discs, rings = state.discs, state.rings
    both = (discs[0] | discs[1]) & (rings[0] | rings[1])
    if not engine.options.locked_pieces_count:
        # a locked piece does not count, and its cell is closed to a line
        discs = (discs[0] & ~both, discs[1] & ~both)
        rings = (rings[0] & ~both, rings[1] & ~both)
        blocked = both
    else:
        blocked = 0
    strength = [0.0, 0.0]
    near = [[False, False], [False, False]]
    for kind, (white, black) in enumerate((discs, rings)):
        wb, bb = white | blocked, black | blocked
        for window in WINDOWS:
            w = white & window
            if w:
                if not bb & window:
                    k = w.bit_count()
                    strength[0] += BY_COUNT[k]
                    if k == 3:
                        near[0][kind] = True
            else:
                b = black & window
                if b and not wb & window:
                    k = b.bit_count()
                    strength[1] += BY_COUNT[k]
                    if k == 3:
                        near[1][kind] = True
    mover = state.player
    disc_open, ring_open = _OPEN[phase]
    if (near[mover][0] and disc_open) or (near[mover][1] and ring_open):
        strength[mover] += IN_REACH
    occupied = discs[0] | discs[1] | rings[0] | rings[1] | both
    pieces = (discs[0] | rings[0], discs[1] | rings[1])
    free = VALID & ~occupied
    strength[0] += ROOM * (grow(pieces[1]) & free).bit_count()
    strength[1] += ROOM * (grow(pieces[0]) & free).bit_count()
    return shares(strength, SCALE)


#: the own strength at which :func:`glance` gives a seat half of its range
OWN_HALF = 40.0


def glance(state: State) -> tuple[float, ...]:
    """Each player's value from their own windows alone (discs and rings no
    piece of the other's blocks), blind to the other's: the seats' values
    do not add up to 1. The outcome once the game is over."""
    if state.phase is Phase.OVER:
        return terminal_values(2, state.winner if state.winner >= 0 else None)
    strength = [0.0, 0.0]
    for white, black in (state.discs, state.rings):
        for window in WINDOWS:
            w = white & window
            b = black & window
            if w and not b:
                strength[0] += BY_COUNT[w.bit_count()]
            elif b and not w:
                strength[1] += BY_COUNT[b.bit_count()]
    return tuple(0.05 + 0.9 * s / (s + OWN_HALF) for s in strength)
