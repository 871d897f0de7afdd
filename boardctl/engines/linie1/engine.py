"""The Linie 1 rules engine (seed 001 and rules/NOTES.md, section Linie 1)."""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import cached_property
from itertools import chain, islice
from operator import attrgetter
from typing import Any, ClassVar

from boardctl.engines.base import CHANCE, PLAYING, Actor, Engine, Outcome, Status
from boardctl.engines.describe import (
    BoardSpec,
    Look,
    OptionSpec,
    PieceSpec,
    PlayerSpec,
    SiteSpec,
    seat_words,
)
from boardctl.engines.linie1 import data as board_data
from boardctl.engines.linie1.die import FACES, PIPS, PITCH
from boardctl.engines.linie1.evaluate import Flood, Network, corridor, evaluate, glance, tiles_for
from boardctl.engines.linie1.geometry import (
    BUILDING,
    EDGE,
    TERMINAL,
    TRACK,
    Geometry,
    opposite,
)
from boardctl.engines.linie1.listing import Listing, Placements, Rails
from boardctl.engines.linie1.trip import START_AT, TERMINAL_AT, Driver, site_of
from boardctl.engines.linie1.values import (
    DEAL,
    DRAW,
    DRIVE,
    LAY,
    OVER,
    PHASE_NAMES,
    ROLL,
    Action,
    Deal,
    Draw,
    Drive,
    Lay,
    Pass,
    Roll,
    Start,
    State,
    Take,
)
from boardctl.engines.linie1.values import Options as _Options
from boardctl.engines.playing import Rng
from boardctl.errors import BadNotation, BadOptions, RecordError, excerpt
from boardctl.message import M_, Message, Mn_, Mp_, and_list, joined

#: the lines' colours as the board data names them, in words for people
LINE_COLOUR_WORDS = {
    "red": Mp_("colour", "red"),
    "yellow": Mp_("colour", "yellow"),
    "green": Mp_("colour", "green"),
    "blue": Mp_("colour", "blue"),
    "white": Mp_("colour", "white"),
    "black": Mp_("colour", "black"),
}

#: the tile kinds of the board data shipped, in words for people (a board data
#: file's own kinds are named as it writes them)
TILE_WORDS = {
    "straight": Mp_("tile", "straight"),
    "curve": Mp_("tile", "curve"),
    "straight with a branch": Mp_("tile", "straight with a branch"),
    "straight with a branch, mirrored": Mp_("tile", "straight with a branch, mirrored"),
    "two curves from one side": Mp_("tile", "two curves from one side"),
    "two opposite curves": Mp_("tile", "two opposite curves"),
    "straight and both curves to one side": Mp_("tile", "straight and both curves to one side"),
    "one side to all three others": Mp_("tile", "one side to all three others"),
    "four curves": Mp_("tile", "four curves"),
    "crossing": Mp_("tile", "crossing"),
    "straight and two diagonal curves": Mp_("tile", "straight and two diagonal curves"),
    "straight and two diagonal curves, mirrored": Mp_(
        "tile", "straight and two diagonal curves, mirrored"
    ),
}

HAND = 5
#: how strongly the tiles laid suggest a route (:meth:`Linie1.determinize`):
#: a pair of cards whose route the board has brought one tile nearer than
#: another's is drawn e ** SUGGESTS (about twice) as often
SUGGESTS = 0.7
#: how much level 2 counts the others' routes (level 1 not at all, levels 3
#: to 5 in full): a tile across another's route is worth half
HALF = 0.5
#: boards whose suggested cards are kept (the search asks about one)
SUGGESTED_KEPT = 8
_PASS = Pass()
#: the lists of a trip's starts kept at most (one per who has shown with
#: which line and card, a few per game)
STARTS_KEPT = 4096
H = 10  # the die's stop face
#: the players have no pieces of their own (a streetcar is its line's), so they
#: are named by seat; the colours are only those the LEDs light each one in,
#: none of them like the mistakes' magenta or the restore hints' cyan
SEATS = (
    PlayerSpec(M_("player 1"), "#d02020"),
    PlayerSpec(M_("player 2"), "#2050d0"),
    PlayerSpec(M_("player 3"), "#20a040"),
    PlayerSpec(M_("player 4"), "#e0c000"),
    PlayerSpec(M_("player 5"), "#f0f0f0"),
)
_POP = [bin(i).count("1") for i in range(16)]
#: how the pages paint a line's streetcar and terminals, by the colour the
#: board's data names (another name is painted grey)
LINE_PAINT = {
    "red": "#d02020",
    "yellow": "#e0c000",
    "green": "#20a040",
    "blue": "#2050d0",
    "white": "#f0f0f0",
    "black": "#303030",
    "orange": "#e07000",
    "purple": "#8040b0",
    "brown": "#80502a",
    "grey": "#909090",
}
#: the angle of each side's middle from a cell's centre (sides 0 N, 1 E, 2 S, 3 W)
SIDE_ANGLE = (90.0, 0.0, 270.0, 180.0)
TILE_PAINT = "#e6dcc4"

_LAY_PART = r"([a-z]\d{1,2}):(\d{1,2}[NESW])"
_LAY = re.compile(rf"{_LAY_PART}(?:\+{_LAY_PART})?")
_NOTATION_HELP = M_(
    "write e5:3E (lay or exchange a tile), e5:4N+e6:3S (exchange two side by side), pass,"
    " draw:3, take:3, deal:L3, deal:B2, start:t2a/B3, roll:4, roll:H or >d5-d6-e6 (drive)"
)


def _seats(opts: _Options) -> tuple[int, ...]:
    """Option ``dealt_to`` as seats (from 0), in seat order; BadOptions if
    it names no seat of the game."""
    text = opts.dealt_to.strip()
    if not text:
        return ()
    seats = set()
    for part in text.split(","):
        part = part.strip()
        if not part.isdigit() or not 1 <= int(part) <= opts.players:
            raise BadOptions(
                f"linie1: option 'dealt_to' lists seats from 1 to {opts.players} separated "
                f"by commas, like '2' or '2,3', not {excerpt(opts.dealt_to)}"
            )
        seats.add(int(part) - 1)
    return tuple(sorted(seats))


