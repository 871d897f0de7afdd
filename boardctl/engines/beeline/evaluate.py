"""How well each player stands in a Beeline position, for the computer opponent.

Beeline is a race: the first line to reach the opponent's start wins. So the
evaluation counts, for each line, the pieces it still needs: the fewest cells
from its RUT to a cell next to the opponent's start, over cells the player may
use that are empty or hold a NODE of his colour (which the line passes). The
opponent's MARKS and NODES of the other colour stand in the way, so a NODE
played across a line, or a line turned into a corner, shows at once; a line
whose RUT is closed needs the most. Then who is ahead, counting the pieces the
player to act may still play this turn; the NODES each still holds (each may
turn a line or block it) count a little. The nearer the end of the race, the
surer the value. The strengths become values with
:func:`~boardctl.engines.playing.shares`.

The distances are breadth-first floods over the board as masks on a grid with
a border (each of the six neighbours a fixed shift away), a few dozen integer
operations each.

Pure and fast: the search calls it at every position it reaches.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardctl.engines.beeline.position import index_of
from boardctl.engines.beeline.values import End, State
from boardctl.engines.playing import shares, terminal_values

if TYPE_CHECKING:
    from boardctl.engines.beeline.board import Board
    from boardctl.engines.beeline.engine import Beeline

#: pieces a line needs when it cannot reach the goal at all (its RUT closed,
#: or walled off): more than a whole hand
FAR = 30
#: what a line counts as needing at most: one walled off is far behind, but
#: a replacement or a send-back may open it again
CAP = 14
#: what a NODE in hand is worth, in pieces
NODE = 0.6
#: how sure a lead of one piece is: the scale of the shares, plus this per
#: piece the nearer line still needs
SURE, DOUBT = 1.2, 0.25
#: pieces ahead of a line whose cells a NODE is worth a look on (:func:`corridor`)
CORRIDOR = 3
#: cells per chunk when a mask of cells is moved onto the grid
_CHUNK = 8


class Race:
    """The board as a grid with a border, for floods by shifting masks.

    Cell (row r, number c) is bit ``(r + 1) * width + c`` of a grid mask; the
    six neighbours are the shifts by ``1``, ``width + 1`` and ``width`` either
    way, and the border keeps a shift from wrapping onto another row."""

    def __init__(self, board: Board) -> None:
        width = max(c for _, c in board.coords) + 2
        self.width = width
        self.grid = tuple(1 << ((r + 1) * width + c) for r, c in board.coords)
        #: the cell at each bit of the grid
        self.cell = {g.bit_length() - 1: i for i, g in enumerate(self.grid)}
        chunks = (board.size + _CHUNK - 1) // _CHUNK
        self._chunks = tuple(
            tuple(
                sum(
                    self.grid[base + i]
                    for i in range(_CHUNK)
                    if value >> i & 1 and base + i < board.size
                )
                for value in range(1 << _CHUNK)
            )
            for base in range(0, chunks * _CHUNK, _CHUNK)
        )
        self.usable = (self.to_grid(board.usable[0]), self.to_grid(board.usable[1]))
        #: the cells whose NODE each player's line may pass (not his own start)
        self.enter = (board.usable[0], board.usable[1])
        # the cells next to each player's goal (the opponent's start)
        self.near_goal = tuple(
            self.to_grid(sum(1 << n for n in board.nbr[board.starts[1 - p]] if n >= 0))
            for p in (0, 1)
        )

    def to_grid(self, cells: int) -> int:
        """A mask of cells (bit ``i`` for cell ``i``) as a grid mask."""
        out = 0
        low = (1 << _CHUNK) - 1
        for table in self._chunks:
            if cells & low:
                out |= table[cells & low]
            cells >>= _CHUNK
            if not cells:
                break
        return out

    def cells_of(self, grid: int) -> int:
        """A grid mask as a mask of cells."""
        cell = self.cell
        out = 0
        while grid:
            low = grid & -grid
            out |= 1 << cell[low.bit_length() - 1]
            grid ^= low
        return out

    def few(self, cells: int) -> int:
        """:meth:`to_grid` for a mask of a few cells (a RUT, the NODES)."""
        grid = self.grid
        out = 0
        while cells:
            low = cells & -cells
            out |= grid[low.bit_length() - 1]
            cells ^= low
        return out

    def distance(self, start: int, room: int, goal: int) -> int:
        """Pieces to lay from the cells ``start`` through ``room`` until one
        lies on ``goal`` (grid masks; ``start`` and ``goal`` within ``room``):
        1 when a start cell is a goal cell, :data:`FAR` when none is reachable."""
        if start & goal:
            return 1
        w = self.width
        seen = frontier = start
        steps = 1
        while frontier and steps < FAR:
            steps += 1
            m = frontier
            # east and west; north-west and north-east; south-east and south-west
            grown = (m << 1 | m >> 1 | (m | m << 1) << w | (m | m >> 1) >> w) & room & ~seen
            if grown & goal:
                return steps
            seen |= grown
            frontier = grown
        return FAR


def corridor(engine: Beeline, race: Race, state: State, p: int, depth: int = CORRIDOR) -> int:
    """The cells (a mask of cells, bit ``i`` for cell ``i``) that player p's
    next ``depth`` pieces could take on a shortest way to his goal: where a
    NODE speeds his line or stands in its way. With no way to the goal, the
    cells that near."""
    ix = index_of(state)
    occupied = race.to_grid(ix.occ)
    room = (race.usable[p] & ~occupied) | race.few(ix.nodes[p] & race.enter[p])
    lines = engine.lines
    start = race.few(lines.rut_mask(state.cells, state.lines[p], state.hop[p], p)) & room
    if not start:
        return 0
    goal = race.near_goal[p] & room
    w = race.width
    # forward from the RUT, then back from the goal as far as the way is long
    layers = [start]
    seen = start
    while len(layers) < CAP and not layers[-1] & goal and layers[-1]:
        m = layers[-1]
        grown = (m << 1 | m >> 1 | (m | m << 1) << w | (m | m >> 1) >> w) & room & ~seen
        seen |= grown
        layers.append(grown)
    if not layers[-1] & goal:
        out = 0
        for m in layers[:depth]:
            out |= m
        return race.cells_of(out)
    steps = len(layers)
    back = [goal & layers[-1]]
    seen = back[0]
    for k in range(steps - 2, -1, -1):
        m = back[-1]
        grown = (m << 1 | m >> 1 | (m | m << 1) << w | (m | m >> 1) >> w) & layers[k] & ~seen
        seen |= grown
        back.append(grown)
    back.reverse()
    out = 0
    for m in back[:depth]:
        out |= m
    return race.cells_of(out)


def pieces_needed(engine: Beeline, race: Race, state: State, p: int, occupied: int = -1) -> int:
    """The fewest pieces player p's line needs to reach the opponent's start
    (``occupied``: the occupied cells as a grid mask, if known)."""
    ix = index_of(state)
    lines = engine.lines
    if occupied < 0:
        occupied = race.to_grid(ix.occ)
    # empty cells he may use, and NODES of his colour his line may pass
    room = (race.usable[p] & ~occupied) | race.few(ix.nodes[p] & race.enter[p])
    line = state.lines[p]
    start = race.few(lines.rut_mask(state.cells, line, state.hop[p], p)) & room
    if not start:
        return FAR
    return race.distance(start, room, race.near_goal[p] & room)


def _held(hand: tuple[int, ...]) -> int:
    return hand[0] + hand[1] + hand[2] + 9 * hand[3] + hand[4] + hand[5] + hand[6] + hand[7]


def evaluate(engine: Beeline, race: Race, state: State) -> tuple[float, ...]:
    """Black's and Red's values in [0, 1] (adding up to 1); the outcome once
    the game is over."""
    if state.end is not End.PLAYING:
        return terminal_values(2, state.winner if state.end is not End.TIE else None)
    occupied = race.to_grid(index_of(state).occ)
    need = [pieces_needed(engine, race, state, p, occupied) for p in (0, 1)]
    for p in (0, 1):
        if need[p] > _held(state.hands[p]):
            need[p] = FAR  # he cannot finish with what he holds
        need[p] = min(need[p], CAP)
    mover = state.player
    # pieces ahead, Black's way: the player to act plays his pieces first
    ahead = float(need[1] - need[0] + (state.left if mover == 0 else -state.left))
    ahead += NODE * (state.hands[0][7] - state.hands[1][7])
    scale = SURE + DOUBT * min(need)
    return shares((ahead / 2, -ahead / 2), scale)
