"""The DuploLine board: 37 hexagonal cells, named and packed into bitmasks.

Rows ``a``..``g`` run from the bottom; row ``a`` holds cells 1-4, ``b`` 1-5,
``c`` 1-6, ``d`` 1-7, ``e`` 2-7, ``f`` 3-7 and ``g`` 4-7. The neighbours of
cell (row r, number c) are (r, c-1), (r, c+1), (r+1, c), (r+1, c+1),
(r-1, c-1) and (r-1, c); lines run along the three axes (r, c+1), (r+1, c)
and (r+1, c+1).

A set of cells is an ``int`` whose bit ``8*r + c`` stands for cell (r, c).
Column 0 of every row is never a cell, so shifting a mask by 1, 8 or 9 and
masking with :data:`VALID` moves it one step along an axis without wrapping
round the board's edge. This keeps the rules to a few integer operations.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType

ROWS = "abcdefg"
#: the first and last cell number of each row, bottom to top
SPANS = ((1, 4), (1, 5), (1, 6), (1, 7), (2, 7), (3, 7), (4, 7))
#: bit shifts of the three line axes: along a row, up-left (r+1, c), up-right (r+1, c+1)
AXES = (1, 8, 9)


def _cells() -> tuple[tuple[str, int], ...]:
    cells: list[tuple[str, int]] = []
    for r, (lo, hi) in enumerate(SPANS):
        for c in range(lo, hi + 1):
            cells.append((f"{ROWS[r]}{c}", 8 * r + c))
    return tuple(cells)


_CELLS = _cells()
#: the 37 cell names, row a first, each row by number
NAMES: tuple[str, ...] = tuple(name for name, _ in _CELLS)
#: the bit position of each cell, in the order of :data:`NAMES`
POSITIONS: tuple[int, ...] = tuple(pos for _, pos in _CELLS)
#: cell name -> bit position
POSITION: Mapping[str, int] = MappingProxyType(dict(_CELLS))
#: bit position -> cell name ("" where there is no cell)
NAME: tuple[str, ...] = tuple(next((n for n, p in _CELLS if p == pos), "") for pos in range(64))
#: every cell of the board
VALID: int = sum(1 << pos for pos in POSITIONS)


def grow(mask: int) -> int:
    """``mask`` and every cell next to one of its cells."""
    return (
        mask | (mask << 1) | (mask >> 1) | (mask << 8) | (mask >> 8) | (mask << 9) | (mask >> 9)
    ) & VALID


#: bit position -> mask of its neighbours (0 where there is no cell)
NEIGHBOURS: tuple[int, ...] = tuple(
    (grow(1 << pos) & ~(1 << pos)) if NAME[pos] else 0 for pos in range(64)
)


def bits(mask: int) -> Iterator[int]:
    """The bit positions set in ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def connected(mask: int) -> bool:
    """Whether the cells of ``mask`` form one group (true for no cell at all)."""
    if not mask:
        return True
    reach = mask & -mask
    while True:
        more = (
            reach
            | (reach << 1)
            | (reach >> 1)
            | (reach << 8)
            | (reach >> 8)
            | (reach << 9)
            | (reach >> 9)
        ) & mask
        if more == reach:
            return reach == mask
        reach = more


def groups(mask: int) -> int:
    """How many separate groups the cells of ``mask`` form."""
    count = 0
    while mask:
        reach = mask & -mask
        while True:
            more = grow(reach) & mask
            if more == reach:
                break
            reach = more
        mask &= ~reach
        count += 1
    return count


def has_line(mask: int) -> bool:
    """Whether ``mask`` holds 4 or more cells in a row along one of the axes."""
    for step in AXES:
        two = mask & (mask >> step)
        if two & (two >> (2 * step)):
            return True
    return False


def lines(mask: int) -> tuple[tuple[int, ...], ...]:
    """Every maximal run of 4+ cells of ``mask`` along an axis, as bit positions."""
    found: list[tuple[int, ...]] = []
    for step in AXES:
        for pos in bits(mask):
            if pos - step >= 0 and (mask >> (pos - step)) & 1:
                continue  # not the start of a run
            run = [pos]
            while (mask >> (run[-1] + step)) & 1:
                run.append(run[-1] + step)
            if len(run) >= 4:
                found.append(tuple(run))
    return tuple(found)
