"""The Shiftago board as bits: cell and track names, track cells, line masks.

Cell ``a1`` is bit 0, ``b1`` bit 1, ... ``g7`` bit 48 (row by row from the south,
west to east in a row); a player's marbles are one 49-bit int.
"""

from __future__ import annotations

from typing import Any

SIZE = 7
CELLS = SIZE * SIZE
FULL = (1 << CELLS) - 1
FILES = "abcdefg"

#: cell names by bit number
CELL_NAMES: tuple[str, ...] = tuple(f"{FILES[i % SIZE]}{i // SIZE + 1}" for i in range(CELLS))
CELL_INDEX: dict[str, int] = {name: i for i, name in enumerate(CELL_NAMES)}

#: track names by track number: W1..W7, E1..E7, Sa..Sg, Na..Ng
TRACK_NAMES: tuple[str, ...] = (
    tuple(f"W{r + 1}" for r in range(SIZE))
    + tuple(f"E{r + 1}" for r in range(SIZE))
    + tuple(f"S{FILES[c]}" for c in range(SIZE))
    + tuple(f"N{FILES[c]}" for c in range(SIZE))
)
TRACK_INDEX: dict[str, int] = {name: i for i, name in enumerate(TRACK_NAMES)}


def on_board(r: int, c: int) -> bool:
    return 0 <= r < SIZE and 0 <= c < SIZE


def cell_bit(r: int, c: int) -> int:
    return 1 << (r * SIZE + c)


def track_geometry(track: int) -> tuple[tuple[int, ...], int]:
    """The cells of a track from its entry cell on (as bits) and its bit step."""
    side, k = divmod(track, SIZE)
    if side == 0:  # west edge of row k, pushing east
        return tuple(cell_bit(k, c) for c in range(SIZE)), 1
    if side == 1:  # east edge of row k, pushing west
        return tuple(cell_bit(k, c) for c in reversed(range(SIZE))), -1
    if side == 2:  # south edge of column k, pushing north
        return tuple(cell_bit(r, k) for r in range(SIZE)), SIZE
    return tuple(cell_bit(r, k) for r in reversed(range(SIZE))), -SIZE


#: the four line directions as (bit step, row step, column step)
DIRECTIONS: tuple[tuple[int, int, int], ...] = ((1, 0, 1), (7, 1, 0), (8, 1, 1), (6, 1, -1))


def mask(pred: Any) -> int:
    return sum(cell_bit(r, c) for r in range(SIZE) for c in range(SIZE) if pred(r, c))


def line_masks(length: int) -> tuple[tuple[int, int, int, int], ...]:
    """Per direction: (step, 2*step, 4*step or 3*step, cells where a run of ``length``
    can start)."""
    out = []
    last = length - 1
    for step, dr, dc in DIRECTIONS:
        start = mask(lambda r, c, dr=dr, dc=dc: on_board(r + last * dr, c + last * dc))
        out.append((step, 2 * step, last * step, start))
    return tuple(out)


COLUMN_A = mask(lambda r, c: c == 0)
ROW_1 = mask(lambda r, c: r == 0)

#: per direction, the cells whose predecessor along that direction is on the board
PRED_MASKS: tuple[int, ...] = tuple(
    mask(lambda r, c, dr=dr, dc=dc: on_board(r - dr, c - dc)) for _, dr, dc in DIRECTIONS
)
