"""How well each player stands in a Linie 1 position, for the computer opponent.

Linie 1 is a race in turns: lay the track of one's route (two tiles a turn),
then drive it with the die. So the evaluation counts, for each player whose
cards it knows, the tiles still to lay on the shortest buildable route from one
of their terminals through their stops to the other: cells already holding a
tile cost nothing where its rails lead on, empty cells one tile each, and a
stop is the building's sign, or (no sign yet) any empty cell beside it, which
will take the sign. A player on the trip counts the cells still to drive. Both
become turns (a roll drives about :data:`ROLL` cells), the player laying now
counts the tiles left to him this turn, and the fewer turns, the larger the
share (:func:`~boardctl.engines.playing.shares`).

The distances are floods over the frame as masks (cell ``i`` is bit ``i``; the
frame's border keeps a shift from wrapping), one mask per side a car entered
by: it leaves a tile only by a side the tile's rails join to that one, an
empty cell by any side, and enters a cell where it is empty or has a rail
facing it. The count of tiles (:func:`route_tiles`) follows one streetcar:
a 0-1 search over where it is, the side it came in by and the stops it has
made (each mask holds a copy of the frame per set of stops, so one shift
moves the car on in all of them), so a route counted complete is one a car
can drive, not legs that only meet; an empty cell takes it on by any side
but the one it came in by (no tile turns a car round), and it reaches the
last terminal only by a mouth whose rails lead into it. Where to lay
(:func:`corridor`, for the actions worth a look) is where that search from
one terminal and the same search from the other meet at the route's count.

Pure and fast: the search calls it at every position it reaches.
"""

from __future__ import annotations

import math
from itertools import permutations
from typing import TYPE_CHECKING

from boardctl.engines.linie1.values import LAY, OVER, State
from boardctl.engines.playing import shares, terminal_values

if TYPE_CHECKING:
    from boardctl.engines.linie1.engine import Linie1

#: tiles a route counts as needing when none can be built (walled off)
FAR = 40
#: cells a roll of the die drives, about (1234HH: an H reaches the next sign)
ROLL = 2.8
#: turns a trip counts as at most (a route of some 22 cells)
TRIP = 8.0
#: how sure a lead is: a seat needing a tenth fewer turns than another holds
#: about twice its share ((10 / 9) ** SURE); by ratios, not differences, so a
#: seat far ahead still gains by every tile of its own more than by the same
#: tile's help to another
SURE = 7.0
#: the turns against which a seat judged by a glance (:func:`glance`) sets its
#: own where it does not count the others' in full: about a route one tile
#: from complete
ALONE = 10.0


class Network:
    """The frame as masks, for floods by shifting."""

    def __init__(self, engine: Linie1) -> None:
        geo = engine.geo
        self.geo = geo
        self.width = geo.width
        self.track = sum(1 << c for c in geo.track_cells)
        self.cells = tuple(geo.track_cells)
        #: per terminal: its two mouths (track cell, the cell's side facing it)
        self.mouths = tuple(t.mouths for t in geo.terminals)
        #: per building: the track cells orthogonally beside it
        self.beside = tuple(
            sum(1 << c for c in geo.track_cells if geo.beside[c] >> b & 1)
            for b in range(len(geo.building_letters))
        )
        #: per tile code: the (entry side, exit side) pairs its rails join
        self.joins = tuple(
            tuple((a, b) for a in range(4) for b in geo.exits[code][a])
            for code in range(len(geo.exits))
        )
        #: the bits of one copy of the frame, in a mask that holds one per
        #: set of stops (:meth:`layers`)
        self.stride = geo.width * geo.width
        self._layers: dict[int, tuple[int, int, tuple[int, ...]]] = {}

    def layers(self, stops: int) -> tuple[int, int, tuple[int, ...]]:
        """For a route through ``stops`` stops, a mask holding a copy of the
        frame per set of stops made (set ``m`` at bit ``m * stride``): the
        stride, the multiplier that copies a frame mask into every layer,
        and per stop the one that copies it into the layers without it."""
        got = self._layers.get(stops)
        if got is None:
            stride = self.stride
            sets = range(1 << stops)
            every = sum(1 << (m * stride) for m in sets)
            lacking = tuple(
                sum(1 << (m * stride) for m in sets if not m >> i & 1) for i in range(stops)
            )
            got = self._layers[stops] = (stride, every, lacking)
        return got


