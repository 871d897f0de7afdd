"""The Shiftago rules engine: options, state and the :class:`Shiftago` engine."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
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
from boardctl.engines.shiftago.actions import Action, Insert, Score, parse_action
from boardctl.engines.shiftago.evaluate import evaluate
from boardctl.engines.shiftago.geometry import (
    CELL_NAMES,
    CELLS,
    COLUMN_A,
    DIRECTIONS,
    FILES,
    FULL,
    PRED_MASKS,
    ROW_1,
    SIZE,
    TRACK_NAMES,
    cell_bit,
    line_masks,
    on_board,
    track_geometry,
)
from boardctl.errors import BadOptions, RecordError
from boardctl.message import M_, and_list, joined

MARBLES = 22
TARGET = 10

#: points for a line of each length (the notes' table)
POINTS_2P: Mapping[int, int] = {5: 2, 6: 5, 7: 10}
POINTS_MANY: Mapping[int, int] = {4: 2, 5: 5, 6: 8, 7: 10}

VARIANTS = ("express", "expert")

#: the players' marbles: the word people use and the marble's colour
PLAYERS = (
    PlayerSpec(M_("blue"), "#2060e0"),
    PlayerSpec(M_("red"), "#e02020"),
    PlayerSpec(M_("yellow"), "#f0c800"),
    PlayerSpec(M_("green"), "#20a040"),
)
#: each player's marble by name (WiWa's German rules say "Kugel")
MARBLE_NAMES = (M_("blue marble"), M_("red marble"), M_("yellow marble"), M_("green marble"))


def _name(seat: int) -> str:
    """A player as people name them: by the colour of their marbles."""
    return PLAYERS[seat].name


#: what the player to act must do, in words, by phase
TASKS = (M_("insert a marble"), M_("choose a line to score"), M_("nothing"))

# phases of a state
INSERT, SCORE, OVER = 0, 1, 2
PHASE_NAMES = ("insert", "score", "over")
#: the phases as the board drawn as text names them ("blue to insert")
RENDER_PHASES = (M_("insert"), M_("score"), M_("over"))
# why a game ended
END_NONE, END_LINE, END_TARGET, END_FULL, END_MARBLES = 0, 1, 2, 3, 4
END_NAMES = ("", "line", "target", "board_full", "no_marbles")


@dataclass(frozen=True, slots=True)
class ShiftagoOptions:
    """Shiftago's options; docs/engines.md says what each means."""

    #: 2 to 4
    players: int = 2
    #: "express" (first line wins) or "expert" (lines score points, first to 10)
    variant: str = "express"
    #: how many of their first turns the handicapped player sits out (0 to 6)
    handicap_turns: int = 0
    #: the seat of the player who sits out those turns
    handicap_player: int = 0


@dataclass(frozen=True, slots=True)
class ShiftagoState:
    """A Shiftago position: immutable and hashable.

    ``mover`` is the player to act while playing, and the player who acted
    last (or who ran out of marbles) once the game is over.
    """

    #: one 49-bit int per player: bit i set when cell i holds their marble
    boards: tuple[int, ...]
    #: marbles each player still has to insert
    supply: tuple[int, ...]
    #: points (always 0 in Express)
    scores: tuple[int, ...]
    mover: int
    #: 0 insert, 1 score, 2 over
    phase: int
    #: turns the handicapped player still sits out
    skips: int
    #: the winner once over, -1 for none
    winner: int = -1
    #: why the game ended (see END_NAMES)
    end: int = END_NONE


def _popcount(x: int) -> int:
    return x.bit_count()


_CELL_INDEX = {name: i for i, name in enumerate(CELL_NAMES)}
_TRACK_INDEX = {name: t for t, name in enumerate(TRACK_NAMES)}


# -- the engine ------------------------------------------------------------------


