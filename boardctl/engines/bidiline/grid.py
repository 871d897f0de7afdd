"""The grid of the Bidirectional Line Game: n x n points and the segments between them.

Points are named like chess squares: columns ``a``, ``b``, ... from the left,
rows ``1``, ``2``, ... from the bottom, so ``a1`` is the bottom left. Point
(column c, row r), both 0-based, has the index ``r * n + c``.

A segment (an edge of the grid) joins two points next to each other, up,
down, left or right. Its site name writes the lower point first, the one with
the lower index: ``c3-c4`` (vertical), ``c3-d3`` (horizontal). Segments are
numbered row by row from the bottom: the horizontal segments of row 1 from the
left, then the vertical ones from row 1 to row 2 from the left, then row 2's
horizontal ones, and so on. A set of segments is an ``int`` whose bit ``i``
stands for segment ``i``; the rules are a few integer operations on such sets.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from boardctl.message import M_

#: the column letters; a grid has at most 26 columns
COLUMNS = "abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True, slots=True)
class Grid:
    """The points and segments of an n x n grid, with the lookup tables the
    rules use. Build it with :meth:`of`."""

    n: int
    #: point index -> name
    points: tuple[str, ...]
    #: point name -> index
    point_index: Mapping[str, int]
    #: segment index -> its two points, the lower index first
    segments: tuple[tuple[int, int], ...]
    #: segment index -> site name ("c3-c4")
    segment_names: tuple[str, ...]
    #: site name -> segment index
    segment_index: Mapping[str, int]
    #: point index -> the set (mask) of segments that meet there
    incident: tuple[int, ...]
    #: point index -> ((segment bit, neighbour point), ...)
    steps: tuple[tuple[tuple[int, int], ...], ...]
    #: (point index * number of points + point index) -> segment index, both orders
    _between: Mapping[int, int] = field(repr=False, compare=False)

    @classmethod
    def of(cls, n: int) -> Grid:
        points = tuple(f"{COLUMNS[c]}{r + 1}" for r in range(n) for c in range(n))
        segments: list[tuple[int, int]] = []
        for r in range(n):
            for c in range(n - 1):
                segments.append((r * n + c, r * n + c + 1))
            if r < n - 1:
                for c in range(n):
                    segments.append((r * n + c, (r + 1) * n + c))
        names = tuple(f"{points[p]}-{points[q]}" for p, q in segments)
        count = n * n
        between: dict[int, int] = {}
        incident = [0] * count
        steps: list[list[tuple[int, int]]] = [[] for _ in range(count)]
        for i, (p, q) in enumerate(segments):
            between[p * count + q] = i
            between[q * count + p] = i
            incident[p] |= 1 << i
            incident[q] |= 1 << i
            steps[p].append((1 << i, q))
            steps[q].append((1 << i, p))
        return cls(
            n=n,
            points=points,
            point_index=MappingProxyType({name: i for i, name in enumerate(points)}),
            segments=tuple(segments),
            segment_names=names,
            segment_index=MappingProxyType({name: i for i, name in enumerate(names)}),
            incident=tuple(incident),
            steps=tuple(tuple(sorted(s, key=lambda t: t[1])) for s in steps),
            _between=MappingProxyType(between),
        )

    def between(self, p: int, q: int) -> int | None:
        """The segment joining points ``p`` and ``q``, or None when they are
        not next to each other."""
        return self._between.get(p * len(self.points) + q)

    def xy(self, p: int) -> tuple[int, int]:
        """Point ``p`` as (column, row), both 0-based."""
        return p % self.n, p // self.n

    def describe(self) -> str:
        """The grid in words, for messages: "the 7 x 7 grid (columns a-g, rows 1-7)"."""
        n = self.n
        return M_("the {n} x {n} grid (columns a-{last}, rows 1-{n})", n=n, last=COLUMNS[n - 1])


def bits(mask: int) -> list[int]:
    """The bit positions set in ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
