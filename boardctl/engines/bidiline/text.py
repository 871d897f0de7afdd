"""The Bidirectional Line Game as text: the notation, the terminal drawing and
the JSON form of a state."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from boardctl.engines.bidiline.grid import Grid, bits
from boardctl.engines.bidiline.values import Colour, End, Extend, State
from boardctl.errors import BadNotation, excerpt
from boardctl.message import M_, joined

_MOVE = re.compile(r"([ABab]):([a-zA-Z])(\d{1,2})-([a-zA-Z])(\d{1,2})")
_SEGMENT = re.compile(r"([a-zA-Z]\d{1,2})-([a-zA-Z]\d{1,2})")
_HOW = M_("write the colour of the end, then the segment from its point: A:c3-c4 or B:c3-c4")


def parse_action(grid: Grid, text: str) -> Extend:
    """Read ``A:c3-c4`` or ``B:c3-c4`` (colour and columns in either case);
    :class:`BadNotation` saying what to write instead if it is not a move on
    this grid."""
    raw = text.strip()
    m = _MOVE.fullmatch(raw)
    if m is None:
        if _SEGMENT.fullmatch(raw):
            raise BadNotation(
                M_(
                    "{text} needs the colour of the end it extends: write A:{segment} or "
                    "B:{segment}",
                    text=excerpt(text),
                    segment=raw,
                )
            )
        raise BadNotation(
            M_(
                "{text} is not a Bidirectional Line Game move; {help}",
                text=excerpt(text),
                help=_HOW,
            )
        )
    colour = Colour(m.group(1).upper())
    src = f"{m.group(2).lower()}{int(m.group(3))}"
    dst = f"{m.group(4).lower()}{int(m.group(5))}"
    for point in (src, dst):
        if point not in grid.point_index:
            raise BadNotation(
                M_(
                    "{text}: {point} is not a point of {grid}",
                    text=excerpt(text),
                    point=point,
                    grid=grid.describe(),
                )
            )
    if src == dst:
        raise BadNotation(
            M_(
                "{text}: a segment joins two different points; write the end's point, "
                "then its neighbour: {example}",
                text=excerpt(text),
                example=f"{colour.value}:{src}-{_a_neighbour(grid, src)}",
            )
        )
    if grid.between(grid.point_index[src], grid.point_index[dst]) is None:
        raise BadNotation(
            M_(
                "{text}: {src} and {dst} are not next to each other; a segment goes one step "
                "up, down, left or right, e.g. {example}",
                text=excerpt(text),
                src=src,
                dst=dst,
                example=f"{colour.value}:{src}-{_a_neighbour(grid, src)}",
            )
        )
    return Extend(colour, src, dst)


def _a_neighbour(grid: Grid, point: str) -> str:
    _bit, q = grid.steps[grid.point_index[point]][0]
    return grid.points[q]


def render(grid: Grid, state: State, status: str) -> str:
    """The grid, top row first: ``.`` a point, ``A``/``B`` the point an end is
    at (``*`` both ends), ``-a-``/``-b-`` and ``a``/``b`` the segments drawn in
    colour A or B."""
    n = grid.n
    colour_of: dict[int, str] = {}
    for i in bits(state.drawn):
        colour_of[i] = "a" if (state.amber >> i) & 1 else "b"
    lines = []
    for r in range(n - 1, -1, -1):
        row = []
        for c in range(n):
            p = r * n + c
            mark = "."
            if p == state.end_a and p == state.end_b:
                mark = "*"
            elif p == state.end_a:
                mark = "A"
            elif p == state.end_b and state.moves:
                mark = "B"
            row.append(mark)
            if c < n - 1:
                seg = grid.between(p, p + 1)
                drawn = colour_of.get(seg) if seg is not None else None
                row.append(f"-{drawn}-" if drawn else "   ")
        lines.append(f"{r + 1:>2}  " + "".join(row).rstrip())
        if r:
            below = []
            for c in range(n):
                seg = grid.between((r - 1) * n + c, r * n + c)
                below.append(colour_of.get(seg, " ") if seg is not None else " ")
            lines.append(("    " + "   ".join(below)).rstrip())
    lines.append("    " + "   ".join(grid.points[c][0] for c in range(n)))
    lines.append(status)
    lines.append(M_("key: -a- a = amber (A) segment, -b- b = blue (B), A/B an end, * both ends"))
    return joined(lines, "\n")


def state_to_json(grid: Grid, state: State) -> dict[str, Any]:
    return {
        "segments": {
            grid.segment_names[i]: "A" if (state.amber >> i) & 1 else "B" for i in bits(state.drawn)
        },
        "ends": {
            "A": grid.points[state.end_a] if state.end_a >= 0 else None,
            "B": grid.points[state.end_b] if state.end_b >= 0 else None,
        },
        "moves": state.moves,
    }


def state_from_json(grid: Grid, data: Mapping[str, Any]) -> State:
    """The state that :func:`state_to_json` wrote, checked: the segments of
    each colour must form one unbroken line from the point where the first
    segment started to that colour's end. ``moves`` may be left out."""
    drawn = 0
    amber = 0
    segments = data["segments"]
    if not isinstance(segments, Mapping):
        raise ValueError("'segments' must map segment names to 'A' or 'B'")
    for name, colour in segments.items():
        if name not in grid.segment_index:
            raise ValueError(
                f"{name!r} is not a segment of {grid.describe()}; name a segment by its two "
                "points, the lower (or left) one first, like c3-c4 or c3-d3"
            )
        if colour not in ("A", "B"):
            raise ValueError(f"segment {name}: colour must be 'A' or 'B', not {colour!r}")
        bit = 1 << grid.segment_index[name]
        drawn |= bit
        if colour == "A":
            amber |= bit
    ends = data["ends"]
    end_a = _point(grid, ends, "A")
    end_b = _point(grid, ends, "B")
    count = drawn.bit_count()
    moves = data.get("moves", count)
    if moves != count or isinstance(moves, bool):
        raise ValueError(f"'moves' is {moves!r} but {count} segments are drawn")
    if count == 0:
        if end_a >= 0 or end_b >= 0:
            raise ValueError("no segment is drawn yet, so both ends must be null")
        return State()
    if end_a < 0 or end_b < 0:
        raise ValueError("once a segment is drawn both ends are points")
    start = _start(grid, amber, end_a, "A")
    if count == 1:
        if drawn != amber or end_b != start:
            raise ValueError("the first segment is colour A, and the B end is where it started")
    elif _start(grid, drawn & ~amber, end_b, "B") != start:
        raise ValueError("the A and B segments must start from the same point")
    return State(drawn, amber, end_a, end_b, count, stuck(grid, drawn, end_a, end_b))