class Shiftago(Engine[ShiftagoState, Action]):
    """The rules of Shiftago, Express or Expert, for 2 to 4 players."""

    title: ClassVar[str] = "Shiftago"
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("players", M_("Players"), M_("how many play"), "choice", (2, 3, 4)),
        OptionSpec(
            "variant",
            M_("Variant"),
            M_("Express: the first line of five wins; Expert: lines score points"),
            "choice",
            ("express", "expert"),
            ("Express", "Expert"),
        ),
        OptionSpec(
            "handicap_turns",
            M_("Handicap: turns sat out"),
            M_("how many of their first turns the handicapped player sits out"),
            "int",
            minimum=0,
            maximum=6,
        ),
        OptionSpec(
            "handicap_player",
            M_("Handicapped player"),
            M_("the player who sits out those turns"),
            "choice",
            (0, 1, 2, 3),
            tuple(p.name for p in PLAYERS),
        ),
    )
    summary: ClassVar[str] = M_(
        "Push your marbles in from the sides, shifting the rows; in Express the first line of "
        "five wins, in Expert lines score points."
    )

    name: ClassVar[str] = "shiftago"
    Options: ClassVar[type[Any]] = ShiftagoOptions
    variants: ClassVar[tuple[str, ...]] = VARIANTS

    def __init__(self, options: ShiftagoOptions | None = None) -> None:
        opts = options if options is not None else ShiftagoOptions()
        if not 2 <= opts.players <= 4:
            raise BadOptions(f"shiftago: option 'players' must be 2, 3 or 4, not {opts.players}")
        if opts.variant not in VARIANTS:
            extra = " ('extreme' is not supported: its rules are not sourced)"
            raise BadOptions(
                f"shiftago: option 'variant' must be 'express' or 'expert', not {opts.variant!r}"
                + (extra if opts.variant == "extreme" else "")
            )
        if not 0 <= opts.handicap_turns <= 6:
            raise BadOptions(
                f"shiftago: option 'handicap_turns' must be 0 to 6, not {opts.handicap_turns}"
            )
        if not 0 <= opts.handicap_player < opts.players:
            raise BadOptions(
                f"shiftago: option 'handicap_player' must be a seat 0 to {opts.players - 1}, "
                f"not {opts.handicap_player}"
            )
        self.options = opts
        self.players = opts.players
        self.expert = opts.variant == "expert"
        #: the shortest line that wins (Express) or scores (Expert)
        self.line_length = 5 if opts.players == 2 else 4
        self.points = POINTS_2P if opts.players == 2 else POINTS_MANY
        # with 3-4 players a position costs the search twice as much to evaluate
        self.search_scale = 1.0 if opts.players == 2 else 0.5
        self._runs = line_masks(self.line_length)
        self._board = self._build_board()
        self._inserts = tuple(Insert(t) for t in range(len(TRACK_NAMES)))
        tracks = []
        for t in range(len(TRACK_NAMES)):
            cells, step = track_geometry(t)
            prefixes = [0]
            for bit in cells:
                prefixes.append(prefixes[-1] | bit)
            tracks.append((cells, tuple(prefixes), step))
        self._tracks = tuple(tracks)
        # the legal insertions by which rows and columns are full (filled lazily:
        # the same answer for the same key, so it is a cache, not state)
        self._legal_inserts: dict[int, tuple[Insert, ...]] = {}
        # (action, mask of its track) for the legality test of insertions
        self._insert_masks = tuple(
            (self._inserts[t], prefixes[-1]) for t, (_, prefixes, _) in enumerate(tracks)
        )

    # -- lines -------------------------------------------------------------
    def _has_line(self, b: int) -> bool:
        """Whether ``b`` holds a run of at least ``line_length`` in any direction."""
        if self.line_length == 5:
            for s, s2, s4, start in self._runs:
                r = b & (b >> s)
                r &= r >> s2
                if r & (b >> s4) & start:
                    return True
            return False
        for s, s2, _, start in self._runs:
            r = b & (b >> s)
            if r & (r >> s2) & start:
                return True
        return False

    def _lines(self, b: int) -> Iterator[tuple[int, int]]:
        """The maximal runs of ``b`` of at least ``line_length``, as (first, last)
        bit numbers, first the lower."""
        length = self.line_length
        for (step, dr, dc), (s, _, _, start), pred in zip(
            DIRECTIONS, self._runs, PRED_MASKS, strict=True
        ):
            run = b
            for k in range(1, length):
                run &= b >> (k * s)
            starts = run & start & ~((b << step) & pred)
            while starts:
                low = starts & -starts
                starts ^= low
                i = low.bit_length() - 1
                r, c = divmod(i, SIZE)
                n = 1
                while on_board(r + n * dr, c + n * dc) and b >> (i + n * step) & 1:
                    n += 1
                yield i, i + (n - 1) * step

    @staticmethod
    def _line_cells(first: int, last: int) -> tuple[int, int] | None:
        """(bit step, number of cells) of the straight line first..last, or None."""
        r0, c0 = divmod(first, SIZE)
        r1, c1 = divmod(last, SIZE)
        dr, dc = r1 - r0, c1 - c0
        if dr == 0 and dc > 0:
            return 1, dc + 1
        if dc == 0 and dr > 0:
            return SIZE, dr + 1
        if dr > 0 and dc == dr:
            return SIZE + 1, dr + 1
        if dr > 0 and dc == -dr:
            return SIZE - 1, dr + 1
        return None

    def _cells_between(self, first: int, last: int) -> frozenset[str]:
        found = self._line_cells(first, last)
        if found is None:
            return frozenset({CELL_NAMES[first], CELL_NAMES[last]})
        step, n = found
        return frozenset(CELL_NAMES[first + k * step] for k in range(n))

    def scoring_lines(self, state: ShiftagoState) -> tuple[tuple[str, str], ...]:
        """The lines the player to act may score now, as (first, last) cell names."""
        if state.phase != SCORE:
            return ()
        return tuple(
            (CELL_NAMES[a], CELL_NAMES[b]) for a, b in self._lines(state.boards[state.mover])
        )

    # -- the game ------------------------------------------------------------
    def initial(self) -> ShiftagoState:
        n = self.players
        skips = self.options.handicap_turns
        mover = 0
        if skips and self.options.handicap_player == 0:
            skips -= 1
            mover = 1
        return ShiftagoState(
            boards=(0,) * n,
            supply=(MARBLES,) * n,
            scores=(0,) * n,
            mover=mover,
            phase=INSERT,
            skips=skips,
        )

    def legal_actions(self, state: ShiftagoState) -> Iterator[Action]:
        if state.phase == INSERT:
            occ = 0
            for b in state.boards:
                occ |= b
            # full rows leave a bit at column a, full columns a bit at row 1
            rows = occ & (occ >> 1)
            rows &= rows >> 2
            rows &= (rows >> 3) & COLUMN_A
            cols = occ & (occ >> 7)
            cols &= cols >> 14
            cols &= (cols >> 21) & ROW_1
            if not rows | cols:
                return iter(self._inserts)
            key = rows << CELLS | cols
            legal = self._legal_inserts.get(key)
            if legal is None:
                legal = tuple(a for a, m in self._insert_masks if occ & m != m)
                self._legal_inserts[key] = legal
            return iter(legal)
        if state.phase == SCORE:
            return self._score_actions(state)
        return iter(())

    def _score_actions(self, state: ShiftagoState) -> Iterator[Action]:
        for a, b in self._lines(state.boards[state.mover]):
            if self.players == 2:
                yield Score(a, b)
            else:
                yield Score(a, b, a)
                yield Score(a, b, b)

    def why_wrong(self, state: ShiftagoState, changed: Mapping[str, str | None]) -> str | None:
        """One marble more on the board that no push explains: set down
        rather than pushed in, or of another player's colour."""
        if state.phase != INSERT:
            return None
        before = self.layout(state)
        added = [(s, c) for s, c in changed.items() if c is not None and s not in before]
        if len(added) != 1 or len(changed) != 1:
            return None
        ((cell, code),) = added
        mover = PLAYERS[state.mover].name
        owner = next((q for q in range(len(PLAYERS)) if f"p{q}" == code), None)
        if owner is not None and owner != state.mover:
            return M_(
                "that is a {marble}, and {player} is to insert",
                marble=MARBLE_NAMES[owner],
                player=mover,
            )
        return M_(
            "a marble is pushed in from the side through a track, never set down on {cell}",
            cell=cell,
        )

    def why_illegal(self, state: ShiftagoState, action: Action) -> str | None:
        p = state.mover
        if state.phase == OVER:
            return M_("the game is over: {reason}", reason=self.outcome(state).reason)
        if isinstance(action, Insert):
            if not 0 <= action.track < len(TRACK_NAMES):
                return M_("there is no track number {track}", track=action.track)
            if state.phase == SCORE:
                choices = ", ".join(str(a) for a in self._score_actions(state))
                return M_(
                    "{player} must score first: choose a line ({choices})",
                    player=_name(p),
                    choices=choices,
                )
            occ = 0
            for b in state.boards:
                occ |= b
            mask = self._tracks[action.track][1][-1]
            if occ & mask == mask:
                return M_("track {track} is full", track=TRACK_NAMES[action.track])
            if not state.supply[p]:
                return M_("{player} has no marbles left", player=_name(p))
            return None
        if isinstance(action, Score):
            return self._why_score_illegal(state, action)
        return M_("{action} is not a Shiftago action", action=repr(action))

    def _why_score_illegal(self, state: ShiftagoState, action: Score) -> str | None:
        p = state.mover
        if not self.expert:
            return M_("there is no scoring in Shiftago Express: the first line wins at once")
        if state.phase != SCORE:
            return M_("{player} has no line to score now: insert a marble", player=_name(p))
        first, last = action.first, action.last
        if not (0 <= first < CELLS and 0 <= last < CELLS) or first == last:
            return M_("a line needs two different end cells on the board")
        fa, la = CELL_NAMES[first], CELL_NAMES[last]
        geometry = self._line_cells(first, last)
        if geometry is None:
            return M_(
                "{first} and {last} are not on one row, column or diagonal", first=fa, last=la
            )
        step, n = geometry
        board = state.boards[p]
        for k in range(n):
            cell = first + k * step
            if not board >> cell & 1:
                holder = next(
                    (q for q, b in enumerate(state.boards) if b >> cell & 1),
                    None,
                )
                if holder is None:
                    return M_(
                        "{first}-{last} is not a line of {player} marbles: {cell} is empty",
                        first=fa,
                        last=la,
                        player=_name(p),
                        cell=CELL_NAMES[cell],
                    )
                return M_(
                    "{first}-{last} is not a line of {player} marbles: {cell} holds a {marble}",
                    first=fa,
                    last=la,
                    player=_name(p),
                    cell=CELL_NAMES[cell],
                    marble=MARBLE_NAMES[holder],
                )
        # full length: the run must not continue past either end
        r0, c0 = divmod(first, SIZE)
        r1, c1 = divmod(last, SIZE)
        dr, dc = (r1 - r0) // (n - 1), (c1 - c0) // (n - 1)
        before = (r0 - dr, c0 - dc)
        after = (r1 + dr, c1 + dc)
        lo, hi = first, last
        while on_board(*before) and board >> (before[0] * SIZE + before[1]) & 1:
            lo -= step
            before = (before[0] - dr, before[1] - dc)
        while on_board(*after) and board >> (after[0] * SIZE + after[1]) & 1:
            hi += step
            after = (after[0] + dr, after[1] + dc)
        if (lo, hi) != (first, last):
            return M_(
                "a line is scored at its full length: {player}'s line runs {first}-{last}",
                player=_name(p),
                first=CELL_NAMES[lo],
                last=CELL_NAMES[hi],
            )
        if n < self.line_length:
            return M_(
                "a line of {n} does not score with {players} players: it takes {length} or more",
                n=n,
                players=self.players,
                length=self.line_length,
            )
        if self.players == 2:
            if action.keep is not None:
                return M_(
                    "with 2 players both end marbles stay: write x:{first}-{last}",
                    first=fa,
                    last=la,
                )
            return None
        if action.keep is None:
            return M_(
                "with {players} players name the end marble that stays: x:{first}-{last}/{last}",
                players=self.players,
                first=fa,
                last=la,
            )
        if action.keep not in (first, last):
            keep = CELL_NAMES[action.keep] if 0 <= action.keep < CELLS else str(action.keep)
            return M_(
                "the marble that stays must be an end of the line, {first} or {last}, not {keep}",
                first=fa,
                last=la,
                keep=keep,
            )
        return None

    def apply_unchecked(self, state: ShiftagoState, action: Action) -> ShiftagoState:
        if isinstance(action, Insert):
            return self._insert(state, action.track)
        return self._score(state, action)

    def _insert(self, state: ShiftagoState, track: int) -> ShiftagoState:
        cells, prefixes, step = self._tracks[track]
        boards = list(state.boards)
        occ = 0
        for b in boards:
            occ |= b
        k = 0
        while occ & cells[k]:
            k += 1
        seg = prefixes[k]
        if seg:
            for q, b in enumerate(boards):
                moved = b & seg
                if moved:
                    boards[q] = (b ^ moved) | (moved << step if step > 0 else moved >> -step)
        p = state.mover
        mine = boards[p] | cells[0]
        boards[p] = mine
        supply = list(state.supply)
        supply[p] -= 1
        if self._has_line(mine):
            if self.expert:
                return ShiftagoState(
                    tuple(boards), tuple(supply), state.scores, p, SCORE, state.skips
                )
            return ShiftagoState(
                tuple(boards), tuple(supply), state.scores, p, OVER, state.skips, p, END_LINE
            )
        return self._hand_over(tuple(boards), tuple(supply), state.scores, p, state.skips)

    def _hand_over(
        self,
        boards: tuple[int, ...],
        supply: tuple[int, ...],
        scores: tuple[int, ...],
        p: int,
        skips: int,
    ) -> ShiftagoState:
        """The state after player ``p``'s turn ends without a score."""
        occ = 0
        for b in boards:
            occ |= b
        if occ == FULL:
            return self._by_points(boards, supply, scores, p, skips, END_FULL)
        n = self.players
        nxt = (p + 1) % n
        if skips and nxt == self.options.handicap_player:
            skips -= 1
            nxt = (nxt + 1) % n
        if not supply[nxt]:
            return self._by_points(boards, supply, scores, nxt, skips, END_MARBLES)
        return ShiftagoState(boards, supply, scores, nxt, INSERT, skips)

    def _by_points(
        self,
        boards: tuple[int, ...],
        supply: tuple[int, ...],
        scores: tuple[int, ...],
        p: int,
        skips: int,
        end: int,
    ) -> ShiftagoState:
        top = max(scores)
        winner = scores.index(top) if scores.count(top) == 1 else -1
        return ShiftagoState(boards, supply, scores, p, OVER, skips, winner, end)

    def _score(self, state: ShiftagoState, action: Score) -> ShiftagoState:
        p = state.mover
        step, n = self._line_cells(action.first, action.last) or (1, 1)
        line = 0
        for k in range(n):
            line |= 1 << (action.first + k * step)
        if self.players == 2:
            stays = (1 << action.first) | (1 << action.last)
        else:
            stays = 1 << (action.last if action.keep is None else action.keep)
        removed = line & ~stays
        boards = list(state.boards)
        boards[p] &= ~removed
        supply = list(state.supply)
        supply[p] += _popcount(removed)
        scores = list(state.scores)
        scores[p] += self.points[n]
        if scores[p] >= TARGET:
            return ShiftagoState(
                tuple(boards), tuple(supply), tuple(scores), p, OVER, state.skips, p, END_TARGET
            )
        return ShiftagoState(tuple(boards), tuple(supply), tuple(scores), p, INSERT, state.skips)

    def to_move(self, state: ShiftagoState) -> int | None:
        return None if state.phase == OVER else state.mover

    def expects(self, state: ShiftagoState) -> str:
        return ("insert", "score", "nothing")[state.phase]

    def task(self, state: ShiftagoState) -> str:
        return TASKS[state.phase]

    def choosing(self, state: ShiftagoState) -> bool:
        return state.phase == SCORE

    def outcome(self, state: ShiftagoState) -> Outcome:
        if state.phase != OVER:
            return PLAYING
        w = state.winner
        end = state.end
        if end == END_LINE:
            return Outcome(
                Status.WON,
                w,
                M_(
                    "{player} made a line of {length} or more",
                    player=_name(w),
                    length=self.line_length,
                ),
            )
        if end == END_TARGET:
            return Outcome(
                Status.WON,
                w,
                M_("{player} reached {points} points", player=_name(w), points=state.scores[w]),
            )
        why = (
            M_("the board is full")
            if end == END_FULL
            else M_("{player} has no marbles left", player=_name(state.mover))
        )
        if not self.expert:
            return Outcome(Status.DRAW, None, M_("{why} and no line was made", why=why))
        top = max(state.scores)
        if w >= 0:
            return Outcome(
                Status.WON,
                w,
                M_(
                    "{why}: {player} has the most points ({points})",
                    why=why,
                    player=_name(w),
                    points=top,
                ),
            )
        tied = [_name(q) for q, s in enumerate(state.scores) if s == top]
        return Outcome(
            Status.DRAW,
            None,
            M_(
                "{why}: {players} share the top score ({points})",
                why=why,
                players=and_list(tied),
                points=top,
            ),
        )

    def scores(self, state: ShiftagoState) -> tuple[int, ...] | None:
        return state.scores if self.expert else None

    def evaluate(self, state: ShiftagoState) -> tuple[float, ...]:
        """Partial lines, points and marbles in hand (:mod:`.evaluate`)."""
        return evaluate(self, state)

    def supply(self, state: ShiftagoState) -> tuple[int, ...]:
        """The marbles each player still has to insert."""
        return state.supply

    # -- notation ------------------------------------------------------------
    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def format_action(self, action: Action) -> str:
        return str(action)

    # -- serialisation ---------------------------------------------------------
    def state_to_json(self, state: ShiftagoState) -> dict[str, Any]:
        return {
            "board": self._rows(state),
            "supply": list(state.supply),
            "scores": list(state.scores),
            "mover": state.mover,
            "phase": PHASE_NAMES[state.phase],
            "handicap_skips_left": state.skips,
            "winner": state.winner if state.winner >= 0 else None,
            "end": END_NAMES[state.end],
        }

    def state_from_json(self, data: Mapping[str, Any]) -> ShiftagoState:
        try:
            rows = data["board"]
            n = self.players
            if not isinstance(rows, list) or len(rows) != SIZE:
                raise ValueError("'board' must be a list of 7 rows, north first")
            boards = [0] * n
            for r, row in enumerate(reversed(rows)):
                if not isinstance(row, str) or len(row) != SIZE:
                    raise ValueError(f"row {r + 1} must be 7 characters")
                for c, ch in enumerate(row):
                    if ch == ".":
                        continue
                    if not ch.isdigit() or int(ch) >= n:
                        raise ValueError(f"cell {FILES[c]}{r + 1} holds {ch!r}")
                    boards[int(ch)] |= cell_bit(r, c)
            supply = tuple(int(x) for x in data["supply"])
            scores = tuple(int(x) for x in data["scores"])
            if len(supply) != n or len(scores) != n:
                raise ValueError(f"'supply' and 'scores' need {n} entries")
            for q in range(n):
                if boards[q].bit_count() + supply[q] != MARBLES:
                    raise ValueError(
                        f"player {q} has {boards[q].bit_count()} marbles on the board and "
                        f"{supply[q]} in hand, not {MARBLES} in all"
                    )
            phase = PHASE_NAMES.index(data["phase"])
            winner = data.get("winner")
            end = END_NAMES.index(data.get("end", ""))
            mover = int(data["mover"])
            if not 0 <= mover < n:
                raise ValueError(f"'mover' must be a seat 0 to {n - 1}")
            return ShiftagoState(
                tuple(boards),
                supply,
                scores,
                mover,
                phase,
                int(data.get("handicap_skips_left", 0)),
                -1 if winner is None else int(winner),
                end,
            )
        except (KeyError, ValueError, TypeError) as exc:
            raise RecordError(f"not a shiftago state: {exc}") from None

    # -- the physical board --------------------------------------------------------
    def board(self) -> BoardSpec:
        return self._board

    def _build_board(self) -> BoardSpec:
        """Cells at (column, row) from (1, 1); each track just outside the
        edge it enters from, with its cells in the order a marble travels."""
        sites = [
            SiteSpec(name, "cell", x=i % SIZE + 1, y=i // SIZE + 1)
            for i, name in enumerate(CELL_NAMES)
        ]
        for t, name in enumerate(TRACK_NAMES):
            bits, _step = track_geometry(t)
            path = tuple(CELL_NAMES[b.bit_length() - 1] for b in bits)
            entry = sites[bits[0].bit_length() - 1]
            dx = {"W": -1, "E": 1}.get(name[0], 0)
            dy = {"S": -1, "N": 1}.get(name[0], 0)
            sites.append(
                SiteSpec(name, "track", x=entry.x + dx, y=entry.y + dy, sensed=False, path=path)
            )
        players = PLAYERS[: self.players]
        pieces = tuple(
            PieceSpec(f"p{q}", MARBLE_NAMES[q], owner=q, look=Look("marble", p.colour))
            for q, p in enumerate(players)
        )
        return BoardSpec(tuple(sites), pieces, players)

    def _run(self, occ: int, track: int) -> int:
        """The cells an insertion into ``track`` moves marbles through: from
        the entry cell to the first empty one, that one included."""
        cells, prefixes, _step = self._tracks[track]
        k = 0
        last = len(cells) - 1
        while k < last and occ & cells[k]:
            k += 1
        return prefixes[k + 1]

    def touches(self, state: ShiftagoState, action: Action) -> frozenset[str]:
        """An insertion touches its track and the cells of its run (every
        marble pushed moves, whatever its colour); a score, its line."""
        if isinstance(action, Insert):
            occ = 0
            for b in state.boards:
                occ |= b
            run = self._run(occ, action.track)
            cells = {CELL_NAMES[i] for i in range(CELLS) if run >> i & 1}
            return frozenset({TRACK_NAMES[action.track], *cells})
        return self._cells_between(action.first, action.last)

    def actions_touching(self, state: ShiftagoState, sites: frozenset[str]) -> Iterator[Action]:
        if state.phase != INSERT:
            yield from super().actions_touching(state, sites)
            return
        mask = 0
        tracks = set()
        for site in sites:
            i = _CELL_INDEX.get(site)
            if i is not None:
                mask |= 1 << i
            else:
                t = _TRACK_INDEX.get(site)
                if t is not None:
                    tracks.add(t)
        occ = 0
        for b in state.boards:
            occ |= b
        for action in self.legal_actions(state):
            if not isinstance(action, Insert):
                continue
            t = action.track
            if t in tracks or (mask and self._run(occ, t) & mask):
                yield action

    def highlight(self, state: ShiftagoState, action: Action) -> frozenset[str]:
        """A track to push into, or the whole line to score."""
        if isinstance(action, Insert):
            return frozenset({TRACK_NAMES[action.track]})
        return self._cells_between(action.first, action.last)

    def winning_sites(self, state: ShiftagoState) -> frozenset[str]:
        """Express: the winner's line."""
        if state.phase != OVER or state.end != END_LINE or state.winner < 0:
            return frozenset()
        return frozenset(
            cell
            for a, b in self._lines(state.boards[state.winner])
            for cell in self._cells_between(a, b)
        )

    def layout(self, state: ShiftagoState) -> Mapping[str, str]:
        out: dict[str, str] = {}
        for q, b in enumerate(state.boards):
            while b:
                low = b & -b
                b ^= low
                out[CELL_NAMES[low.bit_length() - 1]] = f"p{q}"
        return out

    def _rows(self, state: ShiftagoState) -> list[str]:
        """The board as 7 strings, north row first; '.' empty, a digit a player."""
        rows = []
        for r in reversed(range(SIZE)):
            chars = []
            for c in range(SIZE):
                bit = cell_bit(r, c)
                owner = next((str(q) for q, b in enumerate(state.boards) if b & bit), ".")
                chars.append(owner)
            rows.append("".join(chars))
        return rows

    def render(self, state: ShiftagoState) -> str:
        """The board, north up, each marble by its colour's initial (``B`` blue,
        ``R`` red, ``Y`` yellow, ``G`` green), then the marbles left and points."""
        letters = "   " + " ".join(FILES)
        lines = [letters]
        initials = {str(q): p.name[0].upper() for q, p in enumerate(PLAYERS)}
        for r, row in zip(reversed(range(SIZE)), self._rows(state), strict=True):
            shown = " ".join(initials.get(ch, ch) for ch in row)
            lines.append(f"{r + 1}  {shown}  {r + 1}")
        lines.append(letters)
        marbles = joined(
            [joined([_name(q), str(s)], " ") for q, s in enumerate(state.supply)], ", "
        )
        status = M_("marbles left: {marbles}", marbles=marbles)
        if self.expert:
            points = joined(
                [joined([_name(q), str(s)], " ") for q, s in enumerate(state.scores)], ", "
            )
            status = M_("{marbles} · points: {points}", marbles=status, points=points)
        if state.phase == OVER:
            line = M_(
                "game over: {reason} · {status}", reason=self.outcome(state).reason, status=status
            )
        else:
            line = M_(
                "{player} to {action} · {status}",
                player=_name(state.mover),
                action=RENDER_PHASES[state.phase],
                status=status,
            )
        return joined([*lines, line], "\n")
