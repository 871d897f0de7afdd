"""Where tiles may be laid, as boards of bits kept with each layout of tiles.

A *board* is an ``int`` with a bit per frame cell. Each layout of tiles
carries :class:`Rails`: the boards of the cells with a tile and of those whose
tile has a rail on each side (derived from the parent layout's by the bits of
the cells laid on), and per tile code the cells whose tile it may replace.
From these, a few dozen operations on whole boards give, per side, the cells
where a rail may lead that way and those where none need be; they encode
rules a, b, d and e of :meth:`.engine.Linie1._fits`, which read only the tiles
within two cells. ANDed over a tile code's four sides they give the *board of
the code*: every cell where that tile may be laid or may replace the tile
there.

A position lists, for the kinds in the hand of the player to act, the lays of
each code in the order of the codes (by kind, then turn), each code's in the
order of its cells, then the exchanges of two tiles side by side
(:meth:`Placements.doubles`), all made into one list at once. A table kept
with the layouts (:attr:`Rails.last`) holds, per tile code, its board in the
last listing that had it and where its lays stand among that listing's
actions. A code's lays are taken from there, and only those whose bit differs
between the two boards (a handful: the cells within two of the tiles laid
since) are inserted or removed; a code not listed before, or whose board
changed in many cells, is read off its board. Any listing's board and place
serve, so one table is shared by a layout and the layouts made from it (the
positions a search looks at included); a position read back from its record
starts its own, from nothing, unless it has no tile yet: a layout without
tiles starts from every code's lays on the empty board (:attr:`Placements.blank`,
made once per engine), so a game's first positions change those, not read
each code whole. A code's entry is left as it is where its board has not
changed (its old place is as good as a new one). A tile kind leaving the
hand is a code's lays not taken; nothing lists the whole board again. The
same boards answer the reconciler's ``actions_touching`` (the bits of the
cells it asks about), the LEDs, ``task`` and the computer.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress

from boardctl.engines.linie1.geometry import TERMINAL, Geometry
from boardctl.engines.linie1.values import Lay

#: layouts kept linked to the one they were made from: the chain is cut every
#: this many lays (a cut layout works its boards out whole when asked)
KEEP = 16
#: the most bits of a code's board that may differ from its last listing's
#: for its lays to be changed one by one (more: read off the board afresh)
SPLICE_MOST = 8
#: hands whose codes are kept at most (6,188 hands of five tiles of 12 kinds)
HANDS_KEPT = 8192
#: exchanges of two tiles kept made at most
PAIRS_KEPT = 65536
#: sets of codes kept split, per side, at most
MASKS_KEPT = 4096


#: what a layout holds until its boards are worked out (never changed)
_NONE: list[int] = []


#: a tile code's last listing: its board, where its lays begin and end among
#: that listing's actions, and those actions
Last = tuple[int, int, int, Sequence[object]]


class Rails:
    """The boards of one layout of tiles (see the module's words).

    ``tile`` the cells with a tile (``-1`` until worked out), ``rail[d]`` those
    whose tile has a rail on side ``d``, ``upg[code]`` those whose tile
    ``code`` may replace, ``empty`` the track cells without one; ``ok`` per
    side ``d`` the cells where a rail may lead that way (``ok[d]``) and those
    where none need be (``ok[4 + d]``); ``fit`` per set of rails the cells that
    take it (``-1`` until asked for); ``last`` per tile code its last listing
    (``None`` until this layout lists; one table shared with the layouts
    before and after it, see the module's words). ``parent`` the layout this
    one was made by laying on ``changed``."""

    __slots__ = (
        "changed",
        "depth",
        "empty",
        "fit",
        "last",
        "ok",
        "parent",
        "rail",
        "tile",
        "tiles",
        "upg",
    )

    def __init__(
        self, tiles: bytes, parent: Rails | None = None, changed: tuple[int, ...] = ()
    ) -> None:
        self.tiles = tiles
        self.parent = parent
        self.changed = changed
        self.depth: int = 0 if parent is None else parent.depth + 1
        self.tile = -1
        self.rail: list[int] = _NONE
        self.upg: list[int] = _NONE
        self.ok: list[int] = _NONE
        self.empty = 0
        self.fit: list[int] = _NONE
        self.last: list[Last | None] | None = None
        if parent is not None and self.depth % KEEP == 0:
            up = parent
            for _ in range(KEEP - 2):
                if up.parent is None:
                    break
                up = up.parent
            up.parent = None  # memory stays bounded however long the game


class Listing:
    """The legal actions of one position while tiles are laid: ``actions``
    all of them in order (once listed), the first ``first`` of them the starts
    of a trip, then ``count`` lays; the hand's tile ``codes`` in order and
    ``doubles`` the exchanges of two tiles (the last lays)."""

    __slots__ = ("actions", "codes", "count", "doubles", "first")

    def __init__(self) -> None:
        self.codes: tuple[int, ...] = ()
        self.doubles: tuple[Lay, ...] = ()
        self.actions: Sequence[object] | None = None
        self.first = 0
        self.count = 0


class Placements:
    """The tables of one board for working out boards and lays, built once per engine."""

    def __init__(self, geo: Geometry) -> None:
        self.geo = geo
        w = self.width = geo.width
        w2 = w * w
        assert geo.offsets == (-w, 1, w, -1)  # north, east, south, west
        self.offsets = geo.offsets
        self.track = sum(1 << c for c in geo.track_cells)
        self.terminal = sum(1 << c for c in range(w2) if geo.kind[c] == TERMINAL)
        #: every cell of the frame
        self.frame = (1 << w2) - 1
        #: per cell: its bit, and the bits of the cells before it
        self.bits = [1 << c for c in range(w2)]
        self.below = [(1 << c) - 1 for c in range(w2)]
        sides = geo.sides
        canon = [c for k in range(1, geo.kinds + 1) for c in geo.codes_of[k]]
        #: per code: the sides of its rails
        self.sides = sides
        #: per set of rails: the boards of ``Rails.ok`` that take it, side by side
        self.sides_ok = [tuple(d if s >> d & 1 else 4 + d for d in range(4)) for s in range(16)]
        #: per tile code: the sides of its rails, one by one
        self.rail_sides = [
            tuple(d for d in range(4) if sides[c] >> d & 1) for c in range(len(sides))
        ]
        #: per tile code: the codes that may replace it (none for a tile with trees)
        self.upgrades = [() if geo.trees[c] else geo.upgrades[c] for c in range(len(sides))]
        #: per tile code: its upgrades as bits
        self.upgrade_bits = [sum(1 << u for u in ups) for ups in self.upgrades]
        #: the codes with a rail on each side, as bits
        self.side_bits = [sum(1 << c for c in canon if sides[c] >> d & 1) for d in range(4)]
        #: per hand (tiles per kind): its codes in order
        self.hand_memo: dict[tuple[int, ...], tuple[int, ...]] = {}
        #: per hand's codes: those with a rail on each side, and all of them as bits
        self.by_side: dict[tuple[int, ...], tuple[tuple[tuple[int, ...], ...], int]] = {}
        #: per side ``d`` and tile code: the codes (bits) with a rail on ``d``
        #: that may replace it
        self.replacing = [
            [self.upgrade_bits[c] & self.side_bits[d] for c in range(len(sides))] for d in range(4)
        ]
        #: per side ``d`` and tile code: the boards of ``Rails.ok`` that take
        #: it on its three other sides (ANDed: the cells where it fits with a
        #: rail on ``d`` whatever lies there)
        self.but = [
            [tuple(i for i in self.sides_ok[sides[c]] if i != d) for c in range(len(sides))]
            for d in range(4)
        ]
        #: per side ``d``: per set of codes (bits), those codes in order with
        #: their boards of ``but`` (at most ``MASKS_KEPT`` sets a side)
        self.split: list[dict[int, tuple[tuple[int, int, int, int], ...]]] = [{}, {}, {}, {}]
        #: every single-tile Lay of a code, made when the code is first listed:
        #: lay[code][cell]
        self.lay: list[list[Lay] | None] = [None] * len(sides)
        #: the exchanges of two tiles made so far, by their cells and codes
        #: (at most ``PAIRS_KEPT``)
        self.pair_lays: dict[int, Lay] = {}
        #: per tile code its lays on the board without tiles, as a
        #: :data:`Last` (made when a layout without tiles first lists)
        self.blank: list[Last | None] = []
        assert len(sides) <= 64  # a code in six bits of their key

    # -- boards

    def boards(self, r: Rails) -> Rails:
        """``r`` with its boards worked out: from the layouts it was made
        from where they are known, else whole."""
        if r.ok:
            return r
        if r.tile < 0:
            up = r.parent
            if up is not None and up.tile >= 0:  # the usual case: one lay on
                self._derive(r)
            else:
                chain = [r]
                while up is not None and up.tile < 0:
                    chain.append(up)
                    up = up.parent
                if up is None:  # from the first layout kept, whole
                    self._whole(chain.pop())
                for layout in reversed(chain):
                    self._derive(layout)
        self._ok(r)
        return r

    def _whole(self, r: Rails) -> None:
        tiles = r.tiles
        sides = self.sides
        upgrades = self.upgrades
        tile = 0
        rail = [0, 0, 0, 0]
        upg = [0] * len(sides)
        for c in self.geo.track_cells:
            code = tiles[c]
            if code:
                bit = 1 << c
                tile |= bit
                s = sides[code]
                for d in range(4):
                    if s >> d & 1:
                        rail[d] |= bit
                for u in upgrades[code]:
                    upg[u] |= bit
        r.tile, r.rail, r.upg = tile, rail, upg

    def _derive(self, r: Rails) -> None:
        parent = r.parent
        assert parent is not None and parent.tile >= 0
        before = parent.tiles
        tiles = r.tiles
        rail_sides = self.rail_sides
        upgrades = self.upgrades
        bits = self.bits
        tile = parent.tile
        rail = parent.rail.copy()
        upg = parent.upg.copy()
        for c in r.changed:
            bit = bits[c]
            old = before[c]
            if old:
                for d in rail_sides[old]:
                    rail[d] ^= bit
                for u in upgrades[old]:
                    upg[u] ^= bit
            code = tiles[c]
            tile |= bit
            for d in rail_sides[code]:
                rail[d] |= bit
            for u in upgrades[code]:
                upg[u] |= bit
        r.tile, r.rail, r.upg = tile, rail, upg

    def _ok(self, r: Rails) -> None:
        """Per side, where a rail may lead that way and where none need be.

        For a cell ``x`` and its neighbour ``j`` on side ``d`` (``j``'s side
        ``b`` faces ``x``): a terminal takes a rail and leaves none; the edge
        and a building take none; a tile takes one where it has a rail on
        ``b`` and none where it has not. An empty track cell takes a rail if
        some other side of it is open (its rail could leave there), and none
        if no rail leads into its other sides, or at least two of them are
        open (rule e: what leads in can still be continued). A side of an
        empty cell is shut by the edge, a building or a tile without a rail
        towards it.

        The boards are worked out for ``j`` per side ``b`` and moved one cell
        to ``x``; the sides are north, east, south, west (0 to 3), a cell's
        neighbours ``-w``, ``+1``, ``+w``, ``-1`` away (``w`` the frame's
        width). Only the bits of track cells are meant."""
        tile = r.tile
        r0, r1, r2, r3 = r.rail
        w = self.width
        term = self.terminal
        frame = self.frame
        empty = self.track ^ tile
        into = empty | term  # what a rail may lead into besides a tile's rail
        # per side of an empty cell: a rail leads in (q), it is open (f: the
        # cell there is empty, a terminal or a tile with a rail towards it)
        q0 = r2 << w & empty
        f0 = (into | r2) << w & empty
        q1 = r3 >> 1 & empty
        f1 = (into | r3) >> 1 & empty
        q2 = r0 >> w & empty
        f2 = (into | r0) >> w & empty
        q3 = r1 << 1 & empty
        f3 = (into | r1) << 1 & empty
        f01 = f0 | f1
        both01 = f0 & f1
        q01 = q0 | q1
        q23 = q2 | q3
        # per side b of j (north, east, south, west), from j's other three;
        # j takes no rail on b (bare) unless it is a tile with a rail on b or
        # an empty cell a rail leads into on another side: the frame but those
        f12 = f1 | f2
        rail_in = term | r0 | f12 | f3
        bare_in = frame ^ (r0 | q1 | q23) | (f1 & f2) | (f3 & f12)
        ok2, ok6 = rail_in >> w, bare_in >> w  # x is north of j: x's south
        f02 = f0 | f2
        rail_in = term | r1 | f02 | f3
        bare_in = frame ^ (r1 | q0 | q23) | (f0 & f2) | (f3 & f02)
        ok3, ok7 = rail_in << 1, bare_in << 1  # x is east of j: x's west
        rail_in = term | r2 | f01 | f3
        bare_in = frame ^ (r2 | q01 | q3) | both01 | (f3 & f01)
        ok0, ok4 = rail_in << w, bare_in << w  # x is south of j: x's north
        rail_in = term | r3 | f01 | f2
        bare_in = frame ^ (r3 | q01 | q2) | both01 | (f2 & f01)
        ok1, ok5 = rail_in >> 1, bare_in >> 1  # x is west of j: x's east
        r.empty = empty
        r.fit = [-1] * 16
        r.ok = [ok0, ok1, ok2, ok3, ok4, ok5, ok6, ok7]

    def board(self, r: Rails, code: int) -> int:
        """The cells of layout ``r`` (worked out) where tile ``code`` may be
        laid, or may replace the tile there."""
        s = self.sides[code]
        fit = r.fit[s]
        if fit < 0:
            ok = r.ok
            i0, i1, i2, i3 = self.sides_ok[s]
            fit = r.fit[s] = ok[i0] & ok[i1] & ok[i2] & ok[i3]
        return fit & (r.empty | r.upg[code])

    # -- lays

    def hand_codes(self, hand: tuple[int, ...]) -> tuple[int, ...]:
        """The tile codes of the kinds in ``hand``, in order (by kind, then turn)."""
        got = self.hand_memo.get(hand)
        if got is None:
            if len(self.hand_memo) >= HANDS_KEPT:
                self.hand_memo.clear()
            codes_of = self.geo.codes_of
            got = self.hand_memo[hand] = tuple(
                c for k in range(1, len(hand)) if hand[k] for c in codes_of[k]
            )
        return got

    def _lays_of_code(self, code: int) -> list[Lay]:
        row = self.lay[code]
        if row is None:
            cells = len(self.geo.kind)
            row = self.lay[code] = [Lay(((cell, code),)) for cell in range(cells)]
        return row

    def _blank(self, r: Rails) -> list[Last | None]:
        """Per tile code its lays on layout ``r`` (worked out, without tiles),
        kept as the last listing of every code for the layouts without tiles
        (a game's start: its codes then change a few lays, not read afresh)."""
        blank: list[Last | None] = [None] * len(self.sides)
        for k in range(1, self.geo.kinds + 1):
            for code in self.geo.codes_of[k]:
                board = self.board(r, code)
                lays = _read(board, self._lays_of_code(code), self.bits)
                blank[code] = (board, 0, len(lays), lays)
        self.blank = blank
        return blank

    def actions(
        self, r: Rails, codes: tuple[int, ...], head: Sequence[object], tail: Sequence[object]
    ) -> list[object]:
        """``head``, the single-tile lays of ``codes`` in layout ``r`` (worked
        out), by code and then cell, and ``tail``, in one list (never changed
        once made). Each code's
        lays are those of its last listing (:attr:`Rails.last`) with the lays of the
        bits that differ between the two boards inserted or removed; read off
        the code's board if none was kept or too many bits differ."""
        fit = r.fit
        ok = r.ok
        empty = r.empty
        upg = r.upg
        sides = self.sides
        sides_ok = self.sides_ok
        rows = self.lay
        bits = self.bits
        below = self.below
        last = r.last
        if last is None:  # the nearest layout's before this one
            up = r.parent
            while up is not None:
                if up.last is not None:
                    last = up.last
                    break
                up = up.parent
            else:
                last = (self.blank or self._blank(r)).copy() if not r.tile else [None] * len(sides)
            r.last = last
        out: list[object] = [*head]
        for code in codes:
            s = sides[code]
            board = fit[s]
            if board < 0:
                i0, i1, i2, i3 = sides_ok[s]
                board = fit[s] = ok[i0] & ok[i1] & ok[i2] & ok[i3]
            board &= empty | upg[code]
            was = last[code]
            if was is not None:
                old, at, end, before = was
                if old == board:  # its entry stays as good as a new one
                    out += before[at:end]
                    continue
                diff = old ^ board
                if diff.bit_count() <= SPLICE_MOST:
                    base = len(out)
                    out += before[at:end]
                    row = rows[code] or self._lays_of_code(code)
                    # from the last cell back: the places before it stay
                    while diff:
                        top = diff.bit_length() - 1
                        bit = bits[top]
                        diff ^= bit
                        i = base + (old & below[top]).bit_count()
                        if board & bit:
                            out.insert(i, row[top])
                        else:
                            del out[i]
                    last[code] = (board, base, len(out), out)
                    continue
            base = len(out)
            out += _read(board, rows[code] or self._lays_of_code(code), bits)
            last[code] = (board, base, len(out), out)  # its lays stay where they are
        out += tail
        return out

    def touching(self, r: Rails, codes: tuple[int, ...], cells: Sequence[int]) -> list[Lay]:
        """The single-tile lays of ``codes`` on ``cells`` (sorted), in the order
        of the whole listing: by code, then cell (a list: the reconciler asks
        for the few lays on a changed cell at each change)."""
        on = 0
        for c in cells:
            on |= 1 << c
        out: list[Lay] = []
        for code in codes:
            b = self.board(r, code) & on
            if b:
                row = self._lays_of_code(code)
                while b:
                    low = b & -b
                    out.append(row[low.bit_length() - 1])
                    b ^= low
        return out

    def _split(self, d: int, m: int) -> tuple[tuple[int, int, int, int], ...]:
        """The codes of the bits of ``m`` in order, each with the boards of
        ``Rails.ok`` that take it on its three sides other than ``d``."""
        kept = self.split[d]
        if len(kept) >= MASKS_KEPT:
            kept.clear()
        but = self.but[d]
        got = kept[m] = tuple(
            (c, but[c][0], but[c][1], but[c][2]) for c in range(m.bit_length()) if m >> c & 1
        )
        return got

    def doubles(self, r: Rails, hand: Sequence[int], codes: tuple[int, ...]) -> tuple[Lay, ...]:
        """The exchanges of two tiles side by side, not yet joined, each
        joined to the other by the tiles that replace them, in order: by the
        first cell, east before south, then by the tiles' codes."""
        if sum(hand) < 2:
            return ()
        upg = r.upg
        # per side, the cells whose tile a code of the hand with a rail on
        # that side may replace
        got = self.by_side.get(codes)
        if got is None:
            got = self.by_side[codes] = (
                tuple(tuple(c for c in codes if self.sides[c] >> d & 1) for d in range(4)),
                sum(1 << c for c in codes),
            )
        by_side, bits = got
        n = e = s = w = 0
        for code in by_side[0]:
            n |= upg[code]
        for code in by_side[1]:
            e |= upg[code]
        for code in by_side[2]:
            s |= upg[code]
        for code in by_side[3]:
            w |= upg[code]
        width = self.width
        east = e & ~r.rail[1] & (w >> 1)
        south = s & ~r.rail[2] & (n >> width)
        if not (east or south):
            return ()
        tiles = r.tiles
        ok = r.ok
        rep = self.replacing
        split = self.split
        # east and south neighbours (each pair once), each way apart: per tile
        # of the pair, the codes of the hand with a rail towards the other
        # that may replace it and fit on their three other sides; each
        # exchange found by its key (first cell, way, codes), which orders them
        keys: list[int] = []
        cell_bits = self.bits
        for there, d_a, d_b, step, way in ((east, 1, 3, 1, 0), (south, 2, 0, width, 1)):
            rep_a, rep_b, split_a, split_b = rep[d_a], rep[d_b], split[d_a], split[d_b]
            while there:  # any order: the keys are sorted
                a = there.bit_length() - 1
                low = cell_bits[a]
                there ^= low
                m = rep_a[tiles[a]] & bits
                fit_a = []
                for ca, i, j, k in split_a.get(m) or self._split(d_a, m):
                    if ok[i] & ok[j] & ok[k] & low:
                        fit_a.append(ca)
                if not fit_a:
                    continue
                b = a + step
                m = rep_b[tiles[b]] & bits
                if not m:
                    continue
                low <<= step
                head = (a * 2 + way) << 12
                for cb, i, j, k in split_b.get(m) or self._split(d_b, m):
                    if ok[i] & ok[j] & ok[k] & low:
                        kb = cb >> 2
                        for ca in fit_a:
                            if hand[kb] - (kb == ca >> 2) > 0:
                                keys.append(head | ca << 6 | cb)
        if not keys:
            return ()
        keys.sort()
        made = self.pair_lays
        out: list[Lay] = []
        for key in keys:
            lay = made.get(key)
            if lay is None:
                if len(made) >= PAIRS_KEPT:
                    made.clear()
                a = key >> 13
                b = a + (width if key >> 12 & 1 else 1)
                lay = made[key] = Lay(((a, key >> 6 & 63), (b, key & 63)))
            out.append(lay)
        return tuple(out)


#: ``bin()``'s digits as selectors for :func:`itertools.compress`
_DIGITS = bytes.maketrans(b"01", b"\x00\x01")


def _read(board: int, row: list[Lay], bits: list[int]) -> tuple[Lay, ...] | list[Lay]:
    """The lays of ``row`` on the cells of ``board``, in order (``bits`` the
    cells' bits)."""
    if board.bit_count() > 24:  # a pass over the cells in C beats a step per bit
        return tuple(compress(row, bin(board).encode()[:1:-1].translate(_DIGITS)))
    out = []
    while board:  # from the last cell back
        top = board.bit_length() - 1
        out.append(row[top])
        board ^= bits[top]
    out.reverse()
    return out
