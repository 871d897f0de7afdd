"""The Beeline rules engine (seed 000 and rules/NOTES.md, section Beeline)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import cached_property
from typing import Any, ClassVar

from boardctl.engines.base import PLAYING, Engine, Outcome, Status
from boardctl.engines.beeline import text
from boardctl.engines.beeline.board import SIDES, Board, load
from boardctl.engines.beeline.evaluate import Race, corridor, evaluate
from boardctl.engines.beeline.position import Index, Lines, Scratch, index_of
from boardctl.engines.beeline.values import (
    EMPTY,
    FULL_HAND,
    GROUP,
    KIND_OF_TURN,
    KINDS,
    MARK0,
    Action,
    End,
    Hand,
    Kind,
    Mark,
    Node,
    Replace,
    State,
    mark_code,
    mark_parts,
    node_code,
    parse_action,
    piece_name,
)
from boardctl.engines.beeline.values import Options as _Options
from boardctl.engines.describe import (
    BoardSpec,
    Look,
    OptionSpec,
    PieceSpec,
    PlayerSites,
    PlayerSpec,
    SiteSpec,
)
from boardctl.errors import BadNotation, BadOptions, RecordError
from boardctl.message import M_, Mn_, joined

_CHOICES = (
    ("returned_pieces", ("open_group", "apart")),
    ("blocked", ("pass", "loses")),
    ("rut_checked", ("after_send_back", "as_placed")),
)
_FLAGS = ("dead_ends", "replaced_at_own_start", "winning_piece_excused")
_PLAYERS = (PlayerSpec(M_("black"), "#303030"), PlayerSpec(M_("red"), "#d02020"))
#: each kind of MARK by name, alone and with its article
_KIND_WORDS = (M_("straight"), M_("angle"), M_("sharp"))
_A_KIND = {
    Kind.STRAIGHT: M_("a straight"),
    Kind.ANGLE: M_("an angle"),
    Kind.SHARP: M_("a sharp"),
}


def _count_of(kind: Kind, n: int) -> str:
    """``2 straights``: MARKS of one kind counted."""
    if kind is Kind.STRAIGHT:
        return Mn_("{n} straight", "{n} straights", n)
    if kind is Kind.ANGLE:
        return Mn_("{n} angle", "{n} angles", n)
    return Mn_("{n} sharp", "{n} sharps", n)


#: the layout code of every piece code (0, empty, has none)
_PIECE_NAMES = ("", *(piece_name(c) for c in range(1, MARK0 + 36)))
#: the piece code of every layout code
_CODES = {name: code for code, name in enumerate(_PIECE_NAMES) if code}
#: what the rule on the opponent's RUT says of a piece (:meth:`Beeline._rut_rule`)
_LEGAL, _REFUSED, _FOLLOW_UP = 0, 1, 2
#: positions with no more actions than this are searched whole
_FEW = 24
#: cells per chunk of a mask when NODES are listed from it
_CHUNK = 8


class Beeline(Engine[State, Action]):
    """Beeline for two players, Black and Red.

    Each line runs from its owner's starting NODE; the first to reach the
    opponent's starting point wins. See docs/engine-beeline.md for the rules as
    enforced, the notation, the piece codes and the options.

    A state's legal actions are worked out once and kept with it (see
    :mod:`.position`): the NODES a player may put down come from masks, the
    replacements from one look at each place the replaced MARK may go (the
    MARK replaced changes nothing there but for the few cells next to the
    line's end), and whether a player can play at all is known from the first
    action found.
    """

    title: ClassVar[str] = "Beeline"
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("layout", M_("Board layout"), M_("the board's cells"), "choice", ("standard",)),
        OptionSpec(
            "returned_pieces",
            M_("MARKS sent back"),
            M_("where the MARKS of a line sent back go"),
            "choice",
            ("open_group", "apart"),
            (M_("into the group being played"), M_("apart, playable at any time")),
        ),
        OptionSpec(
            "dead_ends",
            M_("Dead ends allowed"),
            M_("whether a MARK may close its line's way on for good"),
            "bool",
        ),
        OptionSpec(
            "blocked",
            M_("A player who cannot play"),
            M_("a player holding pieces with no legal play"),
            "choice",
            ("pass", "loses"),
            (M_("passes"), M_("loses")),
        ),
        OptionSpec(
            "rut_checked",
            M_("The opponent's RUT checked"),
            M_("when a piece must leave the opponent's RUT free"),
            "choice",
            ("after_send_back", "as_placed"),
            (M_("once a line it sends back is taken off"), M_("as it is put down")),
        ),
        OptionSpec(
            "replaced_at_own_start",
            M_("A replaced piece may reach its own start"),
            M_(
                "whether a replaced piece may go on the opponent's line where it reaches the "
                "mover's own start (the opponent then wins at once)"
            ),
            "bool",
        ),
        OptionSpec(
            "winning_piece_excused",
            M_("A winning piece may block the RUT"),
            M_("whether a piece that wins at once need not leave the opponent's RUT free"),
            "bool",
        ),
    )
    summary: ClassVar[str] = M_(
        "Black and Red each build a line of pieces from their starting NODE; the first to "
        "reach the other's starting point wins."
    )

    name: ClassVar[str] = "beeline"
    Options: ClassVar[type[_Options]] = _Options
    #: a position costs the search about two and a half times a two-player
    #: Shiftago one (its race measured by flooding the board twice)
    search_scale = 0.4

    def __init__(self, options: _Options | None = None) -> None:
        options = _Options() if options is None else options
        for key in _FLAGS:
            if not isinstance(getattr(options, key), bool):
                raise BadOptions(f"beeline: option {key!r} must be true or false")
        for key, allowed in _CHOICES:
            value = getattr(options, key)
            if value not in allowed:
                raise BadOptions(
                    f"beeline: option {key!r} must be one of {', '.join(allowed)}, not {value!r}"
                )
        if not isinstance(options.layout, str):
            raise BadOptions("beeline: option 'layout' must be the name of a layout")
        self.options = options
        self.players = 2
        b = load(options.layout)
        self.geo: Board = b
        self.lines = Lines(
            b, apart=options.returned_pieces == "apart", placed=options.rut_checked == "as_placed"
        )
        self._nbr = b.nbr
        self._usable = b.usable
        self._starts = b.starts
        self._enter = self.lines.enter
        self._cells = frozenset(b.names)
        self._spec = self._build_spec()
        #: every NODE from the hand, by colour and cell
        self._nodes = tuple(tuple(Node(colour, name) for name in b.names) for colour in (0, 1))
        #: the kinds of MARK a hand may play, by hand
        self._held: dict[Hand, tuple[Kind, ...]] = {}
        #: NODES by colour, chunk of cells and the chunk's mask, made when first needed
        chunks = (b.size + _CHUNK - 1) // _CHUNK
        self._node_chunks: tuple[list[list[tuple[Node, ...] | None]], ...] = tuple(
            [[None] * (1 << _CHUNK) for _ in range(chunks)] for _ in (0, 1)
        )
        #: the board as the evaluation floods it, made when first needed
        self._race: Race | None = None
        cells = bytearray(b.size)
        cells[b.starts[0]] = node_code(0)
        cells[b.starts[1]] = node_code(1)
        self._initial = State(
            bytes(cells),
            ((b.starts[0],), (b.starts[1],)),
            (False, False),
            (FULL_HAND, FULL_HAND),
        )

    @cached_property
    def _ways(self) -> tuple[tuple[tuple[tuple[int, int, Mark], ...], ...], ...]:
        """Per cell and entry side, per kind: (the cell ahead or -1, exit side,
        the MARK from the hand) for each way a MARK of that kind leaves (made
        when first listed: a profile's check needs none)."""
        b = self.geo
        return tuple(
            tuple(
                tuple(
                    (
                        b.nbr[x][(entry + t) % 6],
                        (entry + t) % 6,
                        Mark(k, b.names[x], (entry + t) % 6),
                    )
                    for t in k.turns
                )
                for k in KINDS
            )
            for x in range(b.size)
            for entry in range(6)
        )

    @cached_property
    def _reach(self) -> tuple[int, ...]:
        """Per cell, entry side and kinds held (a bit per kind): the cells
        ahead of the MARKS of those kinds that may go there, as a mask."""
        ways = self._ways
        return tuple(
            sum(1 << y for k in KINDS if held >> k & 1 for y, _, _ in ways[way][k] if y >= 0)
            for way in range(self.geo.size * 6)
            for held in range(8)
        )

    # -- the rules -----------------------------------------------------------
    def initial(self) -> State:
        return self._initial

    def _cell(self, name: str) -> int:
        i = self.geo.index.get(name)
        if i is None:
            raise BadNotation(M_("{cell} is not a cell of this Beeline board", cell=repr(name)))
        return i

    def legal_actions(self, state: State) -> Iterator[Action]:
        return iter(self._actions(state))

    def _actions(self, state: State) -> tuple[Action, ...]:
        """The state's legal actions, listed once and kept in its index."""
        ix = index_of(state)
        if ix.actions is None:
            ix.actions = tuple(self._listing(state, ix))
        return ix.actions

    def _listing(self, st: State, ix: Index) -> list[Action]:
        """The legal actions in their order: MARKS from the hand, NODES on
        empty cells, NODES replacing a MARK."""
        if st.end is not End.PLAYING:
            return []
        lines = self.lines
        p = st.player
        cells = st.cells
        hand = st.hands[p]
        out: list[Action] = []
        kinds = self._kinds_held(hand)
        if kinds:
            ahead = -1 if self.options.dead_ends else self._ahead_mask(st, ix)
            ways = self._ways
            for x, entry, via in self._spots(st, ix):
                way = ways[x * 6 + entry]
                for k in kinds:
                    for y, ex, mark in way[k]:
                        if (ahead >> y) & 1 if y >= 0 else ahead == -1:
                            if st.owe:
                                pos = self._play_mark(st, k, x, ex, via)
                                if self._rut_rule(st, pos, -1) != _LEGAL:
                                    continue
                            out.append(mark)
        if not hand[7]:
            return out
        if not st.owe:
            out += self._node_list(st, ix)
        else:
            # owing a free RUT, a NODE on an empty cell frees nothing (it only
            # fills a cell, never one of the opponent's RUT): it is legal only
            # when it wins at once, continuing the mover's line
            rut = lines.rut_mask(cells, st.lines[p], st.hop[p], p)
            for x in self._bits(self._node_cells(st, ix)[0] & rut):
                pos = self._play_node(st, x, p)
                if pos.winner >= 0 and self._rut_rule(st, pos, -1) == _LEGAL:
                    out.append(self._nodes[p][x])
        out.extend(self._replacements(st, ix))
        return out

    def _kinds_held(self, hand: Hand) -> tuple[Kind, ...]:
        kinds = self._held.get(hand)
        if kinds is None:
            kinds = self._held[hand] = tuple(k for k in KINDS if self.lines.has_kind(hand, k))
        return kinds

    def _ahead_mask(self, st: State, ix: Index) -> int:
        """The cells a MARK of the player to act may point at without a dead
        end (:meth:`.Lines.open_ahead`): empty cells he may use, his own
        MARKS, NODES of his colour his line may enter, the opponent's start."""
        ahead = ix.ahead
        if ahead is None:
            p = st.player
            nodes = ix.nodes
            ahead = ix.ahead = (
                (self._usable[p] & ~ix.occ)
                | (ix.lines[p] & ~(nodes[0] | nodes[1]))
                | (nodes[p] & self._enter[p])
                | 1 << self._starts[1 - p]
            )
        return ahead

    def _spots(self, st: State, ix: Index) -> list[tuple[int, int, int]]:
        """Where the line of the player to act may take a MARK (:meth:`.Lines.spots`)."""
        spots = ix.spots
        if spots is None:
            p = st.player
            spots = ix.spots = self.lines.spots(st.cells, st.lines[p], st.hop[p], p)
        return spots

    def _room(self, ix: Index, colour: int) -> int:
        room = ix.room[colour]
        if room is None:
            room = ix.room[colour] = self.lines.node_room(ix.nodes[colour])
        return room

    @staticmethod
    def _bits(mask: int) -> Iterator[int]:
        while mask:
            low = mask & -mask
            yield low.bit_length() - 1
            mask ^= low

    def _node_cells(self, st: State, ix: Index) -> tuple[int, int]:
        """The empty cells where the player to act may put a NODE of his own
        colour, and of the opponent's (masks)."""
        lines = self.lines
        p = st.player
        q = 1 - p
        cells = st.cells
        free = self._usable[p] & ~ix.occ & ~lines.rut_mask(cells, st.lines[q], st.hop[q], q)
        mine = free & self._room(ix, p)
        theirs = free & self._room(ix, q)
        own = st.lines[p]
        if not self.options.dead_ends and cells[own[-1]] >= MARK0:
            front = lines.front(cells, own)
            if front >= 0:
                theirs &= ~(1 << front)
        return mine, theirs

    def _node_list(self, st: State, ix: Index) -> list[Node]:
        """The NODES on empty cells, from their masks a chunk of cells at a time
        (the mover's colour, then the opponent's, chunk by chunk)."""
        p = st.player
        mine, theirs = self._node_cells(st, ix)
        out: list[Node] = []
        extend = out.extend
        low = (1 << _CHUNK) - 1
        tables = (self._node_chunks[p], self._node_chunks[1 - p])
        colours = (p, 1 - p)
        chunk = 0
        while mine or theirs:
            for side, m in ((0, mine & low), (1, theirs & low)):
                if m:
                    row = tables[side][chunk]
                    got = row[m]
                    if got is None:
                        nodes = self._nodes[colours[side]]
                        base = chunk * _CHUNK
                        got = row[m] = tuple(nodes[base + i] for i in range(_CHUNK) if m >> i & 1)
                    extend(got)
            mine >>= _CHUNK
            theirs >>= _CHUNK
            chunk += 1
        return out

    def _replacements(self, st: State, ix: Index) -> Iterator[Replace]:
        """The NODES replacing a MARK, each with where the MARK goes.

        A MARK replaced changes nothing about where its line goes on, and
        whether the piece is legal does not depend on which MARK it was,
        unless the MARK was next to the line's end (the line's way on changes:
        each such MARK is looked at alone), the replaced MARK's new place
        points at it or at a cell next to it (it runs into the new NODE, or
        next to it), or the line is sent back (to the new NODE, maybe). So each
        place and way out is looked at once, for every MARK of that kind."""
        if not st.hands[st.player][7]:
            return
        lines = self.lines
        p = st.player
        q = 1 - p
        cells = st.cells
        names = self.geo.names
        nbr = self._nbr
        dead_ok = self.options.dead_ends
        dark_q = self.geo.dark[q]
        for owner in (p, q):
            line = st.lines[owner]
            last = line[-1]
            room = self._room(ix, owner)
            barred = dark_q if owner == q else 0
            by_kind: tuple[list[int], list[int], list[int]] = ([], [], [])
            special: list[int] = []
            near_end = 0
            if cells[last] >= MARK0:
                front = lines.front(cells, line)
                if front >= 0:
                    near_end = 1 << front
            elif st.hop[owner]:
                near_end = lines.nbr_mask[last]
            for x in line:
                c = cells[x]
                if c < MARK0 or x == last or (barred >> x) & 1 or not (room >> x) & 1:
                    continue
                if (near_end >> x) & 1:
                    special.append(x)
                else:
                    by_kind[(c - MARK0) % 18 // 6].append(x)
            if any(by_kind):
                for to, entry, via in lines.spots(cells, line, st.hop[owner], owner):
                    if (barred >> to) & 1:
                        continue
                    for t in range(1, 6):
                        kind = KIND_OF_TURN[t]
                        assert kind is not None
                        xs = by_kind[kind]
                        if not xs:
                            continue
                        ex = (entry + t) % 6
                        y = nbr[to][ex]
                        if owner == p and not dead_ok and not lines.open_ahead(cells, p, y):
                            continue
                        # the cells whose MARK, replaced, would change this piece's way
                        touchy = 1 << y if y >= 0 else 0
                        if y >= 0 and cells[y] == owner + 1 and (self._enter[owner] >> y) & 1:
                            touchy |= lines.nbr_mask[y]
                        verdict = self._shared_verdict(st, owner, int(kind), to, ex, via)
                        for x in xs:
                            if verdict == _FOLLOW_UP or (touchy >> x) & 1:
                                if not self._replacement_ok(st, owner, x, to, ex):
                                    continue
                            elif verdict != _LEGAL:
                                continue
                            yield Replace(owner, names[x], kind, names[to], ex)
            for x in special:
                yield from self._replacements_of(st, owner, x)

    def _shared_verdict(self, st: State, owner: int, kind: int, to: int, ex: int, via: int) -> int:
        """The rule on the opponent's RUT for a replaced MARK of ``owner``'s
        line played on ``to`` leaving by ``ex``, whichever MARK it was (one the
        piece's way does not pass): the MARK laid with no NODE put down.
        ``_FOLLOW_UP`` also when the answer depends on the MARK (the line was
        sent back, or the turn's second piece must be looked for)."""
        pos = Scratch.of(st)
        self.lines.lay_mark(pos, owner, kind, to, ex, via)
        self.lines.settle(pos, st.player)
        if (pos.sent >> owner) & 1:
            return _FOLLOW_UP
        return self._rut_rule(st, pos, owner)

    def _replacement_ok(self, st: State, owner: int, x: int, to: int, ex: int) -> bool:
        pos = self._play_replace(st, owner, x, to, ex)
        return pos is not None and self._why_after(st, pos, owner) is None

    def _replacements_of(self, st: State, owner: int, x: int) -> Iterator[Replace]:
        """The replacements of the MARK on ``x``, each worked out whole."""
        lines = self.lines
        p = st.player
        base = Scratch.of(st)
        base.hands[p][7] -= 1
        kind = lines.replace_with_node(base, owner, x)
        dark_q = self.geo.dark[1 - p] if owner != p else 0
        names = self.geo.names
        for to, entry, via in lines.spots(base.cells, base.lines[owner], base.hop[owner], owner):
            if (dark_q >> to) & 1:
                continue
            for t in KINDS[kind].turns:
                ex = (entry + t) % 6
                if (
                    owner == p
                    and not self.options.dead_ends
                    and not lines.open_ahead(base.cells, p, self._nbr[to][ex])
                ):
                    continue
                pos = base.copy()
                lines.lay_mark(pos, owner, kind, to, ex, via)
                lines.settle(pos, p)
                if self._why_after(st, pos, owner) is None:
                    yield Replace(owner, names[x], KINDS[kind], names[to], ex)

    def _can_play(self, st: State) -> bool:
        """Whether the player to act has a legal action, from the first one
        found: a MARK, else a NODE, else a replacement."""
        if st.owe:
            return bool(self._actions(st))
        p = st.player
        hand = st.hands[p]
        kinds = self._kinds_held(hand)
        if kinds:
            spots = self._spots(st, index_of(st))
            if spots:
                if self.options.dead_ends:
                    return True
                ahead = self._ahead_mask(st, index_of(st))
                reach = self._reach
                held = sum(1 << k for k in kinds)
                for x, entry, _ in spots:
                    if reach[(x * 6 + entry) * 8 + held] & ahead:
                        return True
        if not hand[7]:
            return False
        ix = index_of(st)
        mine, theirs = self._node_cells(st, ix)
        if mine or theirs:
            return True
        return next(self._replacements(st, ix), None) is not None

    # -- playing a piece on a scratch copy ---------------------------------------
    def _play_mark(self, st: State, k: int, x: int, ex: int, via: int) -> Scratch:
        lines = self.lines
        p = st.player
        pos = Scratch.of(st)
        lines.take(pos.hands[p], k)
        lines.lay_mark(pos, p, k, x, ex, via)
        lines.settle(pos, p)
        return pos

    def _play_node(self, st: State, x: int, colour: int) -> Scratch:
        lines = self.lines
        p = st.player
        pos = Scratch.of(st)
        pos.hands[p][7] -= 1
        own = st.lines[p]
        continues = colour == p and x in lines.rut_cells(st.cells, own, st.hop[p], p)
        lines.lay_node(pos, x, colour)
        if continues:
            lines.continue_with_node(pos, p, x, lines.exits(st.cells, own, st.hop[p], p))
        lines.settle(pos, p)
        return pos

    def _play_replace(self, st: State, owner: int, x: int, to: int, ex: int) -> Scratch | None:
        """The position after a NODE replaces the MARK on ``x`` and that MARK
        goes on ``to`` leaving by ``ex``; None where it cannot go there."""
        lines = self.lines
        p = st.player
        pos = Scratch.of(st)
        pos.hands[p][7] -= 1
        kind = lines.replace_with_node(pos, owner, x)
        spots = lines.spots(pos.cells, pos.lines[owner], pos.hop[owner], owner)
        via = self._match_spot(spots, to, ex, kind)
        if via is None:
            return None
        lines.lay_mark(pos, owner, kind, to, ex, via)
        lines.settle(pos, p)
        return pos

    def _via(self, st: State, x: int, ex: int, k: int) -> int:
        via = self._match_spot(self._spots(st, index_of(st)), x, ex, k)
        return -1 if via is None else via

    # -- the rule on the opponent's RUT -----------------------------------------
    def _free_after(self, pos: Scratch, q: int) -> bool:
        """Whether q's RUT is free after the piece, as option ``rut_checked`` reads it."""
        if pos.free_placed is not None:
            return pos.free_placed
        return self.lines.free(pos.cells, pos.lines[q], pos.hop[q], q)

    def _rut_rule(self, st: State, pos: Scratch, line_of: int) -> int:
        """Whether the piece leaves the opponent's RUT free as it must:
        ``_LEGAL``, ``_REFUSED``, or ``_FOLLOW_UP`` when the turn's second piece
        must free it (a replaced MARK played on the opponent's line with one
        piece of the turn left). ``line_of``: the line a replaced MARK was
        played on, or -1."""
        p = st.player
        q = 1 - p
        options = self.options
        if pos.winner == q:
            # only a replaced MARK played on the opponent's line can do this
            return _LEGAL if options.replaced_at_own_start or line_of != q else _REFUSED
        won = pos.winner == p
        if won and options.winning_piece_excused:
            return _LEGAL
        if self._free_after(pos, q):
            return _LEGAL
        if st.owe:
            return _REFUSED
        if line_of == q:
            return _FOLLOW_UP if st.left >= 2 and not won else _REFUSED
        if line_of == p and self.lines.free(st.cells, st.lines[q], st.hop[q], q):
            return _REFUSED
        return _LEGAL

    def _why_after(self, st: State, pos: Scratch, line_of: int) -> str | None:
        """The rules that look at the position after the piece."""
        rule = self._rut_rule(st, pos, line_of)
        if rule == _LEGAL:
            return None
        p = st.player
        q = 1 - p
        who, other = _PLAYERS[p].name, _PLAYERS[q].name
        if rule == _FOLLOW_UP:
            nxt = self.lines.to_state(pos, p, 1, True)
            if self._can_play(nxt):
                return None
        if pos.winner == q:
            return M_(
                "the replaced piece would point {other}'s line at {who}'s own start "
                "(option replaced_at_own_start allows it)",
                other=other,
                who=who,
            )
        if st.owe:
            return M_(
                "{who} must leave {other}'s RUT free for play in {other}'s turn with this piece",
                who=who,
                other=other,
            )
        if line_of == q:
            return M_(
                "the replaced piece must be played so that {other}'s RUT is free for play "
                "in {other}'s turn",
                other=other,
            )
        return M_("the replaced piece must be played so that {other}'s RUT stays free", other=other)

    # -- checking one action, with the reason ---------------------------------------
    def _why_static(self, st: State, action: Action) -> tuple[str | None, Scratch | None, int]:
        """Check an action against the position; (reason, None, -1) if refused,
        else (None, the position after it, the line a replacement was in)."""
        p = st.player
        q = 1 - p
        cells = st.cells
        hand = st.hands[p]
        if isinstance(action, Mark):
            k = int(action.kind)
            word = action.kind.word
            if not self.lines.has_kind(hand, k):
                return self._no_kind(hand, p, k), None, -1
            x = self._cell(action.cell)
            spot = self._spot_reason(st, p, x, action.exit, k, word)
            if isinstance(spot, str):
                return spot, None, -1
            y = self._nbr[x][action.exit]
            if not self.options.dead_ends and not self.lines.open_ahead(cells, p, y):
                what = M_("{piece} on {site}", piece=_A_KIND[action.kind], site=action.cell)
                return self._closed(cells, y, p, what), None, -1
            return None, self._play_mark(st, k, x, action.exit, spot), -1
        if isinstance(action, Node):
            if not hand[7]:
                return M_("{player} has no NODE left", player=_PLAYERS[p].name), None, -1
            x = self._cell(action.cell)
            reason = self._node_spot_reason(st, p, x, action.colour)
            if reason:
                return reason, None, -1
            return None, self._play_node(st, x, action.colour), -1
        if isinstance(action, Replace):
            if not hand[7]:
                return M_("{player} has no NODE left", player=_PLAYERS[p].name), None, -1
            x = self._cell(action.cell)
            c = cells[x]
            if c < MARK0:
                why = (
                    M_(
                        "{cell} holds nothing; a NODE replaces a MARK of either line",
                        cell=action.cell,
                    )
                    if c == EMPTY
                    else M_(
                        "{cell} holds a NODE; a NODE replaces a MARK of either line",
                        cell=action.cell,
                    )
                )
                return why, None, -1
            owner, kind, _ = mark_parts(c)
            line = st.lines[owner]
            if line[-1] == x:
                why = M_(
                    "the {kind} on {cell} is the last piece of {player}'s line, which cannot be "
                    "replaced",
                    kind=_KIND_WORDS[kind],
                    cell=action.cell,
                    player=_PLAYERS[owner].name,
                )
                return why, None, -1
            if owner == q and (self.geo.dark[q] >> x) & 1:
                why = M_(
                    "{cell} is in {other}'s dark area: {player} cannot replace pieces there",
                    cell=action.cell,
                    other=_PLAYERS[q].name,
                    player=_PLAYERS[p].name,
                )
                return why, None, -1
            if action.colour != owner:
                why = M_(
                    "a NODE in {player}'s line shows {player}: write {notation}",
                    player=_PLAYERS[owner].name,
                    notation=f"N{'BR'[owner]}x{action.cell}",
                )
                return why, None, -1
            if not (self._room(index_of(st), owner) >> x) & 1:
                why = M_(
                    "a NODE {colours} up on {name} would make three NODES of one colour adjacent",
                    colours=_PLAYERS[owner].name,
                    name=action.cell,
                )
                return why, None, -1
            if int(action.kind) != kind:
                why = M_(
                    "the piece replaced on {cell} is {piece}: write {notation}... for where it "
                    "goes",
                    cell=action.cell,
                    piece=_A_KIND[KINDS[kind]],
                    notation=f"{KINDS[kind].letter}{action.to}",
                )
                return why, None, -1
            to = self._cell(action.to)
            if owner == q and (self.geo.dark[q] >> to) & 1:
                why = M_(
                    "{cell} is in {other}'s dark area: {player} cannot play a piece replaced there",
                    cell=action.to,
                    other=_PLAYERS[q].name,
                    player=_PLAYERS[p].name,
                )
                return why, None, -1
            pos = Scratch.of(st)
            pos.hands[p][7] -= 1
            self.lines.replace_with_node(pos, owner, x)
            word = KINDS[kind].word
            spots = self.lines.spots(pos.cells, pos.lines[owner], pos.hop[owner], owner)
            if self._match_spot(spots, to, action.exit, kind) is None:
                return (
                    self._spot_words(
                        pos.cells, pos.lines[owner], pos.hop[owner], owner, to, word, action.exit
                    ),
                    None,
                    -1,
                )
            y = self._nbr[to][action.exit]
            if (
                owner == p
                and not self.options.dead_ends
                and not self.lines.open_ahead(pos.cells, p, y)
            ):
                what = M_("the {kind} on {site}", kind=_KIND_WORDS[kind], site=action.to)
                return self._closed(pos.cells, y, p, what), None, -1
            after = self._play_replace(st, owner, x, to, action.exit)
            assert after is not None
            return None, after, owner
        return M_("{action} is not a Beeline action", action=repr(action)), None, -1

    def _match_spot(
        self, spots: list[tuple[int, int, int]], x: int, exit_side: int, kind: int
    ) -> int | None:
        for cell, entry, via in spots:
            if cell == x and (exit_side - entry) % 6 in KINDS[kind].turns:
                return via
        return None

    def _spot_reason(
        self, st: State, p: int, x: int, exit_side: int, k: int, word: str
    ) -> int | str:
        spots = self.lines.spots(st.cells, st.lines[p], st.hop[p], p)
        via = self._match_spot(spots, x, exit_side, k)
        if via is not None:
            return via
        return self._spot_words(st.cells, st.lines[p], st.hop[p], p, x, word, exit_side)

    def _spot_words(
        self, cells: bytes | bytearray, line: Any, hop: bool, p: int, x: int, word: str, ex: int
    ) -> str:
        """Why a MARK of player p's line cannot go on ``x`` leaving by ``ex``."""
        name = self.geo.names[x]
        who = _PLAYERS[p].name
        exits = self.lines.exits(cells, line, hop, p)
        if exits is None:
            y = self.lines.front(cells, line)
            if y != x:
                where = self.geo.names[y] if y >= 0 else M_("off the board")
                return M_(
                    "MARKS continue the line: {who}'s RUT is {where}, not {name}",
                    who=who,
                    where=where,
                    name=name,
                )
        elif not any(x in self._nbr[n] for n in exits):
            nodes = " or ".join(self.geo.names[n] for n in exits)
            return M_(
                "{name} is not next to the NODE {who}'s line goes on from ({nodes}): a line "
                "passes a MARK once and leaves a NODE it played into, or one next to it",
                name=name,
                who=who,
                nodes=nodes,
            )
        if cells[x] != EMPTY:
            return M_("{name} is not empty", name=name)
        if not (self._usable[p] >> x) & 1:
            return self._unusable(x, p)
        entries = [
            (s + 3) % 6
            for n in (exits if exits is not None else [line[-1]])
            for s, c in enumerate(self._nbr[n])
            if c == x
        ]
        kind = next(k for k in KINDS if k.word == word)
        turns = functools.reduce(
            lambda a, b: M_("{first} or {second}", first=a, second=b),
            [SIDES[(e + t) % 6] for e in entries for t in kind.turns],
        )
        return M_(
            "{piece} on {cell} entered from {entry} leaves by {exits}, not {exit}",
            piece=_A_KIND[kind],
            cell=name,
            entry=SIDES[entries[0]],
            exits=turns,
            exit=SIDES[ex],
        )

    def _unusable(self, x: int, p: int) -> str:
        name = self.geo.names[x]
        if (self.geo.out >> x) & 1:
            return M_("{cell} is out of bounds", cell=name)
        q = 1 - p
        if (self.geo.dark[q] >> x) & 1:
            return M_(
                "{cell} is in {player}'s dark area, which only {player} may use",
                cell=name,
                player=_PLAYERS[q].name,
            )
        return M_("{cell} cannot be used by {player}", cell=name, player=_PLAYERS[p].name)

    def _closed(self, cells: bytes | bytearray, y: int, p: int, what: str) -> str:
        ahead: str
        if y < 0:
            ahead = M_("the edge of the board")
        elif self.geo.out >> y & 1 or self.geo.dark[1 - p] >> y & 1:
            ahead = self._unusable(y, p)
        elif cells[y] >= MARK0:
            ahead = M_(
                "{cell} holds {player}'s line, which would send it back",
                cell=self.geo.names[y],
                player=_PLAYERS[1 - p].name,
            )
        else:
            ahead = M_(
                "{cell} holds a NODE {player}'s line may not enter",
                cell=self.geo.names[y],
                player=_PLAYERS[p].name,
            )
        return M_(
            "{what} would point the line at a dead end ({ahead}); option dead_ends allows it",
            what=what,
            ahead=ahead,
        )

    def _no_kind(self, hand: Hand, p: int, k: int) -> str:
        who = _PLAYERS[p].name
        if hand[0] + hand[1] + hand[2] == 0 and not hand[3] and not any(hand[4:7]):
            return M_("{player} has no MARK left", player=who)
        left = joined(
            [_count_of(KINDS[i], n) for i in range(3) if (n := hand[i] + hand[4 + i])], ", "
        )
        return M_(
            "{player} has no {kind} left in the open group; a group is used up before the next "
            "is opened (left: {left})",
            player=who,
            kind=_KIND_WORDS[k],
            left=left,
        )

    def _node_spot_reason(self, st: State, p: int, x: int, colour: int) -> str | None:
        name = self.geo.names[x]
        cells = st.cells
        if cells[x] != EMPTY:
            return M_(
                "{name} is not empty (a NODE replacing a MARK is written N{value}x{name}/...)",
                name=name,
                value="BR"[colour],
            )
        if not (self._usable[p] >> x) & 1:
            return self._unusable(x, p)
        q = 1 - p
        if x in self.lines.rut_cells(cells, st.lines[q], st.hop[q], q):
            return M_(
                "{name} is in {colours}'s RUT: a NODE cannot be played there",
                name=name,
                colours=_PLAYERS[q].name,
            )
        if not (self._room(index_of(st), colour) >> x) & 1:
            return M_(
                "a NODE {colours} up on {name} would make three NODES of one colour adjacent",
                colours=_PLAYERS[colour].name,
                name=name,
            )
        if colour != p and not self.options.dead_ends:
            own = st.lines[p]
            if cells[own[-1]] >= MARK0 and self.lines.front(cells, own) == x:
                return M_(
                    "{name} is {colours}'s own RUT: a NODE {colours2} up there would close the "
                    "line for good; option dead_ends allows it",
                    name=name,
                    colours=_PLAYERS[p].name,
                    colours2=_PLAYERS[colour].name,
                )
        return None

    def why_wrong(self, state: State, changed: Mapping[str, str | None]) -> str | None:
        """One piece set on an empty cell, or a replacement made (a MARK's cell
        now holding a NODE, that MARK set on an empty cell): the rules' reason,
        a MARK of the other colour first."""
        if state.end is not End.PLAYING:
            return None
        before = self.layout(state)
        codes = _CODES
        if any(piece is None or piece not in codes for piece in changed.values()):
            return None
        put = {site: codes[piece] for site, piece in changed.items() if piece is not None}
        if len(put) == 1:
            ((cell, code),) = put.items()
            if cell in before:
                return None
            if code < MARK0:
                return self.why_illegal(state, Node(code - 1, cell))
            owner, kind, side = mark_parts(code)
            if owner != state.player:
                return M_(
                    "that is a {owner} MARK, and {player} is to play",
                    owner=_PLAYERS[owner].name,
                    player=_PLAYERS[state.player].name,
                )
            return self.why_illegal(state, Mark(KINDS[kind], cell, side))
        if len(put) == 2:
            nodes = [s for s, c in put.items() if c < MARK0 and s in before]
            marks = [s for s, c in put.items() if c >= MARK0 and s not in before]
            if len(nodes) != 1 or len(marks) != 1:
                return None
            (cell,), (to,) = nodes, marks
            replaced = codes.get(before[cell], 0)
            owner, kind, side = mark_parts(put[to])
            if replaced < MARK0 or mark_parts(replaced)[:2] != (owner, kind):
                return None
            return self.why_illegal(state, Replace(put[cell] - 1, cell, KINDS[kind], to, side))
        return None

    def why_illegal(self, state: State, action: Action) -> str | None:
        if state.end is not End.PLAYING:
            return M_("the game is over ({reason})", reason=self.outcome(state).reason)
        try:
            reason, pos, line_of = self._why_static(state, action)
        except BadNotation as exc:
            return str(exc)
        if reason is not None or pos is None:
            return reason
        return self._why_after(state, pos, line_of)

    # -- applying ------------------------------------------------------------
    def _play(self, st: State, action: Action) -> tuple[Scratch, int]:
        """The position after a legal ``action``, and the line a replaced MARK
        was played on (-1 for none)."""
        index = self.geo.index
        if type(action) is Node:
            return self._play_node(st, index[action.cell], action.colour), -1
        if type(action) is Mark:
            x = index[action.cell]
            k = int(action.kind)
            return self._play_mark(st, k, x, action.exit, self._via(st, x, action.exit, k)), -1
        assert isinstance(action, Replace)
        x = index[action.cell]
        owner = (st.cells[x] - MARK0) // 18
        pos = self._play_replace(st, owner, x, index[action.to], action.exit)
        assert pos is not None, "a legal replacement"
        return pos, owner

    def apply_unchecked(self, state: State, action: Action) -> State:
        if type(action) is Node:
            x = self.geo.index[action.cell]
            p = state.player
            if action.colour != p or x not in self.lines.rut_cells(
                state.cells, state.lines[p], state.hop[p], p
            ):
                return self._stand_alone(state, x, action.colour)
        pos, line_of = self._play(state, action)
        return self._finish(state, pos, line_of)

    def _stand_alone(self, st: State, x: int, colour: int) -> State:
        """After a NODE that does not continue the mover's line: no line
        changes, so nobody reaches a goal and nobody is sent back."""
        p = st.player
        cells = bytearray(st.cells)
        cells[x] = colour + 1
        after = bytes(cells)
        h = st.hands[p]
        hand = (h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7] - 1)
        hands = (hand, st.hands[1]) if p == 0 else (st.hands[0], hand)
        ix = index_of(st)
        bit = 1 << x
        nodes = (
            (ix.nodes[0] | bit, ix.nodes[1]) if colour == 0 else (ix.nodes[0], ix.nodes[1] | bit)
        )
        occ = ix.occ | bit
        lines = ix.lines

        def make(player: int, left: int, owe: bool) -> State:
            state = State(after, st.lines, st.hop, hands, player, left, owe)
            object.__setattr__(state, "_ix", Index(occ, nodes, lines))
            return state

        return self._next(st, make, False)

    def _finish(self, st: State, pos: Scratch, line_of: int) -> State:
        p = st.player
        lines = self.lines
        if pos.winner >= 0:
            done = lines.to_state(pos, p, 0, False)
            return _ended(done, p, End.GOAL, pos.winner)
        owe = line_of == 1 - p and not self._free_after(pos, 1 - p)
        return self._next(st, lambda *a: lines.to_state(pos, *a), owe)

    def _next(self, st: State, make: Callable[[int, int, bool], State], owe: bool) -> State:
        """Who acts after the mover's piece: the mover again (his second
        piece, if he can play it, or must: ``owe``), else the opponent, else
        the mover with two pieces; else the game ends (blocked, a tie)."""
        p = st.player
        q = 1 - p
        left = st.left - 1
        if left > 0:
            nxt = make(p, left, owe)
            if owe or self._can_play(nxt):
                return nxt
        nxt = make(q, 2, False)
        if self._can_play(nxt):
            return nxt
        if self.options.blocked == "loses" and any(nxt.hands[q]):
            return _ended(nxt, q, End.BLOCKED, p)
        again = make(p, 2, False)
        if self._can_play(again):
            return again
        return _ended(nxt, p, End.TIE, -1)

    # -- for the computer ----------------------------------------------------------
    def evaluate(self, state: State) -> tuple[float, ...]:
        """The race of the two lines to the goal (:mod:`.evaluate`)."""
        race = self._race
        if race is None:
            race = self._race = Race(self.geo)
        return evaluate(self, race, state)

    def considered(self, state: State) -> tuple[Action, ...] | None:
        """The actions worth a look (most of a position's are NODES put down
        far from both lines): every MARK and replacement, a NODE of the
        mover's colour where his next pieces could go on a shortest way to
        his goal, and a NODE of either colour where the opponent's could."""
        actions = self._actions(state)
        if state.end is not End.PLAYING or len(actions) <= _FEW:
            return None
        race = self._race
        if race is None:
            race = self._race = Race(self.geo)
        p = state.player
        mine = corridor(self, race, state, p)
        theirs = corridor(self, race, state, 1 - p)
        index = self.geo.index
        out = tuple(
            a
            for a in actions
            if not isinstance(a, Node)
            or (1 << index[a.cell]) & (theirs | (mine if a.colour == p else 0))
        )
        return out if 0 < len(out) < len(actions) else None

    # -- whose turn, what next, how it ended ---------------------------------
    def to_move(self, state: State) -> int | None:
        return None if state.end is not End.PLAYING else state.player

    def expects(self, state: State) -> str:
        if state.end is not End.PLAYING:
            return "nothing"
        return "piece" if self._left(state) == 1 else "two pieces"

    @staticmethod
    def _left(state: State) -> int:
        """Pieces the player to act may still play this turn: two, or fewer
        when the turn is half done or the hand holds only one."""
        h = state.hands[state.player]
        held = h[0] + h[1] + h[2] + 3 * GROUP * h[3] + h[4] + h[5] + h[6] + h[7]
        return min(state.left, held)

    def task(self, state: State) -> str:
        if state.end is not End.PLAYING:
            return M_("nothing")
        if state.owe:
            return M_(
                "play a piece that frees {player}'s RUT", player=_PLAYERS[1 - state.player].name
            )
        if self._left(state) == 1:
            return M_("play a piece")
        return M_("play two pieces")

    def outcome(self, state: State) -> Outcome:
        end = state.end
        if end is End.PLAYING:
            return PLAYING
        if end is End.GOAL:
            w = state.winner
            goal = self.geo.names[self._starts[1 - w]]
            return Outcome(
                Status.WON,
                w,
                M_(
                    "{player}'s line reaches {other}'s starting point {goal}",
                    player=_PLAYERS[w].name,
                    other=_PLAYERS[1 - w].name,
                    goal=goal,
                ),
            )
        if end is End.BLOCKED:
            loser = 1 - state.winner
            return Outcome(
                Status.WON,
                state.winner,
                M_("{player} holds pieces but cannot play one", player=_PLAYERS[loser].name),
            )
        return Outcome(Status.DRAW, None, M_("neither player can play a piece: a tie"))

    # -- derived state the LEDs show -----------------------------------------
    def rut(self, state: State, player: int) -> frozenset[str]:
        """Player's RUT: the cell in front of the last MARK of their line, or
        every cell next to the NODE (or NODES) the line goes on from."""
        cells = self.lines.rut_cells(state.cells, state.lines[player], state.hop[player], player)
        return frozenset(self.geo.names[c] for c in cells)

    def line(self, state: State, player: int) -> tuple[str, ...]:
        """The cells player's line passes, from its start (a NODE may come twice)."""
        return tuple(self.geo.names[c] for c in state.lines[player])

    def hand(self, state: State, player: int) -> dict[str, Any]:
        """What player holds off the board (see :func:`text.hand_json`)."""
        return text.hand_json(state.hands[player])

    # -- notation --------------------------------------------------------------
    def parse_action(self, text_: str) -> Action:
        return parse_action(text_, self._cells)

    def format_action(self, action: Action) -> str:
        return str(action)

    # -- serialisation -----------------------------------------------------------
    def state_to_json(self, state: State) -> dict[str, Any]:
        return text.state_json(self.geo, state)

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        try:
            return text.state_from_json(self.geo, data)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise RecordError(f"not a Beeline state: {exc}") from None

    # -- the physical board ------------------------------------------------------
    def _build_spec(self) -> BoardSpec:
        b = self.geo
        sites = []
        for i, name in enumerate(b.names):
            r, c = b.coords[i]
            if (b.out >> i) & 1:
                continue
            sites.append(
                SiteSpec(
                    name,
                    "cell",
                    x=c - 0.5 * r,
                    y=round(0.866 * r, 3),
                    neighbours=tuple(
                        b.names[n] for n in b.nbr[i] if n >= 0 and not (b.out >> n) & 1
                    ),
                )
            )
        pieces = [
            PieceSpec(
                piece_name(node_code(c)),
                M_("NODE ({player} side up)", player=_PLAYERS[c].name),
                look=Look("node", _PLAYERS[c].colour),
            )
            for c in (0, 1)
        ]
        for owner in (0, 1):
            for k in KINDS:
                for s in range(6):
                    pieces.append(
                        PieceSpec(
                            piece_name(mark_code(owner, int(k), s)),
                            M_(
                                "{player} {kind} leaving {side}",
                                player=_PLAYERS[owner].name,
                                kind=_KIND_WORDS[int(k)],
                                side=SIDES[s],
                            ),
                            owner=owner,
                            orientation=s,
                            # SIDES run anticlockwise from east, a sixth of a turn apart
                            look=Look("mark", _PLAYERS[owner].colour, k.letter, angle=60.0 * s),
                        )
                    )
        return BoardSpec(tuple(sites), tuple(pieces), _PLAYERS, cells="hex")

    def board(self) -> BoardSpec:
        return self._spec

    def touches(self, state: State, action: Action) -> frozenset[str]:
        """The cells a legal piece changes: where it lies, a replaced MARK's
        cell and where that MARK goes, and every MARK a send-back removes.
        Worked out without applying it unless it may send a line back (the
        reconciler asks this of every action it tries on a changed cell)."""
        own = self._own_cells(action)
        if not self._may_send_back(state, self._lines_ahead(state), action, own):
            names = self.geo.names
            return frozenset(names[c] for c in own)
        _, pos, _ = self._why_static(state, action)
        if pos is None:
            return frozenset()
        names = self.geo.names
        return frozenset(names[i] for i in self._changed(state, action, pos))

    def layout_after(self, state: State, action: Action, sites: Iterable[str]) -> Mapping[str, str]:
        """What lies on ``sites`` after a legal piece, read off the cells it is
        put on, without playing it, unless it may send a line back (then
        applied): the reconciler asks this of every action it tries."""
        own = self._own_cells(action)
        if self._may_send_back(state, self._lines_ahead(state), action, own):
            return super().layout_after(state, action, sites)
        cells = state.cells
        put: dict[int, int]
        if type(action) is Node:
            put = {own[0]: action.colour + 1}
        elif type(action) is Mark:
            put = {own[0]: mark_code(state.player, int(action.kind), action.exit)}
        else:
            assert isinstance(action, Replace)
            x, to = own
            owner, kind, _ = mark_parts(cells[x])
            put = {x: owner + 1, to: mark_code(owner, kind, action.exit)}
        index = self.geo.index
        out: dict[str, str] = {}
        for name in sites:
            i = index.get(name)
            if i is not None:
                c = put.get(i, cells[i])
                if c:
                    out[name] = _PIECE_NAMES[c]
        return out

    def _changed(self, state: State, action: Action, pos: Scratch) -> tuple[int, ...]:
        # only the piece's own cells and those a send-back emptied are written
        before = state.cells
        after = pos.cells
        written = dict.fromkeys((*self._own_cells(action), *pos.removed))
        return tuple(i for i in written if before[i] != after[i])

    def _own_cells(self, action: Action) -> tuple[int, ...]:
        """The cells a piece is put on: its cell, and for a replacement also
        where the replaced MARK goes."""
        index = self.geo.index
        if isinstance(action, Replace):
            return (index[action.cell], index[action.to])
        return (index[action.cell],)

    def actions_touching(self, state: State, sites: frozenset[str]) -> Iterator[Action]:
        """From the state's index of cells to the legal actions that touch
        them (worked out once per state, applying only the actions that may
        send a line back), in the order of :meth:`legal_actions`."""
        index = self.geo.index
        asked = [index[s] for s in sites if s in index]
        if not asked:
            return iter(())
        actions = self._actions(state)
        by_cell = self._by_cell(state, actions)
        found: set[int] = set()
        for cell in asked:
            found.update(by_cell.get(cell, ()))
        return iter([actions[i] for i in sorted(found)])

    def _by_cell(self, state: State, actions: tuple[Action, ...]) -> dict[int, list[int]]:
        ix = index_of(state)
        if ix.by_cell is None:
            ahead = self._lines_ahead(state)
            by_cell: dict[int, list[int]] = {}
            for i, action in enumerate(actions):
                own = self._own_cells(action)
                if self._may_send_back(state, ahead, action, own):
                    pos, _ = self._play(state, action)
                    own = self._changed(state, action, pos)
                for cell in own:
                    by_cell.setdefault(cell, []).append(i)
            ix.by_cell = by_cell
        return ix.by_cell

    def highlighted(self, state: State) -> frozenset[str]:
        """The cells of the state's index of actions by cell (built once per
        state: the reconciler then finds it ready for the first change)."""
        names = self.geo.names
        return frozenset(names[c] for c in self._by_cell(state, self._actions(state)))

    def _lines_ahead(self, state: State) -> tuple[tuple[int, int], tuple[int, int], bool]:
        """Each line's cells (masks), each line's front (-1 unless it ends in a
        MARK), and whether a line already points into the other (worked out
        once per state: the reconciler asks it of every action it tries)."""
        ix = index_of(state)
        lines = ix.lines
        if ix.fronts is None:
            cells = state.cells
            f0, f1 = (
                self.lines.front(cells, line) if cells[line[-1]] >= MARK0 else -1
                for line in state.lines
            )
            pending = (f0 >= 0 and (lines[1] >> f0) & 1) or (f1 >= 0 and (lines[0] >> f1) & 1)
            ix.fronts = (f0, f1), bool(pending)
        fronts, pending = ix.fronts
        return lines, fronts, pending

    def _may_send_back(
        self,
        state: State,
        ahead: tuple[tuple[int, int], tuple[int, int], bool],
        action: Action,
        own: tuple[int, ...],
    ) -> bool:
        """False when the legal ``action`` surely sends no line back, so that it
        changes its own cells and no other. A line is sent back when it ends
        in a MARK whose front is on the other line: the line the piece joins
        gains the piece's cells and cells next to them (the NODE it leaves from
        or runs into), and its front, when it ends in the piece's MARK, is the
        cell that MARK points at; the other line keeps its front."""
        lines, fronts, pending = ahead
        if pending:
            return True
        joins = action.colour if isinstance(action, (Node, Replace)) else state.player
        other = 1 - joins
        front = fronts[other]
        nbr = self._nbr
        if front >= 0 and (
            (lines[joins] >> front) & 1 or front in own or any(front in nbr[c] for c in own)
        ):
            return True
        if isinstance(action, Node):
            return False
        return bool((lines[other] >> nbr[own[-1]][action.exit]) & 1)

    def player_sites(self, state: State) -> tuple[PlayerSites, ...]:
        """Each player's RUT (its empty cells, where his next piece may go)
        and his line, for the LEDs to show in his colour (worked out once per
        state: every view of the loop asks while a move is under way)."""
        ix = index_of(state)
        if ix.lit is None:
            ix.lit = self._player_sites(state)
        return ix.lit

    def _player_sites(self, state: State) -> tuple[PlayerSites, ...]:
        names = self.geo.names
        out = []
        for p in (0, 1):
            line = state.lines[p]
            rut = self.lines.rut_cells(state.cells, line, state.hop[p], p)
            out.append(
                PlayerSites(
                    ahead=frozenset(names[c] for c in rut if state.cells[c] == EMPTY),
                    built=frozenset(names[c] for c in line),
                )
            )
        return tuple(out)

    def winning_sites(self, state: State) -> frozenset[str]:
        """The winner's line and the starting point it reached."""
        if state.end is not End.GOAL:
            return frozenset()
        w = state.winner
        cells = set(state.lines[w]) | {self._starts[1 - w]}
        return frozenset(self.geo.names[c] for c in cells)

    def layout(self, state: State) -> Mapping[str, str]:
        names = self.geo.names
        codes = _PIECE_NAMES
        return {names[i]: codes[c] for i, c in enumerate(state.cells) if c}

    def layout_on(self, state: State, sites: Iterable[str]) -> Mapping[str, str]:
        index = self.geo.index
        cells = state.cells
        out: dict[str, str] = {}
        for name in sites:
            i = index.get(name)
            if i is not None and cells[i]:
                out[name] = _PIECE_NAMES[cells[i]]
        return out

    def render(self, state: State) -> str:
        ruts = tuple(sorted(self.rut(state, p)) for p in (0, 1))
        outcome = self.outcome(state)
        names = [p.name for p in _PLAYERS]
        if outcome.over:
            footer = M_("game over: {reason}", reason=outcome.reason)
        else:
            footer = M_(
                "{player} to act: {task}", player=names[state.player], task=self.task(state)
            )
        return text.render(self.geo, state, ruts, footer, names)


def _ended(state: State, player: int, end: End, winner: int) -> State:
    return State(state.cells, state.lines, state.hop, state.hands, player, 0, False, end, winner)
