"""Reconciliation: what the sensed board says about the game.

Pure and generic over every game: it knows engines only through their
interface and boards only through the profile's projection. Given the states
of a game so far and the layout the sensors report, :meth:`Reconciler.reconcile`
answers with one :data:`Verdict`:

* :class:`Waiting`: the board shows the expected position;
* :class:`Played`: it shows the position after one legal action (or a short
  chain of actions by the same player, for multi-step turns); the caller plays
  the actions in order;
* :class:`Ambiguous`: several legal actions would leave this very board; never
  guessed, the candidates are shown;
* :class:`InProgress`: the board is on its way to one or more legal actions (a
  piece lifted, a marble in transit, marbles being removed for a score);
* :class:`Takeback`: it shows an earlier position of the game, no further
  back than chance's last outcome (a die thrown is not on the board);
* :class:`Wrong`: anything else, with the sites that hold what they must not
  and the sites that must get their piece back.

Settling (a board must stay unchanged for a while before an action is
accepted) is the caller's business: ``deep=False`` is the quick answer given on
every change, ``deep=True`` the thorough one given once the board has settled
(it also looks for chains of actions and for takebacks first).

How candidates are found. The search starts from the board difference, the
sites where the sensed board and the game's position differ, and never lists
every legal action:

* one action explains the board only if it changes every differing site, so
  its candidates are the actions that touch them all
  (:meth:`~boardctl.engines.base.Engine.actions_touching` of each site, kept
  in common); a piece half built or half taken apart (what
  ``board().parts(code)`` says a sensor may see) reads as that action under
  way;
* a chain (two DuploLine actions, two tiles a turn, a score read together
  with the insertion that made it) is searched step by step from the
  remaining difference: each step is an action that touches a site still
  differing and changes one of them, by the player who began the turn, until
  one last action leaves the board exactly as sensed. At most
  ``chain_length`` steps.
* an action a person must tell (:meth:`~boardctl.engines.base.Engine.told`:
  a pass, a route card shown) is never a candidate, even where its pieces
  match the board: the controller plays it only when told.
* where the computer acts (:meth:`Reconciler.direct`), the one action it
  chose is the only candidate (none while it thinks), and a chain may go on
  from it with the next player's actions: a reply made before the board
  settled on the computer's move is read with it. Its actions made at once
  in an order that leaves another game than the one it planned (a Beeline
  NODE put down before the MARK that points at it) read as its own order.

The search is bounded: each reconcile examines at most ``budget`` actions
(what each leaves on the sites it touches read from the engine,
``layout_after``, or taken from the cache; the state after an action is
built only where it is needed: the actions read as played, those a chain goes on
from, a choice offered, ties between chains). When the budget
runs out before the search is complete, the answer is never a guess: it is
:class:`InProgress` when an action under way fits the board, else
:class:`Wrong` (the player then makes the turn one action at a time); never
:class:`Played`, :class:`Ambiguous` or :class:`Takeback`. The answer does not
depend on what is cached.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from boardctl.board import BoardProfile
from boardctl.engines.base import CHANCE, Engine
from boardctl.engines.physical import PhysicalBoard
from boardctl.errors import BoardctlError

#: a sensed or projected layout as a hashable value
Key = frozenset[tuple[str, str]]

#: the most actions one reconcile examines (see the module's docstring)
BUDGET = 2000
#: the most actions of one player a chain may hold
CHAIN_LENGTH = 2
#: the most options kept in the cache; past it the searched ones are forgotten
KEEP = 10000


def layout_key(layout: Mapping[str, str]) -> Key:
    return frozenset(layout.items())


#: an option's state not worked out yet
_UNKNOWN: Any = object()


@dataclass(frozen=True, slots=True)
class Option:
    """One legal action and what the board shows after it.

    What the action leaves on the sites it touches is all the search reads
    of most options (``Engine.layout_after``); the state after it is worked
    out the first time it is asked (the option played, a chain searched
    through it), not for every action a changed board is judged against."""

    action: Any
    #: the engine that plays it (:attr:`text` is its notation)
    engine: Engine[Any, Any] = field(repr=False, compare=False)
    #: sites whose sensed piece the action changes
    changed: frozenset[str]
    #: what the board senses on each changed site afterwards (None: nothing)
    after: tuple[tuple[str, str | None], ...] = field(repr=False)
    #: sites the action changes or is done through (``Engine.touches``)
    touched: frozenset[str]
    #: the sites to light for this option (``Engine.highlight``)
    highlight: frozenset[str]
    #: the state the action is played in
    before: Any = field(repr=False, compare=False)
    _state: Any = field(default=_UNKNOWN, init=False, repr=False, compare=False)

    @property
    def state(self) -> Any:
        """The state after the action (the engine applies it once, when first asked)."""
        state = self._state
        if state is _UNKNOWN:
            state = self.engine.apply_unchecked(self.before, self.action)
            object.__setattr__(self, "_state", state)
        return state

    @property
    def text(self) -> str:
        """The action in the engine's notation: worked out when it is shown or
        logged, not for each action a changed board is judged against."""
        return self.engine.format_action(self.action)

    def leaves(self, sensed: Mapping[str, str], diff: frozenset[str]) -> bool:
        """Whether the action turns a board that differs from ``sensed`` on
        ``diff`` into ``sensed``."""
        if self.changed != diff:
            return False
        # a loop, not all() over a generator (a call a site): asked of every option
        for site, piece in self.after:  # noqa: SIM110
            if sensed.get(site) != piece:
                return False
        return True


Path = tuple[Option, ...]


@dataclass(frozen=True, slots=True)
class Waiting:
    """The board shows the expected position."""


@dataclass(frozen=True, slots=True)
class Played:
    """The board shows the position after these actions, in order."""

    path: Path

    @property
    def texts(self) -> tuple[str, ...]:
        return tuple(o.text for o in self.path)


@dataclass(frozen=True, slots=True)
class Ambiguous:
    """Several legal actions (or chains) leave this very board."""

    candidates: tuple[Path, ...]

    @property
    def sites(self) -> frozenset[str]:
        return frozenset(
            s for path in self.candidates for o in path for s in o.highlight | o.changed
        )


@dataclass(frozen=True, slots=True)
class InProgress:
    """On the way to one of these actions; ``destinations`` still have to change."""

    candidates: tuple[Path, ...]
    lifted: frozenset[str]
    destinations: frozenset[str]


@dataclass(frozen=True, slots=True)
class Takeback:
    """The board shows the position ``steps`` actions ago."""

    steps: int


@dataclass(frozen=True, slots=True)
class Wrong:
    """A board no legal action explains."""

    #: sites holding a piece that should not be there (or the wrong piece)
    offending: frozenset[str]
    #: sites that must get their piece back: site -> the expected sensed piece
    restore: Mapping[str, str]
    #: actions an operator undid that the board still shows, in the order
    #: undone (the last played first): to be taken back off the board
    undone: tuple[str, ...] = ()
    #: actions a person must tell (``Engine.told``) that work on the sites
    #: that differ, as public texts (a few): the board may show one of them
    #: (a streetcar set in its terminal, the start not told yet); none in a
    #: game with secrets
    told: tuple[str, ...] = ()
    #: why no legal action explains it, in the rules' words, where they can tell
    why: str | None = None


Verdict = Waiting | Played | Ambiguous | InProgress | Takeback | Wrong


class _OutOfBudget(Exception):
    """The search examined as many actions as one reconcile may."""


class _Budget:
    __slots__ = ("left",)

    def __init__(self, actions: int) -> None:
        self.left = actions

    def spend(self, actions: int) -> None:
        self.left -= actions
        if self.left < 0:
            raise _OutOfBudget


class Expectation:
    """What the board should show in one state, and after the actions the
    search has looked at.

    A state reached by the search (after an action from another expectation)
    knows its board as that one's board plus the action's changes, so the
    search never builds whole layouts for the states it passes through.
    """

    __slots__ = (
        "_acts",
        "_after",
        "_delta",
        "_highlights",
        "_key",
        "_layout",
        "_options",
        "_parent",
        "_rec",
        "mover",
        "state",
    )

    def __init__(
        self,
        rec: Reconciler,
        state: Any,
        parent: Expectation | None = None,
        delta: Mapping[str, str | None] | None = None,
    ) -> None:
        self._rec = rec
        self.state = state
        self.mover: int | None = rec.engine.to_move(state)
        self._parent = parent
        self._delta = delta
        self._layout: dict[str, str] | None = None
        self._key: Key | None = None
        self._highlights: frozenset[str] | None = None
        #: actions touching a set of sites, in the engine's order
        self._acts: dict[frozenset[str], tuple[Any, ...]] = {}
        #: the options of the actions looked at here
        self._options: dict[Any, Option] = {}
        #: the expectations after those the search went on from
        self._after: dict[Any, Expectation] = {}

    @property
    def layout(self) -> dict[str, str]:
        """The whole board as this profile senses it."""
        if self._layout is None:
            rec = self._rec
            self._layout = rec.profile.projected_layout(rec.engine.layout(self.state))
        return self._layout

    @property
    def key(self) -> Key:
        if self._key is None:
            self._key = layout_key(self.layout)
        return self._key

    def seen(self, site: str) -> str | None:
        """What the board senses on ``site`` in this state."""
        if self._delta is None or self._parent is None:
            return self.layout.get(site)
        if site in self._delta:
            return self._delta[site]
        return self._parent.seen(site)

    def touching(self, sites: frozenset[str]) -> tuple[Any, ...]:
        """The legal actions that touch any of ``sites``, in the engine's
        order, leaving out those a person must tell (``Engine.told``)."""
        found = self._acts.get(sites)
        if found is None:
            rec = self._rec
            engine, state = rec.engine, self.state
            acts = engine.actions_touching(state, sites)
            # lists, not generators: each generator's step is a call of its own
            if self.directed:
                only = rec.only(state)
                found = tuple([a for a in acts if a in only])
            elif rec.tells:
                told = engine.told
                found = tuple([a for a in acts if not told(state, a)])
            else:
                found = tuple(acts)
            self._acts[sites] = found
        return found

    @property
    def directed(self) -> bool:
        """Whether the computer acts here: the board may show its action alone."""
        return self._rec.directs(self.state)

    def covering(self, sites: frozenset[str]) -> list[Any]:
        """The legal actions that touch every one of ``sites``, in the
        engine's order."""
        if not sites:
            return []
        acts = self.touching(frozenset({min(sites)}))
        if len(sites) == 1:
            return list(acts)
        touches = self._rec.engine.touches
        state = self.state
        return [a for a in acts if sites <= touches(state, a)]

    def step(self, action: Any) -> Option:
        """The option of playing ``action`` here: what it leaves on the sites
        it touches, read without building the state after it."""
        option = self._options.get(action)
        if option is None:
            rec = self._rec
            engine = rec.engine
            state = self.state
            touched = engine.touches(state, action)
            now = engine.layout_after(state, action, touched)
            delta: dict[str, str | None] = {}
            # the common cases without a call a site: a sensor that reads the
            # engine's code as it is, and this state's whole board at hand
            as_is = rec.as_is
            board = self.layout if self._delta is None or self._parent is None else None
            for site in sorted(touched) if len(touched) > 1 else touched:
                piece = now.get(site)
                seen = piece if site in as_is else rec.seen(site, piece)
                if seen != (self.seen(site) if board is None else board.get(site)):
                    delta[site] = seen
            option = Option(
                action,
                engine,
                frozenset(delta),
                tuple(delta.items()),
                touched,
                touched if rec.highlight_is_touches else engine.highlight(state, action),
                state,
            )
            self._options[action] = option
            rec.kept += 1
        return option

    def after(self, option: Option) -> Expectation:
        """The expectation after ``option`` (one of :meth:`step`'s here): its
        state worked out now, its board this one's with the option's changes."""
        nxt = self._after.get(option.action)
        if nxt is None:
            nxt = Expectation(self._rec, option.state, self, dict(option.after))
            self._after[option.action] = nxt
        return nxt

    def held(self) -> int:
        """How many options the cache holds from here."""
        return len(self._options) + sum(nxt.held() for nxt in self._after.values())

    def forget(self) -> None:
        """Drop the states the search reached from here, and what was found
        of this one's actions."""
        self._options.clear()
        self._after.clear()
        self._acts.clear()
        self._highlights = None

    @property
    def options(self) -> tuple[Option, ...]:
        """Every legal action as an option: each one looked at, so slow for a
        game with many actions (for tests, tools and a choice offered; the
        search never asks)."""
        acts = self._rec.engine.legal_actions(self.state)
        if self.directed:
            only = self._rec.only(self.state)
            acts = (a for a in acts if a in only)
        return tuple(self.step(a) for a in acts)

    @property
    def highlights(self) -> frozenset[str]:
        """The sites to light for every legal action (the legal moves shown
        while a player thinks)."""
        if self._highlights is None:
            engine = self._rec.engine
            state = self.state
            if not self.directed:
                self._highlights = engine.highlighted(state)
                return self._highlights
            light = engine.touches if self._rec.highlight_is_touches else engine.highlight
            sites: set[str] = set()
            only = self._rec.only(state)
            for action in engine.legal_actions(state):
                if action in only:
                    sites |= light(state, action)
            self._highlights = frozenset(sites)
        return self._highlights


