"""Where tiles may be laid, kept with each position and derived from its parent's.

The rules for a tile on a cell (rules a, b, d and e of :meth:`.engine.Linie1._fits`)
read only the tiles within two cells of it. So each layout of tiles carries
:class:`Rails`: per track cell the sides where a rail may lead and the sides
where none may be, and per empty cell the sides its neighbours press on it.
Those of a layout made by a lay are the parent's, worked out again only within
two cells of the tiles laid (and only when first asked for: applying stays
cheap).

Each position carries a :class:`Listing`: per cell the lays there for the hand
of the player to act (a tuple of ready-made :class:`~.values.Lay`), the double
exchanges and the whole list in order. A position made by a lay takes the
parent's per-cell lays and lists again only the cells whose masks, tile or
hand changed. The same listing answers ``legal_actions``, the reconciler's
``actions_touching`` (the lays on the cells it asks about), the LEDs, ``task``
and the computer.

A cell's lays for a set of fitting tile codes (an ``int``, a bit per code) are
built once per cell and set, in the order the listing has always had: on an
empty cell the hand's codes by kind, those with the same rails together; on a
tile, its upgrades in their order.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import chain
from typing import TYPE_CHECKING

from boardctl.engines.linie1.geometry import TERMINAL, TRACK, Geometry, opposite
from boardctl.engines.linie1.values import Lay

if TYPE_CHECKING:
    from collections.abc import Iterable

POP = [bin(i).count("1") for i in range(16)]

#: the most sets of fitting codes remembered per cell before they are forgotten
MEMO_PER_CELL = 4096


class Rails:
    """The masks of one layout of tiles (see the module's words).

    ``rb[c]`` is ``rail << 4 | bare`` for track cell ``c``; ``req[x]`` and
    ``forb[x]`` for an empty track cell ``x`` the sides a neighbour's rail
    leads into and the sides where no rail may be. Until they are worked out,
    ``parent`` is the layout this one was made from by laying on ``changed``,
    ``depth`` how many such layouts lead back to one worked out."""

    __slots__ = ("changed", "depth", "forb", "parent", "placed", "rb", "req", "tiles")

    def __init__(
        self, tiles: bytes, parent: Rails | None = None, changed: tuple[int, ...] = ()
    ) -> None:
        self.tiles = tiles
        self.depth: int
        self.req: list[int] | None = None
        self.forb: list[int] | None = None
        self.rb: list[int] | None = None
        #: the cells with a tile, in order
        self.placed: tuple[int, ...] = ()
        if parent is not None and parent.rb is None and parent.depth >= MAX_CHAIN:
            parent = None  # too far back: worked out whole when asked for
        self.parent = parent
        self.changed = changed
        self.depth = 0 if parent is None or parent.rb is not None else parent.depth + 1


#: the most layouts not worked out that one may be derived through
MAX_CHAIN = 8


class Listing:
    """The lays of one position (see the module's words).

    ``segs[c]`` the single-tile lays on cell ``c``, ``doubles`` the exchanges
    of two tiles, ``lays`` all of them in order; ``codes`` the hand's tile
    codes as bits. ``parent``/``changed``: the position it was made from by
    a lay, until it is listed."""

    __slots__ = ("actions", "changed", "codes", "doubles", "lays", "ms", "parent", "rows", "segs")

    def __init__(self, parent: Listing | None = None, changed: tuple[int, ...] = ()) -> None:
        self.parent = parent
        self.changed = changed
        self.codes = -1
        self.segs: list[tuple[Lay, ...]] | None = None
        #: per cell, the codes that fit there whatever the hand (bits)
        self.ms: list[int] = []
        #: per row of the board, its cells' lays one after another
        self.rows: list[tuple[Lay, ...]] = []
        self.doubles: tuple[Lay, ...] = ()
        self.lays: tuple[Lay, ...] | None = None
        #: every legal action in order, once listed
        self.actions: tuple[object, ...] | None = None


class Placements:
    """The tables of one board for working out rails and lays, built once per engine."""

    def __init__(self, geo: Geometry) -> None:
        self.geo = geo
        w2 = geo.width * geo.width
        offsets = geo.offsets
        #: each track cell's neighbours: (side bit, cell, what it is, the bit
        #: of the side facing back)
        self.around: list[tuple[tuple[int, int, int, int], ...]] = [()] * w2
        #: what the frame alone allows: sides where no rail may be, where a
        #: rail may lead, where none need be
        self.static_forb = [0] * w2
        self.static_rail = [0] * w2
        self.static_bare = [0] * w2
        for c in geo.track_cells:
            self.around[c] = tuple(
                (1 << d, c + offsets[d], geo.kind[c + offsets[d]], 1 << opposite(d))
                for d in range(4)
            )
            for bit, _, k, _ in self.around[c]:
                if k == TERMINAL:
                    self.static_rail[c] |= bit
                    self.static_bare[c] |= bit
                elif k != TRACK:
                    self.static_forb[c] |= bit
                    self.static_bare[c] |= bit
        track = set(geo.track_cells)
        #: the track cells within one and within two steps of each track cell
        self.near1: list[tuple[int, ...]] = [()] * w2
        self.near2: list[tuple[int, ...]] = [()] * w2
        for c in geo.track_cells:
            one = {c} | {c + o for o in offsets}
            two = one | {x + o for x in one for o in offsets}
            self.near1[c] = tuple(sorted(one & track))
            self.near2[c] = tuple(sorted(two & track))
        #: the track cells whose masks a lay on a cell changes: within two
        #: steps of it, but not the cell itself (its masks read its neighbours)
        self.ring: list[tuple[int, ...]] = [
            tuple(x for x in self.near2[c] if x != c) for c in range(w2)
        ]
        #: the frame's rows of track cells, as (first, end) frame cells
        self.rows = tuple(
            (r * geo.width + 1, r * geo.width + geo.size + 1) for r in range(1, geo.size + 1)
        )
        #: each frame cell's row (-1 outside the track)
        self.row_of = [-1] * w2
        for i, (lo, hi) in enumerate(self.rows):
            for c in range(lo, hi):
                self.row_of[c] = i
        sides = geo.sides
        canon = [c for k in range(1, geo.kinds + 1) for c in geo.codes_of[k]]
        #: per ``rail << 4 | bare``: the codes (bits) an empty cell takes
        self.fits = [0] * 256
        for rb in range(256):
            rail, bare = rb >> 4, rb & 15
            for c in canon:
                s = sides[c]
                if not (s & ~rail) and not (~s & 15 & ~bare):
                    self.fits[rb] |= 1 << c
        #: per tile code: its upgrades as bits (none for a tile with trees)
        self.upgrade_bits = [0] * len(sides)
        for code in geo.code_names:
            if not geo.trees[code]:
                for u in geo.upgrades[code]:
                    self.upgrade_bits[code] |= 1 << u
        #: the codes with a rail on each side, as bits
        self.side_bits = [sum(1 << c for c in canon if sides[c] >> d & 1) for d in range(4)]
        #: the codes of each kind as bits
        self.kind_bits = [sum(1 << c for c in geo.codes_of[k]) for k in range(geo.kinds + 1)]
        #: the canonical codes in the order an empty cell lists them, and their rails
        self.canon = tuple((c, sides[c]) for c in canon)
        #: every single-tile Lay, made when first listed: lay[cell][code]
        self.lay: list[list[Lay] | None] = [None] * w2
        #: per cell: fitting codes (and the tile there) -> its lays, in order
        self.memo: list[dict[int, tuple[Lay, ...]]] = [{} for _ in range(w2)]

    # -- rails

    def rails(self, r: Rails) -> Rails:
        """``r`` worked out: from the layouts it was made from where they are
        known, else whole."""
        if r.rb is not None:
            return r
        chain = [r]
        up = r.parent
        while up is not None and up.rb is None:
            chain.append(up)
            up = up.parent
        top = chain[-1]
        if top.parent is None:
            self._whole(top)
            chain.pop()
        for layout in reversed(chain):
            self._derive(layout)
        return r

    def _derive(self, r: Rails) -> None:
        parent = r.parent
        assert parent is not None and parent.req is not None
        assert parent.forb is not None and parent.rb is not None
        tiles = r.tiles
        req = parent.req.copy()
        forb = parent.forb.copy()
        rb = parent.rb.copy()
        changed = r.changed
        if len(changed) == 1:
            pressed: Iterable[int] = self.near1[changed[0]]
            ringed: Iterable[int] = self.ring[changed[0]]
        else:
            pressed = {x for cell in changed for x in self.near1[cell]}
            ringed = {x for cell in changed for x in self.ring[cell]}
        for x in pressed:
            if not tiles[x]:
                req[x], forb[x] = self.pressed(tiles, x)
        for c in ringed:
            rail, bare = self.cell_masks(tiles, c, req, forb)
            rb[c] = rail << 4 | bare
        r.req, r.forb, r.rb = req, forb, rb
        placed = parent.placed
        if any(c not in placed for c in changed):
            placed = tuple(sorted({*placed, *changed}))
        r.placed = placed
        r.parent = None
        r.changed = ()

    def _whole(self, r: Rails) -> None:
        tiles = r.tiles
        n = len(tiles)
        req = [0] * n
        forb = self.static_forb[:]
        cells = self.geo.track_cells
        for x in cells:
            if not tiles[x]:
                req[x], forb[x] = self.pressed(tiles, x)
        rb = [0] * n
        for c in cells:
            rail, bare = self.cell_masks(tiles, c, req, forb)
            rb[c] = rail << 4 | bare
        r.req, r.forb, r.rb = req, forb, rb
        r.placed = tuple(c for c in cells if tiles[c])
        r.parent = None
        r.changed = ()

    def pressed(self, tiles: bytes, x: int) -> tuple[int, int]:
        """For the empty track cell ``x``: (the sides a neighbour's rail leads
        into, the sides where no rail may be: the board's and the neighbours'
        bare sides)."""
        sides = self.geo.sides
        r, f = 0, self.static_forb[x]
        for bit, y, k, back in self.around[x]:
            if k == TRACK:
                code = tiles[y]
                if code:
                    if sides[code] & back:
                        r |= bit
                    else:
                        f |= bit
        return r, f

    def cell_masks(
        self, tiles: bytes, c: int, req: Sequence[int], forb: Sequence[int]
    ) -> tuple[int, int]:
        """(The sides of track cell ``c`` where a rail may lead, the sides where
        no rail may be), given ``req`` and ``forb`` of its empty track neighbours."""
        sides = self.geo.sides
        pop = POP
        rail = self.static_rail[c]
        bare = self.static_bare[c]
        for bit, j, k, back in self.around[c]:
            if k != TRACK:
                continue
            code = tiles[j]
            if code:
                if sides[code] & back:
                    rail |= bit
                else:
                    bare |= bit
                continue
            r, f = req[j], forb[j]
            if pop[15 & ~(f & ~back)] >= 2:
                rail |= bit
            r0 = r & ~back
            if not r0 or (not (r0 & (f | back)) and pop[15 & ~(f | back)] >= 2):
                bare |= bit
        return rail, bare

    # -- lays

    def hand_codes(self, hand: Sequence[int]) -> int:
        """The tile codes of the kinds in ``hand``, as bits."""
        bits = self.kind_bits
        out = 0
        for k in range(1, len(hand)):
            if hand[k]:
                out |= bits[k]
        return out

    def _make_segment(self, cell: int, old: int, m: int, key: int) -> tuple[Lay, ...]:
        """The lays on ``cell`` of the codes ``m`` (tile ``old`` there),
        remembered under ``key``."""
        memo = self.memo[cell]
        if len(memo) >= MEMO_PER_CELL:
            memo.clear()
        memo[key] = seg = self._segment(cell, old, m)
        return seg

    def _segment(self, cell: int, old: int, m: int) -> tuple[Lay, ...]:
        row = self.lay[cell]
        if row is None:
            row = self.lay[cell] = [Lay(((cell, code),)) for code in range(len(self.geo.sides))]
        if old:
            return tuple(row[c] for c in self.geo.upgrades[old] if m >> c & 1)
        groups: dict[int, list[Lay]] = {}
        for c, s in self.canon:
            if m >> c & 1:
                groups.setdefault(s, []).append(row[c])
        return tuple(lay for group in groups.values() for lay in group)

    def segments(
        self,
        tiles: bytes,
        rb: list[int],
        codes: int,
        parent: Listing | None,
        changed: Iterable[int],
        out: Listing,
    ) -> None:
        """Per cell the single-tile lays with the hand's ``codes`` into
        ``out`` (``segs``, ``ms``, ``rows``): the parent's where nothing near
        ``changed`` moved and the hand's codes there are alike."""
        fits = self.fits
        upgrade = self.upgrade_bits
        memo = self.memo
        make = self._make_segment
        if parent is not None and parent.segs is not None and not codes & ~parent.codes:
            segs = parent.segs.copy()
            ms = parent.ms.copy()
            rows = parent.rows.copy()
            todo: set[int] = set()
            for cell in changed:
                todo.update(self.near2[cell])
            gone = parent.codes & ~codes
            if gone:
                todo.update([c for c in self.geo.track_cells if ms[c] & gone])
            dirty = {self.row_of[c] for c in todo}
        else:
            segs = [()] * len(tiles)
            ms = [0] * len(tiles)
            rows = [()] * len(self.rows)
            todo = self.geo.track_cells  # type: ignore[assignment]
            dirty = range(len(self.rows))  # type: ignore[assignment]
        for c in todo:
            old = tiles[c]
            if old:
                m = fits[rb[c]] & upgrade[old]
                key = m & codes | old << 64
            else:
                m = key = fits[rb[c]]
                key &= codes
            ms[c] = m
            if key & codes:
                seg = memo[c].get(key)
                if seg is None:
                    seg = make(c, old, key & codes, key)
                segs[c] = seg
            else:
                segs[c] = ()
        bounds = self.rows
        for i in dirty:
            lo, hi = bounds[i]
            rows[i] = tuple(chain.from_iterable(segs[lo:hi]))
        out.segs, out.ms, out.rows = segs, ms, rows

    def doubles(
        self, tiles: bytes, rb: list[int], placed: tuple[int, ...], hand: Sequence[int]
    ) -> Iterator[Lay]:
        """The exchanges of two tiles side by side, not yet joined, each
        joined to the other by the tiles that replace them, in order: by the
        first cell, east before south, then by the tiles' codes."""
        geo = self.geo
        if sum(hand) < 2:
            return
        codes = self.hand_codes(hand)
        fits = self.fits
        upgrade = self.upgrade_bits
        side_bits = self.side_bits
        sides = geo.sides
        offsets = geo.offsets
        for a in placed:
            old_a = tiles[a]
            up_a = upgrade[old_a]
            if not up_a & codes:
                continue
            for d in (1, 2):  # east and south neighbours: each pair once
                b = a + offsets[d]
                old_b = tiles[b]
                if not old_b or geo.kind[b] != TRACK or not upgrade[old_b]:
                    continue
                if sides[old_a] >> d & 1:
                    continue  # already joined: exchange them one at a time
                e = opposite(d)
                r = rb[a]
                m_a = fits[r | 1 << (d + 4)] & up_a & codes & side_bits[d]
                if not m_a:
                    continue
                r = rb[b]
                m_b = fits[r | 1 << (e + 4)] & upgrade[old_b] & codes & side_bits[e]
                if not m_b:
                    continue
                for ca in geo.upgrades[old_a]:
                    if not m_a >> ca & 1:
                        continue
                    for cb in geo.upgrades[old_b]:
                        kb = cb >> 2
                        if m_b >> cb & 1 and hand[kb] - (kb == ca >> 2) > 0:
                            yield Lay(((a, ca), (b, cb)))