class Flood:
    """Floods over one position's rails.

    A car in a cell holding a tile leaves it only by a side the tile joins to
    the side it came in by; an empty cell (a tile to lay) it may leave by any
    side. It enters a cell by a side where the cell is empty or has a rail."""

    __slots__ = ("empty", "enter", "enter_tiled", "joins", "tiled", "width")

    def __init__(self, net: Network, tiles: bytes) -> None:
        joins = [[0] * 4 for _ in range(4)]
        enter = [0, 0, 0, 0]
        tiled = 0
        table = net.joins
        sides = net.geo.sides
        for c in net.cells:
            code = tiles[c]
            if code:
                bit = 1 << c
                tiled |= bit
                for a, b in table[code]:
                    joins[a][b] |= bit
                s = sides[code]
                for d in range(4):
                    if s >> d & 1:
                        enter[d] |= bit
        empty = net.track & ~tiled
        self.tiled = tiled
        self.empty = empty
        self.width = net.width
        #: joins[a][b]: the tiled cells whose tile joins side a to side b
        self.joins = joins
        #: the cells a car may enter by each side
        self.enter = [empty | e for e in enter]
        #: the tiled cells a car may enter by each side
        self.enter_tiled = [e & tiled for e in enter]

    def _moves(self, came: list[int], loose: int, leave: list[int] | None = None) -> list[int]:
        """Where a car goes next from the tiled cells it entered by each side
        (``came``), the empty cells ``loose`` (left by any side) and the empty
        cells left by each side (``leave``): the cells entered, by side."""
        j = self.joins
        w = self.width
        ent = self.enter
        l0, l1, l2, l3 = (loose, loose, loose, loose) if leave is None else leave
        out0 = l0 | (came[1] & j[1][0]) | (came[2] & j[2][0]) | (came[3] & j[3][0])
        out1 = l1 | (came[0] & j[0][1]) | (came[2] & j[2][1]) | (came[3] & j[3][1])
        out2 = l2 | (came[0] & j[0][2]) | (came[1] & j[1][2]) | (came[3] & j[3][2])
        out3 = l3 | (came[0] & j[0][3]) | (came[1] & j[1][3]) | (came[2] & j[2][3])
        # leaving north enters the cell above by its south side, and so on
        return [out2 << w & ent[0], out3 >> 1 & ent[1], out0 >> w & ent[2], out1 << 1 & ent[3]]

    def along_rails(self, settled: list[int], front: list[int], leave: list[int]) -> list[int]:
        """The tiled cells entered by each side (``settled``) grown by going on
        along the rails laid, at no cost, from the cells just entered by each
        side (``front``, within ``settled``) and the empty cells just reached,
        by the side each may be left by (``leave``)."""
        w = self.width
        j = self.joins
        j10, j20, j30 = j[1][0], j[2][0], j[3][0]
        j01, j21, j31 = j[0][1], j[2][1], j[3][1]
        j02, j12, j32 = j[0][2], j[1][2], j[3][2]
        j03, j13, j23 = j[0][3], j[1][3], j[2][3]
        e0, e1, e2, e3 = self.enter_tiled
        s0, s1, s2, s3 = settled
        f0, f1, f2, f3 = front
        l0, l1, l2, l3 = leave
        while f0 | f1 | f2 | f3 | l0 | l1 | l2 | l3:
            o0 = l0 | (f1 & j10) | (f2 & j20) | (f3 & j30)
            o1 = l1 | (f0 & j01) | (f2 & j21) | (f3 & j31)
            o2 = l2 | (f0 & j02) | (f1 & j12) | (f3 & j32)
            o3 = l3 | (f0 & j03) | (f1 & j13) | (f2 & j23)
            l0 = l1 = l2 = l3 = 0
            f0 = o2 << w & e0 & ~s0
            f1 = o3 >> 1 & e1 & ~s1
            f2 = o0 >> w & e2 & ~s2
            f3 = o1 << 1 & e3 & ~s3
            s0 |= f0
            s1 |= f1
            s2 |= f2
            s3 |= f3
        return [s0, s1, s2, s3]

    def layers(
        self, came: list[int], loose: int, targets: list[int], limit: int = FAR
    ) -> tuple[list[int], list[int]]:
        """From the tiled cells entered by each side (``came``) and the empty
        cells ``loose``: the cells reached with at most L tiles laid, for L =
        0, 1, ... (cumulative), until every target cell is reached or
        ``limit``; and per target the fewest tiles (:data:`FAR` if none)."""
        tiled, empty = self.tiled, self.empty
        s0, s1, s2, s3 = (c & tiled for c in came)
        f0, f1, f2, f3 = s0, s1, s2, s3
        reach = s0 | s1 | s2 | s3
        filled = 0  # empty cells reached
        out: list[int] = []
        done = [FAR] * len(targets)
        level = 0
        loose_now = 0
        while True:
            # along the rails laid, at no cost (only into tiled cells)
            grown_s0, grown_s1, grown_s2, grown_s3 = self.along_rails(
                [s0, s1, s2, s3], [f0, f1, f2, f3], [loose_now] * 4
            )
            reach |= (grown_s0 ^ s0) | (grown_s1 ^ s1) | (grown_s2 ^ s2) | (grown_s3 ^ s3)
            s0, s1, s2, s3 = grown_s0, grown_s1, grown_s2, grown_s3
            f0 = f1 = f2 = f3 = loose_now = 0
            out.append(reach)
            left = False
            for i, t in enumerate(targets):
                if done[i] == FAR:
                    if reach & t:
                        done[i] = level
                    else:
                        left = True
            if not left or level >= limit:
                return out, done
            # one tile more: the empty cells next to what was reached
            level += 1
            moved = self._moves([s0, s1, s2, s3], filled)
            grown = moved[0] | moved[1] | moved[2] | moved[3] | (loose if level == 1 else 0)
            grown &= empty & ~filled
            if not grown:
                return out, done
            filled |= grown
            reach |= grown
            loose_now = grown


