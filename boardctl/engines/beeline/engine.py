"""The Beeline rules engine (seed 000 and rules/NOTES.md, section Beeline)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from boardctl.engines.base import PLAYING, Engine, Outcome, Status
from boardctl.engines.beeline import text
from boardctl.engines.beeline.board import SIDES, Board, load
from boardctl.engines.beeline.values import (
    COLOURS,
    EMPTY,
    FULL_HAND,
    GROUP,
    KINDS,
    MARK0,
    Action,
    End,
    Hand,
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

_CHOICES = (
    ("returned_pieces", ("open_group", "apart")),
    ("blocked", ("pass", "loses")),
)
_PLAYERS = (PlayerSpec("black", "#303030"), PlayerSpec("red", "#d02020"))
#: the layout code of every piece code (0, empty, has none)
_PIECE_NAMES = ("", *(piece_name(c) for c in range(1, MARK0 + 36)))


@dataclass(slots=True)
class _Pos:
    """A position being worked on while an action is applied (never shared)."""

    cells: bytearray
    lines: list[list[int]]
    hop: list[bool]
    hands: list[list[int]]
    #: cells whose MARKS a send-back removed
    removed: list[int]
    #: the player whose line reached the goal, or -1
    winner: int = -1


class Beeline(Engine[State, Action]):
    """Beeline for two players, Black and Red.

    Each line runs from its owner's starting NODE; the first to reach the
    opponent's starting point wins. See docs/engine-beeline.md for the rules as
    enforced, the notation, the piece codes and the options.
    """

    title: ClassVar[str] = "Beeline"
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("layout", "Board layout", "the board's cells", "choice", ("standard",)),
        OptionSpec(
            "returned_pieces",
            "MARKS sent back",
            "where the MARKS of a line sent back go",
            "choice",
            ("open_group", "apart"),
            ("into the group being played", "apart, playable at any time"),
        ),
        OptionSpec(
            "dead_ends",
            "Dead ends allowed",
            "whether a MARK may close its line's way on for good",
            "bool",
        ),
        OptionSpec(
            "blocked",
            "A player who cannot play",
            "a player holding pieces with no legal play",
            "choice",
            ("pass", "loses"),
            ("passes", "loses"),
        ),
    )
    summary: ClassVar[str] = (
        "Black and Red each build a line of pieces from their starting NODE; the first to "
        "reach the other's starting point wins."
    )

    name: ClassVar[str] = "beeline"
    Options: ClassVar[type[_Options]] = _Options

    def __init__(self, options: _Options | None = None) -> None:
        options = _Options() if options is None else options
        if not isinstance(options.dead_ends, bool):
            raise BadOptions("beeline: option 'dead_ends' must be true or false")
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
        self._nbr = b.nbr
        self._usable = b.usable
        self._starts = b.starts
        # cells a line may pass through as a NODE of its colour: usable cells and its own start
        self._enter = (b.usable[0] | 1 << b.starts[0], b.usable[1] | 1 << b.starts[1])
        self._apart = options.returned_pieces == "apart"
        self._cells = frozenset(b.names)
        self._spec = self._build_spec()
        cells = bytearray(b.size)
        cells[b.starts[0]] = node_code(0)
        cells[b.starts[1]] = node_code(1)
        self._initial = State(
            bytes(cells),
            ((b.starts[0],), (b.starts[1],)),
            (False, False),
            (FULL_HAND, FULL_HAND),
        )

    # -- geometry of a position --------------------------------------------
    def _exits(self, cells: bytes | bytearray, line: Any, hop: bool, p: int) -> list[int] | None:
        """The NODES player p's line may leave from, or None when it ends in a MARK."""
        e = line[-1]
        if cells[e] >= MARK0:
            return None
        out = [e]
        if hop:
            colour = p + 1
            enter = self._enter[p]
            for n in self._nbr[e]:
                if n >= 0 and cells[n] == colour and (enter >> n) & 1:
                    out.append(n)
        return out

    def _front(self, cells: bytes | bytearray, line: Any) -> int:
        """The cell in front of a line that ends in a MARK (-1 off the board)."""
        e = line[-1]
        return self._nbr[e][(cells[e] - MARK0) % 6]

    def _rut_cells(self, cells: bytes | bytearray, line: Any, hop: bool, p: int) -> list[int]:
        exits = self._exits(cells, line, hop, p)
        if exits is None:
            y = self._front(cells, line)
            return [y] if y >= 0 else []
        out: list[int] = []
        for n in exits:
            for x in self._nbr[n]:
                if x >= 0 and x not in out:
                    out.append(x)
        return out

    def _free(self, cells: bytes | bytearray, line: Any, hop: bool, q: int) -> bool:
        """Whether player q can play a piece into their RUT."""
        usable = self._usable[q]
        return any(
            cells[x] == EMPTY and (usable >> x) & 1 for x in self._rut_cells(cells, line, hop, q)
        )

    def _reaches(self, cells: bytes | bytearray, line: Any, hop: bool, p: int) -> bool:
        return self._starts[1 - p] in self._rut_cells(cells, line, hop, p)

    def _spots(
        self, cells: bytes | bytearray, line: Any, hop: bool, p: int
    ) -> list[tuple[int, int, int]]:
        """Where player p's line may take its next MARK: (cell, entry side, the
        NODE it leaves from or -1)."""
        usable = self._usable[p]
        exits = self._exits(cells, line, hop, p)
        if exits is None:
            e = line[-1]
            side = (cells[e] - MARK0) % 6
            y = self._nbr[e][side]
            if y >= 0 and cells[y] == EMPTY and (usable >> y) & 1:
                return [(y, (side + 3) % 6, -1)]
            return []
        out = []
        for n in exits:
            for s, x in enumerate(self._nbr[n]):
                if x >= 0 and cells[x] == EMPTY and (usable >> x) & 1:
                    out.append((x, (s + 3) % 6, n))
        return out

    def _open_ahead(self, cells: bytes | bytearray, p: int, y: int) -> bool:
        """Whether a MARK of player p whose RUT is ``y`` leaves the line a way
        on: into an empty usable cell, a NODE of its colour, the opponent's
        starting point, or its own MARK (which a NODE may replace). The
        opponent's line would send it back at once, which is no play at all."""
        if y < 0:
            return False
        if y == self._starts[1 - p]:
            return True
        c = cells[y]
        if c == EMPTY:
            return bool((self._usable[p] >> y) & 1)
        if c >= MARK0:
            return (c - MARK0) // 18 == p
        return c == p + 1 and bool((self._enter[p] >> y) & 1)

    def _group_ok(self, cells: bytes | bytearray, x: int, colour: int) -> bool:
        """Whether a NODE ``colour`` up on ``x`` keeps every group of adjacent
        NODES of one colour to two at most."""
        code = colour + 1
        nbr = self._nbr
        same = [n for n in nbr[x] if n >= 0 and cells[n] == code]
        if len(same) > 1:
            return False
        if same:
            n = same[0]
            return not any(m >= 0 and m != x and cells[m] == code for m in nbr[n])
        return True

    # -- hands ---------------------------------------------------------------
    @staticmethod
    def _has_kind(hand: Hand | list[int], k: int) -> bool:
        return bool(hand[4 + k] or hand[k] or (hand[0] + hand[1] + hand[2] == 0 and hand[3]))

    @staticmethod
    def _take(hand: list[int], k: int) -> None:
        if hand[4 + k]:
            hand[4 + k] -= 1
        elif hand[k]:
            hand[k] -= 1
        else:
            hand[3] -= 1
            hand[0] = hand[1] = hand[2] = GROUP
            hand[k] -= 1

    @staticmethod
    def holds_pieces(hand: Hand) -> bool:
        return any(hand)

    # -- applying ------------------------------------------------------------
    def _pos(self, st: State) -> _Pos:
        return _Pos(
            bytearray(st.cells),
            [list(st.lines[0]), list(st.lines[1])],
            [st.hop[0], st.hop[1]],
            [list(st.hands[0]), list(st.hands[1])],
            [],
        )

    def _lay_mark(self, pos: _Pos, owner: int, kind: int, x: int, exit_side: int, via: int) -> None:
        """Put a MARK on the end of ``owner``'s line and let the line run into
        a NODE of its colour in front of it."""
        line = pos.lines[owner]
        if via >= 0 and via != line[-1]:
            line.append(via)
        line.append(x)
        pos.cells[x] = mark_code(owner, kind, exit_side)
        y = self._nbr[x][exit_side]
        if y >= 0 and pos.cells[y] == owner + 1 and (self._enter[owner] >> y) & 1:
            line.append(y)
            pos.hop[owner] = True
        else:
            pos.hop[owner] = False

    def _lay_replacing_node(self, pos: _Pos, owner: int, x: int) -> int:
        """Put a NODE of ``owner``'s colour on the MARK at ``x``; the kind of that MARK."""
        kind = mark_parts(pos.cells[x])[1]
        pos.cells[x] = owner + 1
        line = pos.lines[owner]
        if pos.cells[line[-1]] >= MARK0 and self._front(pos.cells, line) == x:
            line.append(x)
            pos.hop[owner] = True
        return kind

    def _send_back(self, pos: _Pos, q: int) -> None:
        """Player q's RUT holds the opponent's line: q's MARKS after the
        nearest NODE go back to q's hand."""
        line = pos.lines[q]
        i = len(line) - 1
        while pos.cells[line[i]] >= MARK0:
            i -= 1
        hand = pos.hands[q]
        base = 4 if self._apart else 0
        for c in line[i + 1 :]:
            hand[base + mark_parts(pos.cells[c])[1]] += 1
            pos.cells[c] = EMPTY
            pos.removed.append(c)
        del line[i + 1 :]
        pos.hop[q] = False

    def _settle(self, pos: _Pos, p: int) -> int:
        """Reaching and sending back after player p's piece; the winner or -1."""
        for who in (p, 1 - p):
            if self._reaches(pos.cells, pos.lines[who], pos.hop[who], who):
                return who
        for q in (1 - p, p):
            line = pos.lines[q]
            if pos.cells[line[-1]] >= MARK0:
                y = self._front(pos.cells, line)
                if y >= 0 and y in pos.lines[1 - q]:
                    self._send_back(pos, q)
        for who in (p, 1 - p):
            if self._reaches(pos.cells, pos.lines[who], pos.hop[who], who):
                return who
        return -1

    # -- the rules -----------------------------------------------------------
    def initial(self) -> State:
        return self._initial

    def _cell(self, name: str) -> int:
        i = self.geo.index.get(name)
        if i is None:
            raise BadNotation(f"{name!r} is not a cell of this Beeline board")
        return i

    def _where(self, x: int) -> str:
        return self.geo.names[x]

    def _why_static(self, st: State, action: Action) -> tuple[str | None, _Pos | None, int]:
        """Check an action against the position; (reason, None, -1) if refused,
        else (None, the position after it, the line a replacement was in)."""
        p = st.player
        q = 1 - p
        who = COLOURS[p]
        cells = st.cells
        hand = st.hands[p]
        if isinstance(action, Mark):
            k = int(action.kind)
            word = action.kind.word
            if not self._has_kind(hand, k):
                return self._no_kind(hand, p, k), None, -1
            x = self._cell(action.cell)
            spot = self._spot_reason(st, p, x, action.exit, k, word)
            if isinstance(spot, str):
                return spot, None, -1
            via = spot
            y = self._nbr[x][action.exit]
            if not self.options.dead_ends and not self._open_ahead(cells, p, y):
                return self._closed(cells, y, p, f"a {word} on {action.cell}"), None, -1
            pos = self._pos(st)
            self._take(pos.hands[p], k)
            self._lay_mark(pos, p, k, x, action.exit, via)
            pos.winner = self._settle(pos, p)
            return None, pos, -1
        if isinstance(action, Node):
            if not hand[7]:
                return f"{who} has no NODE left", None, -1
            x = self._cell(action.cell)
            reason = self._node_spot_reason(st, p, x, action.colour)
            if reason:
                return reason, None, -1
            pos = self._pos(st)
            pos.hands[p][7] -= 1
            pos.cells[x] = action.colour + 1
            own = pos.lines[p]
            if action.colour == p and x in self._rut_cells(cells, own, st.hop[p], p):
                exits = self._exits(cells, own, st.hop[p], p)
                if exits is not None:
                    via = next(n for n in exits if x in self._nbr[n])
                    if via != own[-1]:
                        own.append(via)
                own.append(x)
                pos.hop[p] = False
            pos.winner = self._settle(pos, p)
            return None, pos, -1
        if isinstance(action, Replace):
            if not hand[7]:
                return f"{who} has no NODE left", None, -1
            x = self._cell(action.cell)
            c = cells[x]
            if c < MARK0:
                what = "nothing" if c == EMPTY else "a NODE"
                return (
                    f"{action.cell} holds {what}; a NODE replaces a MARK of either line",
                    None,
                    -1,
                )
            owner, kind, _ = mark_parts(c)
            line = st.lines[owner]
            if line[-1] == x:
                return (
                    f"the {KINDS[kind].word} on {action.cell} is the last piece of "
                    f"{COLOURS[owner]}'s line, which cannot be replaced",
                    None,
                    -1,
                )
            if owner == q and (self.geo.dark[q] >> x) & 1:
                return (
                    f"{action.cell} is in {COLOURS[q]}'s dark area: {who} cannot replace "
                    "pieces there",
                    None,
                    -1,
                )
            if action.colour != owner:
                return (
                    f"a NODE in {COLOURS[owner]}'s line shows {COLOURS[owner]}: write "
                    f"N{'BR'[owner]}x{action.cell}",
                    None,
                    -1,
                )
            if not self._group_ok(cells, x, owner):
                return (
                    f"a NODE {COLOURS[owner]} up on {action.cell} would make three NODES of "
                    "one colour adjacent",
                    None,
                    -1,
                )
            if int(action.kind) != kind:
                return (
                    f"the piece replaced on {action.cell} is a {KINDS[kind].word}: write "
                    f"{KINDS[kind].letter}{action.to}... for where it goes",
                    None,
                    -1,
                )
            pos = self._pos(st)
            pos.hands[p][7] -= 1
            self._lay_replacing_node(pos, owner, x)
            to = self._cell(action.to)
            if owner == q and (self.geo.dark[q] >> to) & 1:
                return (
                    f"{action.to} is in {COLOURS[q]}'s dark area: {who} cannot play a piece "
                    "replaced there",
                    None,
                    -1,
                )
            word = KINDS[kind].word
            spots = self._spots(pos.cells, pos.lines[owner], pos.hop[owner], owner)
            leave = self._match_spot(spots, to, action.exit, kind)
            if leave is None:
                return (
                    self._spot_words(
                        pos.cells, pos.lines[owner], pos.hop[owner], owner, to, word, action.exit
                    ),
                    None,
                    -1,
                )
            y = self._nbr[to][action.exit]
            if owner == p and not self.options.dead_ends and not self._open_ahead(pos.cells, p, y):
                return self._closed(pos.cells, y, p, f"the {word} on {action.to}"), None, -1
            self._lay_mark(pos, owner, kind, to, action.exit, leave)
            pos.winner = self._settle(pos, p)
            return None, pos, owner
        return f"{action!r} is not a Beeline action", None, -1

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
        spots = self._spots(st.cells, st.lines[p], st.hop[p], p)
        via = self._match_spot(spots, x, exit_side, k)
        if via is not None:
            return via
        return self._spot_words(st.cells, st.lines[p], st.hop[p], p, x, word, exit_side)

    def _spot_words(
        self, cells: bytes | bytearray, line: Any, hop: bool, p: int, x: int, word: str, ex: int
    ) -> str:
        """Why a MARK of player p's line cannot go on ``x`` leaving by ``ex``."""
        name = self.geo.names[x]
        who = COLOURS[p]
        exits = self._exits(cells, line, hop, p)
        if exits is None:
            y = self._front(cells, line)
            if y != x:
                where = self.geo.names[y] if y >= 0 else "off the board"
                return f"MARKS continue the line: {who}'s RUT is {where}, not {name}"
        elif not any(x in self._nbr[n] for n in exits):
            nodes = " or ".join(self.geo.names[n] for n in exits)
            return (
                f"{name} is not next to the NODE {who}'s line goes on from ({nodes}): "
                "a line passes a MARK once and leaves a NODE it played into, or one next to it"
            )
        if cells[x] != EMPTY:
            return f"{name} is not empty"
        if not (self._usable[p] >> x) & 1:
            return self._unusable(x, p)
        entries = [
            (s + 3) % 6
            for n in (exits if exits is not None else [line[-1]])
            for s, c in enumerate(self._nbr[n])
            if c == x
        ]
        kind = next(k for k in KINDS if k.word == word)
        turns = " or ".join(SIDES[(e + t) % 6] for e in entries for t in kind.turns)
        article = "an" if word == "angle" else "a"
        return (
            f"{article} {word} on {name} entered from {SIDES[entries[0]]} leaves by {turns}, "
            f"not {SIDES[ex]}"
        )

    def _unusable(self, x: int, p: int) -> str:
        name = self.geo.names[x]
        if (self.geo.out >> x) & 1:
            return f"{name} is out of bounds"
        q = 1 - p
        if (self.geo.dark[q] >> x) & 1:
            return f"{name} is in {COLOURS[q]}'s dark area, which only {COLOURS[q]} may use"
        return f"{name} cannot be used by {COLOURS[p]}"

    def _closed(self, cells: bytes | bytearray, y: int, p: int, what: str) -> str:
        if y < 0:
            ahead = "the edge of the board"
        elif self.geo.out >> y & 1 or self.geo.dark[1 - p] >> y & 1:
            ahead = self._unusable(y, p)
        elif cells[y] >= MARK0:
            ahead = f"{self.geo.names[y]} holds {COLOURS[1 - p]}'s line, which would send it back"
        else:
            ahead = f"{self.geo.names[y]} holds a NODE {COLOURS[p]}'s line may not enter"
        return f"{what} would point the line at a dead end ({ahead}); option dead_ends allows it"

    def _no_kind(self, hand: Hand, p: int, k: int) -> str:
        who = COLOURS[p]
        if hand[0] + hand[1] + hand[2] == 0 and not hand[3] and not any(hand[4:7]):
            return f"{who} has no MARK left"
        left = ", ".join(
            f"{n} {KINDS[i].word}{'s' if n > 1 else ''}"
            for i in range(3)
            if (n := hand[i] + hand[4 + i])
        )
        return (
            f"{who} has no {KINDS[k].word} left in the open group; a group is used up before "
            f"the next is opened (left: {left})"
        )

    def _node_spot_reason(self, st: State, p: int, x: int, colour: int) -> str | None:
        name = self.geo.names[x]
        cells = st.cells
        if cells[x] != EMPTY:
            return (
                f"{name} is not empty (a NODE replacing a MARK is written "
                f"N{'BR'[colour]}x{name}/...)"
            )
        if not (self._usable[p] >> x) & 1:
            return self._unusable(x, p)
        q = 1 - p
        if x in self._rut_cells(cells, st.lines[q], st.hop[q], q):
            return f"{name} is in {COLOURS[q]}'s RUT: a NODE cannot be played there"
        if not self._group_ok(cells, x, colour):
            return (
                f"a NODE {COLOURS[colour]} up on {name} would make three NODES of one colour "
                "adjacent"
            )
        if colour != p and not self.options.dead_ends:
            own = st.lines[p]
            if cells[own[-1]] >= MARK0 and self._front(cells, own) == x:
                return (
                    f"{name} is {COLOURS[p]}'s own RUT: a NODE {COLOURS[colour]} up there would "
                    "close the line for good; option dead_ends allows it"
                )
        return None

    def _why_after(self, st: State, pos: _Pos, line_of: int) -> str | None:
        """The rules that look at the position after the piece."""
        p = st.player
        q = 1 - p
        if pos.winner >= 0:
            return None
        free = self._free(pos.cells, pos.lines[q], pos.hop[q], q)
        if free:
            return None
        who, other = COLOURS[p], COLOURS[q]
        if st.owe:
            return f"{who} must leave {other}'s RUT free for play in {other}'s turn with this piece"
        if line_of == q:
            if st.left >= 2:
                nxt = self._state(st, pos, p, 1, True)
                if next(self.legal_actions(nxt), None) is not None:
                    return None
            return (
                f"the replaced piece must be played so that {other}'s RUT is free for play in "
                f"{other}'s turn"
            )
        if line_of == p and self._free(st.cells, st.lines[q], st.hop[q], q):
            return f"the replaced piece must be played so that {other}'s RUT stays free"
        return None

    def why_illegal(self, state: State, action: Action) -> str | None:
        if state.end is not End.PLAYING:
            return f"the game is over ({self.outcome(state).reason})"
        try:
            reason, pos, line_of = self._why_static(state, action)
        except BadNotation as exc:
            return str(exc)
        if reason is not None or pos is None:
            return reason
        return self._why_after(state, pos, line_of)

    def legal_actions(self, state: State) -> Iterator[Action]:
        return self._legal(state)

    def _legal(self, state: State, only: set[int] | None = None) -> Iterator[Action]:
        """The legal actions in their order; with ``only``, those that put a
        piece on an empty cell of ``only`` and every NODE replacing a MARK
        whose MARK goes to one of them (the other actions could only touch
        these cells by a send-back, which lifts MARKS only)."""
        if state.end is not End.PLAYING:
            return
        st = state
        p = st.player
        q = 1 - p
        names = self.geo.names
        nbr = self._nbr
        cells = st.cells
        hand = st.hands[p]
        dead_ok = self.options.dead_ends
        # MARKS from the hand
        kinds = [k for k in KINDS if self._has_kind(hand, k)]
        if kinds:
            for x, entry, via in self._spots(cells, st.lines[p], st.hop[p], p):
                if only is not None and x not in only:
                    continue
                for k in kinds:
                    for t in k.turns:
                        ex = (entry + t) % 6
                        if not dead_ok and not self._open_ahead(cells, p, nbr[x][ex]):
                            continue
                        action = Mark(k, names[x], ex)
                        if st.owe:
                            pos = self._pos(st)
                            self._take(pos.hands[p], int(k))
                            self._lay_mark(pos, p, int(k), x, ex, via)
                            pos.winner = self._settle(pos, p)
                            if self._why_after(st, pos, -1) is not None:
                                continue
                        yield action
        if not hand[7]:
            return
        # NODES on empty cells (never legal while the opponent's RUT is owed)
        if not st.owe:
            usable = self._usable[p]
            opp_rut = self._rut_cells(cells, st.lines[q], st.hop[q], q)
            own = st.lines[p]
            own_front = self._front(cells, own) if cells[own[-1]] >= MARK0 else -2
            for x in range(len(cells)) if only is None else sorted(only):
                if cells[x] != EMPTY or not (usable >> x) & 1 or x in opp_rut:
                    continue
                for colour in (p, q):
                    if not self._group_ok(cells, x, colour):
                        continue
                    if colour == q and x == own_front and not dead_ok:
                        continue
                    yield Node(colour, names[x])
        # NODES replacing a MARK
        dark_q = self.geo.dark[q]
        for owner in (p, q):
            line = st.lines[owner]
            last = line[-1]
            for x in line:
                c = cells[x]
                if c < MARK0 or x == last:
                    continue
                if owner == q and (dark_q >> x) & 1:
                    continue
                if not self._group_ok(cells, x, owner):
                    continue
                base = self._pos(st)
                base.hands[p][7] -= 1
                kind = self._lay_replacing_node(base, owner, x)
                for to, entry, via in self._spots(
                    base.cells, base.lines[owner], base.hop[owner], owner
                ):
                    if owner == q and (dark_q >> to) & 1:
                        continue
                    if only is not None and to not in only:
                        continue
                    for t in KINDS[kind].turns:
                        ex = (entry + t) % 6
                        if (
                            owner == p
                            and not dead_ok
                            and not self._open_ahead(base.cells, p, nbr[to][ex])
                        ):
                            continue
                        pos = _Pos(
                            bytearray(base.cells),
                            [list(base.lines[0]), list(base.lines[1])],
                            list(base.hop),
                            [list(base.hands[0]), list(base.hands[1])],
                            [],
                        )
                        self._lay_mark(pos, owner, kind, to, ex, via)
                        pos.winner = self._settle(pos, p)
                        if self._why_after(st, pos, owner) is None:
                            yield Replace(owner, names[x], KINDS[kind], names[to], ex)

    def _state(self, st: State, pos: _Pos, player: int, left: int, owe: bool) -> State:
        return State(
            bytes(pos.cells),
            (tuple(pos.lines[0]), tuple(pos.lines[1])),
            (pos.hop[0], pos.hop[1]),
            (_hand(pos.hands[0]), _hand(pos.hands[1])),
            player,
            left,
            owe,
        )

    def apply_unchecked(self, state: State, action: Action) -> State:
        _, pos, line_of = self._why_static(state, action)
        assert pos is not None
        return self._finish(state, pos, line_of)

    def _finish(self, st: State, pos: _Pos, line_of: int) -> State:
        p = st.player
        q = 1 - p
        winner = pos.winner
        if winner >= 0:
            return State(
                bytes(pos.cells),
                (tuple(pos.lines[0]), tuple(pos.lines[1])),
                (pos.hop[0], pos.hop[1]),
                (_hand(pos.hands[0]), _hand(pos.hands[1])),
                p,
                0,
                False,
                End.GOAL,
                winner,
            )
        left = st.left - 1
        owe = line_of == q and not self._free(pos.cells, pos.lines[q], pos.hop[q], q)
        if left > 0:
            nxt = self._state(st, pos, p, left, owe)
            if owe or next(self.legal_actions(nxt), None) is not None:
                return nxt
        nxt = self._state(st, pos, q, 2, False)
        if next(self.legal_actions(nxt), None) is not None:
            return nxt
        if self.options.blocked == "loses" and any(nxt.hands[q]):
            return State(nxt.cells, nxt.lines, nxt.hop, nxt.hands, q, 0, False, End.BLOCKED, p)
        again = self._state(st, pos, p, 2, False)
        if next(self.legal_actions(again), None) is not None:
            return again
        return State(nxt.cells, nxt.lines, nxt.hop, nxt.hands, p, 0, False, End.TIE, -1)

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
            return "nothing"
        if state.owe:
            return f"play a piece that frees {COLOURS[1 - state.player]}'s RUT"
        if self._left(state) == 1:
            return "play a piece"
        return "play two pieces"

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
                f"{COLOURS[w]}'s line reaches {COLOURS[1 - w]}'s starting point {goal}",
            )
        if end is End.BLOCKED:
            loser = 1 - state.winner
            return Outcome(
                Status.WON, state.winner, f"{COLOURS[loser]} holds pieces but cannot play one"
            )
        return Outcome(Status.DRAW, None, "neither player can play a piece: a tie")

    # -- derived state the LEDs show -----------------------------------------
    def rut(self, state: State, player: int) -> frozenset[str]:
        """Player's RUT: the cell in front of the last MARK of their line, or
        every cell next to the NODE (or NODES) the line goes on from."""
        cells = self._rut_cells(state.cells, state.lines[player], state.hop[player], player)
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
        return text.state_json(self, state)

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        try:
            return text.state_from_json(self, data)
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
                f"NODE {COLOURS[c]} up",
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
                            f"{COLOURS[owner]} {k.word} leaving {SIDES[s]}",
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
        """The cells a piece changes: where it lies, a replaced MARK's cell
        and where that MARK goes, and every MARK a send-back removes."""
        _, pos, _ = self._why_static(state, action)
        if pos is None:
            return frozenset()
        # only the piece's own cells and those a send-back emptied are written
        before = state.cells
        after = pos.cells
        written = {*self._own_cells(action), *pos.removed}
        return frozenset(self.geo.names[i] for i in written if before[i] != after[i])

    def _own_cells(self, action: Action) -> tuple[int, ...]:
        """The cells a piece is put on: its cell, and for a replacement also
        where the replaced MARK goes."""
        index = self.geo.index
        if isinstance(action, Replace):
            return (index[action.cell], index[action.to])
        return (index[action.cell],)

    def actions_touching(self, state: State, sites: frozenset[str]) -> Iterator[Action]:
        """Without working out each legal action's position: an action touches
        its own cells, and others only by a send-back (see :meth:`_may_send_back`),
        which empties MARKS. Only the actions that may send back are applied,
        and only when a MARK's cell is asked about."""
        index = self.geo.index
        asked = {index[s] for s in sites if s in index}
        if not asked:
            return
        cells = state.cells
        marks = any(cells[i] >= MARK0 for i in asked)
        lines = self._lines_ahead(state)
        for action in self._legal(state, None if marks else asked):
            own = self._own_cells(action)
            hit = any(c in asked for c in own)
            if not hit and not marks:
                continue
            if self._may_send_back(state, lines, action, own):
                if self.touches(state, action) & sites:
                    yield action
            elif hit:
                yield action

    def highlight(self, state: State, action: Action) -> frozenset[str]:
        """What a legal action touches (:meth:`touches`), worked out without
        applying it unless it may send a line back."""
        own = self._own_cells(action)
        if self._may_send_back(state, self._lines_ahead(state), action, own):
            return self.touches(state, action)
        names = self.geo.names
        return frozenset(names[c] for c in own)

    def _lines_ahead(self, state: State) -> tuple[tuple[set[int], set[int]], tuple[int, int], bool]:
        """Each line's cells, each line's front (-1 unless it ends in a MARK),
        and whether a line already points into the other."""
        cells = state.cells
        lines = (set(state.lines[0]), set(state.lines[1]))
        f0, f1 = (
            self._front(cells, line) if cells[line[-1]] >= MARK0 else -1 for line in state.lines
        )
        pending = (f0 >= 0 and f0 in lines[1]) or (f1 >= 0 and f1 in lines[0])
        return lines, (f0, f1), pending

    def _may_send_back(
        self,
        state: State,
        ahead: tuple[tuple[set[int], set[int]], tuple[int, int], bool],
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
            front in lines[joins] or front in own or any(front in nbr[c] for c in own)
        ):
            return True
        if isinstance(action, Node):
            return False
        return nbr[own[-1]][action.exit] in lines[other]

    def player_sites(self, state: State) -> tuple[PlayerSites, ...]:
        """Each player's RUT (its empty cells, where his next piece may go)
        and his line, for the LEDs to show in his colour."""
        names = self.geo.names
        out = []
        for p in (0, 1):
            line = state.lines[p]
            rut = self._rut_cells(state.cells, line, state.hop[p], p)
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

    def render(self, state: State) -> str:
        return text.render(self, state)


def _hand(h: list[int]) -> Hand:
    return (h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7])
