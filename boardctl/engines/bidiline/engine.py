"""The Bidirectional Line Game rules engine (seed 002 and rules/NOTES.md)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any, ClassVar

from boardctl.engines.base import PLAYING, Engine, Outcome, Status
from boardctl.engines.bidiline.evaluate import NEAR, evaluate, glance
from boardctl.engines.bidiline.grid import Grid, bits
from boardctl.engines.bidiline.text import parse_action, render, state_from_json, state_to_json
from boardctl.engines.bidiline.values import (
    Colour,
    End,
    Extend,
    State,
)
from boardctl.engines.bidiline.values import Options as _Options
from boardctl.engines.describe import (
    BoardSpec,
    Look,
    OptionSpec,
    PieceSpec,
    PlayerSites,
    PlayerSpec,
    SiteSpec,
)
from boardctl.errors import BadOptions, RecordError
from boardctl.message import M_

#: the players: seat 0 scores colour A (amber), seat 1 colour B (blue): the
#: colours of the sticks, and of the LEDs lighting each player
PLAYERS = (PlayerSpec(M_("amber"), "#e69f00"), PlayerSpec(M_("blue"), "#2060e0"))
#: the sticks, shared: either player lays either colour
PIECES = (
    PieceSpec("A", M_("amber stick"), look=Look("stick", PLAYERS[0].colour)),
    PieceSpec("B", M_("blue stick"), look=Look("stick", PLAYERS[1].colour)),
)
EXPECTS = ("first-segment", "second-segment", "extend", "nothing")
_EMPTY = State()


def _build_board(grid: Grid) -> BoardSpec:
    """Segments (kind "edge", sensed) at their midpoints, then points (kind
    "point", LEDs only) at (column, row) from (1, 1)."""
    sites: list[SiteSpec] = []
    for i, (p, q) in enumerate(grid.segments):
        (c0, r0), (c1, r1) = grid.xy(p), grid.xy(q)
        near = grid.incident[p] | grid.incident[q]
        sites.append(
            SiteSpec(
                grid.segment_names[i],
                "edge",
                x=1 + (c0 + c1) / 2,
                y=1 + (r0 + r1) / 2,
                ends=(grid.points[p], grid.points[q]),
                neighbours=tuple(grid.segment_names[j] for j in bits(near & ~(1 << i))),
            )
        )
    for p, name in enumerate(grid.points):
        c, r = grid.xy(p)
        sites.append(
            SiteSpec(
                name,
                "point",
                x=c + 1,
                y=r + 1,
                sensed=False,
                neighbours=tuple(grid.points[q] for _, q in grid.steps[p]),
            )
        )
    return BoardSpec(tuple(sites), PIECES, PLAYERS)


class BidiLine(Engine[State, Extend]):
    """The Bidirectional Line Game for two players on an n x n grid of points.

    Seat 0 (amber) draws the first segment in colour A anywhere; seat 1 (blue)
    draws the second in colour B from where the first started. Then each
    player in turn extends either end of the line in that end's colour along
    a segment not drawn before. The game ends as soon as an end can go no
    further; the player with more segments of their colour wins.
    """

    title: ClassVar[str] = "The Bidirectional Line Game"
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "n",
            M_("Points per side"),
            M_("the grid's size: 7 is the board's"),
            "int",
            minimum=2,
            maximum=26,
        ),
    )
    summary: ClassVar[str] = M_(
        "Amber and Blue lay sticks to grow one line from both ends, each end in its own "
        "colour; when an end can go no further, the colour with more sticks wins."
    )

    name: ClassVar[str] = "bidiline"
    #: two players, nothing hidden, no chance; the race of the ends to a dead
    #: end is a matter of exact sequences
    suits_alphabeta = True
    #: levels 2 to 4 read 3, 3 and 6 actions ahead (each its whole depth,
    #: within level 5's budget); beyond, levels 2 and 4 count the sticks and
    #: level 3 also sees an end one move from a dead end (:meth:`judged_at`).
    #: The race evaluation reads the race so well that every level given it
    #: plays alike once the first sticks are down, and depth alone parts
    #: levels 2 and 3 too little; level 1 looks one action ahead, level 5
    #: reads the race as far as its budget goes
    reading_depths = (None, 3, 3, 6, None)
    Options: ClassVar[type[_Options]] = _Options

    def __init__(self, options: _Options | None = None) -> None:
        options = _Options() if options is None else options
        n = options.n
        if not isinstance(n, int) or isinstance(n, bool) or not 2 <= n <= 26:
            raise BadOptions(
                f"bidiline: option 'n' (points per side of the grid) must be 2 to 26, not {n!r}"
            )
        self.options = options
        self.players = 2
        self.grid = grid = Grid.of(n)
        self._board = _build_board(grid)
        # every action, built once: per point, (segment bit, neighbour, A action, B action)
        self._moves: tuple[tuple[tuple[int, int, Extend, Extend], ...], ...] = tuple(
            tuple(
                (bit, q, Extend(Colour.A, grid.points[p], grid.points[q]),
                 Extend(Colour.B, grid.points[p], grid.points[q]))
                for bit, q in grid.steps[p]
            )
            for p in range(len(grid.points))
        )  # fmt: skip
        self._first = tuple(m[2] for moves in self._moves for m in moves)
        # src name -> dst name -> (segment bit, dst index), for apply_unchecked
        self._go: Mapping[str, Mapping[str, tuple[int, int]]] = {
            grid.points[p]: {grid.points[q]: (bit, q) for bit, q in grid.steps[p]}
            for p in range(len(grid.points))
        }
        self._incident = grid.incident

    # -- the game --------------------------------------------------------
    def initial(self) -> State:
        return _EMPTY

    def legal_actions(self, state: State) -> Iterator[Extend]:
        if state.end:
            return iter(())
        if not state.moves:
            return iter(self._first)
        drawn = state.drawn
        out = (
            [m[2] for m in self._moves[state.end_a] if not drawn & m[0]] if state.moves > 1 else []
        )
        out += [m[3] for m in self._moves[state.end_b] if not drawn & m[0]]
        return iter(out)

    def why_wrong(self, state: State, changed: Mapping[str, str | None]) -> str | None:
        """One stick laid: the rules' reason, a stick of the wrong colour first."""
        if len(changed) != 1 or state.end or state.moves < 2:
            return None
        ((site, code),) = changed.items()
        if code not in ("A", "B") or site in self.layout(state) or "-" not in site:
            return None
        p, q = site.split("-")
        ends = {"A": self.grid.points[state.end_a], "B": self.grid.points[state.end_b]}
        other = "B" if code == "A" else "A"
        if ends[code] not in (p, q) and ends[other] in (p, q):
            return M_(
                "a stick there extends the {colour} ({end}) end, so it is {colour}, not {laid}",
                colour=PLAYERS["AB".index(other)].name,
                end=other,
                laid=PLAYERS["AB".index(code)].name,
            )
        src, dst = (q, p) if ends[code] == q else (p, q)
        return self.why_illegal(state, self.parse_action(f"{code}:{src}-{dst}"))

    def why_illegal(self, state: State, action: Extend) -> str | None:
        if state.end:
            return M_("the game is over: {reason}", reason=self.outcome(state).reason)
        if not isinstance(action, Extend):
            return M_("{action} is not a Bidirectional Line Game move", action=repr(action))
        grid = self.grid
        for point in (action.src, action.dst):
            if point not in grid.point_index:
                return M_("{point} is not a point of {grid}", point=point, grid=grid.describe())
        src = grid.point_index[action.src]
        segment = grid.between(src, grid.point_index[action.dst])
        if segment is None:
            return M_(
                "{first} and {second} are not next to each other",
                first=action.src,
                second=action.dst,
            )
        colour = action.colour
        if state.moves == 0:
            if colour is not Colour.A:
                return M_(
                    "the first segment is drawn in colour A (amber): write A:{src}-{dst}",
                    src=action.src,
                    dst=action.dst,
                )
            return None
        start = grid.points[state.end_b]
        if state.moves == 1:
            if colour is not Colour.B:
                return M_(
                    "the second segment is drawn in colour B (blue), from {start} where "
                    "the first one started",
                    start=start,
                )
            if src != state.end_b:
                return M_(
                    "the second segment starts at {start}, where the first one started, "
                    "not at {src}",
                    start=start,
                    src=action.src,
                )
        else:
            end = state.end_a if colour is Colour.A else state.end_b
            if src != end:
                return M_(
                    "the {end} end is at {point}, not {src}: an end is extended from the "
                    "point it last reached (write {end}:{point}-...)",
                    end=colour.value,
                    point=grid.points[end],
                    src=action.src,
                )
        if (state.drawn >> segment) & 1:
            held = "A" if (state.amber >> segment) & 1 else "B"
            return M_(
                "the segment {segment} is already drawn (in {colour}); a segment is never "
                "drawn twice",
                segment=grid.segment_names[segment],
                colour=held,
            )
        return None

    def apply_unchecked(self, state: State, action: Extend) -> State:
        bit, dst = self._go[action.src][action.dst]
        drawn = state.drawn | bit
        if action.colour is Colour.A:
            amber = state.amber | bit
            end_a = dst
            end_b = state.end_b if state.moves else self.grid.point_index[action.src]
        else:
            amber = state.amber
            end_a = state.end_a
            end_b = dst
        free = ~drawn
        inc = self._incident
        end = End.PLAYING
        if not inc[end_a] & free:
            end = End.BOTH_STUCK if not inc[end_b] & free else End.A_STUCK
        elif not inc[end_b] & free:
            end = End.B_STUCK
        return State(drawn, amber, end_a, end_b, state.moves + 1, end)

    # -- whose turn, what next, how it ended ------------------------------
    def to_move(self, state: State) -> int | None:
        return None if state.end else state.moves % 2

    def expects(self, state: State) -> str:
        if state.end:
            return EXPECTS[3]
        return EXPECTS[min(state.moves, 2)]

    def task(self, state: State) -> str:
        if state.end:
            return M_("nothing")
        points = self.grid.points
        if state.moves == 0:
            return M_("draw the first segment, in amber (A), from any point")
        if state.moves == 1:
            return M_(
                "draw the second segment, in blue (B), from {point}", point=points[state.end_b]
            )
        return M_(
            "extend the amber (A) end at {amber} or the blue (B) end at {blue}",
            amber=points[state.end_a],
            blue=points[state.end_b],
        )

    def scores(self, state: State) -> tuple[int, ...] | None:
        """The segments drawn in colour A and in colour B."""
        a = state.amber.bit_count()
        return (a, state.drawn.bit_count() - a)

    def evaluate(self, state: State) -> tuple[float, ...]:
        """The lead in segments, made less sure by the freedom left at the
        ends (:mod:`.evaluate`)."""
        return evaluate(self, state)

    def glance(self, state: State) -> tuple[float, ...]:
        """The sticks counted, the race not seen (the weakest level's view)."""
        return glance(state)

    def judged_at(self, number: int) -> Callable[[State], tuple[float, ...]] | None:
        """Level 3 judges what lies beyond its reading by the race seen only
        as far as an end one move from a dead end; the others by their sight
        (levels 2 and 4 count the sticks beyond theirs: :meth:`glance`)."""
        if number == 3:
            return self._near
        return None

    def _near(self, state: State) -> tuple[float, ...]:
        return evaluate(self, state, NEAR)

    def outcome(self, state: State) -> Outcome:
        end = state.end
        if not end:
            return PLAYING
        points = self.grid.points
        if end is End.BOTH_STUCK:
            if state.end_a == state.end_b:
                why = M_(
                    "both ends are at {point} and can go no further", point=points[state.end_a]
                )
            else:
                why = M_(
                    "neither end can go further (A at {amber}, B at {blue})",
                    amber=points[state.end_a],
                    blue=points[state.end_b],
                )
        else:
            which = "A" if end is End.A_STUCK else "B"
            at = state.end_a if end is End.A_STUCK else state.end_b
            why = M_("the {end} end at {point} can go no further", end=which, point=points[at])
        a = state.amber.bit_count()
        b = state.drawn.bit_count() - a
        count = M_("{amber} amber (A) segments to {blue} blue (B)", amber=a, blue=b)
        if a == b:
            return Outcome(Status.DRAW, None, M_("{why}; {count}: a draw", why=why, count=count))
        winner = 0 if a > b else 1
        return Outcome(
            Status.WON,
            winner,
            M_(
                "{why}; {count}: {player} wins",
                why=why,
                count=count,
                player=PLAYERS[winner].name,
            ),
        )

    # -- notation --------------------------------------------------------
    def parse_action(self, text: str) -> Extend:
        return parse_action(self.grid, text)

    def format_action(self, action: Extend) -> str:
        return str(action)

    # -- serialisation ---------------------------------------------------
    def state_to_json(self, state: State) -> dict[str, Any]:
        return state_to_json(self.grid, state)

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        try:
            return state_from_json(self.grid, data)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise RecordError(f"not a bidiline state: {exc}") from None

    # -- the physical board ----------------------------------------------
    def board(self) -> BoardSpec:
        return self._board

    def touches(self, state: State, action: Extend) -> frozenset[str]:
        """The segment drawn."""
        bit, _ = self._go[action.src][action.dst]
        return frozenset({self.grid.segment_names[bit.bit_length() - 1]})

    def highlight(self, state: State, action: Extend) -> frozenset[str]:
        """The segment and the end it extends (so the lit ends show where the
        line may grow)."""
        return self.touches(state, action) | {action.src}

    def player_sites(self, state: State) -> tuple[PlayerSites, ...]:
        """The two ends in the colours of their players: the A end amber
        (seat 0), the B end blue (seat 1); where they meet, the colour of the
        player to move, whose turn it is to take either."""
        if state.end_a < 0:
            return ()
        points = self.grid.points
        if state.end_a == state.end_b:
            ends = [PlayerSites(), PlayerSites()]
            ends[state.moves % 2] = PlayerSites(ahead=frozenset({points[state.end_a]}))
            return tuple(ends)
        return (
            PlayerSites(ahead=frozenset({points[state.end_a]})),
            PlayerSites(ahead=frozenset({points[state.end_b]})),
        )

    def winning_sites(self, state: State) -> frozenset[str]:
        """The winner's segments; none after a draw."""
        winner = self.outcome(state).winner
        if winner is None:
            return frozenset()
        mask = state.amber if winner == 0 else state.drawn & ~state.amber
        return frozenset(self.grid.segment_names[i] for i in bits(mask))

    def layout(self, state: State) -> Mapping[str, str]:
        names = self.grid.segment_names
        amber = state.amber
        return {names[i]: "A" if (amber >> i) & 1 else "B" for i in bits(state.drawn)}

    def render(self, state: State) -> str:
        outcome = self.outcome(state)
        a, b = self.scores(state) or (0, 0)
        if outcome.over:
            status = M_("game over: {reason}", reason=outcome.reason)
        else:
            status = M_(
                "{player} to {task} · segments A {amber}, B {blue}",
                player=PLAYERS[state.moves % 2].name,
                task=self.task(state),
                amber=a,
                blue=b,
            )
        return render(self.grid, state, status)
