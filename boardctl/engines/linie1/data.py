"""Linie 1's board, tiles, lines and route cards as data (rules/NOTES.md).

:data:`DEFAULT` holds the values read from the 1995 Goldsieber board and
cards. A different board is described by the same JSON shape and passed as
the engine option ``board_data`` (text, so the engine stays pure); see
docs/engine-linie1.md, "Data". :func:`load` checks the shape and returns a
:class:`BoardData`.

Coordinates are ``[row, column]`` in the 14 x 14 frame, row 0 at the top (the
title "LINIE 1" readable at the bottom); rows and columns 1..12 are the track
cells, the frame's edge cells hold the terminals.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from boardctl.errors import BadOptions

SIDES = "NESW"

#: the values of the notes, in the shape ``board_data`` takes
DEFAULT: Mapping[str, Any] = {
    "size": 12,
    "buildings": {
        "A": [8, 12],
        "B": [11, 9],
        "C": [12, 5],
        "D": [9, 2],
        "E": [5, 1],
        "F": [2, 4],
        "G": [1, 8],
        "H": [4, 11],
        "I": [6, 9],
        "K": [9, 7],
        "L": [7, 4],
        "M": [4, 6],
    },
    # each line: its colour and two terminals, a terminal the two edge cells
    # of the frame its loop touches
    "lines": [
        {"colour": "red", "terminals": [[[6, 0], [7, 0]], [[2, 13], [3, 13]]]},
        {"colour": "yellow", "terminals": [[[10, 0], [11, 0]], [[6, 13], [7, 13]]]},
        {"colour": "green", "terminals": [[[2, 0], [3, 0]], [[10, 13], [11, 13]]]},
        {"colour": "blue", "terminals": [[[0, 6], [0, 7]], [[13, 10], [13, 11]]]},
        {"colour": "white", "terminals": [[[0, 2], [0, 3]], [[13, 6], [13, 7]]]},
        {"colour": "black", "terminals": [[[0, 10], [0, 11]], [[13, 2], [13, 3]]]},
    ],
    # tile kinds 1..12 in the notes' order: connections in the base
    # orientation, tiles in the stacks, starting tiles, trees
    "tiles": [
        {"name": "straight", "connections": ["NS"], "stack": 21, "starting": 15, "trees": False},
        {"name": "curve", "connections": ["NE"], "stack": 20, "starting": 10, "trees": False},
        {"name": "straight with a branch", "connections": ["NS", "SW"], "stack": 10},
        {"name": "straight with a branch, mirrored", "connections": ["NS", "SE"], "stack": 10},
        {"name": "two curves from one side", "connections": ["NW", "NE"], "stack": 10},
        {"name": "two opposite curves", "connections": ["NE", "SW"], "stack": 6},
        {
            "name": "straight and both curves to one side",
            "connections": ["EW", "WN", "NE"],
            "stack": 6,
            "trees": True,
        },
        {
            "name": "one side to all three others",
            "connections": ["EW", "EN", "ES"],
            "stack": 6,
            "trees": True,
        },
        {
            "name": "four curves",
            "connections": ["NE", "ES", "SW", "WN"],
            "stack": 4,
            "trees": True,
        },
        {"name": "crossing", "connections": ["NS", "EW"], "stack": 4, "trees": True},
        {
            "name": "straight and two diagonal curves",
            "connections": ["NS", "NE", "SW"],
            "stack": 2,
            "trees": True,
        },
        {
            "name": "straight and two diagonal curves, mirrored",
            "connections": ["NS", "NW", "SE"],
            "stack": 2,
            "trees": True,
        },
    ],
    # each player's starting hand: tile kind -> count
    "start_hand": {"1": 3, "2": 2},
    # route cards by frame colour; each card: the stops of lines 1..n
    "route_cards": {
        "B": [
            ["ACL", "CGK", "DHI", "CEM", "ABM", "EIK"],
            ["BGL", "BLM", "CIM", "ADM", "AGK", "BFM"],
            ["CGM", "GHL", "CDM", "AEI", "DFI", "EKL"],
            ["CDI", "BDM", "GKL", "EFK", "EHK", "ALM"],
            ["FIK", "EGI", "DHK", "HKL", "AEL", "ABL"],
            ["FHK", "CFI", "GLM", "BHL", "DIM", "BFI"],
        ],
        "R": [
            ["AF", "GL", "CF", "DF", "AL", "CE"],
            ["FK", "FH", "AC", "DK", "DG", "EH"],
            ["CM", "FL", "HK", "EK", "DI", "BL"],
            ["BI", "BM", "DM", "EI", "BH", "FI"],
            ["BD", "BE", "BG", "HL", "AM", "AD"],
            ["CI", "GK", "EG", "CH", "HM", "AG"],
        ],
    },
    # which route cards are used, by number of players (blue B, red R)
    "route_set": {"2": "B", "3": "B", "4": "R", "5": "R"},
}


@dataclass(frozen=True, slots=True)
class TileKind:
    """One kind of track tile: its connections in the base orientation as
    pairs of sides (0 N, 1 E, 2 S, 3 W)."""

    number: int
    name: str
    connections: tuple[tuple[int, int], ...]
    stack: int
    starting: int
    trees: bool


@dataclass(frozen=True, slots=True)
class BoardData:
    """A checked board description (see :data:`DEFAULT` for the shape)."""

    size: int
    #: letter -> (row, column)
    buildings: tuple[tuple[str, tuple[int, int]], ...]
    #: per line: colour and two terminals of two edge cells each
    lines: tuple[tuple[str, tuple[tuple[tuple[int, int], tuple[int, int]], ...]], ...]
    tiles: tuple[TileKind, ...]
    #: tile number -> count, each player's starting hand
    start_hand: tuple[tuple[int, int], ...]
    #: set letter -> cards -> stops per line
    route_cards: tuple[tuple[str, tuple[tuple[str, ...], ...]], ...]
    #: players -> set letter
    route_set: tuple[tuple[int, str], ...]


def _fail(where: str, why: str) -> BadOptions:
    return BadOptions(f"linie1: board_data {where}: {why}")


def _cell(value: Any, where: str, size: int) -> tuple[int, int]:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise _fail(where, f"a cell is [row, column], not {value!r}")
    r, c = value
    if not (0 <= r <= size + 1 and 0 <= c <= size + 1):
        raise _fail(where, f"[{r}, {c}] is outside the {size + 2} x {size + 2} frame")
    return r, c


def load(raw: Mapping[str, Any]) -> BoardData:
    """Check a board description and build its :class:`BoardData`;
    :class:`BadOptions` naming the place and the fix if it is wrong."""
    if not isinstance(raw, Mapping):
        raise _fail("", "must be a JSON object like the default (docs/engine-linie1.md)")
    missing = [k for k in DEFAULT if k not in raw]
    if missing:
        raise _fail("", f"misses the key {missing[0]!r}; it needs {', '.join(DEFAULT)}")
    size = raw["size"]
    if not isinstance(size, int) or not 4 <= size <= 26:
        raise _fail("size", f"must be a whole number 4 to 26, not {size!r}")
    buildings = []
    for letter, cell in dict(raw["buildings"]).items():
        r, c = _cell(cell, f"buildings.{letter}", size)
        if not (1 <= r <= size and 1 <= c <= size):
            raise _fail(f"buildings.{letter}", "a building stands on a track cell, not the frame")
        if not (isinstance(letter, str) and len(letter) == 1 and letter.isupper()):
            raise _fail(f"buildings.{letter}", "a building is named by one capital letter")
        buildings.append((letter, (r, c)))
    lines = []
    edge_cells: set[tuple[int, int]] = set()
    for n, line in enumerate(raw["lines"], start=1):
        where = f"lines[{n}]"
        terminals = line.get("terminals") if isinstance(line, Mapping) else None
        if not isinstance(terminals, list) or len(terminals) != 2:
            raise _fail(where, "a line has two terminals")
        ts = []
        for t, terminal in enumerate(terminals, start=1):
            if not isinstance(terminal, list) or len(terminal) != 2:
                raise _fail(f"{where}.terminal {t}", "a terminal touches two edge cells")
            a = _cell(terminal[0], f"{where}.terminal {t}", size)
            b = _cell(terminal[1], f"{where}.terminal {t}", size)
            for cell in (a, b):
                r, c = cell
                on_edge = r in (0, size + 1) or c in (0, size + 1)
                corner = r in (0, size + 1) and c in (0, size + 1)
                if not on_edge or corner:
                    raise _fail(f"{where}.terminal {t}", f"{list(cell)} is not an edge cell")
                if cell in edge_cells:
                    raise _fail(f"{where}.terminal {t}", f"{list(cell)} holds two terminals")
                edge_cells.add(cell)
            if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
                raise _fail(f"{where}.terminal {t}", "its two edge cells must be neighbours")
            ts.append((a, b))
        lines.append((str(line.get("colour", f"line {n}")), (ts[0], ts[1])))
    if not 2 <= len(lines) <= 9:
        raise _fail("lines", "needs 2 to 9 lines")
    tiles = []
    for n, tile in enumerate(raw["tiles"], start=1):
        where = f"tiles[{n}]"
        conns: list[tuple[int, int]] = []
        for pair in tile.get("connections", ()):
            if not (isinstance(pair, str) and len(pair) == 2 and set(pair) <= set(SIDES)):
                raise _fail(where, f"a connection is two sides like 'NS', not {pair!r}")
            s0, s1 = SIDES.index(pair[0]), SIDES.index(pair[1])
            if s0 == s1:
                raise _fail(where, f"{pair!r} joins a side to itself")
            conns.append((min(s0, s1), max(s0, s1)))
        if not conns:
            raise _fail(where, "a tile has at least one connection")
        stack, starting = tile.get("stack", 0), tile.get("starting", 0)
        if not all(isinstance(v, int) and v >= 0 for v in (stack, starting)):
            raise _fail(where, "'stack' and 'starting' are counts")
        tiles.append(
            TileKind(
                n,
                str(tile.get("name", f"tile {n}")),
                tuple(sorted(set(conns))),
                stack,
                starting,
                bool(tile.get("trees", False)),
            )
        )
    hand = []
    for number, count in dict(raw["start_hand"]).items():
        k = int(number)
        if not 1 <= k <= len(tiles) or not isinstance(count, int) or count < 0:
            raise _fail(f"start_hand.{number}", "maps a tile number to a count")
        hand.append((k, count))
    cards = []
    letters = {b for b, _ in buildings}
    for key, deck in dict(raw["route_cards"]).items():
        rows = []
        for i, card in enumerate(deck, start=1):
            if len(card) != len(lines):
                raise _fail(f"route_cards.{key}{i}", f"needs stops for each of {len(lines)} lines")
            for stops in card:
                if not set(stops) <= letters:
                    raise _fail(f"route_cards.{key}{i}", f"{stops!r} names no building")
            rows.append(tuple(str(s) for s in card))
        cards.append((str(key), tuple(rows)))
    route_set = []
    for players, key in dict(raw["route_set"]).items():
        if key not in dict(cards):
            raise _fail(f"route_set.{players}", f"{key!r} is not a set of route_cards")
        route_set.append((int(players), str(key)))
    return BoardData(
        size,
        tuple(buildings),
        tuple(lines),
        tuple(tiles),
        tuple(hand),
        tuple(cards),
        tuple(route_set),
    )


def from_text(text: str) -> BoardData:
    """The board of the ``board_data`` option: empty for :data:`DEFAULT`, else
    JSON text of the same shape."""
    if not text.strip():
        return load(DEFAULT)
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _fail("", f"is not JSON ({exc.msg} at line {exc.lineno})") from None
    return load(raw)