def _terminal(net: Network, flood: Flood, terminal: int) -> tuple[list[int], int, int]:
    """A terminal as a source (tiled mouths by the side facing it, empty
    mouths) and as a target (the mouth cells a car can leave it by)."""
    came = [0, 0, 0, 0]
    loose = cells = 0
    for cell, side in net.mouths[terminal]:
        bit = 1 << cell
        if flood.empty & bit:
            loose |= bit
            cells |= bit
        elif flood.enter[side] & bit:
            came[side] |= bit
            cells |= bit
    return came, loose, cells


def _stop(net: Network, flood: Flood, state: State, building: int) -> tuple[list[int], int, int]:
    cell = state.stops[building]
    if cell < 0:
        free = net.beside[building] & flood.empty
        return [0, 0, 0, 0], free, free
    bit = 1 << cell
    if flood.empty & bit:
        return [0, 0, 0, 0], bit, bit
    return [bit & e for e in flood.enter], 0, bit


def points(
    engine: Linie1, net: Network, flood: Flood, state: State, p: int
) -> list[tuple[list[int], int, int]]:
    """Player p's route: first terminal, the stops, last terminal, each as
    (tiled cells entered by each side, empty cells, the cells)."""
    line, card = state.lines[p], state.routes[p]
    need = engine.need[card][line]
    stops = [_stop(net, flood, state, b) for b in range(len(net.beside)) if need >> b & 1]
    return [_terminal(net, flood, line * 2), *stops, _terminal(net, flood, line * 2 + 1)]


