"""Beeline positions at work: the lines' geometry, pieces laid on a scratch
copy of a state, and each state's index of masks and legal actions.

Everything here is the mechanics the rules (:mod:`.engine`) build on, with no
words for people: where a line goes on from (its exits, front and RUT), whether
a RUT is free, a piece laid on the end of a line, the send-back and the win.

Sets of cells are ``int`` masks (bit ``i`` for cell ``i``, see
:mod:`.board`). A state carries an :class:`Index` (made the first time it is
needed, or handed down by the position it was made from): which cells are
occupied, where each colour's NODES stand and which cells each line passes,
and, once listed, the state's legal actions and the cells each touches. The
masks of a state made by applying an action are derived from its parent's and
the cells the action changed, never worked out again from the whole board.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boardctl.engines.beeline.board import Board
from boardctl.engines.beeline.values import EMPTY, GROUP, MARK0, State, mark_code, mark_parts


class Index:
    """What the engine knows of one state beyond its fields, kept on it.

    ``occ``, ``nodes`` and ``lines`` are masks (occupied cells, each colour's
    NODES, the cells of each player's line); ``actions`` the legal actions in
    their order once listed; ``by_cell`` maps a cell to the positions in
    ``actions`` of those that touch it, once asked for; ``lit`` each
    player's sites the LEDs show (``Beeline.player_sites``), once asked for."""

    __slots__ = (
        "actions",
        "ahead",
        "by_cell",
        "fronts",
        "lines",
        "lit",
        "nodes",
        "occ",
        "room",
        "spots",
    )

    def __init__(self, occ: int, nodes: tuple[int, int], lines: tuple[int, int]) -> None:
        self.occ = occ
        self.nodes = nodes
        self.lines = lines
        self.actions: tuple[Any, ...] | None = None
        self.by_cell: dict[int, list[int]] | None = None
        #: per colour, where one more NODE of it keeps groups to two (:meth:`Lines.node_room`)
        self.room: list[int | None] = [None, None]
        #: where a MARK of the player to act may point (``Beeline._ahead_mask``)
        self.ahead: int | None = None
        #: each line's front and whether a line points into the other
        #: (``Beeline._lines_ahead``)
        self.fronts: tuple[tuple[int, int], bool] | None = None
        #: where his line may take a MARK (:meth:`Lines.spots`)
        self.spots: list[tuple[int, int, int]] | None = None
        #: each player's sites to show in his colour (immutable: shared by every view)
        self.lit: tuple[Any, ...] | None = None


def index_of(state: State) -> Index:
    """The state's :class:`Index`, made from its cells the first time."""
    ix = state._ix
    if ix is None:
        occ = 0
        nodes = [0, 0]
        for i, c in enumerate(state.cells):
            if c:
                occ |= 1 << i
                if c < MARK0:
                    nodes[c - 1] |= 1 << i
        lines = (_mask(state.lines[0]), _mask(state.lines[1]))
        ix = Index(occ, (nodes[0], nodes[1]), lines)
        object.__setattr__(state, "_ix", ix)
    return ix


def _mask(cells: Any) -> int:
    m = 0
    for c in cells:
        m |= 1 << c
    return m


@dataclass(slots=True)
class Scratch:
    """A position being worked on while pieces are laid (never shared), with
    its masks kept up to date."""

    cells: bytearray
    lines: list[list[int]]
    hop: list[bool]
    hands: list[list[int]]
    occ: int
    nodes: list[int]
    lmask: list[int]
    #: cells whose MARKS a send-back removed
    removed: list[int]
    #: bit p set: player p's line was sent back
    sent: int = 0
    #: the player whose line reached the goal, or -1
    winner: int = -1
    #: whether the opponent's RUT was free as the piece was placed, before
    #: any send-back it caused (None: not asked for)
    free_placed: bool | None = None

    @classmethod
    def of(cls, state: State) -> Scratch:
        ix = index_of(state)
        return cls(
            bytearray(state.cells),
            [list(state.lines[0]), list(state.lines[1])],
            [state.hop[0], state.hop[1]],
            [list(state.hands[0]), list(state.hands[1])],
            ix.occ,
            list(ix.nodes),
            list(ix.lines),
            [],
        )

    def copy(self) -> Scratch:
        return Scratch(
            bytearray(self.cells),
            [list(self.lines[0]), list(self.lines[1])],
            list(self.hop),
            [list(self.hands[0]), list(self.hands[1])],
            self.occ,
            list(self.nodes),
            list(self.lmask),
            list(self.removed),
            self.sent,
            self.winner,
            self.free_placed,
        )

    def index(self) -> Index:
        return Index(self.occ, (self.nodes[0], self.nodes[1]), (self.lmask[0], self.lmask[1]))


class Lines:
    """How lines run on one board, with the rule options that shape them.

    ``enter[p]``: the cells player p's line may pass as a NODE of its colour
    (cells he may use, and his own start); ``nbr_mask[i]``: the neighbours of
    cell ``i`` as a mask."""

    def __init__(self, board: Board, *, apart: bool, placed: bool) -> None:
        self.board = board
        self.nbr = board.nbr
        self.usable = board.usable
        self.starts = board.starts
        self.dark = board.dark
        self.enter = (
            board.usable[0] | 1 << board.starts[0],
            board.usable[1] | 1 << board.starts[1],
        )
        self.nbr_mask = tuple(_mask(n for n in row if n >= 0) for row in board.nbr)
        self.apart = apart
        #: option rut_checked="as_placed": note whether the RUT is free before send-backs
        self.placed = placed

    # -- where a line goes on from -------------------------------------------
    def exits(self, cells: bytes | bytearray, line: Any, hop: bool, p: int) -> list[int] | None:
        """The NODES player p's line may leave from, or None when it ends in a MARK."""
        e = line[-1]
        if cells[e] >= MARK0:
            return None
        if not hop:
            return [e]
        out = [e]
        colour = p + 1
        enter = self.enter[p]
        for n in self.nbr[e]:
            if n >= 0 and cells[n] == colour and (enter >> n) & 1:
                out.append(n)
        return out

    def front(self, cells: bytes | bytearray, line: Any) -> int:
        """The cell in front of a line that ends in a MARK (-1 off the board)."""
        e = line[-1]
        return self.nbr[e][(cells[e] - MARK0) % 6]

    def rut_cells(self, cells: bytes | bytearray, line: Any, hop: bool, p: int) -> list[int]:
        exits = self.exits(cells, line, hop, p)
        if exits is None:
            y = self.front(cells, line)
            return [y] if y >= 0 else []
        if len(exits) == 1:
            return [x for x in self.nbr[exits[0]] if x >= 0]
        out: list[int] = []
        for n in exits:
            for x in self.nbr[n]:
                if x >= 0 and x not in out:
                    out.append(x)
        return out

    def rut_mask(self, cells: bytes | bytearray, line: Any, hop: bool, p: int) -> int:
        exits = self.exits(cells, line, hop, p)
        if exits is None:
            y = self.front(cells, line)
            return 1 << y if y >= 0 else 0
        m = 0
        for n in exits:
            m |= self.nbr_mask[n]
        return m

    def free(self, cells: bytes | bytearray, line: Any, hop: bool, q: int) -> bool:
        """Whether player q can play a piece into their RUT."""
        usable = self.usable[q]
        e = line[-1]
        c = cells[e]
        if c >= MARK0:
            y = self.nbr[e][(c - MARK0) % 6]
            return y >= 0 and cells[y] == EMPTY and bool((usable >> y) & 1)
        for n in self.exits(cells, line, hop, q) or ():
            for x in self.nbr[n]:
                if x >= 0 and cells[x] == EMPTY and (usable >> x) & 1:
                    return True
        return False

    def reaches(self, cells: bytes | bytearray, line: Any, hop: bool, p: int) -> bool:
        goal = self.starts[1 - p]
        e = line[-1]
        c = cells[e]
        if c >= MARK0:
            return self.nbr[e][(c - MARK0) % 6] == goal
        return any(goal in self.nbr[n] for n in self.exits(cells, line, hop, p) or ())

    def spots(
        self, cells: bytes | bytearray, line: Any, hop: bool, p: int
    ) -> list[tuple[int, int, int]]:
        """Where player p's line may take its next MARK: (cell, entry side, the
        NODE it leaves from or -1)."""
        usable = self.usable[p]
        e = line[-1]
        c = cells[e]
        if c >= MARK0:
            side = (c - MARK0) % 6
            y = self.nbr[e][side]
            if y >= 0 and cells[y] == EMPTY and (usable >> y) & 1:
                return [(y, (side + 3) % 6, -1)]
            return []
        out = []
        for n in self.exits(cells, line, hop, p) or ():
            for s, x in enumerate(self.nbr[n]):
                if x >= 0 and cells[x] == EMPTY and (usable >> x) & 1:
                    out.append((x, (s + 3) % 6, n))
        return out

    def open_ahead(self, cells: bytes | bytearray, p: int, y: int) -> bool:
        """Whether a MARK of player p whose RUT is ``y`` leaves the line a way
        on: into an empty usable cell, a NODE of its colour, the opponent's
        starting point, or its own MARK (which a NODE may replace). The
        opponent's line would send it back at once, which is no play at all."""
        if y < 0:
            return False
        if y == self.starts[1 - p]:
            return True
        c = cells[y]
        if c == EMPTY:
            return bool((self.usable[p] >> y) & 1)
        if c >= MARK0:
            return (c - MARK0) // 18 == p
        return c == p + 1 and bool((self.enter[p] >> y) & 1)

    def node_room(self, nodes: int) -> int:
        """The cells where one more NODE of a colour whose NODES stand on
        ``nodes`` keeps every group of adjacent NODES of that colour to two at
        most: not next to two of them, nor next to one that has a neighbour of
        its colour (as a mask; the caller keeps to the cells it may use)."""
        nbr_mask = self.nbr_mask
        once = twice = pair = 0
        m = nodes
        while m:
            low = m & -m
            near = nbr_mask[low.bit_length() - 1]
            twice |= once & near
            once |= near
            if near & nodes:
                pair |= near
            m ^= low
        return ~(twice | pair)

    # -- hands -----------------------------------------------------------------
    @staticmethod
    def has_kind(hand: Any, k: int) -> bool:
        return bool(hand[4 + k] or hand[k] or (hand[0] + hand[1] + hand[2] == 0 and hand[3]))

    @staticmethod
    def take(hand: list[int], k: int) -> None:
        if hand[4 + k]:
            hand[4 + k] -= 1
        elif hand[k]:
            hand[k] -= 1
        else:
            hand[3] -= 1
            hand[0] = hand[1] = hand[2] = GROUP
            hand[k] -= 1

    # -- laying pieces on a scratch position -------------------------------------
    def lay_mark(
        self, pos: Scratch, owner: int, kind: int, x: int, exit_side: int, via: int
    ) -> None:
        """Put a MARK on the end of ``owner``'s line and let the line run into
        a NODE of its colour in front of it."""
        line = pos.lines[owner]
        bit = 1 << x
        if via >= 0 and via != line[-1]:
            line.append(via)
        line.append(x)
        pos.cells[x] = mark_code(owner, kind, exit_side)
        pos.occ |= bit
        pos.lmask[owner] |= bit
        y = self.nbr[x][exit_side]
        if y >= 0 and pos.cells[y] == owner + 1 and (self.enter[owner] >> y) & 1:
            line.append(y)
            pos.lmask[owner] |= 1 << y
            pos.hop[owner] = True
        else:
            pos.hop[owner] = False

    def lay_node(self, pos: Scratch, x: int, colour: int) -> None:
        """A NODE from the hand on the empty cell ``x``."""
        pos.cells[x] = colour + 1
        pos.occ |= 1 << x
        pos.nodes[colour] |= 1 << x

    def continue_with_node(self, pos: Scratch, p: int, x: int, exits: list[int] | None) -> None:
        """Player p's NODE on ``x`` in his RUT continues his line."""
        own = pos.lines[p]
        if exits is not None:
            via = next(n for n in exits if x in self.nbr[n])
            if via != own[-1]:
                own.append(via)
        own.append(x)
        pos.lmask[p] |= 1 << x
        pos.hop[p] = False

    def replace_with_node(self, pos: Scratch, owner: int, x: int) -> int:
        """Put a NODE of ``owner``'s colour on the MARK at ``x``; the kind of that MARK."""
        kind = mark_parts(pos.cells[x])[1]
        pos.cells[x] = owner + 1
        pos.nodes[owner] |= 1 << x
        line = pos.lines[owner]
        if pos.cells[line[-1]] >= MARK0 and self.front(pos.cells, line) == x:
            line.append(x)
            pos.hop[owner] = True
        return kind

    def send_back(self, pos: Scratch, q: int) -> None:
        """Player q's RUT holds the opponent's line: q's MARKS after the
        nearest NODE go back to q's hand."""
        line = pos.lines[q]
        i = len(line) - 1
        cells = pos.cells
        while cells[line[i]] >= MARK0:
            i -= 1
        hand = pos.hands[q]
        base = 4 if self.apart else 0
        gone = 0
        for c in line[i + 1 :]:
            hand[base + (cells[c] - MARK0) % 18 // 6] += 1
            cells[c] = EMPTY
            gone |= 1 << c
            pos.removed.append(c)
        del line[i + 1 :]
        pos.occ &= ~gone
        pos.lmask[q] &= ~gone
        pos.hop[q] = False
        pos.sent |= 1 << q

    def settle(self, pos: Scratch, p: int) -> None:
        """Reaching and sending back after player p's piece: sets ``winner``."""
        cells, lines, hop = pos.cells, pos.lines, pos.hop
        for who in (p, 1 - p):
            if self.reaches(cells, lines[who], hop[who], who):
                pos.winner = who
                return
        if self.placed:
            q = 1 - p
            pos.free_placed = self.free(cells, lines[q], hop[q], q)
        sent = False
        for q in (1 - p, p):
            line = lines[q]
            e = line[-1]
            c = cells[e]
            if c >= MARK0:
                y = self.nbr[e][(c - MARK0) % 6]
                if y >= 0 and (pos.lmask[1 - q] >> y) & 1:
                    self.send_back(pos, q)
                    sent = True
        if sent:
            for who in (p, 1 - p):
                if self.reaches(cells, lines[who], hop[who], who):
                    pos.winner = who
                    return

    def to_state(self, pos: Scratch, player: int, left: int, owe: bool) -> State:
        state = State(
            bytes(pos.cells),
            (tuple(pos.lines[0]), tuple(pos.lines[1])),
            (pos.hop[0], pos.hop[1]),
            (_hand(pos.hands[0]), _hand(pos.hands[1])),
            player,
            left,
            owe,
        )
        object.__setattr__(state, "_ix", pos.index())
        return state


def _hand(h: list[int]) -> tuple[int, int, int, int, int, int, int, int]:
    return (h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7])
