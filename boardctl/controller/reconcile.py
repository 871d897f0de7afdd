"""Reconciliation: what the sensed board says about the game.

Pure and generic over every game: it knows engines only through their
interface (``legal_actions``, ``apply_unchecked``, ``layout``, ``to_move``,
``format_action``) and boards only through the profile's projection. Given the
states of a game so far and the layout the sensors report, :meth:`Reconciler.reconcile`
answers with one :data:`Verdict`:

* :class:`Waiting`: the board shows the expected position;
* :class:`Played`: it shows the position after one legal action (or a short
  chain of actions by the same player, for multi-step turns); the caller plays
  the actions in order;
* :class:`Ambiguous`: several legal actions would leave this very board; never
  guessed, the candidates are shown;
* :class:`InProgress`: the board is on its way to one or more legal actions (a
  piece lifted, a marble in transit, marbles being removed for a score);
* :class:`Takeback`: it shows an earlier position of the game;
* :class:`Wrong`: anything else, with the sites that hold what they must not
  and the sites that must get their piece back.

Settling (a board must stay unchanged for a while before an action is
accepted) is the caller's business: ``deep=False`` is the quick answer given on
every change, ``deep=True`` the thorough one given once the board has settled
(it also looks for two-step turns and for takebacks first).
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from boardctl.board import BoardProfile
from boardctl.engines.base import Engine

#: a sensed or projected layout as a hashable value
Key = frozenset[tuple[str, str]]

_TOKEN = re.compile(r"[A-Za-z0-9]+")


def layout_key(layout: Mapping[str, str]) -> Key:
    return frozenset(layout.items())


@dataclass(frozen=True, slots=True)
class Option:
    """One legal action and what the board shows after it."""

    action: Any
    text: str
    #: the sensed layout after the action, as this board would report it
    after: Key = field(repr=False)
    #: sites whose sensed piece the action changes
    changed: frozenset[str]
    #: sites that the action's notation names (a track, a cell)
    named: frozenset[str]
    #: the sites to light for this option: what it names, plus what it removes
    marks: frozenset[str]
    #: the state after the action
    state: Any = field(repr=False, compare=False)


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
        return frozenset(s for path in self.candidates for o in path for s in o.marks | o.changed)


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


Verdict = Waiting | Played | Ambiguous | InProgress | Takeback | Wrong


class Expectation:
    """What the board should show in one state, and after each legal action."""

    __slots__ = ("_by_key", "_options", "_rec", "key", "layout", "mover", "state")

    def __init__(self, rec: Reconciler, state: Any) -> None:
        self._rec = rec
        self.state = state
        self.layout: dict[str, str] = rec.profile.projected_layout(rec.engine.layout(state))
        self.key: Key = layout_key(self.layout)
        self.mover: int | None = rec.engine.to_move(state)
        self._options: tuple[Option, ...] | None = None
        self._by_key: dict[Key, list[Option]] | None = None

    @property
    def options(self) -> tuple[Option, ...]:
        if self._options is None:
            self._options = tuple(self._rec.option(self, a) for a in self._rec.legal(self.state))
        return self._options

    @property
    def by_key(self) -> dict[Key, list[Option]]:
        if self._by_key is None:
            index: dict[Key, list[Option]] = {}
            for option in self.options:
                index.setdefault(option.after, []).append(option)
            self._by_key = index
        return self._by_key


def _parts(piece: str | None) -> set[str | None]:
    if piece is None:
        return {None}
    return {piece, *piece.split("+")}


def diff_sites(a: Mapping[str, str], b: Mapping[str, str]) -> set[str]:
    """Sites where two layouts differ."""
    return {s for s in a.keys() | b.keys() if a.get(s) != b.get(s)}


class Reconciler:
    """Compares sensed boards with an engine's states, for one board profile.

    Holds a small cache of :class:`Expectation` values by state (states are
    immutable and hashable), so repeated answers for the same position are
    cheap.
    """

    def __init__(
        self,
        engine: Engine[Any, Any],
        profile: BoardProfile,
        *,
        cache_size: int = 64,
        takeback_depth: int = 8,
    ) -> None:
        self.engine = engine
        self.profile = profile
        self.takeback_depth = takeback_depth
        self._cache: OrderedDict[Any, Expectation] = OrderedDict()
        self._cache_size = cache_size
        self._site_names = frozenset(engine.sites()) | {s.name for s in profile.sites}
        action_sites = getattr(engine, "action_sites", None)
        self._action_sites: Callable[[Any, Any], Iterable[str]] | None = action_sites

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

    def legal(self, state: Any) -> list[Any]:
        return list(self.engine.legal_actions(state))

    def named_sites(self, state: Any, action: Any, text: str) -> frozenset[str]:
        """The sites an action's notation names (``W3`` names track W3,
        ``Dd4-e4`` names e4); an engine may answer itself with ``action_sites``."""
        if self._action_sites is not None:
            return frozenset(self._action_sites(state, action))
        return frozenset(t for t in _TOKEN.findall(text) if t in self._site_names)

    def option(self, exp: Expectation, action: Any) -> Option:
        after_state = self.engine.apply_unchecked(exp.state, action)
        after = self.profile.projected_layout(self.engine.layout(after_state))
        changed = frozenset(diff_sites(exp.layout, after))
        text = self.engine.format_action(action)
        named = self.named_sites(exp.state, action, text)
        removes = bool(changed) and all(
            after.get(s) is None or after.get(s) in _parts(exp.layout.get(s)) for s in changed
        )
        marks = named | changed if removes else named
        return Option(action, text, layout_key(after), changed, named, marks, after_state)

    # -- the answer --------------------------------------------------------
    def reconcile(
        self,
        states: Sequence[Any],
        sensed: Mapping[str, str],
        pulses: Iterable[str] = (),
        *,
        deep: bool = False,
    ) -> Verdict:
        """What ``sensed`` means for the game whose states so far are ``states``
        (oldest first; the last is the current one). ``pulses`` are the pulse
        sites (light gates) that fired since the last action."""
        exp = self.expect(states[-1])
        key = layout_key(sensed)
        pulsed = frozenset(pulses)

        if key == exp.key:
            if pulsed:
                moving = [(o,) for o in exp.options if o.named & pulsed]
                if moving:
                    targets = frozenset(s for (o,) in moving for s in o.changed)
                    return InProgress(tuple(moving), frozenset(), targets)
            return Waiting()

        found = exp.by_key.get(key)
        if found:
            return self._decide([(o,) for o in found], pulsed)

        diff = diff_sites(sensed, exp.layout)
        if deep:
            chains = self._two_step(exp, key, diff)
            if chains:
                return self._decide(chains, pulsed)
            back = self._takeback(states, key)
            if back is not None:
                return back

        progress = self._in_progress(exp, sensed, diff, pulsed)
        if progress is not None:
            return progress

        if deep:
            first = self._first_step_done(exp, sensed, pulsed)
            if first is not None:
                return first

        offending = frozenset(s for s in diff if sensed.get(s) is not None)
        restore = {s: exp.layout[s] for s in sorted(diff) if s in exp.layout}
        return Wrong(offending, restore)

    # -- the pieces of the answer -------------------------------------------
    def _decide(self, paths: list[Path], pulsed: frozenset[str]) -> Verdict:
        """Played or Ambiguous. ``paths`` come in the engine's own order, that
        of ``legal_actions`` (for a chain: its first step, then its second)."""
        if len(paths) > 1 and pulsed:
            narrowed = [p for p in paths if any(o.named & pulsed for o in p)]
            if narrowed:
                paths = narrowed
        if len({p[-1].state for p in paths}) == 1:
            # one game whichever was done (W1 and Sa on an empty corner): the
            # pulse named it, or the first the engine lists stands for all
            return Played(paths[0])
        return Ambiguous(tuple(paths))

    def _chains_from(
        self, exp: Expectation, diff: set[str]
    ) -> Iterable[tuple[Option, Expectation]]:
        """First steps of a turn that continues with the same player."""
        if exp.mover is None:
            return
        for option in exp.options:
            if not option.changed & diff:
                continue
            nxt = self.expect(option.state)
            if nxt.mover == exp.mover:
                yield option, nxt

    def _two_step(self, exp: Expectation, key: Key, diff: set[str]) -> list[Path]:
        chains: list[Path] = []
        for first, nxt in self._chains_from(exp, diff):
            for second in nxt.by_key.get(key, ()):
                chains.append((first, second))
        return chains

    def _takeback(self, states: Sequence[Any], key: Key) -> Takeback | None:
        depth = min(self.takeback_depth, len(states) - 1)
        for steps in range(1, depth + 1):
            if self.expect(states[-1 - steps]).key == key:
                return Takeback(steps)
        return None

    def _in_progress(
        self,
        exp: Expectation,
        sensed: Mapping[str, str],
        diff: set[str],
        pulsed: frozenset[str],
    ) -> InProgress | None:
        candidates: list[Path] = []
        destinations: set[str] = set()
        for option in exp.options:
            if not diff <= option.changed:
                continue
            after = dict(option.after)
            allowed: set[str | None] = {None}
            for s in option.changed:
                allowed |= _parts(after.get(s)) | _parts(exp.layout.get(s))
            if all(sensed.get(s) in allowed for s in diff):
                candidates.append((option,))
                destinations.update(s for s in option.changed if sensed.get(s) != after.get(s))
        if not candidates:
            return None
        if pulsed:
            narrowed = [p for p in candidates if p[0].named & pulsed]
            if narrowed and len(narrowed) < len(candidates):
                candidates = narrowed
                destinations = {
                    s
                    for (o,) in narrowed
                    for s in o.changed
                    if sensed.get(s) != dict(o.after).get(s)
                }
        lifted = frozenset(
            s
            for s in diff
            if exp.layout.get(s) is not None
            and (sensed.get(s) is None or sensed.get(s) in _parts(exp.layout[s]) - {exp.layout[s]})
        )
        return InProgress(tuple(candidates), lifted, frozenset(destinations))

    def _first_step_done(
        self, exp: Expectation, sensed: Mapping[str, str], pulsed: frozenset[str]
    ) -> Played | None:
        """The first action of a multi-step turn is complete and the second
        under way: play the first."""
        found: list[Option] = []
        diff = diff_sites(sensed, exp.layout)
        for first, nxt in self._chains_from(exp, diff):
            rest = diff_sites(sensed, nxt.layout)
            if rest and self._in_progress(nxt, sensed, rest, pulsed) is not None:
                found.append(first)
        if len(found) == 1:
            return Played((found[0],))
        return None