def _floods(
    flood: Flood, pts: list[tuple[list[int], int, int]], count: int
) -> list[tuple[list[int], list[int]]]:
    targets = [cells for _, _, cells in pts]
    return [flood.layers(came, loose, targets) for came, loose, _ in pts[:count]]


def _best(floods: list[tuple[list[int], list[int]]], k: int) -> tuple[int, list[int]]:
    best: tuple[int, list[int]] = (FAR * (k + 1), [])
    for order in permutations(range(1, k + 1)):
        legs = [0, *order, k + 1]
        total = sum(floods[legs[i]][1][legs[i + 1]] for i in range(k + 1))
        if total < best[0]:
            best = (total, legs)
    return best


def tiles_needed(engine: Linie1, net: Network, flood: Flood, state: State, p: int) -> int:
    """The fewest tiles player p still lays to complete a route (cards known)."""
    pts = points(engine, net, flood, state, p)
    if not all(cells for _, _, cells in pts):
        return FAR
    k = len(pts) - 2
    total, _ = _best(_floods(flood, pts, k + 1), k)
    # an empty stop cell counts in both legs that meet there
    shared = sum(1 for _, loose, _ in pts[1:-1] if loose)
    return max(0, min(FAR, total - shared))


def _one_car(
    net: Network, flood: Flood, state: State, need: int, begin: int, end: int, keep: bool
) -> tuple[int, list[list[int]]]:
    """The fewest tiles one streetcar needs from terminal ``begin`` through
    the stops ``need`` (building bits) to terminal ``end`` (:data:`FAR` if
    none), and, with ``keep``, per count of tiles L = 0, 1, ... and per set
    of stops made (bits in the order of ``need``), the cells it reaches
    with at most L tiles (cumulative).

    Every set of stops at once: a mask per side the car came in by holds
    one layer of the frame per set of stops (:meth:`Network.layers`), so one
    shift moves the car on in all of them, and a stop made lifts the cells
    of its building into the layers with it. Per tile more, the car goes on
    along the rails laid (no cost) until nothing new is reached, then into
    the empty cells beside what it reached since the last tile (one tile)."""
    goals = []
    for b in range(len(net.beside)):
        if need >> b & 1:
            cell = state.stops[b]
            goals.append(net.beside[b] & flood.empty if cell < 0 else 1 << cell)
    came = [0, 0, 0, 0]
    mouths = [0, 0, 0, 0]  # empty mouth cells, by the side the car enters them
    for cell, side in net.mouths[begin]:
        bit = 1 << cell
        if flood.empty & bit:
            mouths[side] |= bit
        elif flood.enter[side] & bit:
            came[side] |= bit
    # the car leaves by a mouth into the terminal: per side it came in by, the
    # cells it may do so from (tiled ones whose rails join that side to the
    # terminal's, empty ones entered by another side)
    exits = [0, 0, 0, 0]
    for cell, side in net.mouths[end]:
        bit = 1 << cell
        for d in range(4):
            if (flood.empty & bit and d != side) or flood.joins[d][side] & bit:
                exits[d] |= bit
    if not any(exits) or not (any(came) or any(mouths)) or not all(goals):
        return FAR, []
    k = len(goals)
    stride, every, lacking = net.layers(k)
    full = (1 << k) - 1
    w = net.width
    # per pair of sides (in, out), in every layer: the cells a car goes on
    # through, tiles whose rails join the two and empty cells (a tile to lay)
    j = flood.joins
    empty = flood.empty
    j10, j20, j30 = (j[1][0] | empty) * every, (j[2][0] | empty) * every, (j[3][0] | empty) * every
    j01, j21, j31 = (j[0][1] | empty) * every, (j[2][1] | empty) * every, (j[3][1] | empty) * every
    j02, j12, j32 = (j[0][2] | empty) * every, (j[1][2] | empty) * every, (j[3][2] | empty) * every
    j03, j13, j23 = (j[0][3] | empty) * every, (j[1][3] | empty) * every, (j[2][3] | empty) * every
    # by the side it enters them: the tiled cells (p) and the empty ones (q)
    # the car has not reached yet
    p0, p1, p2, p3 = (e * every for e in flood.enter_tiled)
    q0 = q1 = q2 = q3 = empty * every
    if keep:
        all0, all1, all2, all3 = p0 | q0, p1 | q1, p2 | q2, p3 | q3
    # a stop's cells, in the layers without it, and how far up its layers lie
    lifts = [(goal * lacking[i], stride << i) for i, goal in enumerate(goals)]
    stops = 0  # where a stop is still to make, in any layer
    for cells, _ in lifts:
        stops |= cells
    top = full * stride
    x0, x1, x2, x3 = (x << top for x in exits)
    f0, f1, f2, f3 = came
    if (f0 | f1 | f2 | f3) & stops:
        for cells, up in lifts:
            f0 |= (f0 & cells) << up
            f1 |= (f1 & cells) << up
            f2 |= (f2 & cells) << up
            f3 |= (f3 & cells) << up
    p0 ^= f0
    p1 ^= f1
    p2 ^= f2
    p3 ^= f3
    # reached since the last tile, by side
    r0, r1, r2, r3 = f0, f1, f2, f3
    kept: list[list[int]] = []
    frame = (1 << stride) - 1
    level = 0
    while True:
        # along the rails laid, at no cost, from what was just entered
        while True:
            o0 = (f1 & j10) | (f2 & j20) | (f3 & j30)
            o1 = (f0 & j01) | (f2 & j21) | (f3 & j31)
            o2 = (f0 & j02) | (f1 & j12) | (f3 & j32)
            o3 = (f0 & j03) | (f1 & j13) | (f2 & j23)
            # leaving north enters the cell above by its south side, and so on
            f0 = o2 << w & p0
            f1 = o3 >> 1 & p1
            f2 = o0 >> w & p2
            f3 = o1 << 1 & p3
            new = f0 | f1 | f2 | f3
            if not new:
                break
            if new & stops:
                for cells, up in lifts:
                    f0 |= (f0 & cells) << up
                    f1 |= (f1 & cells) << up
                    f2 |= (f2 & cells) << up
                    f3 |= (f3 & cells) << up
                f0 &= p0
                f1 &= p1
                f2 &= p2
                f3 &= p3
            p0 ^= f0
            p1 ^= f1
            p2 ^= f2
            p3 ^= f3
            r0 |= f0
            r1 |= f1
            r2 |= f2
            r3 |= f3
        if keep:
            seen = (all0 ^ (p0 | q0)) | (all1 ^ (p1 | q1)) | (all2 ^ (p2 | q2)) | (all3 ^ (p3 | q3))
            kept.append([seen >> (m * stride) & frame for m in range(full + 1)])
        if r0 & x0 or r1 & x1 or r2 & x2 or r3 & x3:
            return level, kept
        level += 1
        if level > FAR:
            return FAR, kept
        # one tile more: the empty cells next to what was reached since the
        # last tile (tiled cells left along their rails, empty ones by any
        # side but back: no tile turns a car round)
        o0 = (r1 & j10) | (r2 & j20) | (r3 & j30)
        o1 = (r0 & j01) | (r2 & j21) | (r3 & j31)
        o2 = (r0 & j02) | (r1 & j12) | (r3 & j32)
        o3 = (r0 & j03) | (r1 & j13) | (r2 & j23)
        f0 = o2 << w & q0
        f1 = o3 >> 1 & q1
        f2 = o0 >> w & q2
        f3 = o1 << 1 & q3
        if level == 1:
            f0 |= mouths[0]
            f1 |= mouths[1]
            f2 |= mouths[2]
            f3 |= mouths[3]
        new = f0 | f1 | f2 | f3
        if not new:
            return FAR, kept
        if new & stops:
            for cells, up in lifts:
                f0 |= (f0 & cells) << up
                f1 |= (f1 & cells) << up
                f2 |= (f2 & cells) << up
                f3 |= (f3 & cells) << up
            f0 &= q0
            f1 &= q1
            f2 &= q2
            f3 &= q3
        q0 ^= f0
        q1 ^= f1
        q2 ^= f2
        q3 ^= f3
        r0, r1, r2, r3 = f0, f1, f2, f3


