"""The Beeline board: hexagonal cells read from a layout picture.

Rows are named ``a``, ``b``, ... from the south; within the board a cell's
number counts along the north-east diagonal, as on an Abalone board: the
neighbours of cell (row r, number c) are (r, c+1) east, (r+1, c+1) north-east,
(r+1, c) north-west, (r, c-1) west, (r-1, c-1) south-west and (r-1, c)
south-east. The six sides of a cell are numbered the same way, 0 (east) to 5
(south-east), counter-clockwise; side ``s`` faces side ``(s + 3) % 6`` of the
neighbour across it.

A set of cells is an ``int`` whose bit ``i`` stands for cell ``i`` (cells are
numbered row by row from the south, west to east).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from boardctl.engines.beeline.layouts import LAYOUTS
from boardctl.errors import BadOptions

#: side names, counter-clockwise from east
SIDES = ("e", "ne", "nw", "w", "sw", "se")
#: (row, number) steps across each side
STEPS = ((0, 1), (1, 1), (1, 0), (0, -1), (-1, -1), (-1, 0))
ROW_LETTERS = "abcdefghijklmnopqrstuvwxyz"
#: what each picture character is
OPEN, DARK_BLACK, DARK_RED, OUT, START_BLACK, START_RED, CENTRE = ".", "b", "r", "#", "B", "R", "+"
_CHARS = frozenset(".br#BR+")


@dataclass(frozen=True, slots=True)
class Board:
    """One layout's cells, their neighbours and who may use them."""

    layout: str
    names: tuple[str, ...]
    index: Mapping[str, int]
    #: each cell's (row, number), rows from 0
    coords: tuple[tuple[int, int], ...]
    #: each cell's neighbour across each side, -1 off the board
    nbr: tuple[tuple[int, ...], ...]
    #: cells each player may play on (open cells and their own dark area)
    usable: tuple[int, int]
    #: each player's dark area: only that player may use it
    dark: tuple[int, int]
    #: cells out of bounds for both
    out: int
    #: each player's starting cell
    starts: tuple[int, int]
    centre: int | None

    @property
    def size(self) -> int:
        return len(self.names)

    def side_towards(self, cell: int, other: int) -> int:
        """The side of ``cell`` that faces its neighbour ``other``."""
        return self.nbr[cell].index(other)


def parse_layout(name: str, picture: str) -> Board:
    """The board a layout picture draws; :class:`BadOptions` saying where it is wrong."""
    lines = [line.rstrip() for line in picture.splitlines() if line.strip()]
    rows = len(lines)
    if rows > len(ROW_LETTERS):
        raise BadOptions(f"beeline layout {name!r}: at most {len(ROW_LETTERS)} rows")
    raw: list[tuple[int, int, str]] = []
    for i, line in enumerate(lines):
        r = rows - 1 - i
        for t, ch in enumerate(line):
            if ch == " ":
                continue
            if ch not in _CHARS:
                raise BadOptions(
                    f"beeline layout {name!r}, line {i + 1}: {ch!r} is not a cell; "
                    f"use one of {' '.join(sorted(_CHARS))}"
                )
            if (t + r) % 2:
                raise BadOptions(
                    f"beeline layout {name!r}, line {i + 1}, column {t + 1}: cells of a row stand "
                    "two characters apart, and each row is shifted by one against the next"
                )
            raw.append((r, (t + r) // 2, ch))
    shift = 1 - min(c for _, c, _ in raw)
    cells = sorted(((r, c + shift, ch) for r, c, ch in raw), key=lambda x: (x[0], x[1]))
    names = tuple(f"{ROW_LETTERS[r]}{c}" for r, c, _ in cells)
    index = {n: i for i, n in enumerate(names)}
    where = {(r, c): i for i, (r, c, _) in enumerate(cells)}
    nbr = tuple(tuple(where.get((r + dr, c + dc), -1) for dr, dc in STEPS) for r, c, _ in cells)
    mask = {ch: sum(1 << i for i, (_, _, x) in enumerate(cells) if x == ch) for ch in _CHARS}
    for ch, who in ((START_BLACK, "Black"), (START_RED, "Red")):
        if bin(mask[ch]).count("1") != 1:
            raise BadOptions(
                f"beeline layout {name!r}: it needs one starting cell for {who} ({ch})"
            )
    if bin(mask[CENTRE]).count("1") > 1:
        raise BadOptions(f"beeline layout {name!r}: at most one centre cell (+)")
    open_cells = mask[OPEN] | mask[CENTRE]
    centre = mask[CENTRE].bit_length() - 1 if mask[CENTRE] else None
    return Board(
        layout=name,
        names=names,
        index=MappingProxyType(index),
        coords=tuple((r, c) for r, c, _ in cells),
        nbr=nbr,
        usable=(open_cells | mask[DARK_BLACK], open_cells | mask[DARK_RED]),
        dark=(mask[DARK_BLACK], mask[DARK_RED]),
        out=mask[OUT],
        starts=(mask[START_BLACK].bit_length() - 1, mask[START_RED].bit_length() - 1),
        centre=centre,
    )


def load(name: str) -> Board:
    """The layout called ``name``; :class:`BadOptions` naming the layouts if there is none."""
    try:
        picture = LAYOUTS[name]
    except KeyError:
        raise BadOptions(
            f"beeline: unknown layout {name!r}; the layouts are {', '.join(sorted(LAYOUTS))}"
        ) from None
    return parse_layout(name, picture)