def diff_sites(a: Mapping[str, str], b: Mapping[str, str]) -> set[str]:
    """Sites where two layouts differ (their items compared as sets, in C)."""
    if a == b:
        return set()
    return {s for s, _ in a.items() ^ b.items()}


def _in_time_order(path: Path, changed: Mapping[str, float]) -> bool:
    """Whether the steps of ``path`` changed their sites in their order: each
    step's first change no earlier than the one before it."""
    firsts = [min((changed[s] for s in o.changed if s in changed), default=0.0) for o in path]
    return all(a <= b for a, b in pairwise(firsts))


#: how many actions to tell a wrong board names at most: every route card a Linie 1
#: streetcar set in its terminal may start with, for a page to offer each
TOLD_SHOWN = 8


class Reconciler:
    """Compares sensed boards with an engine's states, for one board profile.

    Holds a small cache of :class:`Expectation` values by state (states are
    immutable and hashable), so repeated answers for the same position are
    cheap. ``budget`` and ``chain_length`` bound the search (see the module's
    docstring).
    """

    def __init__(
        self,
        engine: Engine[Any, Any],
        profile: BoardProfile,
        *,
        cache_size: int = 64,
        takeback_depth: int = 8,
        budget: int = BUDGET,
        chain_length: int = CHAIN_LENGTH,
    ) -> None:
        self.engine = engine
        self.profile = profile
        self.takeback_depth = takeback_depth
        self.budget = budget
        self.chain_length = chain_length
        self._cache: OrderedDict[Any, Expectation] = OrderedDict()
        self._cache_size = cache_size
        self._sensing = frozenset(s.name for s in profile.sites if s.channel is not None)
        #: the sites whose sensor reads the engine's piece code as it is (``seen``)
        self.as_is = profile.reads_as_is
        self._board = engine.board()
        #: whether the engine has actions a person must tell (``Engine.told``)
        self.tells = engine.tells
        #: the engine lights what an action touches (the interface's default
        #: highlight): an option's highlight is its touched sites, not asked twice
        self.highlight_is_touches = type(engine).highlight is PhysicalBoard.highlight
        #: options built and cached since the cache was last trimmed
        self.kept = 0
        #: states where the computer acts -> the actions of its move that may
        #: be made there (none while it thinks): all the board may show there
        self._only: dict[Any, frozenset[Any]] = {}
        #: the states the computer's move leads to, made in the order it chose
        self._planned: frozenset[Any] = frozenset()

    def direct(
        self, only: Mapping[Any, frozenset[Any]], planned: frozenset[Any] = frozenset()
    ) -> bool:
        """Where the computer acts: in each state of ``only`` the board may
        show those actions alone (none: the computer is still thinking), and
        nothing else a player could do there. ``planned``: the state its
        move leads to made in the order it chose; where its actions made at
        once could be read in orders that leave different games, the order
        that passes there is the one read. True when this changes what the
        board may show."""
        if only == self._only and planned == self._planned:
            return False
        self._only = dict(only)
        self._planned = planned
        for cached in self._cache.values():
            cached.forget()
        return True

    def directs(self, state: Any) -> bool:
        return bool(self._only) and state in self._only

    @property
    def directing(self) -> bool:
        """Whether the computer's move (or its thinking) bounds what the board
        may show anywhere (:meth:`direct` was told something)."""
        return bool(self._only) or bool(self._planned)

    def only(self, state: Any) -> frozenset[Any]:
        """The actions the board may show in a state the computer acts in."""
        return self._only.get(state, frozenset())

    # -- building blocks ---------------------------------------------------
    def expect(self, state: Any) -> Expectation:
        cached = self._cache.get(state)
        if cached is not None:
            self._cache.move_to_end(state)
            return cached
        exp = Expectation(self, state)
        self._cache[state] = exp
        if len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return exp

    def seen(self, site: str, piece: str | None) -> str | None:
        """What this board's sensor on ``site`` reports for the engine's ``piece``."""
        if site not in self._sensing:
            return None
        return self.profile.project(site, piece)

    def parts(self, code: str | None) -> frozenset[str | None]:
        """What a sensor may see while ``code`` is built or taken apart."""
        return self._board.parts(code)

    def extra(self, sensed: str | None, expected: str | None) -> bool:
        """Whether a site holds something to take away: a piece, unless it is
        what is expected there with parts missing (a tile whose streetcar was
        lifted off: only the streetcar is to be put back)."""
        return sensed is not None and not self._board.part_of(sensed, expected)

    def held(self) -> int:
        """How many options the cache holds."""
        return sum(exp.held() for exp in self._cache.values())

    def option(self, exp: Expectation, action: Any) -> Option:
        return exp.step(action)

    # -- the answer --------------------------------------------------------
    def reconcile(
        self,
        states: Sequence[Any],
        sensed: Mapping[str, str],
        pulses: Iterable[str] = (),
        *,
        deep: bool = False,
        changed: Mapping[str, float] | None = None,
    ) -> Verdict:
        """What ``sensed`` means for the game whose states so far are ``states``
        (oldest first; the last is the current one). ``pulses`` are the pulse
        sites (light gates) that fired since the last action; ``changed`` when
        each site's reading last changed: of the chains that leave the same
        game in another order (two tiles set down before the board settled),
        the one in the order the sites changed is the one played."""
        if self.kept > KEEP:
            # a board changed many ways over one position: forget what was
            # searched (the answers do not depend on it)
            for cached in self._cache.values():
                cached.forget()
            self.kept = 0
        exp = self.expect(states[-1])
        pulsed = frozenset(pulses)
        diff = frozenset(diff_sites(sensed, exp.layout))
        budget = _Budget(self.budget)
        if not diff:
            return self._still(exp, pulsed, budget)
        try:
            first = self._options(exp, exp.covering(diff), budget)
        except _OutOfBudget:
            return self._wrong(exp, sensed, diff)
        found: list[Path] = [(o,) for o in first if o.leaves(sensed, diff)]
        if found:
            return self._decide(found, pulsed, changed)
        progress = self._in_progress(exp, first, sensed, diff, pulsed)

        if deep:
            try:
                chains = self._chains(exp, sensed, diff, budget)
            except _OutOfBudget:
                return progress if progress is not None else self._wrong(exp, sensed, diff)
            if chains:
                return self._decide(chains, pulsed, changed)
            back = self._takeback(states, layout_key(sensed))
            if back is not None:
                return back

        if progress is not None:
            return progress

        if deep:
            try:
                done = self._first_step_done(exp, sensed, diff, pulsed, budget)
            except _OutOfBudget:
                done = None
            if done is not None:
                return done
        return self._wrong(exp, sensed, diff)

    # -- the pieces of the answer -------------------------------------------
    def _options(self, exp: Expectation, actions: Sequence[Any], budget: _Budget) -> list[Option]:
        budget.spend(len(actions))
        return [exp.step(a) for a in actions]

    def _still(self, exp: Expectation, pulsed: frozenset[str], budget: _Budget) -> Verdict:
        """The board shows the expected position: a marble in a light gate is
        on its way."""
        if pulsed:
            try:
                options = self._options(exp, exp.touching(pulsed), budget)
            except _OutOfBudget:
                return Waiting()
            moving = [(o,) for o in options if o.touched & pulsed]
            if moving:
                targets = frozenset(s for (o,) in moving for s in o.changed)
                return InProgress(tuple(moving), frozenset(), targets)
        return Waiting()

    def wrong(self, state: Any, sensed: Mapping[str, str]) -> Wrong:
        """``sensed`` as a board to put right in ``state`` (one that has
        stayed on its way to an action too long): what to take away and what
        to put back, a piece half built by a legal action spared."""
        exp = self.expect(state)
        return self._wrong(exp, sensed, frozenset(diff_sites(sensed, exp.layout)))

    def _wrong(self, exp: Expectation, sensed: Mapping[str, str], diff: frozenset[str]) -> Wrong:
        """The sites holding what they must not, and those to get their piece
        back. A site showing a piece half built by a legal action (a tile set
        where it earns a stop sign, the sign not on it yet) is no mistake: it
        is not to be taken away, it is to get its missing part (the sign put
        on another tile by mistake blinks there alone)."""
        layout = exp.layout
        offending = {s for s in diff if self.extra(sensed.get(s), layout.get(s))}
        restore = {s: layout[s] for s in sorted(diff) if s in layout}
        for site, whole in self._half_built(exp, sensed, diff, offending).items():
            offending.discard(site)
            restore[site] = whole
        return Wrong(
            frozenset(offending),
            restore,
            told=self._told(exp, diff),
            why=self._why(exp, sensed, diff),
        )

    def _half_built(
        self,
        exp: Expectation,
        sensed: Mapping[str, str],
        diff: frozenset[str],
        sites: Iterable[str],
    ) -> dict[str, str]:
        """Of ``sites`` (each holding a piece ``exp`` does not), those showing
        a piece one legal action builds there with a part still missing, the
        action's other changed sites on their way too: site -> the whole piece
        (only where the actions that fit agree on it)."""
        board = self._board
        budget = _Budget(self.budget)
        found: dict[str, str] = {}
        for site in sorted(sites):
            piece = sensed.get(site)
            if piece is None:
                continue
            wholes: set[str | None] = set()
            try:
                options = self._options(exp, exp.touching(frozenset({site})), budget)
            except _OutOfBudget:
                break
            for option in options:
                after = dict(option.after)
                whole = after.get(site)
                if whole is None or whole == piece or not board.part_of(piece, whole):
                    continue
                others = diff & option.changed - {site}
                if all(
                    sensed.get(s) in self.parts(after[s]) | self.parts(exp.seen(s)) | {None}
                    for s in others
                ):
                    wholes.add(whole)
            if len(wholes) == 1:
                (whole,) = wholes
                if whole is not None:
                    found[site] = whole
        return found

    def _why(self, exp: Expectation, sensed: Mapping[str, str], diff: frozenset[str]) -> str | None:
        """The rules' reason the board is wrong, where they can say one the
        room may hear."""
        engine, state = self.engine, exp.state
        if not diff or not engine.hints_public(state):
            return None
        try:
            return engine.why_wrong(state, {s: sensed.get(s) for s in diff})
        except BoardctlError:
            return None

    def _told(self, exp: Expectation, diff: frozenset[str]) -> tuple[str, ...]:
        """A few actions a person must tell that work on ``diff``; none where
        the hints are not the room's (``hints_public``), since which actions
        are legal may tell a secret there (Linie 1's dealt cards: a player
        starts only at their own line's terminals)."""
        engine, state = self.engine, exp.state
        if not self.tells or not diff or not engine.hints_public(state):
            return ()
        found: list[str] = []
        for action in engine.actions_touching(state, diff):
            if engine.told(state, action):
                found.append(engine.public_action(state, action))
                if len(found) == TOLD_SHOWN:
                    break
        return tuple(found)

    def _decide(
        self,
        paths: list[Path],
        pulsed: frozenset[str],
        changed: Mapping[str, float] | None = None,
    ) -> Verdict:
        """Played or Ambiguous. ``paths`` come in the engine's own order, that
        of ``legal_actions`` (for a chain: its first step, then its second)."""
        if len(paths) > 1 and self._planned:
            meant = [p for p in paths if any(o.state in self._planned for o in p)]
            if meant:
                paths = meant
        if len(paths) > 1 and pulsed:
            narrowed = [p for p in paths if any(o.touched & pulsed for o in p)]
            if narrowed:
                paths = narrowed
        if len(paths) == 1 or len({p[-1].state for p in paths}) == 1:
            # one game whichever was done (W1 and Sa on an empty corner): the
            # pulse named it, the order the sites changed in (two tiles set
            # down at once), or the first the engine lists stands for all
            if len(paths) > 1 and changed:
                in_order = [p for p in paths if _in_time_order(p, changed)]
                if in_order:
                    return Played(in_order[0])
            return Played(paths[0])
        return Ambiguous(tuple(paths))

    @staticmethod
    def _rest(option: Option, sensed: Mapping[str, str], diff: frozenset[str]) -> frozenset[str]:
        """Where the board still differs from ``sensed`` after ``option``, when
        it differed on ``diff`` before."""
        return (diff - option.changed) | {s for s, v in option.after if sensed.get(s) != v}

    def _steps(
        self,
        exp: Expectation,
        rest: frozenset[str],
        diff: frozenset[str],
        mover: int | None,
        budget: _Budget,
    ) -> Iterator[tuple[Option, Expectation]]:
        """Steps of a turn that goes on: actions that change a site still
        differing (``rest``) and one where the board differs from the turn's
        start (``diff``), and leave ``mover`` to act; the computer's action
        may hand the turn to whoever acts next."""
        acts = exp.touching(rest)
        budget.spend(len(acts))
        for action in acts:
            option = exp.step(action)
            if option.changed & rest and option.changed & diff:
                nxt = exp.after(option)
                if nxt.mover == mover or exp.directed:
                    yield option, nxt

    def _chains(
        self, exp: Expectation, sensed: Mapping[str, str], diff: frozenset[str], budget: _Budget
    ) -> list[Path]:
        """Chains of actions by the player to act that leave exactly ``sensed``.

        Every action of a chain must change a site where ``sensed`` differs
        from the turn's start: one whose changes a later action undoes left
        no trace on the board, and nobody's hands may be said to have made
        it (a score's marbles being lifted one by one, the one still standing
        on a track's entry cell, is the score under way, not the score and an
        insertion into that cell)."""
        found: list[Path] = []
        if exp.mover is None or (self.chain_length < 2 and not exp.directed):
            return found

        def walk(node: Expectation, path: Path, rest: frozenset[str], led: int) -> None:
            """``led``: how many steps of ``path`` the computer chose (they
            do not count against the chain's length)."""
            for option in self._options(node, node.covering(rest), budget):
                if option.leaves(sensed, rest) and option.changed & diff:
                    found.append((*path, option))
            if len(path) + 1 - led < self.chain_length or node.directed:
                for option, nxt in list(self._steps(node, rest, diff, node.mover, budget)):
                    after = self._rest(option, sensed, rest)
                    if after:
                        walk(nxt, (*path, option), after, led + node.directed)

        for option, nxt in list(self._steps(exp, diff, diff, exp.mover, budget)):
            rest = self._rest(option, sensed, diff)
            if rest:
                walk(nxt, (option,), rest, int(exp.directed))
        return found

    def _takeback(self, states: Sequence[Any], key: Key) -> Takeback | None:
        """The board shows an earlier position of the players' own actions. It
        never goes back past chance's last outcome: a die thrown or a tile
        drawn is no piece on the board, and lifting pieces does not unthrow it
        (a streetcar lifted out of its terminal after the roll is its drive
        under way, not the start and the roll taken back). An operator's undo
        may take chance's outcomes back."""
        depth = min(self.takeback_depth, len(states) - 1)
        engine = self.engine
        for steps in range(1, depth + 1):
            earlier = states[-1 - steps]
            if engine.actor(earlier) is CHANCE:
                return None
            if self.expect(earlier).key == key:
                return Takeback(steps)
        return None

    def _in_progress(
        self,
        exp: Expectation,
        options: Sequence[Option],
        sensed: Mapping[str, str],
        diff: frozenset[str],
        pulsed: frozenset[str],
    ) -> InProgress | None:
        """The options (all touching every site of ``diff``) that the board is
        on its way to: every differing site shows nothing, or a piece (or a
        part of one) the action moves; a site the action passes over without
        changing it (a cell a streetcar drives across) may also show its piece
        with a moving part set on it."""
        parts = self.parts
        candidates: list[Path] = []
        destinations: set[str] = set()
        for option in options:
            if not diff <= option.touched:
                continue
            after = dict(option.after)
            allowed: set[str | None] = {None}
            for s in option.changed:
                allowed |= parts(after[s]) | parts(exp.seen(s))
            over = diff - option.changed
            if over:
                moving = self._moving(exp, option, after)
                passing = {
                    s: {self._board.with_part(exp.seen(s), m) for m in moving} - {None}
                    for s in over
                }
                if not all(sensed.get(s) in passing[s] for s in over):
                    continue
            if all(sensed.get(s) in allowed for s in diff - over):
                candidates.append((option,))
                destinations.update(s for s in option.changed if sensed.get(s) != after[s])
        if not candidates:
            return None
        if pulsed:
            narrowed = [p for p in candidates if p[0].touched & pulsed]
            if narrowed and len(narrowed) < len(candidates):
                candidates = narrowed
                destinations = {s for (o,) in narrowed for s, v in o.after if sensed.get(s) != v}
        lifted = set()
        for s in diff:
            before = exp.seen(s)
            if before is None:
                continue
            now = sensed.get(s)
            if now is None or now in parts(before) - {before}:
                lifted.add(s)
        return InProgress(tuple(candidates), frozenset(lifted), frozenset(destinations))

    def _moving(self, exp: Expectation, option: Option, after: Mapping[str, Any]) -> set[str]:
        """The single pieces ``option`` carries from one site to another (a
        streetcar): those that leave or reach a site it changes."""
        parts = self.parts
        moving: set[str] = set()
        for s in option.changed:
            before_parts, after_parts = parts(exp.seen(s)), parts(after.get(s))
            for p in before_parts ^ after_parts:
                if p is not None and parts(p) == {p}:
                    moving.add(p)
        return moving

    def _first_step_done(
        self,
        exp: Expectation,
        sensed: Mapping[str, str],
        diff: frozenset[str],
        pulsed: frozenset[str],
        budget: _Budget,
    ) -> Played | None:
        """The first action of a multi-step turn is complete and the second
        under way: play the first."""
        mover = exp.mover
        if mover is None:
            return None
        found: list[Option] = []
        for first, nxt in list(self._steps(exp, diff, diff, mover, budget)):
            rest = self._rest(first, sensed, diff)
            if not rest:
                continue
            options = self._options(nxt, nxt.covering(rest), budget)
            if self._in_progress(nxt, options, sensed, rest, pulsed) is not None:
                found.append(first)
        if len(found) == 1:
            return Played((found[0],))
        return None