def route_tiles(engine: Linie1, net: Network, flood: Flood, state: State, p: int) -> int:
    """The fewest tiles player p still lays so that one streetcar can drive
    from their first terminal through all their stops to the other (cards
    known): a 0-1 search over where the car is, the side it came in by and
    the stops it has made, following the rails laid at no cost and crossing
    an empty cell (a tile to lay, any way through but back) at one. A stop
    is made in the cell of its sign or, with no sign yet, in an empty cell
    beside the building. :data:`FAR` when no such route can be built."""
    return tiles_for(engine, net, flood, state, state.lines[p], state.routes[p])


def tiles_for(
    engine: Linie1, net: Network, flood: Flood, state: State, line: int, card: int
) -> int:
    """:func:`route_tiles` for whoever holds line ``line`` and route card
    ``card`` (their indexes)."""
    return _one_car(net, flood, state, engine.need[card][line], line * 2, line * 2 + 1, False)[0]


def corridor(engine: Linie1, net: Network, state: State, p: int) -> int:
    """The cells (bit ``i`` for cell ``i``) on player p's shortest buildable
    routes for one streetcar (:func:`route_tiles`): where a tile laid or
    exchanged brings the route nearer. A cell is on one when the tiles a car
    needs to reach it from the first terminal and those from the other
    terminal, through every stop between them, add up to the route's (an
    empty cell counted by both). 0 when no route can be built, or none is
    left to build."""
    line, card = state.lines[p], state.routes[p]
    if line < 0 or card < 0:
        return 0
    need = engine.need[card][line]
    flood = Flood(net, state.tiles)
    total, ahead = _one_car(net, flood, state, need, line * 2, line * 2 + 1, True)
    if not 0 < total < FAR:
        return 0
    _, back = _one_car(net, flood, state, need, line * 2 + 1, line * 2, True)
    if not back:
        return 0
    full = len(ahead[0]) - 1
    last = len(back) - 1
    tiled, empty = flood.tiled, flood.empty
    out = 0
    for level, reach in enumerate(ahead[: total + 1]):
        on_tiles = back[min(total - level, last)]
        on_empty = back[min(total + 1 - level, last)]
        for m, here in enumerate(reach):
            if not here:
                continue
            for m2 in range(full + 1):
                if m | m2 == full:
                    out |= here & (on_tiles[m2] & tiled | on_empty[m2] & empty)
    return out


