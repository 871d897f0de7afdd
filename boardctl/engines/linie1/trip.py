"""Where a streetcar may drive: positions, steps, routes and trips.

A *position* is where a streetcar stands and which way it faces:

* ``cell * 4 + side`` on a track cell it entered through ``side``;
* ``TERMINAL_AT + terminal * 2 + end`` inside a terminal it will leave by
  ``end`` (it entered by the other end: a terminal's loop joins its two ends);
* ``START_AT + terminal`` at the terminal a trip starts from, free to leave by
  either end.

A streetcar entering a tile by one side leaves it by a side the tile's rails
join to that one: it never switches from one rail to another on a tile, so no
right-angle or sharper turn is possible. A *site* of a path is the cell's
number, or ``TERMINAL_AT + terminal`` for a terminal.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator

from boardctl.engines.linie1.geometry import TERMINAL, TRACK, Geometry, opposite

TERMINAL_AT = 10_000
START_AT = 20_000


def site_of(pos: int) -> int:
    """The site (cell number, or TERMINAL_AT + terminal) of a position."""
    if pos >= START_AT:
        return TERMINAL_AT + pos - START_AT
    if pos >= TERMINAL_AT:
        return TERMINAL_AT + (pos - TERMINAL_AT) // 2
    return pos >> 2


class Driver:
    """The moves of streetcars on one board geometry."""

    def __init__(self, geo: Geometry) -> None:
        self.geo = geo

    def _leave(self, tiles: bytes, terminal: int, end: int) -> int | None:
        cell, side = self.geo.terminals[terminal].mouths[end]
        code = tiles[cell]
        if code and (self.geo.sides[code] >> side) & 1:
            return cell * 4 + side
        return None

    def step(self, tiles: bytes, pos: int) -> list[int]:
        """The positions one site on from ``pos`` (empty: the rails end)."""
        geo = self.geo
        if pos >= START_AT:
            t = pos - START_AT
            out = [self._leave(tiles, t, 0), self._leave(tiles, t, 1)]
            return [p for p in out if p is not None]
        if pos >= TERMINAL_AT:
            t, end = divmod(pos - TERMINAL_AT, 2)
            nxt = self._leave(tiles, t, end)
            return [] if nxt is None else [nxt]
        cell, side = pos >> 2, pos & 3
        found = []
        for exit_side in geo.exits[tiles[cell]][side]:
            j = cell + geo.offsets[exit_side]
            entry = opposite(exit_side)
            kind = geo.kind[j]
            if kind == TRACK:
                code = tiles[j]
                if code and (geo.sides[code] >> entry) & 1:
                    found.append(j * 4 + entry)
            elif kind == TERMINAL:
                t = geo.terminal_at[j]
                end = 0 if geo.terminals[t].edges[0] == j else 1
                found.append(TERMINAL_AT + t * 2 + (1 - end))
        return found

    @staticmethod
    def stop_bits(pos: int, stop_cells: dict[int, int]) -> int:
        """The buildings whose stop sign stands where ``pos`` is."""
        if pos >= TERMINAL_AT:
            return 0
        return stop_cells.get(pos >> 2, 0)

    def route(
        self, tiles: bytes, start: int, goal: int, need: int, stop_cells: dict[int, int], have: int
    ) -> list[int] | None:
        """A shortest drive from position ``start`` (having made the stops
        ``have``) into terminal ``goal`` through every stop in ``need``, as
        positions; None if there is none."""
        first = (start, have & need)
        parent: dict[tuple[int, int], tuple[int, int] | None] = {first: None}
        queue = deque([first])
        while queue:
            node = queue.popleft()
            pos, mask = node
            for nxt in self.step(tiles, pos):
                m = mask | (self.stop_bits(nxt, stop_cells) & need)
                if nxt >= TERMINAL_AT and (nxt - TERMINAL_AT) // 2 == goal and m == need:
                    path = [nxt]
                    back: tuple[int, int] | None = node
                    while back is not None:
                        path.append(back[0])
                        back = parent[back]
                    path.reverse()
                    return path
                key = (nxt, m)
                if key not in parent:
                    parent[key] = node
                    queue.append(key)
        return None

    def drives(
        self,
        tiles: bytes,
        pos: int,
        have: int,
        need: int,
        goal: int,
        stop_cells: dict[int, int],
        lengths: range,
        to_stop: bool,
    ) -> Iterator[tuple[tuple[int, ...], int, int, bool]]:
        """Every drive from ``pos``: (sites, end position, stops made, won).

        A drive goes ``lengths`` sites on (``to_stop``: on to the first stop
        sign or terminal, never twice through one position); it ends early
        where the rails end or on entering the goal with every stop made."""
        stop_any = {c for c, bits in stop_cells.items() if bits}
        top = lengths.stop - 1
        path: list[int] = []
        seen: set[int] = set()

        def walk(at: int, mask: int) -> Iterator[tuple[tuple[int, ...], int, int, bool]]:
            steps = self.step(tiles, at)
            if not steps:
                if path and (to_stop or len(path) not in lengths):
                    yield tuple(path), at, mask, False
                return
            for nxt in steps:
                site = site_of(nxt)
                m = mask | (self.stop_bits(nxt, stop_cells) & need)
                path.append(site)
                if nxt >= TERMINAL_AT and (nxt - TERMINAL_AT) // 2 == goal and m == need:
                    yield tuple(path), nxt, m, True
                elif to_stop:
                    if nxt >= TERMINAL_AT or (nxt >> 2) in stop_any:
                        yield tuple(path), nxt, m, False
                    elif nxt not in seen:
                        seen.add(nxt)
                        yield from walk(nxt, m)
                        seen.discard(nxt)
                else:
                    if len(path) in lengths:
                        yield tuple(path), nxt, m, False
                    if len(path) < top:
                        yield from walk(nxt, m)
                path.pop()

        yield from walk(pos, have)
