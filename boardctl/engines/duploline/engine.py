"""The DuploLine rules engine (seed 003 and rules/NOTES.md, section DuploLine)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from boardctl.engines.base import PLAYING, Engine, Outcome, Status
from boardctl.engines.describe import (
    BoardSpec,
    Look,
    OptionSpec,
    PieceSpec,
    PlayerSpec,
    SiteSpec,
)
from boardctl.engines.duploline import board
from boardctl.engines.duploline.board import NAME, NEIGHBOURS, POSITION, VALID, bits
from boardctl.engines.duploline.evaluate import evaluate, glance
from boardctl.engines.duploline.text import render, state_from_json
from boardctl.engines.duploline.values import (
    COLOURS,
    EXPECTS,
    KINDS,
    Action,
    Add,
    End,
    Kind,
    Move,
    Phase,
    State,
    parse_action,
)
from boardctl.engines.duploline.values import Options as _Options
from boardctl.errors import BadOptions, RecordError
from boardctl.message import M_

_CHOICES = (
    ("both_lines", ("mover", "opponent", "draw")),
    ("forced_add", ("either", "own", "opponent", "off")),
    ("no_option", ("draw", "loss")),
)

# Every action, built once: _ADDS[kind][pos] and _MOVES[kind][src * 64 + dst].
_ADDS: tuple[tuple[Add | None, ...], ...] = tuple(
    tuple(Add(kind, NAME[pos]) if NAME[pos] else None for pos in range(64)) for kind in KINDS
)
_MOVES: tuple[tuple[Move | None, ...], ...] = tuple(
    tuple(
        Move(kind, NAME[i >> 6], NAME[i & 63])
        if NAME[i >> 6] and NAME[i & 63] and i >> 6 != i & 63
        else None
        for i in range(64 * 64)
    )
    for kind in KINDS
)
_EMPTY = State()
_NUMBERS = {2: M_("two"), 3: M_("three"), 4: M_("four"), 5: M_("five"), 6: M_("six")}


def _grow(mask: int) -> int:
    return (
        mask | (mask << 1) | (mask >> 1) | (mask << 8) | (mask >> 8) | (mask << 9) | (mask >> 9)
    ) & VALID


#: what the player to act must do, in words, by phase
TASKS = (
    M_("open with a disc or a ring"),
    M_("play a disc or a ring action"),
    M_("play a disc action"),
    M_("play a ring action"),
    M_("nothing"),
)

_PLAYERS = (PlayerSpec(M_("white"), "#f0f0f0"), PlayerSpec(M_("black"), "#303030"))
#: each piece by its kind and owner, as people name it
_PIECE_WORDS = {
    ("disc", 0): M_("white disc"),
    ("disc", 1): M_("black disc"),
    ("ring", 0): M_("white ring"),
    ("ring", 1): M_("black ring"),
}
#: a disc of one colour in a ring of one colour
_STACKED_WORDS = {
    (0, 0): M_("white disc in a white ring"),
    (0, 1): M_("white disc in a black ring"),
    (1, 0): M_("black disc in a white ring"),
    (1, 1): M_("black disc in a black ring"),
}


def _build_board() -> BoardSpec:
    """Hexagonal cells, row ``a`` at the bottom, half a cell further west each
    row up; discs and rings of both colours, and a disc inside a ring of
    either colour."""
    sites = []
    for name, pos in zip(board.NAMES, board.POSITIONS, strict=True):
        r, c = divmod(pos, 8)
        neighbours = tuple(NAME[n] for n in bits(NEIGHBOURS[pos]))
        sites.append(
            SiteSpec(
                name, "cell", x=c + 1.5 - 0.5 * r, y=round(1 + 0.866 * r, 3), neighbours=neighbours
            )
        )
    pieces = [
        PieceSpec(
            f"{colour}-{kind}", _PIECE_WORDS[kind, p], owner=p, look=Look(kind, _PLAYERS[p].colour)
        )
        for kind in ("disc", "ring")
        for p, colour in enumerate(COLOURS)
    ]
    pieces += [
        PieceSpec(
            f"{d}-disc+{r}-ring",
            _STACKED_WORDS[dp, rp],
            parts=(f"{d}-disc", f"{r}-ring"),
        )
        for dp, d in enumerate(COLOURS)
        for rp, r in enumerate(COLOURS)
    ]
    return BoardSpec(tuple(sites), tuple(pieces), _PLAYERS, cells="hex")


def _forced_only(own: bool, kind: int, cell: str) -> str:
    """Why a forced add of ``kind`` (0: a disc) cannot go onto ``cell``."""
    if own and kind == 0:
        return M_("{cell} is not empty, and the forced add goes only into its own ring", cell=cell)
    if own:
        return M_("{cell} is not empty, and the forced add goes only into its own disc", cell=cell)
    if kind == 0:
        return M_(
            "{cell} is not empty, and the forced add goes only into an opponent ring", cell=cell
        )
    return M_("{cell} is not empty, and the forced add goes only into an opponent disc", cell=cell)


class DuploLine(Engine[State, Action]):
    """DuploLine for two players, White and Black.

    White opens with one piece anywhere; then, from Black on, each turn is a
    disc action and a ring action in either order. See
    docs/engines.md for the notation, piece codes and options.
    """

    title: ClassVar[str] = "DuploLine"
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "locked_pieces_count",
            M_("A disc in a ring counts for lines"),
            M_(
                "the disc for a line of discs and the ring for a line of rings; else only a piece "
                "alone in its cell counts"
            ),
            "bool",
        ),
        OptionSpec(
            "both_lines",
            M_("Lines of both players at once"),
            M_("who wins when one action leaves a line of each player"),
            "choice",
            ("mover", "opponent", "draw"),
            (M_("the player who acted"), M_("the other player"), M_("nobody: a draw")),
        ),
        OptionSpec(
            "forced_add",
            M_("Forced add"),
            M_("where the forced add may go"),
            "choice",
            ("either", "own", "opponent", "off"),
            (
                M_("a lone piece of either colour"),
                M_("the mover's own"),
                M_("the opponent's"),
                M_("no forced add"),
            ),
        ),
        OptionSpec(
            "no_option",
            M_("A player who cannot act"),
            M_("what happens when the player to act has no action at all"),
            "choice",
            ("draw", "loss"),
            (M_("the game is drawn"), M_("that player loses")),
        ),
    )
    summary: ClassVar[str] = M_(
        "White and Black each turn play a disc and a ring, laid or moved; the first with a "
        "line of their own discs or of their own rings wins."
    )

    name: ClassVar[str] = "duploline"
    Options: ClassVar[type[_Options]] = _Options
    #: a DuploLine position costs the search about 1.5 times a Shiftago one
    #: (every move is checked to keep the pieces connected)
    search_scale = 0.7
    #: two players, nothing hidden, no chance; a line is won or lost two
    #: actions later
    suits_alphabeta = True

    def __init__(self, options: _Options | None = None) -> None:
        options = _Options() if options is None else options
        if not isinstance(options.locked_pieces_count, bool):
            raise BadOptions("duploline: option 'locked_pieces_count' must be true or false")
        for key, allowed in _CHOICES:
            value = getattr(options, key)
            if value not in allowed:
                raise BadOptions(
                    f"duploline: option {key!r} must be one of {', '.join(allowed)}, not {value!r}"
                )
        self.options = options
        self.players = 2
        self._forced = options.forced_add
        self._board = _build_board()

    # -- the game --------------------------------------------------------
    def initial(self) -> State:
        return _EMPTY

    def legal_actions(self, state: State) -> Iterator[Action]:
        phase = state.phase
        if phase is Phase.OVER:
            return
        if phase is Phase.OPENING:
            for kind in (0, 1):
                for pos in board.POSITIONS:
                    yield _ADDS[kind][pos]  # type: ignore[misc]
            return
        if phase is not Phase.RING:
            yield from self._kind_actions(state, 0)
        if phase is not Phase.DISC:
            yield from self._kind_actions(state, 1)

    def _kind_actions(self, state: State, kind: int) -> Iterator[Action]:
        """The options of the player to act for a disc (0) or ring (1) action."""
        p = state.player
        d0, d1 = state.discs
        r0, r1 = state.rings
        discs = d0 | d1
        rings = r0 | r1
        occupied = discs | rings
        in_hand = state.hand[2 * p + kind]
        ordinary = False
        if in_hand:
            opponent = (d1 | r1) if p == 0 else (d0 | r0)
            targets = _grow(opponent) & ~occupied
            adds = _ADDS[kind]
            while targets:
                low = targets & -targets
                targets ^= low
                ordinary = True
                yield adds[low.bit_length() - 1]  # type: ignore[misc]
        if kind == 0:
            movers = state.discs[p] & ~rings
            hosts = rings & ~discs
        else:
            movers = state.rings[p] & ~discs
            hosts = discs & ~rings
        moves = _MOVES[kind]
        while movers:
            low = movers & -movers
            movers ^= low
            src = low.bit_length() - 1
            near = NEIGHBOURS[src] & hosts
            if near and board.connected(occupied & ~low):
                ordinary = True
                base = src << 6
                while near:
                    dlow = near & -near
                    near ^= dlow
                    yield moves[base | (dlow.bit_length() - 1)]  # type: ignore[misc]
        if not ordinary and in_hand:
            adds = _ADDS[kind]
            for pos in bits(self._forced_hosts(state, kind)):
                yield adds[pos]  # type: ignore[misc]

    def _forced_hosts(self, state: State, kind: int) -> int:
        """Cells the forced add of ``kind`` may go to (option forced_add)."""
        forced = self._forced
        if forced == "off":
            return 0
        discs = state.discs[0] | state.discs[1]
        rings = state.rings[0] | state.rings[1]
        if forced == "either":
            others = rings if kind == 0 else discs
        else:
            owner = state.player if forced == "own" else 1 - state.player
            others = state.rings[owner] if kind == 0 else state.discs[owner]
        return others & ~(discs if kind == 0 else rings)

    def why_wrong(self, state: State, changed: Mapping[str, str | None]) -> str | None:
        """A lone disc or ring set on an empty cell: the rules' reason, or
        that it is the other player's colour."""
        if len(changed) != 1 or state.phase is Phase.OVER:
            return None
        ((cell, code),) = changed.items()
        if code is None or cell in self.layout(state) or code.count("-") != 1:
            return None
        colour, word = code.split("-")
        mover = COLOURS[state.player]
        if colour != mover:
            piece = _PIECE_WORDS[word, COLOURS.index(colour)] if colour in COLOURS else code
            return M_(
                "that is a {piece}, and {player} is to play",
                piece=piece,
                player=_PLAYERS[state.player].name,
            )
        return self.why_illegal(
            state, self.parse_action(f"{'D' if word == 'disc' else 'R'}+{cell}")
        )

    def why_illegal(self, state: State, action: Action) -> str | None:
        if state.phase is Phase.OVER:
            return M_("the game is over ({reason})", reason=self.outcome(state).reason)
        if not isinstance(action, Add | Move):
            return M_("{action} is not a DuploLine action", action=repr(action))
        p = state.player
        who = _PLAYERS[p].name
        kind = action.kind.index
        if state.phase is Phase.OPENING:
            if isinstance(action, Move):
                return M_(
                    "the game opens with white adding one piece; there is nothing to move yet"
                )
            return None
        if state.phase is Phase.DISC and kind == 1:
            return M_(
                "{player} has already made the ring action this turn; a disc action is due",
                player=who,
            )
        if state.phase is Phase.RING and kind == 0:
            return M_(
                "{player} has already made the disc action this turn; a ring action is due",
                player=who,
            )
        discs = state.discs[0] | state.discs[1]
        rings = state.rings[0] | state.rings[1]
        occupied = discs | rings
        if isinstance(action, Add):
            if not state.hand[2 * p + kind]:
                if kind == 0:
                    return M_("{player} has no disc left in hand", player=who)
                return M_("{player} has no ring left in hand", player=who)
            pos = POSITION[action.cell]
            bit = 1 << pos
            if not occupied & bit:
                opponent = state.discs[1 - p] | state.rings[1 - p]
                if not NEIGHBOURS[pos] & opponent:
                    return M_("{cell} is not next to an opponent piece", cell=action.cell)
                return None
            return self._why_not_forced(state, kind, action.cell)
        src = POSITION[action.src]
        dst = POSITION[action.dst]
        own = state.discs[p] if kind == 0 else state.rings[p]
        if not (own >> src) & 1:
            return M_(
                "there is no {piece} at {cell}",
                piece=_PIECE_WORDS[action.kind.word, p],
                cell=action.src,
            )
        if ((discs & rings) >> src) & 1:
            if kind == 0:
                return M_("the disc at {cell} is locked in a ring", cell=action.src)
            return M_("the ring at {cell} is locked around a disc", cell=action.src)
        if not (NEIGHBOURS[src] >> dst) & 1:
            return M_("{to} is not next to {cell}", to=action.dst, cell=action.src)
        hosts = rings if kind == 0 else discs
        if not (hosts >> dst) & 1:
            if kind == 0:
                return M_("{to} holds no ring to move the disc into", to=action.dst)
            return M_("{to} holds no disc to move the ring around", to=action.dst)
        if ((discs & rings) >> dst) & 1:
            return M_("{cell} already holds a disc and a ring", cell=action.dst)
        rest = occupied & ~(1 << src)
        if not board.connected(rest):
            parts = board.groups(rest)
            if kind == 0:
                return M_(
                    "moving the disc at {cell} would split the pieces into {count} groups",
                    cell=action.src,
                    count=_NUMBERS.get(parts, str(parts)),
                )
            return M_(
                "moving the ring at {cell} would split the pieces into {count} groups",
                cell=action.src,
                count=_NUMBERS.get(parts, str(parts)),
            )
        return None

    def _why_not_forced(self, state: State, kind: int, cell: str) -> str | None:
        """Why an add onto the occupied ``cell`` is not a legal forced add."""
        pos = POSITION[cell]
        discs = state.discs[0] | state.discs[1]
        rings = state.rings[0] | state.rings[1]
        if ((discs & rings) >> pos) & 1:
            return M_("{cell} already holds a disc and a ring", cell=cell)
        if ((discs if kind == 0 else rings) >> pos) & 1:
            if kind == 0:
                return M_("{cell} already holds a disc", cell=cell)
            return M_("{cell} already holds a ring", cell=cell)
        if not (self._forced_hosts(state, kind) >> pos) & 1:
            if self._forced == "off":
                return M_("{cell} is not empty (the forced add is switched off)", cell=cell)
            return _forced_only(self._forced == "own", kind, cell)
        first = next(self._kind_actions(state, kind), None)
        if isinstance(first, Move) or (
            isinstance(first, Add) and not ((discs | rings) >> POSITION[first.cell]) & 1
        ):
            if kind == 0:
                return M_(
                    "{cell} is not empty: a disc may be added to an occupied cell only when "
                    "no other disc action is possible, and {action} is",
                    cell=cell,
                    action=str(first),
                )
            return M_(
                "{cell} is not empty: a ring may be added to an occupied cell only when "
                "no other ring action is possible, and {action} is",
                cell=cell,
                action=str(first),
            )
        return None

    def apply_unchecked(self, state: State, action: Action) -> State:
        p = state.player
        discs = state.discs
        rings = state.rings
        hand = state.hand
        if type(action) is Add:
            bit = 1 << POSITION[action.cell]
            if action.kind is Kind.DISC:
                discs = (discs[0] | bit, discs[1]) if p == 0 else (discs[0], discs[1] | bit)
                i = 2 * p
            else:
                rings = (rings[0] | bit, rings[1]) if p == 0 else (rings[0], rings[1] | bit)
                i = 2 * p + 1
            left = list(hand)
            left[i] -= 1
            hand = (left[0], left[1], left[2], left[3])
        else:
            assert isinstance(action, Move)
            change = (1 << POSITION[action.src]) | (1 << POSITION[action.dst])
            if action.kind is Kind.DISC:
                discs = (discs[0] ^ change, discs[1]) if p == 0 else (discs[0], discs[1] ^ change)
            else:
                rings = (rings[0] ^ change, rings[1]) if p == 0 else (rings[0], rings[1] ^ change)
        phase = state.phase
        if phase is Phase.OPENING:
            player, phase = 1, Phase.EITHER
        elif phase is Phase.EITHER:
            player = p
            phase = Phase.RING if action.kind is Kind.DISC else Phase.DISC
        else:
            player, phase = 1 - p, Phase.EITHER
        # the end checks, in the order of NOTES: a line, a full board, no option
        line = self._line(discs, rings, p)
        if line:
            if self.options.both_lines != "mover" and self._line(discs, rings, 1 - p):
                winner = -1 if self.options.both_lines == "draw" else 1 - p
                return State(discs, rings, hand, p, Phase.OVER, End.BOTH_LINES, winner)
            return State(discs, rings, hand, p, Phase.OVER, End(line), p)
        occupied = discs[0] | discs[1] | rings[0] | rings[1]
        if occupied == VALID:
            return State(discs, rings, hand, p, Phase.OVER, End.FULL_BOARD, -1)
        after = State(discs, rings, hand, player, phase)
        for _ in self.legal_actions(after):
            return after
        winner = 1 - player if self.options.no_option == "loss" else -1
        return State(discs, rings, hand, player, Phase.OVER, End.NO_OPTION, winner)

    def _line(self, discs: tuple[int, int], rings: tuple[int, int], p: int) -> int:
        """1 if player p has 4+ discs in a line, 2 for rings, else 0."""
        d = discs[p]
        r = rings[p]
        if not self.options.locked_pieces_count:
            both = (discs[0] | discs[1]) & (rings[0] | rings[1])
            d &= ~both
            r &= ~both
        if board.has_line(d):
            return 1
        if board.has_line(r):
            return 2
        return 0

    # -- whose turn, what next, how it ended ------------------------------
    def to_move(self, state: State) -> int | None:
        return None if state.phase is Phase.OVER else state.player

    def expects(self, state: State) -> str:
        return EXPECTS[state.phase]

    def task(self, state: State) -> str:
        return TASKS[state.phase]

    def outcome(self, state: State) -> Outcome:
        end = state.end
        if end is End.PLAYING:
            return PLAYING
        winner = None if state.winner < 0 else state.winner
        mover = _PLAYERS[state.player].name
        if end is End.DISC_LINE or end is End.RING_LINE:
            mask = (state.discs if end is End.DISC_LINE else state.rings)[state.player]
            if not self.options.locked_pieces_count:
                mask &= ~((state.discs[0] | state.discs[1]) & (state.rings[0] | state.rings[1]))
            cells = " ".join(NAME[pos] for pos in board.lines(mask)[0])
            if end is End.DISC_LINE:
                why = M_("{player} has a line of discs: {cells}", player=mover, cells=cells)
            else:
                why = M_("{player} has a line of rings: {cells}", player=mover, cells=cells)
            return Outcome(Status.WON, winner, why)
        if end is End.BOTH_LINES:
            status = Status.DRAW if winner is None else Status.WON
            return Outcome(
                status, winner, M_("{player}'s action left lines of both players", player=mover)
            )
        if end is End.FULL_BOARD:
            return Outcome(Status.DRAW, None, M_("the board is full"))
        status = Status.DRAW if winner is None else Status.WON
        return Outcome(status, winner, M_("{player} has no legal action left", player=mover))

    def evaluate(self, state: State) -> tuple[float, ...]:
        """Lines of discs and rings with room to grow, and room to add
        (:mod:`.evaluate`)."""
        return evaluate(self, state)

    def glance(self, state: State) -> tuple[float, ...]:
        """Each player's own lines only, blind to the other's (the weakest
        level's view)."""
        return glance(state)

    # -- notation --------------------------------------------------------
    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def format_action(self, action: Action) -> str:
        return str(action)

    # -- serialisation ---------------------------------------------------
    def state_to_json(self, state: State) -> dict[str, Any]:
        return {
            "cells": dict(self.layout(state)),
            "in_hand": {
                colour: {"discs": state.hand[2 * p], "rings": state.hand[2 * p + 1]}
                for p, colour in enumerate(COLOURS)
            },
            "player": state.player,
            "phase": state.phase.name.lower(),
            "end": state.end.name.lower(),
            "winner": None if state.winner < 0 else state.winner,
        }

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        try:
            return state_from_json(data)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise RecordError(f"not a DuploLine state: {exc}") from None

    # -- the physical board ----------------------------------------------
    def board(self) -> BoardSpec:
        return self._board

    def touches(self, state: State, action: Action) -> frozenset[str]:
        """An action touches its cells: the one a piece is added to, or the
        two a piece moves between."""
        if isinstance(action, Add):
            return frozenset({action.cell})
        return frozenset({action.src, action.dst})

    def actions_touching(self, state: State, sites: frozenset[str]) -> Iterator[Action]:
        for action in self.legal_actions(state):
            if isinstance(action, Add):
                if action.cell in sites:
                    yield action
            elif action.src in sites or action.dst in sites:
                yield action

    def winning_sites(self, state: State) -> frozenset[str]:
        """The winner's line of discs or of rings."""
        if state.winner < 0 or state.end not in (End.DISC_LINE, End.RING_LINE, End.BOTH_LINES):
            return frozenset()
        p = state.winner
        cells: set[str] = set()
        for masks in (state.discs, state.rings):
            mask = masks[p]
            if not self.options.locked_pieces_count:
                mask &= ~((state.discs[0] | state.discs[1]) & (state.rings[0] | state.rings[1]))
            for line in board.lines(mask):
                cells.update(NAME[pos] for pos in line)
        return frozenset(cells)

    def layout(self, state: State) -> Mapping[str, str]:
        out: dict[str, str] = {}
        for pos, name in zip(board.POSITIONS, board.NAMES, strict=True):
            codes = [
                f"{COLOURS[p]}-{word}"
                for word, masks in (("disc", state.discs), ("ring", state.rings))
                for p in (0, 1)
                if (masks[p] >> pos) & 1
            ]
            if codes:
                out[name] = "+".join(codes)
        return out

    def render(self, state: State) -> str:
        names = [p.name for p in _PLAYERS]
        return render(state, names, self.task(state), self.outcome(state))
