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

from boardctl.errors import BadOptions, excerpt

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


#: how deeply board data may nest (the default nests five deep)
MAX_DEPTH = 32
#: the most tile kinds (a tile on the board is one byte: kind * 4 + turn)
MAX_KINDS = 63
#: the most tiles of one kind in the stacks or set aside for starting hands
MAX_COUNT = 999
#: the most route cards in one set
MAX_CARDS = 99


def _fail(where: str, why: str) -> BadOptions:
    return BadOptions(f"linie1: board_data {where}: {why}")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _object(value: Any, where: str, example: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise _fail(where, f"must be an object like {example}, not {_kind(value)}")
    return value


def _array(value: Any, where: str, example: str, most: int) -> list[Any]:
    if not isinstance(value, list):
        raise _fail(where, f"must be a list like {example}, not {_kind(value)}")
    if len(value) > most:
        raise _fail(where, f"lists {len(value)}, at most {most}")
    return value


def _count(value: Any, where: str) -> int:
    if not _is_int(value) or not 0 <= value <= MAX_COUNT:
        raise _fail(where, f"must be a count from 0 to {MAX_COUNT}, not {excerpt(value)}")
    return int(value)


def _key(key: Any) -> str:
    """A key as it is named in a message: itself when short, else an excerpt."""
    return key if isinstance(key, str) and len(key) <= 8 else excerpt(key, 8)


def _kind(value: Any) -> str:
    """What a JSON value is, in a word (never the value itself)."""
    names = {dict: "an object", list: "a list", str: "text", bool: "true or false"}
    if value is None:
        return "null"
    return names.get(type(value), "a number")


def _cell(value: Any, where: str, size: int) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2 or not all(_is_int(v) for v in value):
        raise _fail(where, f"a cell is [row, column], not {excerpt(value)}")
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
    unknown = [k for k in raw if k not in DEFAULT]
    if unknown:
        raise _fail("", f"has the unknown key {excerpt(unknown[0])}; it has {', '.join(DEFAULT)}")
    size = raw["size"]
    if not _is_int(size) or not 4 <= size <= 26:
        raise _fail("size", f"must be a whole number 4 to 26, not {excerpt(size)}")
    buildings = []
    seen_cells: set[tuple[int, int]] = set()
    places = _object(raw["buildings"], "buildings", '{"A": [8, 12]}')
    for letter, cell in places.items():
        where = f"buildings.{_key(letter)}"
        if not (isinstance(letter, str) and len(letter) == 1 and "A" <= letter <= "Z"):
            raise _fail(where, "a building is named by one capital letter")
        r, c = _cell(cell, where, size)
        if not (1 <= r <= size and 1 <= c <= size):
            raise _fail(where, "a building stands on a track cell, not the frame")
        if (r, c) in seen_cells:
            raise _fail(where, f"[{r}, {c}] holds another building already")
        seen_cells.add((r, c))
        buildings.append((letter, (r, c)))
    lines = []
    edge_cells: set[tuple[int, int]] = set()
    example = '[{"colour": "red", "terminals": [[[6, 0], [7, 0]], [[2, 13], [3, 13]]]}]'
    for n, line in enumerate(_array(raw["lines"], "lines", example, 9), start=1):
        where = f"lines[{n}]"
        line = _object(line, where, example[1:-1])
        terminals = line.get("terminals")
        if not isinstance(terminals, list) or len(terminals) != 2:
            raise _fail(where, "a line has two terminals")
        colour = line.get("colour", f"line {n}")
        if not isinstance(colour, str) or len(colour) > 40:
            raise _fail(f"{where}.colour", 'a colour is a short name, like "red"')
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
        lines.append((colour, (ts[0], ts[1])))
    if not 2 <= len(lines) <= 9:
        raise _fail("lines", "needs 2 to 9 lines")
    tiles = []
    example = '[{"name": "straight", "connections": ["NS"], "stack": 21, "starting": 15}]'
    for n, tile in enumerate(_array(raw["tiles"], "tiles", example, MAX_KINDS), start=1):
        where = f"tiles[{n}]"
        tile = _object(tile, where, example[1:-1])
        conns: list[tuple[int, int]] = []
        pairs = _array(tile.get("connections", []), f"{where}.connections", '["NS"]', 6)
        for pair in pairs:
            if not (isinstance(pair, str) and len(pair) == 2 and set(pair) <= set(SIDES)):
                raise _fail(where, f"a connection is two sides like 'NS', not {excerpt(pair)}")
            s0, s1 = SIDES.index(pair[0]), SIDES.index(pair[1])
            if s0 == s1:
                raise _fail(where, f"{pair!r} joins a side to itself")
            conns.append((min(s0, s1), max(s0, s1)))
        if not conns:
            raise _fail(where, "a tile has at least one connection")
        stack = _count(tile.get("stack", 0), f"{where}.stack")
        starting = _count(tile.get("starting", 0), f"{where}.starting")
        name = tile.get("name", f"tile {n}")
        trees = tile.get("trees", False)
        if not isinstance(name, str) or len(name) > 80:
            raise _fail(f"{where}.name", "a name is short text")
        if not isinstance(trees, bool):
            raise _fail(f"{where}.trees", "is true or false")
        tiles.append(TileKind(n, name, tuple(sorted(set(conns))), stack, starting, trees))
    if not tiles:
        raise _fail("tiles", "needs at least one kind of tile")
    hand = []
    for number, count in _object(raw["start_hand"], "start_hand", '{"1": 3}').items():
        where = f"start_hand.{_key(number)}"
        if not (isinstance(number, str) and number.isdigit() and len(number) <= 2):
            raise _fail(where, 'maps a tile number to a count, like "1": 3')
        k = int(number)
        if not 1 <= k <= len(tiles):
            raise _fail(where, f"there is no tile {k}; the tiles are 1 to {len(tiles)}")
        hand.append((k, _count(count, where)))
    cards = []
    letters = {b for b, _ in buildings}
    example = '{"B": [["ACL", "CGK"]]}'
    for key, deck in _object(raw["route_cards"], "route_cards", example).items():
        if not (isinstance(key, str) and len(key) == 1 and "A" <= key <= "Z" and key != "L"):
            raise _fail(
                f"route_cards.{_key(key)}",
                "a set of route cards is named by one capital letter (not L: line cards)",
            )
        rows = []
        for i, card in enumerate(_array(deck, f"route_cards.{key}", '[["ACL"]]', MAX_CARDS), 1):
            where = f"route_cards.{key}{i}"
            if not isinstance(card, list) or len(card) != len(lines):
                raise _fail(where, f"needs stops for each of {len(lines)} lines")
            for stops in card:
                if not isinstance(stops, str) or not set(stops) <= letters or len(stops) > 26:
                    raise _fail(where, f"{excerpt(stops)} names no building")
            rows.append(tuple(card))
        if not rows:
            raise _fail(f"route_cards.{key}", "holds no card")
        cards.append((key, tuple(rows)))
    route_set = []
    for players, key in _object(raw["route_set"], "route_set", '{"2": "B"}').items():
        where = f"route_set.{_key(players)}"
        if not (isinstance(players, str) and players in ("2", "3", "4", "5")):
            raise _fail(where, "maps a number of players, 2 to 5, to a set of route cards")
        if not isinstance(key, str) or key not in dict(cards):
            raise _fail(where, f"{excerpt(key)} is not a set of route_cards")
        route_set.append((int(players), key))
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
    if not isinstance(text, str):
        raise _fail("", "must be JSON text")
    if not text.strip():
        return load(DEFAULT)
    if _depth(text) > MAX_DEPTH:
        raise _fail("", f"is nested more than {MAX_DEPTH} deep; the board nests five deep")
    try:
        raw = json.loads(text)
    except RecursionError:  # a guard: _depth counts what json recurses on
        raise _fail("", "is nested too deeply") from None
    except json.JSONDecodeError as exc:
        raise _fail("", f"is not JSON ({exc.msg} at line {exc.lineno})") from None
    except ValueError as exc:  # an integer of thousands of digits
        raise _fail("", f"is not JSON ({excerpt(str(exc))})") from None
    return load(raw)


def _depth(text: str) -> int:
    """How deeply ``[`` and ``{`` nest in JSON text, outside strings (counting
    stops past :data:`MAX_DEPTH`)."""
    level = deepest = 0
    quoted = escaped = False
    for ch in text:
        if quoted:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch in "[{":
            level += 1
            if level > deepest:
                deepest = level
                if deepest > MAX_DEPTH:
                    break
        elif ch in "]}":
            level -= 1
    return deepest
