"""The board as the rules see it: cells, tiles by code, terminals, stop signs.

Cells are numbered in the frame: cell ``(r, c)`` is ``r * W + c`` with ``W =
size + 2``. Sides are 0 N, 1 E, 2 S, 3 W. A tile on the board is a *code*
``kind * 4 + turn`` (kind 1..12, turn 0..3 quarter turns clockwise); 0 is an
empty cell. Each code's connections, the sides its rails reach and the exits
from each entry side are tables built once.
"""

from __future__ import annotations

from dataclasses import dataclass

from boardctl.engines.linie1.data import BoardData

SIDE_NAMES = "NESW"
TURN_NAMES = "NESW"
COLUMNS = "abcdefghijklmnopqrstuvwxyz"

# what a frame cell is
TRACK, BUILDING, EDGE, TERMINAL = 0, 1, 2, 3


def opposite(side: int) -> int:
    return (side + 2) & 3


@dataclass(frozen=True, slots=True)
class Terminal:
    """One terminal: its line (0-based), which of the line's two (0, 1), its
    two edge cells and the track cell and side each end leads into."""

    index: int
    line: int
    which: int
    edges: tuple[int, int]
    #: per end: (track cell, that cell's side facing the terminal)
    mouths: tuple[tuple[int, int], tuple[int, int]]

    @property
    def name(self) -> str:
        return f"t{self.line + 1}{'ab'[self.which]}"


class Geometry:
    """Every table the rules look up, built from one :class:`BoardData`."""

    def __init__(self, data: BoardData) -> None:
        self.data = data
        n = data.size
        self.size = n
        w = n + 2
        self.width = w
        self.offsets = (-w, 1, w, -1)
        self.kind = [EDGE] * (w * w)
        self.track_cells: list[int] = []
        for r in range(1, n + 1):
            for c in range(1, n + 1):
                self.kind[r * w + c] = TRACK
        self.building_letters = tuple(b for b, _ in data.buildings)
        self.building_cell: dict[int, int] = {}
        for i, (_, (r, c)) in enumerate(data.buildings):
            self.kind[r * w + c] = BUILDING
            self.building_cell[r * w + c] = i
        self.track_cells = [i for i in range(w * w) if self.kind[i] == TRACK]
        #: per cell, the buildings orthogonally next to it (a bit per building)
        self.beside = [0] * (w * w)
        for cell, b in self.building_cell.items():
            for off in self.offsets:
                if self.kind[cell + off] == TRACK:
                    self.beside[cell + off] |= 1 << b
        # terminals
        self.terminal_at = [-1] * (w * w)
        terminals: list[Terminal] = []
        for line, (_, pair) in enumerate(data.lines):
            for which, (ea, eb) in enumerate(pair):
                edges = (ea[0] * w + ea[1], eb[0] * w + eb[1])
                mouths = tuple(self._mouth(e) for e in edges)
                t = Terminal(len(terminals), line, which, edges, (mouths[0], mouths[1]))
                for e in edges:
                    self.kind[e] = TERMINAL
                    self.terminal_at[e] = t.index
                terminals.append(t)
        self.terminals = tuple(terminals)
        self.terminal_index = {t.name: t.index for t in terminals}
        # names
        self.names: dict[int, str] = {}
        for i in self.track_cells + list(self.building_cell):
            r, c = divmod(i, w)
            self.names[i] = f"{COLUMNS[c - 1]}{r}"
        self.cell_of = {name: i for i, name in self.names.items()}
        # tiles
        kinds = data.tiles
        self.kinds = len(kinds)
        size_codes = (self.kinds + 1) * 4
        self.sides = [0] * size_codes
        self.exits: list[tuple[tuple[int, ...], ...]] = [((),) * 4] * size_codes
        self.conns: list[frozenset[tuple[int, int]]] = [frozenset()] * size_codes
        self.canon = [0] * size_codes
        self.trees = [False] * size_codes
        for k, tile in enumerate(kinds, start=1):
            seen: dict[frozenset[tuple[int, int]], int] = {}
            for turn in range(4):
                code = k * 4 + turn
                conns = frozenset(
                    (min((a + turn) & 3, (b + turn) & 3), max((a + turn) & 3, (b + turn) & 3))
                    for a, b in tile.connections
                )
                self.conns[code] = conns
                mask = 0
                exits: list[list[int]] = [[], [], [], []]
                for s0, s1 in conns:
                    mask |= (1 << s0) | (1 << s1)
                    exits[s0].append(s1)
                    exits[s1].append(s0)
                self.sides[code] = mask
                self.exits[code] = tuple(tuple(sorted(e)) for e in exits)
                self.canon[code] = seen.setdefault(conns, code)
                self.trees[code] = tile.trees
        #: the distinct codes of each kind (one per different look)
        self.codes_of = tuple(
            tuple(sorted({self.canon[k * 4 + t] for t in range(4)})) for k in range(self.kinds + 1)
        )
        self.code_names = {
            code: f"{code >> 2}{TURN_NAMES[code & 3]}"
            for k in range(1, self.kinds + 1)
            for code in self.codes_of[k]
        }
        self.code_of_name = {name: code for code, name in self.code_names.items()}
        #: :meth:`code_name` of every tile's code as a table ("" for no tile), read
        #: for every tile of a layout
        self.name_of_code = tuple(
            self.code_names.get(self.canon[code], "") for code in range(size_codes)
        )
        # the strict supersets of each code's connections, for exchanges
        self.upgrades: list[tuple[int, ...]] = [()] * size_codes
        for code in self.code_names:
            self.upgrades[code] = tuple(
                other for other in self.code_names if self.conns[code] < self.conns[other]
            )

    def _mouth(self, edge: int) -> tuple[int, int]:
        """The track cell an edge cell leads into, and that cell's side facing it."""
        w = self.width
        r, c = divmod(edge, w)
        n = self.size
        if c == 0:
            return edge + 1, 3
        if c == n + 1:
            return edge - 1, 1
        if r == 0:
            return edge + w, 0
        return edge - w, 2

    def code_name(self, code: int) -> str:
        return self.code_names[self.canon[code]]