def _point(grid: Grid, ends: Mapping[str, Any], key: str) -> int:
    value = ends[key]
    if value is None:
        return -1
    if value not in grid.point_index:
        raise ValueError(f"the {key} end {value!r} is not a point of {grid.describe()}")
    return grid.point_index[value]


def _start(grid: Grid, mask: int, end: int, colour: str) -> int:
    """The point a line of the segments in ``mask`` starts from, when it ends
    at ``end``; ValueError when those segments are not one such line."""
    if not mask:
        raise ValueError(f"no segment of colour {colour} is drawn")
    if not grid.incident[end] & mask:
        raise ValueError(f"the {colour} end {grid.points[end]} touches no {colour} segment")
    # one unbroken line: connected, and odd at its two ends only (none if closed)
    odd = {p for p in range(len(grid.points)) if (grid.incident[p] & mask).bit_count() % 2}
    starts = odd ^ {end}
    if len(starts) != 1:
        raise ValueError(f"the {colour} segments do not make one line ending at {grid.points[end]}")
    reach = {end}
    todo = [end]
    seen = 0
    while todo:
        p = todo.pop()
        for bit, q in grid.steps[p]:
            if mask & bit:
                seen |= bit
                if q not in reach:
                    reach.add(q)
                    todo.append(q)
    if seen != mask:
        raise ValueError(f"the {colour} segments are not one unbroken line")
    return starts.pop()


def stuck(grid: Grid, drawn: int, end_a: int, end_b: int) -> End:
    """Which ends have no segment left to extend along (after a move)."""
    free = ~drawn
    a = not grid.incident[end_a] & free
    b = not grid.incident[end_b] & free
    if a and b:
        return End.BOTH_STUCK
    if a:
        return End.A_STUCK
    if b:
        return End.B_STUCK
    return End.PLAYING
