"""Alpha-beta search for two players who see everything and roll no die:
deeper than the tree search where a game's result turns on exact sequences
(a race to a dead end, a line completed two actions later).

Iterative deepening: it searches every action one action deep, then two,
and so on, each round trying first the actions the last one found best, and
at every position the actions whose positions the evaluation likes best for
the player to act there (their values are remembered, so each position is
valued once). A finished game is valued exactly, a win sooner and a loss
later worth a little more, so it takes the shortest way to a win and holds
out longest when lost. Positions already searched are remembered with their
depth and bound (a transposition table), so a position reached by two
orders of the same actions is searched once.

The budget is a number of positions valued, as in :mod:`.search` (and twice
as many searched, counting those searched again in a later round, so a
position where many orders of actions meet cannot keep it going): the round
it runs out in is cut short, and the choice is the best of the last round it
finished (or, when even the first round ran out, the action whose position
looked best). With the same inputs and the same seed the answer is the same.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from boardctl.computer.search import STOP_EVERY, shuffled
from boardctl.engines import Engine
from boardctl.engines.playing import Rng, terminal_values

#: how much a finished game's value moves per action it lies ahead (a win
#: sooner is worth more, a loss later less bad)
SOONER = 1e-4
#: a value this near 1 (0) is a finished game won (lost); the evaluation's
#: values are squeezed inside
SURE = 0.99
#: the deepest round (actions ahead)
MAX_DEPTH = 64
#: positions searched (valued before or not) per position of the budget: a
#: round walks again through what earlier rounds valued without valuing it
#: again, so where many orders of actions lead to the same positions the
#: rounds could go on long after the budget's new positions run out
SEARCHED_PER_POSITION = 2

# what a remembered value is: exact, at least this, at most this
_EXACT, _LOWER, _UPPER = 0, 1, 2


class OutOfBudget(Exception):
    """The budget ran out (or ``stop`` answered true) inside a round."""


class AlphaBeta:
    """One search from ``state`` for ``seat``; :meth:`run` spends the budget.

    The same interface as :class:`~boardctl.computer.search.Search`:
    ``actions`` are the root's actions to weigh; ``evaluate`` values a
    position (per seat, the engine's evaluation unless given). ``depth``
    bounds the rounds: a search of depth 3 reads its own action, the
    reply and its next action exactly, and judges what lies beyond by
    ``evaluate`` alone.
    """

    def __init__(
        self,
        engine: Engine[Any, Any],
        state: Any,
        seat: int,
        actions: Sequence[Any],
        rng: Rng,
        evaluate: Callable[[Any], tuple[float, ...]] | None = None,
        depth: int = MAX_DEPTH,
    ) -> None:
        self.engine = engine
        #: the deepest round: how many actions ahead it reads at most
        self.depth = min(depth, MAX_DEPTH)
        self.seat = seat
        self.root_state = state
        # ties between equally good actions are broken by the seed
        self.root_actions = shuffled(actions, rng)
        self.evaluate = engine.evaluate if evaluate is None else evaluate
        #: positions valued so far
        self.nodes = 0
        #: rounds finished (the depth of the last one)
        self.iterations = 0
        self._budget = 0
        #: positions searched so far, each time one is (:data:`SEARCHED_PER_POSITION`)
        self._searched = 0
        self._stop: Callable[[], bool] | None = None
        self._values: dict[Any, tuple[float, bool]] = {}
        self._table: dict[Any, tuple[int, float, int, Any]] = {}
        self._best: tuple[Any, float] | None = None

    # -- the loop -------------------------------------------------------------
    def run(self, budget: int, stop: Callable[[], bool] | None = None) -> None:
        """Deepen round by round until the budget is spent, ``stop()``
        answers true (asked every few positions), or a round proves the
        result (a sure win, or every action lost)."""
        self._budget = budget
        self._stop = stop
        try:
            order = self._root_order()
        except OutOfBudget:
            order = None
        if order is None:
            return
        for depth in range(1, self.depth + 1):
            try:
                scored = self._round(order, depth)
            except OutOfBudget:
                return
            self.iterations = depth
            order = [action for _, action in scored]
            self._best = (scored[0][1], scored[0][0])
            top = scored[0][0]
            if top >= SURE or all(value <= 1 - SURE for value, _ in scored):
                return
            if all(final for _, final in (self._value_of(a) for a in order)):
                return

    def best(self) -> tuple[Any, float]:
        """The action to play and the chooser's value of it."""
        assert self._best is not None, "run() values the root's actions first"
        return self._best

    # -- rounds ---------------------------------------------------------------
    def _root_order(self) -> list[Any] | None:
        """The root's actions, the best-looking first; records the best as
        the choice so far. None when a finished game decides at once."""
        valued = [(self._value_of(action), action) for action in self.root_actions]
        valued.sort(key=lambda item: -item[0][0])
        (value, final), action = valued[0]
        self._best = (action, value)
        if final and value >= SURE:
            return None
        return [action for _, action in valued]

    def _round(self, order: list[Any], depth: int) -> list[tuple[float, Any]]:
        """Every root action searched ``depth`` actions deep (the first
        exactly, the others against the best so far): (value, action), best
        first."""
        engine = self.engine
        alpha = -1.0
        scored: list[tuple[float, Any]] = []
        for action in order:
            after = engine.apply_unchecked(self.root_state, action)
            value, final = self._valued(after)
            if not final and depth > 1:
                value = self._search(after, depth - 1, alpha, 2.0, 1)
            elif final:
                value = self._settled(value, 1)
            scored.append((value, action))
            alpha = max(alpha, value)
        # stable: among equal values the earlier (better last round) first
        scored.sort(key=lambda item: -item[0])
        return scored

    def _value_of(self, action: Any) -> tuple[float, bool]:
        return self._valued(self.engine.apply_unchecked(self.root_state, action))

    # -- the search -------------------------------------------------------------
    def _valued(self, state: Any) -> tuple[float, bool]:
        """The chooser's value of ``state`` and whether the game is over there
        (each position valued once, and counted against the budget)."""
        known = self._values.get(state)
        if known is not None:
            return known
        if self.nodes >= self._budget:
            raise OutOfBudget
        self.nodes += 1
        if self._stop is not None and self.nodes % STOP_EVERY == 0 and self._stop():
            raise OutOfBudget
        engine = self.engine
        if engine.actor(state) is None:
            known = (terminal_values(engine.players, engine.outcome(state).winner)[self.seat], True)
        else:
            # kept inside (1 - SURE, SURE): only a finished game is sure
            known = (1 - SURE + (2 * SURE - 1) * self.evaluate(state)[self.seat], False)
        self._values[state] = known
        return known

    @staticmethod
    def _settled(value: float, ply: int) -> float:
        """A finished game's value, ``ply`` actions ahead: a win sooner, a
        loss later worth a little more."""
        if value >= SURE:
            return value - SOONER * ply
        if value <= 1 - SURE:
            return value + SOONER * ply
        return value

    def _search(self, state: Any, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The chooser's value of ``state`` (not over), ``depth`` actions
        deep, within (``alpha``, ``beta``)."""
        self._searched += 1
        if self._searched > SEARCHED_PER_POSITION * self._budget:
            raise OutOfBudget
        remembered = self._table.get(state)
        first = None
        if remembered is not None:
            known_depth, known, bound, first = remembered
            if known_depth >= depth and (
                bound == _EXACT
                or (bound == _LOWER and known >= beta)
                or (bound == _UPPER and known <= alpha)
            ):
                return known
        engine = self.engine
        apply = engine.apply_unchecked
        maximise = engine.actor(state) == self.seat
        children = []
        for action in engine.legal_actions(state):
            after = apply(state, action)
            value, final = self._valued(after)
            children.append((value, final, action, after))
        children.sort(key=lambda child: -child[0] if maximise else child[0])
        if first is not None:
            for i, child in enumerate(children):
                if child[2] == first:
                    children.insert(0, children.pop(i))
                    break
        low, high = alpha, beta
        best = -1.0 if maximise else 2.0
        best_action = children[0][2]
        for value, final, action, after in children:
            if final:
                value = self._settled(value, ply + 1)
            elif depth > 1:
                value = self._search(after, depth - 1, alpha, beta, ply + 1)
            if maximise:
                if value > best:
                    best, best_action = value, action
                alpha = max(alpha, value)
            else:
                if value < best:
                    best, best_action = value, action
                beta = min(beta, value)
            if alpha >= beta:
                break
        bound = _UPPER if best <= low else _LOWER if best >= high else _EXACT
        self._table[state] = (depth, best, bound, best_action)
        return best