def turns_left(
    engine: Linie1, net: Network, flood: Flood, state: State, p: int, trip: bool = True
) -> float:
    """About how many of p's turns until p wins: the tiles to lay, two a
    turn; a turn to start; the trip, a roll a turn, counted as at most
    :data:`TRIP` turns (so a route completed, and a trip started, always
    count as progress; a trip under way a little more beyond, so it still
    gains by every cell: :func:`_driving`). Without ``trip`` a route completed counts the trip
    as :data:`TRIP` turns whatever its length (the glance's view)."""
    if state.lines[p] < 0 or state.routes[p] < 0:
        return FAR / 2 + 1.0 + TRIP
    if state.cars[p] >= 0:
        route = engine.driver.route(
            state.tiles,
            state.cars[p],
            engine._goal(state, p),
            engine.need[state.routes[p]][state.lines[p]],
            engine._stop_cells(state),
            state.visited[p],
        )
        if route is None:  # a wrong turn: back to the start
            return 1.0 + TRIP
        return _driving((len(route) - 1) / ROLL) + 0.5
    tiles = route_tiles(engine, net, flood, state, p)
    if tiles == 0:
        route = engine.route_of(state, p)
        if route is not None:
            return 1.0 + (min(TRIP, (len(route) - 1) / ROLL) if trip else TRIP)
        tiles = 1  # the floods pass where a car cannot turn
    return tiles / 2 + 1.0 + TRIP