class Linie1(Engine[State, Action]):
    """Linie 1 for 2 to 5 players; see docs/engine-linie1.md."""

    title: ClassVar[str] = "Linie 1"
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("players", M_("Players"), M_("how many play"), "choice", (2, 3, 4, 5)),
        OptionSpec(
            "secrets",
            M_("Line and route cards"),
            M_("whether the cards stay on the table or the game deals them"),
            "choice",
            ("cards", "dealt"),
            (
                M_("cards on the table, shown at the start of a trip"),
                M_("dealt, each shown privately"),
            ),
        ),
        OptionSpec(
            "dealt_to",
            M_("Cards dealt to seats"),
            M_(
                "with the cards on the table, the seats whose cards the game deals privately "
                "all the same, like 2 or 2,3 (the computer's: set from the seats)"
            ),
        ),
        OptionSpec(
            "dealt_clash",
            M_("A dealt line shown from the table"),
            M_(
                "when a person's trip shows the line card the game dealt a seat privately "
                "(the computer's): the game deals that seat another line, privately, or the "
                "start is refused, which tells the person that the line is taken"
            ),
            "choice",
            ("redeal", "refuse"),
            (
                M_("the start stands; the game deals that seat another line"),
                M_("the start is refused; the person takes another line card"),
            ),
        ),
        OptionSpec(
            "movement",
            M_("Driving"),
            M_("how far a streetcar drives each turn"),
            "choice",
            ("die", "speed"),
            (M_("by the die"), M_("one cell more than the last move at most")),
        ),
        OptionSpec("die", M_("Die faces"), M_("the die's faces: digits, and H for the next stop")),
        OptionSpec(
            "list_wrong_turns",
            M_("Offer wrong turns"),
            M_("whether a drive that cannot reach the goal is offered among the legal ones"),
            "bool",
        ),
        OptionSpec(
            "board_data",
            M_("Another board (JSON)"),
            M_("a replacement board as JSON text; empty for the Goldsieber board"),
        ),
    )
    summary: ClassVar[str] = M_(
        "Each player lays track tiles to build their streetcar line past the stops on their "
        "route card, then drives it by the die from one terminal to the other."
    )

    name: ClassVar[str] = "linie1"
    Options: ClassVar[type[_Options]] = _Options
    has_secrets: ClassVar[bool] = True

    def __init__(self, options: _Options | None = None) -> None:
        opts = _Options() if options is None else options
        if not 2 <= opts.players <= 5:
            raise BadOptions(f"linie1: option 'players' must be 2 to 5, not {opts.players}")
        if opts.secrets not in ("cards", "dealt"):
            raise BadOptions(
                f"linie1: option 'secrets' must be 'cards' or 'dealt', not {excerpt(opts.secrets)}"
            )
        if opts.dealt_clash not in ("redeal", "refuse"):
            raise BadOptions(
                f"linie1: option 'dealt_clash' must be 'redeal' or 'refuse', "
                f"not {excerpt(opts.dealt_clash)}"
            )
        if opts.movement not in ("die", "speed"):
            raise BadOptions(
                f"linie1: option 'movement' must be 'die' or 'speed', not {excerpt(opts.movement)}"
            )
        if not opts.die or any(ch not in "123456789H" for ch in opts.die):
            raise BadOptions(
                f"linie1: option 'die' lists the faces as digits 1-9 and H, like '1234HH', "
                f"not {excerpt(opts.die)}"
            )
        self.options = opts
        self.players = opts.players
        self.dealt = opts.secrets == "dealt"
        #: the seats whose cards the game deals (each shown only to its
        #: player until a trip starts), in the order they are dealt
        self.dealt_seats = tuple(range(opts.players)) if self.dealt else _seats(opts)
        # with the cards on the table the state holds no secret until a trip
        # starts and shows them: the LEDs may then offer every hint
        self.has_secrets = bool(self.dealt_seats)  # type: ignore[misc]
        #: a person may show a line card the game dealt (option dealt_clash):
        #: the game deals that seat another, from the spare line cards it
        #: dealt it at the start (every other line, in order)
        self.redeal = not self.dealt and bool(self.dealt_seats) and opts.dealt_clash == "redeal"
        if not self.dealt_seats:
            self.computer_refused = (
                "with the line and route cards on the table it would not know its own "
                "route; the game deals the computer's own cards when its seat is known "
                "(option dealt_to), or choose secrets=dealt and the game deals every "
                "player's cards, each shown only to its player"
            )
        self.speed = opts.movement == "speed"
        data = board_data.from_text(opts.board_data)
        self.geo = geo = Geometry(data)
        self.driver = Driver(geo)
        sets = dict(data.route_set)
        if opts.players not in sets:
            raise BadOptions(
                f"linie1: board_data.route_set names no route cards for {opts.players}"
            )
        if opts.players > len(data.lines):
            raise BadOptions(f"linie1: the board has {len(data.lines)} lines, too few for everyone")
        #: spare line cards dealt to each seat of ``dealt_seats``
        self.spare_deals = len(data.lines) - 1 if self.redeal else 0
        self.set_letter = sets[opts.players]
        self.cards: tuple[tuple[str, ...], ...] = dict(data.route_cards)[self.set_letter]
        if opts.players > len(self.cards):
            raise BadOptions(
                f"linie1: board_data route_cards.{self.set_letter}: {len(self.cards)} cards, too "
                f"few to deal one to each of {opts.players} players"
            )
        for tile, count in data.start_hand:
            kind = data.tiles[tile - 1]
            if count * opts.players > kind.starting:
                raise BadOptions(
                    f"linie1: board_data start_hand.{tile}: {opts.players} players start with "
                    f"{count} each of tile {tile} ({kind.name}), {count * opts.players} in all, "
                    f"and tiles[{tile}] sets {kind.starting} aside for starting hands"
                )
        self.letters = geo.building_letters
        # each card's stops per line, as building bits
        self.need = tuple(
            tuple(sum(1 << self.letters.index(ch) for ch in stops) for stops in card)
            for card in self.cards
        )
        faces: dict[int, int] = {}
        for ch in opts.die:
            v = H if ch == "H" else int(ch)
            faces[v] = faces.get(v, 0) + 1
        self.faces = tuple(sorted(faces.items()))
        self._rolls = tuple((Roll("H" if v == H else str(v)), w) for v, w in self.faces)
        self.start_hand = tuple(dict(data.start_hand).get(k, 0) for k in range(geo.kinds + 1))
        self.stack_counts = tuple([0] + [t.stack for t in data.tiles])
        #: the physical board, built when first asked for (a profile's check
        #: asks every seat count's, the game only its own)
        self._board: BoardSpec | None = None
        self._empty = bytes(geo.width * geo.width)
        #: the board as the evaluation floods it, made when first needed
        self._net: Network | None = None
        #: the sites a lay on one cell touches, built once
        self._lay_sites = {cell: frozenset({name}) for cell, name in geo.names.items()}
        #: the starts a player may make, per who has shown with which line
        #: and card (at most ``STARTS_KEPT`` entries)
        self._start_memo: dict[tuple[object, ...], tuple[Start, ...]] = {}
        #: per pair of cards, the tiles its route needs on the empty board;
        #: per board, how likely each pair is (:meth:`_suggested`)
        self._base_tiles: dict[tuple[int, int], int] | None = None
        self._suggested_memo: dict[tuple[bytes, tuple[int, ...]], dict[tuple[int, int], float]] = {}

    # -- the game --------------------------------------------------------
    def initial(self) -> State:
        n = self.players
        unknown = (-1,) * n
        return State(
            tiles=self._empty,
            stops=(-1,) * len(self.letters),
            hands=(self.start_hand,) * n,
            stacks=self.stack_counts,
            phase=DEAL if self.dealt_seats else LAY,
            lines=unknown,
            routes=unknown,
            shown=(False,) * n,
            cars=unknown,
            origin=unknown,
            visited=(0,) * n,
            last=(0,) * n,
            spares=((),) * n,
        )

    def to_move(self, state: State) -> int | None:
        return None if state.phase == OVER else state.player

    def actor(self, state: State) -> Actor:
        phase = state.phase
        if phase == OVER:
            return None
        if phase in (DEAL, ROLL) or (phase == DRAW and any(state.stacks)):
            return CHANCE
        return state.player

    def chance_outcomes(self, state: State) -> tuple[tuple[Action, int], ...]:
        phase = state.phase
        if phase == ROLL:
            return self._rolls
        if phase == DRAW and any(state.stacks):
            return tuple((Draw(k), c) for k, c in enumerate(state.stacks) if c)
        if phase == DEAL:
            n = len(self.dealt_seats)
            if state.dealt < n:
                used = set(state.lines)
                return tuple(
                    (Deal(f"L{i + 1}"), 1) for i in range(len(self.geo.data.lines)) if i not in used
                )
            if state.dealt >= 2 * n:  # a seat's spare line cards: every other line
                q = self.dealt_seats[(state.dealt - 2 * n) // self.spare_deals]
                used = {state.lines[q], *state.spares[q]}
                return tuple(
                    (Deal(f"L{i + 1}"), 1) for i in range(len(self.geo.data.lines)) if i not in used
                )
            used = set(state.routes)
            return tuple(
                (Deal(f"{self.set_letter}{i + 1}"), 1)
                for i in range(len(self.cards))
                if i not in used
            )
        return ()

    def legal_actions(self, state: State) -> Iterator[Action]:
        phase = state.phase
        if phase == LAY:  # the most asked, first
            return iter(self._listed(state).actions)  # type: ignore[arg-type]
        if phase == OVER:
            return iter(())
        if phase in (DEAL, ROLL) or (phase == DRAW and any(state.stacks)):
            return iter([a for a, _ in self.chance_outcomes(state)])
        if phase == DRAW:
            return iter([Take(k) for k, c in enumerate(self._pool(state)) if c])
        return iter([Drive(d[0]) for d in self._offered_drives(state)])

    def _starts(self, state: State) -> tuple[Start, ...]:
        """The starts of the player to act, in order (kept per what is taken)."""
        p = state.player
        if state.shown[p] or p in self.dealt_seats:
            key: tuple[object, ...] = (state.lines[p],)
        else:  # what is taken follows from who has shown, the lines and the cards
            key = (state.shown, state.lines, state.routes)
        got = self._start_memo.get(key)
        if got is None:
            if len(self._start_memo) >= STARTS_KEPT:
                self._start_memo.clear()
            got = self._start_memo[key] = tuple(self._list_starts(state))
        return got

    def _list_starts(self, state: State) -> Iterator[Start]:
        p = state.player
        geo = self.geo
        if state.shown[p]:
            for which in (0, 1):
                yield Start(state.lines[p] * 2 + which)
            return
        if p in self.dealt_seats:
            for which in (0, 1):
                yield Start(state.lines[p] * 2 + which)
            return
        taken_lines = {state.lines[q] for q in self._line_holders(state)}
        taken_cards = {state.routes[q] for q in self._card_shown(state)}
        for t in geo.terminals:
            if t.line in taken_lines:
                continue
            for i in range(len(self.cards)):
                if i not in taken_cards:
                    yield Start(t.index, f"{self.set_letter}{i + 1}")

    # -- for the computer ------------------------------------------------
    #: a position costs the search some hundred times a two-player Shiftago one
    #: (its routes measured by flooding the board several times a player, per
    #: side a car enters by); level 5 (1,290 positions) thinks about half a
    #: second a move here (docs/benchmarks.md)
    search_scale = 0.043
    #: two tiles' values differ by a few hundredths, less than a guess at the
    #: others' cards moves both: the search compares them under the same
    #: guess, and levels 4 and 5 look at the second tile of the turn after
    #: some 3 and 13 of the likeliest first ones (docs/benchmarks.md)
    compares_in_common = True

    def evaluate(self, state: State) -> tuple[float, ...]:
        """The race of the routes: tiles still to lay, then cells to drive
        (:mod:`.evaluate`)."""
        net = self._net
        if net is None:
            net = self._net = Network(self)
        return evaluate(self, net, state)

    def glance(self, state: State) -> tuple[float, ...]:
        """Each player's own route alone, blind to the others': tiles still
        to lay, then cells to drive (:func:`.evaluate.glance`)."""
        return glance(self, self._network(), state, True, 0.0)

    def judged_at(self, number: int) -> Callable[[State], tuple[float, ...]] | None:
        """Level 1 looks at its own route alone (a completed route's drive
        counts the same whatever its length); level 2 also at the drive its
        route leaves and, at half weight, at the others' routes; levels 3
        to 5 at the race of every route (:meth:`evaluate`), the others'
        cards drawn as the board suggests (:meth:`determinize`)."""
        if number == 1:
            return lambda state: glance(self, self._network(), state, False, 0.0)
        if number == 2:
            return lambda state: glance(self, self._network(), state, True, HALF)
        return self.evaluate

    def _network(self) -> Network:
        net = self._net
        if net is None:
            net = self._net = Network(self)
        return net

    def seated(self, computers: frozenset[int]) -> Linie1:
        """With the cards on the table, the computer's seats get their cards
        from the game, privately (option ``dealt_to``); the people's stay on
        the table."""
        if self.dealt:
            return self
        wanted = ",".join(str(q + 1) for q in sorted(computers) if q < self.players)
        if wanted == self.options.dealt_to:
            return self
        return Linie1(dataclasses.replace(self.options, dealt_to=wanted))

    def determinize(self, state: State, player: int, rng: Rng) -> State:
        """The line and route cards of the players who have not shown them
        drawn again from those ``player`` has not seen (their own, and those
        shown at a trip, are known), each pair of cards as likely as the
        tiles on the board suggest (:meth:`_suggested`): a route the board
        has brought many tiles nearer is likelier someone's."""
        n = self.players
        hidden = [q for q in range(n) if q != player and not state.shown[q] and state.lines[q] >= 0]
        if not hidden:
            return state
        seen = [q for q in range(n) if q == player or state.shown[q]]
        lines = list(state.lines)
        routes = list(state.routes)
        free_lines = [
            v for v in range(len(self.geo.data.lines)) if v not in {lines[q] for q in seen}
        ]
        free_cards = [v for v in range(len(self.cards)) if v not in {routes[q] for q in seen}]
        weights = self._suggested(state)
        for q in hidden:
            pairs = [(line, card) for line in free_lines for card in free_cards]
            x = rng.random() * sum(weights[pair] for pair in pairs)
            pick = pairs[-1]
            for pair in pairs:
                x -= weights[pair]
                if x < 0:
                    pick = pair
                    break
            lines[q], routes[q] = pick
            free_lines.remove(pick[0])
            free_cards.remove(pick[1])
        spares = state.spares
        for q in hidden:  # the order of a seat's spare lines is as secret as its line
            if spares[q]:
                rest = [v for v in range(len(self.geo.data.lines)) if v != lines[q]]
                order = [rest.pop(rng.randrange(len(rest))) for _ in range(len(rest))]
                spares = _set(spares, q, tuple(order))
        return _replace(state, lines=tuple(lines), routes=tuple(routes), spares=spares)

    def _suggested(self, state: State) -> dict[tuple[int, int], float]:
        """Per pair of cards (line, route card), how likely the tiles on the
        board make it a player's: ``e ** (SUGGESTS * tiles)`` for the tiles
        its route needs fewer than on the empty board (the public board
        only, so never a secret). Kept per board (at most
        :data:`SUGGESTED_KEPT`)."""
        key = (state.tiles, state.stops)
        got = self._suggested_memo.get(key)
        if got is not None:
            return got
        net = self._network()
        if self._base_tiles is None:
            empty = self.initial()
            flood = Flood(net, empty.tiles)
            self._base_tiles = {
                (line, card): tiles_for(self, net, flood, empty, line, card)
                for line in range(len(self.geo.data.lines))
                for card in range(len(self.cards))
            }
        flood = Flood(net, state.tiles)
        got = {
            pair: math.exp(SUGGESTS * (base - tiles_for(self, net, flood, state, pair[0], pair[1])))
            for pair, base in self._base_tiles.items()
        }
        if len(self._suggested_memo) >= SUGGESTED_KEPT:
            self._suggested_memo.clear()
        self._suggested_memo[key] = got
        return got

    def considered(self, state: State) -> tuple[Action, ...] | None:
        """While laying, with the cards known: once the mover's route can be
        driven, its starts; else the tiles laid or exchanged on the cells of
        the mover's shortest buildable routes for one streetcar, leading on
        along them, and a pass; else every legal action."""
        if state.phase != LAY or state.lines[state.player] < 0:
            return None
        actions = list(self.legal_actions(state))
        if len(actions) <= 24:
            return None
        net = self._net
        if net is None:
            net = self._net = Network(self)
        complete = self.route_of(state, state.player) is not None
        if complete and state.laid == 0 and not state.caught:
            # the route can be driven: its trip starts (a tile more only
            # lengthens the wait)
            return tuple(a for a in actions if isinstance(a, Start))
        cells = corridor(self, net, state, state.player)
        if not cells:
            # no route to build, or the floods find one where a car cannot
            # drive it: every lay, but no start that would be caught
            out = tuple(a for a in actions if complete or not isinstance(a, Start))
            return out if len(out) < len(actions) else None
        line = state.lines[state.player]
        mouths = {m for t in (line * 2, line * 2 + 1) for m in self.geo.terminals[t].mouths}
        offsets = self.geo.offsets
        sides = self.geo.sides

        def leads_on(cell: int, code: int) -> bool:
            """Whether two of the tile's rails lead on along the route."""
            if not (cells >> cell) & 1:
                return False
            bits = sides[code]
            on = 0
            for d in range(4):
                if bits >> d & 1 and ((cells >> (cell + offsets[d])) & 1 or (cell, d) in mouths):
                    on += 1
            return on >= 2

        out = tuple(
            a
            for a in actions
            if (isinstance(a, Start) and complete)
            or isinstance(a, Pass)
            or (isinstance(a, Lay) and all(leads_on(cell, code) for cell, code in a.parts))
        )
        return out if any(isinstance(a, Lay) for a in out) and len(out) < len(actions) else None

    # -- laying ----------------------------------------------------------
    def _constraints(self, tiles: bytes, x: int) -> tuple[int, int]:
        """(required, forbidden) sides of the empty cell ``x``: rails that lead
        into it must be met; the board's edge, buildings and tiles without a
        rail towards it must not be."""
        geo = self.geo
        req = forb = 0
        for e in range(4):
            y = x + geo.offsets[e]
            kind = geo.kind[y]
            if kind == TRACK:
                code = tiles[y]
                if code:
                    if (geo.sides[code] >> opposite(e)) & 1:
                        req |= 1 << e
                    else:
                        forb |= 1 << e
            elif kind != TERMINAL:
                forb |= 1 << e
        return req, forb

    def _fits(
        self,
        tiles: bytes,
        cell: int,
        sides: int,
        cache: dict[int, tuple[int, int]],
        partner: int = -1,
        partner_sides: int = 0,
    ) -> str | None:
        """None if rails ``sides`` on ``cell`` obey rules a to e, else why not."""
        geo = self.geo
        name = geo.names[cell]
        for d in range(4):
            bit = 1 << d
            mine = sides & bit
            j = cell + geo.offsets[d]
            kind = geo.kind[j]
            if j == partner:
                if bool(mine) != bool((partner_sides >> opposite(d)) & 1):
                    return M_(
                        "{cell}: its rail towards {other} must meet a rail there",
                        cell=name,
                        other=geo.names[j],
                    )
                continue
            if kind == EDGE:
                if mine:
                    return M_("{cell}: a rail would lead off the board (rule a)", cell=name)
            elif kind == BUILDING:
                if mine:
                    return M_("{cell}: a rail would lead into a building (rule b)", cell=name)
            elif kind == TRACK:
                code = tiles[j]
                if code:
                    theirs = (geo.sides[code] >> opposite(d)) & 1
                    if mine and not theirs:
                        return M_(
                            "{cell}: a rail would run into the side of the tile on {other} "
                            "(rule d)",
                            cell=name,
                            other=geo.names[j],
                        )
                    if theirs and not mine:
                        return M_(
                            "{cell}: it would block the rail of the tile on {other} (rule d)",
                            cell=name,
                            other=geo.names[j],
                        )
                else:
                    got = cache.get(j)
                    if got is None:
                        got = cache[j] = self._constraints(tiles, j)
                    req, forb = got
                    back = 1 << opposite(d)
                    if mine:
                        req |= back
                        forb &= ~back
                    else:
                        req &= ~back
                        forb |= back
                    if req and (req & forb or _POP[15 & ~forb] < 2):
                        return M_(
                            "{cell}: the rails leading into {other} could not be continued "
                            "there (rule e)",
                            cell=name,
                            other=geo.names[j],
                        )
        return None

    @cached_property
    def _place(self) -> Placements:
        """The board's tables for rails and lays (made when first listing)."""
        return Placements(self.geo)

    def _listed(self, state: State) -> Listing:
        """The state's :class:`~.listing.Listing` with its actions, made the
        first time (from the boards of its layout, see :mod:`.listing`): the
        starts of a trip, the lays of one tile, the exchanges of two, made
        into one tuple at once; ``pass`` when no tile can be laid."""
        listing = state._listing
        if listing is None:
            listing = Listing()
            object.__setattr__(state, "_listing", listing)
        if listing.actions is not None:
            return listing
        starts = self._starts(state) if state.laid == 0 and not state.caught else ()
        listing.first = len(starts)
        hand = state.hands[state.player]
        if not any(hand):
            listing.actions = (*starts, _PASS)
            return listing
        place = self._place
        rails = place.boards(_rails_of(state))
        codes = listing.codes = place.hand_codes(hand)
        if state.laid == 0:
            listing.doubles = place.doubles(rails, hand, codes)
        actions = place.actions(rails, codes, starts, listing.doubles)
        listing.count = len(actions) - listing.first
        listing.actions = actions if listing.count else (*starts, _PASS)
        return listing

    def _lays(self, state: State, only: frozenset[int] | None = None) -> Iterator[Lay]:
        """The lays in ``state``, or (``only``) those that lay on one of these
        cells, in the same order."""
        if only is None:
            listed = self._listed(state)
            return islice(listed.actions, listed.first, listed.first + listed.count)  # type: ignore[arg-type]
        place = self._place
        rails = place.boards(_rails_of(state))
        listing = state._listing
        if listing is not None and listing.actions is not None:
            codes, doubles = listing.codes, listing.doubles
        else:  # not listed: the lays on these cells alone
            hand = state.hands[state.player]
            codes = place.hand_codes(hand)
            doubles = place.doubles(rails, hand, codes) if state.laid == 0 else ()
        return chain(
            place.touching(rails, codes, sorted(only)),
            [d for d in doubles if d.parts[0][0] in only or d.parts[1][0] in only],
        )

    def _double_exchanges(
        self, state: State, cache: dict[int, tuple[int, int]], only: frozenset[int] | None = None
    ) -> Iterator[Lay]:
        geo = self.geo
        hand = state.hands[state.player]
        tiles = state.tiles
        if sum(hand) < 2:
            return
        for a in geo.track_cells:
            old_a = tiles[a]
            if not old_a or geo.trees[old_a]:
                continue
            for d in (1, 2):  # east and south neighbours: each pair once
                b = a + geo.offsets[d]
                old_b = tiles[b] if geo.kind[b] == TRACK else 0
                if not old_b or geo.trees[old_b]:
                    continue
                if (geo.sides[old_a] >> d) & 1:
                    continue  # already joined: exchange them one at a time
                if only is not None and a not in only and b not in only:
                    continue
                for ca in geo.upgrades[old_a]:
                    if not hand[ca >> 2] or not (geo.sides[ca] >> d) & 1:
                        continue
                    for cb in geo.upgrades[old_b]:
                        kb = cb >> 2
                        if hand[kb] - (1 if kb == ca >> 2 else 0) <= 0:
                            continue
                        if self._why_double(tiles, a, ca, b, cb, cache) is None:
                            yield Lay(((a, ca), (b, cb)))

    def _why_double(
        self, tiles: bytes, a: int, ca: int, b: int, cb: int, cache: dict[int, tuple[int, int]]
    ) -> str | None:
        geo = self.geo
        return self._fits(tiles, a, geo.sides[ca], cache, b, geo.sides[cb]) or self._fits(
            tiles, b, geo.sides[cb], cache, a, geo.sides[ca]
        )

    def _pool(self, state: State) -> list[int]:
        """The tiles in the face-up hands of players on their trip."""
        pool = [0] * (self.geo.kinds + 1)
        for q in range(self.players):
            if q != state.player and state.cars[q] >= 0:
                for k, c in enumerate(state.hands[q]):
                    pool[k] += c
        return pool

    # -- trips -----------------------------------------------------------
    def _stop_cells(self, state: State) -> dict[int, int]:
        out: dict[int, int] = {}
        for b, cell in enumerate(state.stops):
            if cell >= 0:
                out[cell] = out.get(cell, 0) | (1 << b)
        return out

    def _goal(self, state: State, p: int) -> int:
        start = state.origin[p]
        return start ^ 1  # the line's other terminal

    def _drives(self, state: State) -> list[tuple[tuple[int, ...], int, int, bool]]:
        p = state.player
        need = self.need[state.routes[p]][state.lines[p]]
        if self.speed:
            lengths = range(1, state.last[p] + 2)
            to_stop = False
        elif state.roll == H:
            lengths, to_stop = range(1, 2), True
        else:
            lengths, to_stop = range(state.roll, state.roll + 1), False
        return list(
            self.driver.drives(
                state.tiles,
                state.cars[p],
                state.visited[p],
                need,
                self._goal(state, p),
                self._stop_cells(state),
                lengths,
                to_stop,
            )
        )

    def _offered_drives(self, state: State) -> list[tuple[tuple[int, ...], int, int, bool]]:
        """The drives ``legal_actions`` lists: all of them with option
        ``list_wrong_turns``, else those after which the goal can still be
        reached (a wrong turn stays legal: it sends the car back)."""
        drives = self._drives(state)
        if self.options.list_wrong_turns:
            return drives
        p = state.player
        need = self.need[state.routes[p]][state.lines[p]]
        goal = self._goal(state, p)
        stops = self._stop_cells(state)
        good: dict[tuple[int, int], bool] = {}
        out = []
        for drive in drives:
            _, pos, mask, won = drive
            key = (pos, mask)
            if key not in good:
                good[key] = won or (
                    self.driver.route(state.tiles, pos, goal, need, stops, mask) is not None
                )
            if good[key]:
                out.append(drive)
        return out

    def route_of(self, state: State, p: int) -> list[int] | None:
        """A shortest route of player ``p`` (positions) from terminal to
        terminal through all their stops, if the engine knows their cards and
        one exists."""
        line, card = state.lines[p], state.routes[p]
        if line < 0 or card < 0:
            return None
        return self.driver.route(
            state.tiles,
            START_AT + line * 2,
            line * 2 + 1,
            self.need[card][line],
            self._stop_cells(state),
            0,
        )

    # -- legality --------------------------------------------------------
    def why_wrong(self, state: State, changed: Mapping[str, str | None]) -> str | None:
        """One tile laid on an empty cell: the rules' reason (not in the hand,
        a rail off the board or against a neighbour's)."""
        if len(changed) != 1 or state.phase == OVER:
            return None
        ((cell, code),) = changed.items()
        if code is None or cell in self.layout(state) or code not in self.geo.code_of_name:
            return None
        return self.why_illegal(state, self.parse_action(f"{cell}:{code}"))

    def why_illegal(self, state: State, action: Action) -> str | None:
        phase = state.phase
        if phase == OVER:
            return M_("the game is over ({reason})", reason=self.outcome(state).reason)
        who = seat_words(state.player)
        if phase in (DEAL, ROLL) or (phase == DRAW and any(state.stacks)):
            for a, _ in self.chance_outcomes(state):
                if a == action:
                    return None
            if isinstance(action, Draw):
                return M_("there is no tile of kind {kind} left in the stacks", kind=action.kind)
            if isinstance(action, Deal):
                return M_(
                    "card {card} cannot be dealt now: it is dealt already or not in play",
                    card=action.card,
                )
            if isinstance(action, Roll):
                return M_("the die has no face {face}", face=action.face)
            return M_("chance acts now: {task}", task=self.task(state))
        if phase == DRAW:
            if not isinstance(action, Take):
                return M_(
                    "{who} must take a tile from a streetcar driver's hand (the stacks are empty)",
                    who=who,
                )
            if not 0 < action.kind < len(self._pool(state)) or not self._pool(state)[action.kind]:
                return M_("no player on a trip holds a tile of kind {kind}", kind=action.kind)
            return None
        if phase == DRIVE:
            if not isinstance(action, Drive):
                return M_("{who} is on the inaugural trip and must drive the streetcar", who=who)
            drives = self._drives(state)
            if any(d[0] == action.path for d in drives):
                return None
            shown = ", ".join(self._path_text(d[0]) for d in self._offered_drives(state)[:6])
            return M_(
                "the streetcar cannot drive {path} now; it may drive {shown}",
                path=self._path_text(action.path),
                shown=shown,
            )
        # LAY
        if isinstance(action, Start):
            return self._why_start(state, action)
        if isinstance(action, Pass):
            first = next(self._lays(state), None)
            if first is not None:
                return M_(
                    "{who} can still lay a tile ({action}), so may not pass",
                    who=who,
                    action=self.format_action(first),
                )
            return None
        if isinstance(action, Lay):
            return self._why_lay(state, action)
        return M_("{who} is laying track: {task}", who=who, task=self.task(state))

    def _why_start(self, state: State, action: Start) -> str | None:
        p = state.player
        geo = self.geo
        if state.laid:
            return M_("a trip starts at the beginning of a turn, before any tile is laid")
        if state.caught:
            return M_("this turn's trip was caught on an incomplete route: lay track now")
        if not 0 <= action.terminal < len(geo.terminals):
            return M_("there is no terminal number {terminal}", terminal=action.terminal)
        line = geo.terminals[action.terminal].line
        card = -1
        if action.card:
            if (
                action.card[0] != self.set_letter
                or not action.card[1:].isdigit()
                or not (1 <= int(action.card[1:]) <= len(self.cards))
            ):
                return M_(
                    "route card {card} is not in play: with {players} players the cards are "
                    "{first} to {last}",
                    card=action.card,
                    players=self.players,
                    first=f"{self.set_letter}1",
                    last=f"{self.set_letter}{len(self.cards)}",
                )
            card = int(action.card[1:]) - 1
        if state.shown[p] or p in self.dealt_seats:
            if line != state.lines[p]:
                name = geo.terminals[action.terminal].name
                return M_(
                    "{terminal} is not a terminal of your line {line}",
                    terminal=name,
                    line=state.lines[p] + 1,
                )
            if card >= 0 and card != state.routes[p]:
                return M_(
                    "your route card is {mine}, not {card}",
                    mine=f"{self.set_letter}{state.routes[p] + 1}",
                    card=action.card,
                )
            return None
        if card < 0:
            return M_("show your route card: write start:TERMINAL/CARD, like start:t2a/B3")
        for q in self._line_holders(state):
            if q != p and state.lines[q] == line:
                if not state.shown[q]:
                    # the game dealt it that line (option dealt_clash=refuse):
                    # no streetcar for two; the seat is not named
                    return M_(
                        "line {line} is taken: the game dealt that line card to a player "
                        "who has not shown it yet; take another line card",
                        line=line + 1,
                    )
                return M_(
                    "line {line} is player {number}'s: they showed that line card",
                    line=line + 1,
                    number=q + 1,
                )
        for q in self._card_shown(state):
            if q != p and state.routes[q] == card:
                return M_(
                    "route card {card} is player {number}'s: they showed it",
                    card=action.card,
                    number=q + 1,
                )
        return None

    def _why_lay(self, state: State, action: Lay) -> str | None:
        geo = self.geo
        p = state.player
        hand = list(state.hands[p])
        if state.shown[p] and state.cars[p] >= 0:
            return M_("a player on the trip lays no more tiles")
        if state.laid + len(action.parts) > 2:
            return M_("two tiles a turn: this turn's tiles are laid")
        tiles = state.tiles
        cache: dict[int, tuple[int, int]] = {}
        for _, code in action.parts:
            k = code >> 2
            if hand[k] <= 0:
                return M_("player {number} holds no tile of kind {kind}", number=p + 1, kind=k)
            hand[k] -= 1
        if len(action.parts) == 2:
            (a, ca), (b, cb) = action.parts
            if b - a not in (geo.offsets[1], geo.offsets[2]) or geo.kind[b] != TRACK:
                return M_(
                    "{cell} and {other} are not side by side (east or south)",
                    cell=geo.names[a],
                    other=geo.names[b],
                )
            for cell, code in action.parts:
                why = self._why_exchange(tiles, cell, code)
                if why:
                    return why
            d = 1 if b - a == 1 else 2
            if (geo.sides[tiles[a]] >> d) & 1 or not (geo.sides[ca] >> d) & 1:
                return M_("exchange two tiles together only to join them; else one at a time")
            return self._why_double(tiles, a, ca, b, cb, cache)
        cell, code = action.parts[0]
        if geo.kind[cell] == BUILDING:
            return M_("{cell} holds a building (rule c)", cell=geo.names[cell])
        if tiles[cell]:
            why = self._why_exchange(tiles, cell, code)
            if why:
                return why
        return self._fits(tiles, cell, geo.sides[code], cache)

    def _why_exchange(self, tiles: bytes, cell: int, code: int) -> str | None:
        geo = self.geo
        old = tiles[cell]
        name = geo.names[cell]
        if not old:
            return M_("{name} is empty: there is no tile to exchange", name=name)
        if geo.trees[old]:
            return M_("the tile on {name} has trees and can never be exchanged", name=name)
        if code not in geo.upgrades[old]:
            return M_(
                "{tile} does not keep every connection of {tile2} on {name} and add one",
                tile=geo.code_name(code),
                tile2=geo.code_name(old),
                name=name,
            )
        return None

    # -- applying --------------------------------------------------------
    def apply_unchecked(self, state: State, action: Action) -> State:
        t = type(action)
        if t is Lay:
            return self._lay(state, action)  # type: ignore[arg-type]
        if t is Draw or t is Take:
            return self._draw(state, action)  # type: ignore[arg-type]
        if t is Pass:
            return self._end_laying(state, state.laid == 0)
        if t is Roll:
            face = action.face  # type: ignore[union-attr]
            return _replace(state, phase=DRIVE, roll=H if face == "H" else int(face))
        if t is Drive:
            return self._drive(state, action)  # type: ignore[arg-type]
        if t is Start:
            return self._start(state, action)  # type: ignore[arg-type]
        return self._deal(state, action)  # type: ignore[arg-type]

    def _lay(self, state: State, action: Lay) -> State:
        geo = self.geo
        p = state.player
        tiles = bytearray(state.tiles)
        hand = list(state.hands[p])
        stops = state.stops
        for cell, code in action.parts:
            hand[code >> 2] -= 1
            old = tiles[cell]
            if old:
                hand[old >> 2] += 1
            else:
                beside = geo.beside[cell]
                if beside:
                    st = list(stops)
                    for b in range(len(st)):
                        if (beside >> b) & 1 and st[b] < 0:
                            st[b] = cell
                    stops = tuple(st)
            tiles[cell] = code
        hands = list(state.hands)
        hands[p] = tuple(hand)
        laid = state.laid + len(action.parts)
        new = bytes(tiles)
        changed = tuple(cell for cell, _ in action.parts)
        after = _replace(
            state,
            tiles=new,
            hands=tuple(hands),
            stops=stops,
            laid=laid,
            idle=0,
            _rails=Rails(new, state._rails, changed),
        )
        if laid >= 2:
            return self._end_laying(after, False)
        return after

    def _end_laying(self, state: State, idle: bool) -> State:
        owed = HAND - sum(state.hands[state.player])
        state = _replace(state, owed=max(owed, 0), idle=state.idle + 1 if idle else 0)
        return self._next_draw(state)

    def _next_draw(self, state: State) -> State:
        if state.owed > 0 and (any(state.stacks) or any(self._pool(state))):
            return _replace(state, phase=DRAW)
        return self._next_turn(state)

    def _next_turn(self, state: State) -> State:
        n = self.players
        if state.idle >= n:
            return _replace(state, phase=OVER, end="stuck", owed=0)
        q = (state.player + 1) % n
        phase = (DRIVE if self.speed else ROLL) if state.cars[q] >= 0 else LAY
        return _replace(state, player=q, phase=phase, laid=0, owed=0, roll=0, caught=False)

    def _draw(self, state: State, action: Draw | Take) -> State:
        p = state.player
        k = action.kind
        hands = list(state.hands)
        hand = list(hands[p])
        hand[k] += 1
        hands[p] = tuple(hand)
        stacks = state.stacks
        if type(action) is Draw:
            s = list(stacks)
            s[k] -= 1
            stacks = tuple(s)
        else:
            n = self.players
            for i in range(1, n):
                q = (p + i) % n
                if state.cars[q] >= 0 and hands[q][k]:
                    h = list(hands[q])
                    h[k] -= 1
                    hands[q] = tuple(h)
                    break
        after = _replace(state, hands=tuple(hands), stacks=stacks, owed=state.owed - 1, idle=0)
        return self._next_draw(after)

    def _start(self, state: State, action: Start) -> State:
        p = state.player
        geo = self.geo
        line = geo.terminals[action.terminal].line
        card = state.routes[p]
        if action.card:
            card = int(action.card[1:]) - 1
        lines = _set(state.lines, p, line)
        routes = _set(state.routes, p, card)
        shown = _set(state.shown, p, True)
        if self.redeal and p not in self.dealt_seats:
            lines = self._redealt(lines, shown, state)
        after = _replace(state, lines=lines, routes=routes, shown=shown)
        if self.route_of(after, p) is None:
            return _replace(after, caught=True)  # back to laying track
        return _replace(
            after,
            cars=_set(state.cars, p, START_AT + action.terminal),
            origin=_set(state.origin, p, action.terminal),
            visited=_set(state.visited, p, 0),
            last=_set(state.last, p, 0),
            phase=DRIVE if self.speed else ROLL,
            idle=0,
        )

    def _drive(self, state: State, action: Drive) -> State:
        p = state.player
        found = [d for d in self._drives(state) if d[0] == action.path]
        if not found:  # pragma: no cover - apply() checks first
            raise ValueError("not a drive of this state")
        sites, pos, mask, won = found[0]
        if won:
            return _replace(
                state,
                cars=_set(state.cars, p, pos),
                visited=_set(state.visited, p, mask),
                phase=OVER,
                winner=p,
                end="trip",
                roll=0,
            )
        line = state.lines[p]
        need = self.need[state.routes[p]][line]
        ok = self.driver.route(
            state.tiles, pos, self._goal(state, p), need, self._stop_cells(state), mask
        )
        if ok is None:  # a wrong turn: the trip starts again
            pos, mask, moved = START_AT + state.origin[p], 0, 0
        else:
            moved = len(sites)
        after = _replace(
            state,
            cars=_set(state.cars, p, pos),
            visited=_set(state.visited, p, mask),
            last=_set(state.last, p, moved),
            idle=0,
        )
        return self._next_turn(after)

    def _line_holders(self, state: State) -> list[int]:
        """The players whose line a person may not show: shown at a trip, or
        dealt by the game (a line has one streetcar) unless the game deals
        that seat another when a person shows it (option dealt_clash)."""
        if self.redeal:
            return [q for q in range(self.players) if state.shown[q]]
        return [q for q in range(self.players) if state.shown[q] or q in self.dealt_seats]

    def _redealt(
        self, lines: tuple[int, ...], shown: tuple[bool, ...], state: State
    ) -> tuple[int, ...]:
        """``lines`` after a person's start showed a line: a seat the game
        dealt that line privately is dealt its first spare line that no trip
        has shown and no other such seat holds (option dealt_clash=redeal)."""
        for q in self.dealt_seats:
            if shown[q] or not any(lines[r] == lines[q] for r in range(self.players) if shown[r]):
                continue
            taken = {lines[r] for r in range(self.players) if shown[r] or r in self.dealt_seats}
            spare = next((v for v in state.spares[q] if v not in taken), lines[q])
            lines = _set(lines, q, spare)
        return lines

    def _card_shown(self, state: State) -> list[int]:
        """The players whose route card a player with the cards on the table
        cannot hold: those shown from the table (a card the game dealt is not
        one of the table's)."""
        return [q for q in range(self.players) if state.shown[q] and q not in self.dealt_seats]

    def _deal(self, state: State, action: Deal) -> State:
        seats = self.dealt_seats
        n = len(seats)
        i = state.dealt
        value = int(action.card[1:]) - 1
        if i < n:
            after = _replace(state, lines=_set(state.lines, seats[i], value), dealt=i + 1)
        elif i < 2 * n:
            after = _replace(state, routes=_set(state.routes, seats[i - n], value), dealt=i + 1)
        else:
            q = seats[(i - 2 * n) // self.spare_deals]
            spares = _set(state.spares, q, (*state.spares[q], value))
            after = _replace(state, spares=spares, dealt=i + 1)
        if after.dealt == (2 + self.spare_deals) * n:
            return _replace(after, phase=LAY)
        return after

    # -- words -----------------------------------------------------------
    def expects(self, state: State) -> str:
        return PHASE_NAMES[state.phase] if state.phase != OVER else "nothing"

    def task(self, state: State) -> str:
        phase = state.phase
        if phase == OVER:
            return M_("nothing")
        if phase == DEAL:
            seats = self.dealt_seats
            who = seats[state.dealt % len(seats)] + 1
            if state.dealt < len(seats):
                return M_("deal a line card to player {number}", number=who)
            if state.dealt < 2 * len(seats):
                return M_("deal a route card to player {number}", number=who)
            who = seats[(state.dealt - 2 * len(seats)) // self.spare_deals] + 1
            return M_("deal the spare line cards of player {number}", number=who)
        if phase == LAY:
            if next(self._lays(state), None) is None:
                if state.caught:
                    return M_("pass: the trip was caught and no tile in the hand can be laid")
                if state.laid:
                    return M_("pass: no tile in the hand can be laid")
                return M_("pass (no tile in the hand can be laid) or start the trip")
            if state.laid:
                return M_("lay a second tile")
            if state.caught:
                return M_("lay two tiles (the trip was caught: the route is not complete)")
            return M_("lay two tiles or start the trip")
        if phase == DRAW:
            if any(state.stacks):
                return M_("draw a tile from the stacks ({n} to draw)", n=state.owed)
            return M_("take a tile from a streetcar driver's hand ({n} to take)", n=state.owed)
        if phase == ROLL:
            return M_("roll the die")
        if self.speed:
            most = state.last[state.player] + 1
            return (
                M_("drive the streetcar 1 cell")
                if most == 1
                else M_("drive the streetcar 1 to {n} cells", n=most)
            )
        if state.roll == H:
            return M_("drive the streetcar to the next stop sign or terminal")
        return Mn_("drive the streetcar {n} cell", "drive the streetcar {n} cells", state.roll)

    def told(self, state: State, action: Action) -> bool:
        """A pass, and a tile taken from a driver's face-up hand, change
        nothing on the board; a start with the route card still on the table
        carries the card, which no sensor reads; a start that is caught (the
        route is not complete) puts no streetcar on the board; a drive that
        ends where the streetcar stood (round a loop, or a wrong turn from its
        terminal) leaves the board as it was. Each is told by a person; a
        start whose cards are known and whose streetcar goes into the terminal
        is read off the board."""
        if type(action) is Lay:  # the tiles laid are read (first: most actions tried are lays)
            return False
        if isinstance(action, Pass | Take):
            return True
        if isinstance(action, Drive):  # round a loop, or back to its terminal, to where it stood
            p = state.player
            return site_of(self.apply_unchecked(state, action).cars[p]) == site_of(state.cars[p])
        if isinstance(action, Start):
            return bool(action.card) or self._start(state, action).caught
        return False

    def hints_public(self, state: State) -> bool:
        """With cards the game dealt, where a player may start tells a line:
        their own, or (cards on the table) that the game dealt another player
        none of the lines offered. The hints are hidden while a start is
        legal for a player and a dealt card is unshown; lays and drives tell
        nothing secret."""
        p = state.player
        if state.shown[p] or state.phase != LAY or state.laid or state.caught:
            return True
        # a player's starts name their own line, or leave out the lines the
        # game dealt (unless it deals another when a person shows one):
        # hidden while those are secret
        return p not in self.dealt_seats and (
            self.redeal or all(state.shown[q] for q in self.dealt_seats)
        )

    def choosing(self, state: State) -> bool:
        """While driving: the player picks one of several ways forward."""
        return state.phase == DRIVE and len(self._offered_drives(state)) > 1

    def outcome(self, state: State) -> Outcome:
        if state.phase != OVER:
            return PLAYING
        if state.end == "trip":
            w = state.winner
            terminal = self.geo.terminals[self._goal(state, w)].name
            return Outcome(
                Status.WON,
                w,
                M_(
                    "{player} drove line {line} into {terminal}",
                    player=seat_words(w),
                    line=state.lines[w] + 1,
                    terminal=terminal,
                ),
            )
        return Outcome(Status.DRAW, None, M_("no player could lay a tile, draw or drive"))

    # -- notation --------------------------------------------------------
    def _site_name(self, site: int) -> str:
        if site >= TERMINAL_AT:
            return self.geo.terminals[site - TERMINAL_AT].name
        return self.geo.names[site]

    def _path_text(self, path: tuple[int, ...]) -> str:
        return ">" + "-".join(self._site_name(s) for s in path)

    def format_action(self, action: Action) -> str:
        geo = self.geo
        if isinstance(action, Lay):
            return "+".join(f"{geo.names[c]}:{geo.code_name(code)}" for c, code in action.parts)
        if isinstance(action, Pass):
            return "pass"
        if isinstance(action, Draw):
            return f"draw:{action.kind}"
        if isinstance(action, Take):
            return f"take:{action.kind}"
        if isinstance(action, Deal):
            return f"deal:{action.card}"
        if isinstance(action, Start):
            name = geo.terminals[action.terminal].name
            return f"start:{name}/{action.card}" if action.card else f"start:{name}"
        if isinstance(action, Roll):
            return f"roll:{action.face}"
        return self._path_text(action.path)

    def parse_action(self, text: str) -> Action:
        if not isinstance(text, str):
            raise BadNotation(
                M_(
                    "{text} is not a Linie 1 action: {help}",
                    text=excerpt(text),
                    help=_NOTATION_HELP,
                )
            )
        s = text.strip()
        geo = self.geo
        if s == "pass":
            return Pass()
        head, _, rest = s.partition(":")
        if head in ("draw", "take") and rest:
            if not rest.isdigit() or not 1 <= int(rest) <= geo.kinds:
                raise BadNotation(
                    M_(
                        "{text}: a tile kind is a number 1 to {kinds}",
                        text=excerpt(text),
                        kinds=geo.kinds,
                    )
                )
            return Draw(int(rest)) if head == "draw" else Take(int(rest))
        if head == "deal" and rest:
            lines = len(geo.data.lines)
            letters = "L" + "".join(k for k, _ in geo.data.route_cards)
            if rest[0] not in letters or not rest[1:].isdigit():
                raise BadNotation(
                    M_(
                        "{text}: deal a line card L1..L{lines} or a route card like B2 or R5",
                        text=excerpt(text),
                        lines=lines,
                    )
                )
            return Deal(rest)
        if head == "roll" and rest:
            if rest != "H" and not (rest.isdigit() and len(rest) == 1 and rest != "0"):
                raise BadNotation(
                    M_("{text}: a die face is a digit 1 to 9 or H", text=excerpt(text))
                )
            return Roll(rest)
        if head == "start" and rest:
            name, _, card = rest.partition("/")
            if name not in geo.terminal_index:
                raise BadNotation(
                    M_(
                        "{text}: {name} is not a terminal; they are t1a, t1b ... {last}",
                        text=excerpt(text),
                        name=excerpt(name),
                        last=f"t{len(geo.data.lines)}b",
                    )
                )
            if "/" in rest and not card:
                raise BadNotation(
                    M_(
                        "{text}: name the route card after '/', like start:t2a/B3",
                        text=excerpt(text),
                    )
                )
            return Start(geo.terminal_index[name], card)
        if s.startswith(">"):
            sites = []
            for part in s[1:].split("-"):
                if part in geo.cell_of:
                    sites.append(geo.cell_of[part])
                elif part in geo.terminal_index:
                    sites.append(TERMINAL_AT + geo.terminal_index[part])
                else:
                    raise BadNotation(
                        M_(
                            "{text}: {part} is neither a cell nor a terminal",
                            text=excerpt(text),
                            part=excerpt(part),
                        )
                    )
            return Drive(tuple(sites))
        m = _LAY.fullmatch(s)
        if m is None:
            raise BadNotation(
                M_(
                    "{text} is not a Linie 1 action: {help}",
                    text=excerpt(text),
                    help=_NOTATION_HELP,
                )
            )
        parts = []
        for cell_name, code_name in ((m.group(1), m.group(2)), (m.group(3), m.group(4))):
            if cell_name is None:
                continue
            if cell_name not in geo.cell_of:
                raise BadNotation(
                    M_(
                        "{text}: {cell} is not a cell of the board",
                        text=excerpt(text),
                        cell=cell_name,
                    )
                )
            k, turn = int(code_name[:-1]), "NESW".index(code_name[-1])
            if not 1 <= k <= geo.kinds:
                raise BadNotation(
                    M_(
                        "{text}: a tile kind is a number 1 to {kinds}",
                        text=excerpt(text),
                        kinds=geo.kinds,
                    )
                )
            parts.append((geo.cell_of[cell_name], geo.canon[k * 4 + turn]))
        if len(parts) == 2 and parts[0][0] > parts[1][0]:
            parts.reverse()
        if len(parts) == 2 and parts[0][0] == parts[1][0]:
            raise BadNotation(
                M_("{text}: two tiles exchanged together need two cells", text=excerpt(text))
            )
        return Lay(tuple(parts))

    # -- secrets ---------------------------------------------------------
    def public_action(self, state: State, action: Action) -> str:
        if isinstance(action, Deal):
            return f"deal:{action.card[0]}?"
        return self.format_action(action)

    def private_view(self, state: State, player: int) -> dict[str, Any]:
        line, card = state.lines[player], state.routes[player]
        if line < 0 and card < 0:
            return {}
        out: dict[str, Any] = {}
        if line >= 0:
            out["line"] = line + 1
            out["terminals"] = [t.name for t in self.geo.terminals if t.line == line]
        if card >= 0:
            out["route_card"] = f"{self.set_letter}{card + 1}"
            if line >= 0:
                out["stops"] = self.cards[card][line]
        return out

    def public_view(self, state: State) -> dict[str, Any]:
        return self._json(state, public=True)

    def public_render(self, state: State) -> str:
        return self._render(state, public=True)

    # -- serialisation ---------------------------------------------------
    def state_to_json(self, state: State) -> dict[str, Any]:
        return self._json(state, public=False)

    def _json(self, state: State, public: bool) -> dict[str, Any]:
        geo = self.geo
        n = self.players

        def known(q: int, value: int) -> int | None:
            if value < 0 or (public and not state.shown[q]):
                return None
            return value + 1

        def car(q: int) -> str | None:
            pos = state.cars[q]
            if pos < 0:
                return None
            if pos >= START_AT:
                return f"start {geo.terminals[pos - START_AT].name}"
            if pos >= TERMINAL_AT:
                t, end = divmod(pos - TERMINAL_AT, 2)
                return f"{geo.terminals[t].name} end {end}"
            return f"{geo.names[pos >> 2]} from {'NESW'[pos & 3]}"

        out = {
            "cells": {
                geo.names[c]: geo.code_name(state.tiles[c])
                for c in geo.track_cells
                if state.tiles[c]
            },
            "stops": {
                letter: geo.names[cell]
                for letter, cell in zip(self.letters, state.stops, strict=True)
                if cell >= 0
            },
            "hands": [_counts(h) for h in state.hands],
            "stacks": _counts(state.stacks),
            "player": state.player,
            "phase": PHASE_NAMES[state.phase],
            "laid": state.laid,
            "owed": state.owed,
            "roll": None if not state.roll else ("H" if state.roll == H else state.roll),
            "dealt": state.dealt,
            "lines": [known(q, state.lines[q]) for q in range(n)],
            "route_cards": [
                None
                if known(q, state.routes[q]) is None
                else f"{self.set_letter}{state.routes[q] + 1}"
                for q in range(n)
            ],
            "shown": list(state.shown),
            "cars": [car(q) for q in range(n)],
            "origins": [
                None if state.origin[q] < 0 else geo.terminals[state.origin[q]].name
                for q in range(n)
            ],
            "visited": [
                "".join(ch for b, ch in enumerate(self.letters) if (state.visited[q] >> b) & 1)
                for q in range(n)
            ],
            "last_move": list(state.last),
            "caught": state.caught,
            "idle_turns": state.idle,
            "winner": None if state.winner < 0 else state.winner,
            "end": state.end,
        }
        if not public and any(state.spares):  # the spare line cards the game dealt
            out["spares"] = [[v + 1 for v in spare] for spare in state.spares]
        return out

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        try:
            return self._from_json(data)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise RecordError(f"not a linie1 state: {exc}") from None

    def _from_json(self, data: Mapping[str, Any]) -> State:
        geo = self.geo
        n = self.players
        tiles = bytearray(self._empty)
        for name, code_name in dict(data["cells"]).items():
            if name not in geo.cell_of or geo.kind[geo.cell_of[name]] != TRACK:
                raise ValueError(f"{excerpt(name)} is not a track cell")
            if code_name not in geo.code_of_name:
                raise ValueError(f"{name}: {excerpt(code_name)} is not a tile code like 3E")
            tiles[geo.cell_of[name]] = geo.code_of_name[code_name]
        stops = [-1] * len(self.letters)
        for letter, name in dict(data["stops"]).items():
            stops[self.letters.index(letter)] = geo.cell_of[name]
        hands = tuple(_uncount(h, geo.kinds) for h in data["hands"])
        if len(hands) != n:
            raise ValueError(f"'hands' needs {n} entries")
        stacks = _uncount(data["stacks"], geo.kinds)
        phase = PHASE_NAMES.index(data["phase"])
        roll = data.get("roll")
        lines = tuple(-1 if v is None else int(v) - 1 for v in data["lines"])
        routes = tuple(-1 if v is None else int(str(v)[1:]) - 1 for v in data["route_cards"])

        def car(text: str | None) -> int:
            if text is None:
                return -1
            words = text.split()
            if words[0] == "start":
                return START_AT + geo.terminal_index[words[1]]
            if words[0] in geo.terminal_index:
                return TERMINAL_AT + geo.terminal_index[words[0]] * 2 + int(words[2])
            return geo.cell_of[words[0]] * 4 + "NESW".index(words[2])

        winner = data.get("winner")
        return State(
            tiles=bytes(tiles),
            stops=tuple(stops),
            hands=hands,
            stacks=stacks,
            player=int(data["player"]),
            phase=phase,
            laid=int(data.get("laid", 0)),
            owed=int(data.get("owed", 0)),
            roll=0 if roll is None else (H if roll == "H" else int(roll)),
            dealt=int(data.get("dealt", 0)),
            lines=lines,
            routes=routes,
            shown=tuple(bool(v) for v in data["shown"]),
            cars=tuple(car(v) for v in data["cars"]),
            origin=tuple(-1 if v is None else geo.terminal_index[v] for v in data["origins"]),
            visited=tuple(sum(1 << self.letters.index(ch) for ch in v) for v in data["visited"]),
            last=tuple(int(v) for v in data["last_move"]),
            caught=bool(data.get("caught", False)),
            idle=int(data.get("idle_turns", 0)),
            winner=-1 if winner is None else int(winner),
            end=str(data.get("end", "")),
            spares=tuple(
                tuple(int(v) - 1 for v in spare) for spare in data.get("spares", [[]] * n)
            ),
        )

    # -- the physical board ----------------------------------------------
    def board(self) -> BoardSpec:
        if self._board is None:
            self._board = self._build_board()
        return self._board

    def piece_codes(self) -> frozenset[str]:
        """The pieces' codes as :meth:`_build_board` names them, without
        describing each of the thousands."""
        lines = len(self.geo.data.lines)
        subsets = self._car_subsets(lines)
        codes = {"stop", *(f"car{i + 1}" for i in range(lines))}
        codes.update("+".join(s) for s in subsets if len(s) > 1)
        extras = ["+".join(("", *stop, *s)) for stop in ((), ("stop",)) for s in subsets]
        for name in self.geo.code_names.values():
            codes.update([name + extra for extra in extras])
        return frozenset(codes)

    def _car_subsets(self, lines: int) -> list[tuple[str, ...]]:
        """The streetcars that may stand on one site together: a car per
        player at most."""
        subsets: list[tuple[str, ...]] = [()]
        for car in (f"car{i + 1}" for i in range(lines)):
            subsets += [(*s, car) for s in subsets if len(s) < self.players]
        return subsets

    def _build_board(self) -> BoardSpec:
        geo = self.geo
        w = geo.width
        top = geo.size + 1
        sites = []
        for r in range(1, geo.size + 1):
            for c in range(1, geo.size + 1):
                i = r * w + c
                neighbours = tuple(
                    geo.names[i + off]
                    for off in geo.offsets
                    if geo.kind[i + off] in (TRACK, BUILDING)
                )
                building = geo.building_cell.get(i)
                sites.append(
                    SiteSpec(
                        geo.names[i],
                        "cell",
                        x=float(c),
                        y=float(top - r),
                        sensed=geo.kind[i] == TRACK,
                        neighbours=neighbours,
                        label="" if building is None else geo.building_letters[building],
                    )
                )
        for t in geo.terminals:
            (r0, c0), (r1, c1) = (divmod(e, w) for e in t.edges)
            sites.append(
                SiteSpec(
                    t.name,
                    "terminal",
                    x=(c0 + c1) / 2,
                    y=top - (r0 + r1) / 2,
                    ends=tuple(geo.names[m] for m, _ in t.mouths),
                    label=str(t.line + 1),
                    colour=LINE_PAINT.get(geo.data.lines[t.line][0], "#909090"),
                )
            )
        # the die's pips beside the board, east of it, level with its middle
        east, middle = geo.size + 2.5, top / 2
        for name, col, row in PIPS:
            sites.append(
                SiteSpec(
                    name,
                    "display",
                    x=east + col * PITCH,
                    y=middle + (1 - row) * PITCH,
                    sensed=False,
                )
            )
        lines = len(geo.data.lines)
        cars = [f"car{i + 1}" for i in range(lines)]
        subsets = self._car_subsets(lines)
        pieces = [PieceSpec("stop", M_("stop sign"), look=Look("sign", "#d02020", "H"))]
        for i, car in enumerate(cars):
            colour = geo.data.lines[i][0]
            paint = LINE_PAINT.get(colour, "#909090")
            look = Look("car", paint, str(i + 1))
            name = M_(
                "streetcar of line {number} ({colour})",
                number=i + 1,
                colour=LINE_COLOUR_WORDS.get(colour, colour),
            )
            pieces.append(PieceSpec(car, name, look=look))
        named = {p.code: p.name for p in pieces}
        for s in subsets:
            if len(s) == 2:
                pieces.append(PieceSpec("+".join(s), and_list([named[c] for c in s]), parts=s))
            elif len(s) > 2:
                # three or more: one name, so that a sentence can hold them all
                # ("Nimm die Straßenbahnen der Linien 1 (rot), 2 (gelb) und 3 (grün)")
                lines_of = and_list([self._line_words(int(c[3:]) - 1) for c in s])
                name = M_("streetcars of lines {lines}", lines=lines_of)
                pieces.append(PieceSpec("+".join(s), name, parts=s))
        # the tiles with their stop signs and streetcars on them: thousands, so
        # named in plain English here and in words where one is shown
        # (BoardSpec.named), not each made a text for people at start-up
        extras = [(stop, stop + s) for stop in ((), ("stop",)) for s in subsets]
        withs = [(e, "+".join(("", *e)), " with " + ", ".join(e)) for _, e in extras if e]
        for code, name in geo.code_names.items():
            kind = geo.data.tiles[(code >> 2) - 1]
            turn = code & 3
            title = M_("{kind} tile {name}", kind=TILE_WORDS.get(kind.name, kind.name), name=name)
            pieces.append(PieceSpec(name, title, orientation=turn, look=self._tile_look(code)))
            english = str(title)
            pieces += [
                PieceSpec(name + plus, english + words, parts=(name, *extra), orientation=turn)
                for extra, plus, words in withs
            ]
        return BoardSpec(tuple(sites), tuple(pieces), SEATS[: self.players], cells="square")

    def _line_words(self, line: int) -> Message:
        """``2 (yellow)``: a line by its number and colour, in a list of lines."""
        colour = self.geo.data.lines[line][0]
        return M_(
            "{number} ({colour})", number=line + 1, colour=LINE_COLOUR_WORDS.get(colour, colour)
        )

    def _tile_look(self, code: int) -> Look:
        """A tile as it lies: a square with its rails, each joining two sides."""
        rails = tuple((SIDE_ANGLE[a], SIDE_ANGLE[b]) for a, b in sorted(self.geo.conns[code]))
        return Look("tile", TILE_PAINT, rails=rails)

    def layout(self, state: State) -> Mapping[str, str]:
        geo = self.geo
        tiles = state.tiles
        names = geo.names
        kind = geo.kind
        code_name = geo.name_of_code
        cars: dict[int, list[str]] = {}
        for q, pos in enumerate(state.cars):
            if pos >= 0:
                cars.setdefault(site_of(pos), []).append(f"car{state.lines[q] + 1}")
        # the tiles alone, then the few that carry a stop sign or a streetcar
        out = {
            names[c]: code_name[code] for c, code in enumerate(tiles) if code and kind[c] == TRACK
        }
        for c in {*state.stops, *cars}:
            if 0 <= c < len(tiles) and tiles[c] and kind[c] == TRACK:
                parts = [code_name[tiles[c]]]
                if c in state.stops:
                    parts.append("stop")
                parts += sorted(cars.get(c, ()))
                out[names[c]] = "+".join(parts)
        for t in geo.terminals:
            here = cars.get(TERMINAL_AT + t.index)
            if here:
                out[t.name] = "+".join(sorted(here))
        return out

    def layout_on(self, state: State, sites: Iterable[str]) -> Mapping[str, str]:
        """:meth:`layout` on ``sites`` alone, each site worked out by itself
        (the reconciler asks for the few an action touches, of 150 on the board)."""
        return self._layout_on(state, state.tiles, state.stops, sites)

    def layout_after(self, state: State, action: Action, sites: Iterable[str]) -> Mapping[str, str]:
        """After a lay, its tiles and the stop signs they earn read without
        playing it (the reconciler asks this of every lay it tries: who draws
        and acts next, the hands and the rails are not needed for it); any
        other action applied."""
        if type(action) is not Lay:
            return super().layout_after(state, action, sites)
        beside = self.geo.beside
        tiles = bytearray(state.tiles)
        stops = state.stops
        for cell, code in action.parts:
            if not tiles[cell] and beside[cell]:
                near = beside[cell]
                stops = tuple(
                    [cell if (near >> b) & 1 and at < 0 else at for b, at in enumerate(stops)]
                )
            tiles[cell] = code
        return self._layout_on(state, tiles, stops, sites)

    def _layout_on(
        self, state: State, tiles: bytes | bytearray, stops: tuple[int, ...], sites: Iterable[str]
    ) -> Mapping[str, str]:
        """:meth:`layout_on` with these tiles and stop signs, the streetcars
        as in ``state``."""
        geo = self.geo
        out: dict[str, str] = {}
        for name in sites:
            c = geo.cell_of.get(name)
            if c is None:
                t = geo.terminal_index.get(name)
                here = [] if t is None else self._cars_on(state, TERMINAL_AT + t)
                if here:
                    out[name] = "+".join(here)
                continue
            code = tiles[c]
            if not code or geo.kind[c] != TRACK:
                continue
            parts = [geo.name_of_code[code]]
            if c in stops:
                parts.append("stop")
            out[name] = "+".join(parts + self._cars_on(state, c))
        return out

    @staticmethod
    def _cars_on(state: State, site: int) -> list[str]:
        """The streetcars on ``site`` (a cell, or TERMINAL_AT + a terminal), sorted."""
        return sorted(
            [
                f"car{state.lines[q] + 1}"
                for q, pos in enumerate(state.cars)
                if pos >= 0 and site_of(pos) == site
            ]
        )

    def actions_touching(self, state: State, sites: frozenset[str]) -> Iterator[Action]:
        """While tiles are laid, straight from the cells asked about to the
        lays on them (and from a terminal to the starts there), without listing
        every lay on the board."""
        if state.phase != LAY:
            return super().actions_touching(state, sites)
        return self._lays_touching(state, sites)

    def _lays_touching(self, state: State, sites: frozenset[str]) -> Iterator[Action]:
        """Listed at once (the reconciler takes them all): no generator
        stepped once an action."""
        geo = self.geo
        found: list[Action] = []
        if state.laid == 0 and not state.caught:
            at = geo.terminal_index
            terminals = {at[s] for s in sites if s in at}
            if terminals:
                found += [start for start in self._starts(state) if start.terminal in terminals]
        cell_of, kind = geo.cell_of, geo.kind
        cells = frozenset(
            [c for c in [cell_of.get(s) for s in sites] if c is not None and kind[c] == TRACK]
        )
        if cells:
            found += self._lays(state, cells)
        # pass, the one other action, touches nothing
        return iter(found)

    def touches(self, state: State, action: Action) -> frozenset[str]:
        geo = self.geo
        if isinstance(action, Lay):
            parts = action.parts
            if len(parts) == 1:
                return self._lay_sites[parts[0][0]]
            return frozenset(geo.names[c] for c, _ in parts)
        if isinstance(action, Drive):
            p = state.player
            here = self._site_name(site_of(state.cars[p]))
            # after a wrong turn the streetcar goes back to its terminal
            back = self.apply_unchecked(state, action).cars[p]
            ends = {here, self._site_name(site_of(back))} if back >= 0 else {here}
            return frozenset({*ends, *(self._site_name(s) for s in action.path)})
        if isinstance(action, Start):
            return frozenset({geo.terminals[action.terminal].name})
        return frozenset()

    def shown(self, state: State) -> frozenset[str]:
        """The die's face from the roll until the drive is made (the pips of
        :mod:`.die`); nothing under the speed rule, which rolls no die."""
        if state.phase != DRIVE or not state.roll:
            return frozenset()
        return FACES[state.roll]

    def winning_sites(self, state: State) -> frozenset[str]:
        """The winner's route from terminal to terminal through all their stops."""
        if state.winner < 0:
            return frozenset()
        route = self.route_of(state, state.winner)
        if route is None:
            return frozenset()
        return frozenset(self._site_name(site_of(pos)) for pos in route)

    def render(self, state: State) -> str:
        return self._render(state, public=False)

    def _render(self, state: State, public: bool) -> str:
        geo = self.geo
        w = geo.width
        stop_cells = {cell: letter for letter, cell in zip(self.letters, state.stops, strict=True)}
        # every streetcar where it stands: two may share a cell or a terminal
        cars: dict[int, str] = {}
        for q, pos in enumerate(state.cars):
            if pos >= 0:
                cars[site_of(pos)] = cars.get(site_of(pos), "") + str(q + 1)
        header = "     " + "".join(f"{ch:<5}" for ch in "abcdefghijklmnopqrstuvwxyz"[: geo.size])
        lines: list[str] = [header]
        for r in range(1, geo.size + 1):
            row = []
            for c in range(1, geo.size + 1):
                i = r * w + c
                if geo.kind[i] == BUILDING:
                    cell = f"[{geo.building_letters[geo.building_cell[i]]}]"
                elif state.tiles[i]:
                    cell = geo.code_name(state.tiles[i])
                    if i in stop_cells:
                        cell += "*"
                    if i in cars:
                        cell += cars[i]
                else:
                    cell = "."
                row.append(f"{cell:<5}")
            lines.append(f"{r:>3}  " + "".join(row).rstrip())
        for t in geo.terminals:
            here = cars.get(TERMINAL_AT + t.index, "")
            if len(here) == 1:
                lines.append(
                    M_("streetcar of player {number} in {terminal}", number=here, terminal=t.name)
                )
            elif here:
                lines.append(
                    M_(
                        "streetcars of players {numbers} in {terminal}",
                        numbers=and_list(list(here)),
                        terminal=t.name,
                    )
                )
        for q in range(self.players):
            hand = " ".join(f"{k}x{c}" for k, c in enumerate(state.hands[q]) if c) or "-"
            line = state.lines[q] + 1
            if state.lines[q] < 0 or not (state.shown[q] or not public):
                said = M_("player {number}: hand {hand}", number=q + 1, hand=hand)
            elif state.routes[q] < 0:
                said = M_(
                    "player {number}: hand {hand} · line {line}", number=q + 1, hand=hand, line=line
                )
            else:
                said = M_(
                    "player {number}: hand {hand} · line {line}, route card {card} ({stops})",
                    number=q + 1,
                    hand=hand,
                    line=line,
                    card=f"{self.set_letter}{state.routes[q] + 1}",
                    stops=self.cards[state.routes[q]][state.lines[q]],
                )
            lines.append(said)
        lines.append(
            Mn_(
                "stacks: {n} tile · * stop sign, [X] building",
                "stacks: {n} tiles · * stop sign, [X] building",
                sum(state.stacks),
            )
        )
        if state.phase == OVER:
            lines.append(M_("game over: {reason}", reason=self.outcome(state).reason))
        else:
            lines.append(
                M_(
                    "{player} to act: {task}",
                    player=SEATS[state.player].name,
                    task=self.task(state),
                )
            )
        return joined(lines, "\n")


def _set(values: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return (*values[:i], value, *values[i + 1 :])


def _counts(counts: tuple[int, ...]) -> dict[str, int]:
    return {str(k): c for k, c in enumerate(counts) if c and k}


def _uncount(raw: Mapping[str, Any], kinds: int) -> tuple[int, ...]:
    out = [0] * (kinds + 1)
    for k, c in dict(raw).items():
        if not 1 <= int(k) <= kinds or int(c) < 0:
            raise ValueError(f"bad tile count {k}: {c}")
        out[int(k)] = int(c)
    return tuple(out)


#: the fields of a state, and all of them read at once (in C)
_FIELDS: tuple[str, ...] = State.__slots__
_ALL_OF = attrgetter(*_FIELDS)
_put = object.__setattr__


def _replace(state: State, **changes: Any) -> State:
    """``state`` with ``changes``; its rails kept while its tiles are, its
    listing never (the new state lists its own from its layout's boards,
    which a lay derives from the parent layout's).

    Copied field by field onto a bare instance, as the frozen dataclass's
    ``__init__`` would set them, without building its keyword arguments:
    a move tried while the board is judged copies a state two or three
    times. A name in ``changes`` that is no field raises AttributeError."""
    new = State.__new__(State)
    for name, value in zip(_FIELDS, _ALL_OF(state), strict=True):
        _put(new, name, value)
    _put(new, "_listing", None)
    for name, value in changes.items():
        _put(new, name, value)
    return new


def _rails_of(state: State) -> Rails:
    """The state's :class:`~.listing.Rails`, made (not yet worked out) the first time."""
    rails = state._rails
    if rails is None:
        rails = Rails(state.tiles)
        object.__setattr__(state, "_rails", rails)
    return rails