def _driving(turns: float) -> float:
    """The turns a trip under way counts for ``turns`` turns of rolls: as
    many up to :data:`TRIP`, beyond it a little more the longer, never half
    a turn more (so every cell driven nearer the goal counts, however far,
    and a trip started still counts less than one to start)."""
    if turns <= TRIP:
        return turns
    return TRIP + 0.5 * (turns - TRIP) / turns


def _turns(engine: Linie1, net: Network, state: State, trip: bool) -> list[float]:
    """Each seat's :func:`turns_left`, the mover's less the tiles still to lay
    this turn, as far as its route needs them."""
    flood = Flood(net, state.tiles)
    turns = [turns_left(engine, net, flood, state, p, trip) for p in range(engine.players)]
    mover = state.player
    if state.phase == LAY and state.cars[mover] < 0:
        # the tiles still to lay this turn count as laid, as far as the route
        # needs them (turns_left counts half a turn a tile above 1 + TRIP): a
        # tile laid beside a complete route is no progress, a start is
        to_lay = max(0.0, turns[mover] - 1.0 - TRIP) * 2
        turns[mover] -= min(to_lay, max(0, 2 - state.laid)) / 2
    return turns


def evaluate(engine: Linie1, net: Network, state: State) -> tuple[float, ...]:
    """Each seat's value in [0, 1] (adding up to 1); the outcome once over.
    Shares by the ratio of the turns each seat still needs (:func:`race`):
    a tile of one's own route counts more, the nearer the goal; a tile
    across another's, the further behind."""
    n = engine.players
    if state.phase == OVER:
        return terminal_values(n, state.winner if state.winner >= 0 else None)
    if all(line < 0 for line in state.lines):
        return (1.0 / n,) * n  # nobody's route is known (cards on the table)
    return race(_turns(engine, net, state, True))


def race(turns: list[float], others: float = 1.0) -> tuple[float, ...]:
    """Each seat's share from the turns each still needs (all above 0), by
    their ratios (:data:`SURE`). With ``others`` below 1, each seat counts
    the others' turns only that much (in the exponent; the rest as
    :data:`ALONE` turns): at 0 it judges its own alone, at 1/2 a tile
    across another's route is worth half what it is at 1. The values then
    add up to 1 only at ``others`` 1."""
    logs = [math.log(t) for t in turns]
    if others == 1.0:
        return shares([-SURE * x for x in logs], 1.0)
    alone = (1.0 - others) * math.log(ALONE)
    out = []
    for p, mine in enumerate(logs):
        strengths = [-SURE * (others * x + alone) for x in logs]
        strengths[p] = -SURE * mine
        out.append(shares(strengths, 1.0)[p])
    return tuple(out)


def glance(
    engine: Linie1, net: Network, state: State, trip: bool, others: float
) -> tuple[float, ...]:
    """Each seat's value as a weaker level sees it (:func:`race` with
    ``others``: 0, its own route alone, blind to the others'; the values
    need not add up to 1). Without ``trip``, a completed route's drive
    counts the same whatever its length. The outcome once the game is
    over."""
    n = engine.players
    if state.phase == OVER:
        return terminal_values(n, state.winner if state.winner >= 0 else None)
    return race(_turns(engine, net, state, trip), others)
