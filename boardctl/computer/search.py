"""The one search every game's computer opponent uses: Monte Carlo tree search
guided by the game's evaluation.

Each iteration walks down the tree from the position to choose from, picking
at every position the action that is best for the player who acts there
(UCT on that player's value: max^n, so it serves two to four players), and
at a chance event an outcome drawn by its weight. The first position it
reaches that the tree does not know yet is expanded whole: every action is
applied and every position after it evaluated (:meth:`Playing.evaluate`), so
a winning action is seen the moment its position is, and the position's value
is the best of its actions for the player to act (a one-ply look ahead). That
value is added up along the way back.

Two players who cannot both win: a finished game's value is exact, and so is
a position where the player to act can reach a win, or where every action is
known: the tree marks them proven and never spends another iteration inside.

A game whose positions offer a great many actions, most of them pointless,
names the few worth a look (:meth:`Playing.considered`); the search then
weighs only those, and never proves a position lost from them alone.

A game with secrets (``has_secrets``) is searched as single-observer
information-set MCTS: each iteration first draws a state the chooser cannot
tell from the real one (:meth:`Playing.determinize`), and the tree holds, per
position, statistics keyed by action that add up over those draws; an action
counts as offered only in the draws where it is legal. Nothing is proven
there: what is exact in one draw is a guess in another. A game whose
actions differ by less than one draw moves them (:attr:`Playing.compares_in_common`:
Linie 1) has them compared under the same draw instead: every one evaluated,
then the likeliest first looked at one action further, the choice the best
of those.

The budget is a number of positions evaluated, never a time; with the same
inputs and the same seed the answer is the same, always. A ``stop`` callable,
asked every few iterations, ends it early with the best so far.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from boardctl.engines import CHANCE, Engine
from boardctl.engines.playing import Rng, terminal_values

#: iterations between two questions to ``stop``
STOP_EVERY = 8


def shuffled(items: Sequence[Any], rng: Rng) -> list[Any]:
    """A copy of ``items`` in an order drawn from ``rng`` (Fisher-Yates)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = rng.randrange(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def draw(outcomes: Sequence[tuple[Any, int]], rng: Rng) -> Any:
    """An outcome of chance drawn by its weight."""
    total = sum(w for _, w in outcomes)
    x = rng.random() * total
    for action, weight in outcomes:
        x -= weight
        if x < 0:
            return action
    return outcomes[-1][0]


class Node:
    """A position of the tree and what the search has learnt about it.

    ``visits`` counts the evaluation the node was made with plus every
    iteration through it; ``total`` adds up the values (per seat) they
    brought back, so ``total[seat] / visits`` is the node's mean value.
    """

    __slots__ = (
        "actions",
        "actor",
        "cumulative",
        "kids",
        "offered",
        "proven",
        "state",
        "table",
        "total",
        "unproven",
        "visits",
    )

    def __init__(self, state: Any, actor: Any, value: Sequence[float]) -> None:
        #: the position (None in the tree of a game with secrets: it differs per draw)
        self.state = state
        #: who acts here: a seat, CHANCE or None (over)
        self.actor = actor
        self.visits = 1
        self.total = list(value)
        #: the exact value once known
        self.proven: tuple[float, ...] | None = None
        #: the actions (or chance outcomes) out of here, and the nodes they lead to
        self.actions: list[Any] = []
        self.kids: list[Node] = []
        #: chance only: the outcomes' weights added up, for drawing
        self.cumulative: list[int] = []
        #: children not yet proven
        self.unproven = 0
        #: games with secrets: how often this action was legal when its parent was visited
        self.offered = 0
        #: games with secrets: the children by action
        self.table: dict[Any, Node] = {}

    def mean(self, seat: int) -> float:
        return self.proven[seat] if self.proven is not None else self.total[seat] / self.visits


class Search:
    """One search from ``state`` for ``seat``; :meth:`run` spends the budget.

    ``actions`` are the root's actions to weigh (the legal ones, less any
    the caller excluded); ``evaluate`` values a position (the engine's
    :meth:`~Playing.evaluate` unless given).
    """

    def __init__(
        self,
        engine: Engine[Any, Any],
        state: Any,
        seat: int,
        actions: Sequence[Any],
        rng: Rng,
        exploration: float,
        evaluate: Callable[[Any], tuple[float, ...]] | None = None,
    ) -> None:
        self.engine = engine
        #: how a position is valued: the game's evaluation unless the level
        #: judges by another (:meth:`Playing.glance`)
        self.evaluate = engine.evaluate if evaluate is None else evaluate
        self.seat = seat
        self.rng = rng
        self.exploration = exploration
        self.players = engine.players
        self.sampled = bool(engine.has_secrets)
        #: the root's actions weighed side by side under each draw
        #: (:attr:`Playing.compares_in_common`)
        self.in_common = self.sampled and engine.compares_in_common
        #: compared in common: the draw, the root actions by their first
        #: value, the next to look at further, and per action looked at
        #: further (draws, value added up)
        self._common: Any = None
        self._order: list[Any] = []
        self._next = 0
        self._further: dict[Any, list[float]] = {}
        self.root_state = state
        self.root_actions = list(actions)
        self.root = Node(None if self.sampled else state, seat, (0.0,) * self.players)
        #: positions evaluated so far
        self.nodes = 0
        self.iterations = 0

    # -- the loop -----------------------------------------------------------
    def run(self, budget: int, stop: Callable[[], bool] | None = None) -> None:
        """Iterate until ``budget`` positions are evaluated, the root is
        proven, or ``stop()`` answers true (asked every few iterations, never
        before the first). At least one iteration runs."""
        step = self._iterate_sampled if self.sampled else self._iterate
        if self.in_common:
            step = self._iterate_in_common
        while True:
            before = self.nodes
            step()
            self.iterations += 1
            if self.nodes == before:
                # it ended at a known end (a finished game, a proven value):
                # no evaluation, but it counts as one, so the budget runs out
                # even where every path is known to the end
                self.nodes += 1
            if self.nodes >= budget or self.root.proven is not None:
                return
            if stop is not None and self.iterations % STOP_EVERY == 0 and stop():
                return

    def best(self) -> tuple[Any, float]:
        """The root action to play and the chooser's value of it: a proven
        win first; else the most visited of the open actions (the one the
        search trusted most; ties by value), unless a proven draw is worth
        more than it; a proven loss only when nothing else is left."""
        seat = self.seat
        if self._further:
            # compared in common: the best of those looked at further
            action, (n, total) = max(
                self._further.items(), key=lambda item: item[1][1] / item[1][0]
            )
            return action, total / n
        open_choice: tuple[int, float, Any] | None = None
        settled: tuple[float, Any] | None = None
        for action, kid in zip(self.root.actions, self.root.kids, strict=True):
            proven = kid.proven
            if proven is None:
                key = (kid.visits, kid.total[seat] / kid.visits, action)
                if open_choice is None or key[:2] > open_choice[:2]:
                    open_choice = key
            elif proven[seat] >= 1.0:
                return action, 1.0
            elif settled is None or proven[seat] > settled[0]:
                settled = (proven[seat], action)
        if open_choice is not None and (settled is None or open_choice[1] >= settled[0]):
            return open_choice[2], open_choice[1]
        assert settled is not None, "the search expanded the root"
        return settled[1], settled[0]

    # -- perfect information: one tree of positions ---------------------------
    def _iterate(self) -> None:
        node = self.root
        path = [node]
        c = self.exploration
        while node.kids and node.proven is None:
            actor = node.actor
            if actor is CHANCE:
                x = self.rng.random() * node.cumulative[-1]
                for i, edge in enumerate(node.cumulative):
                    if x < edge:
                        node = node.kids[i]
                        break
            else:
                log_n = math.log(node.visits)
                top = -1.0
                pick = node.kids[0]
                for kid in node.kids:
                    proven = kid.proven
                    if proven is not None:
                        score = proven[actor]
                    else:
                        n = kid.visits
                        score = kid.total[actor] / n + c * math.sqrt(log_n / n)
                    if score > top:
                        top = score
                        pick = kid
                node = pick
            path.append(node)
        if node.proven is not None:
            value = node.proven
            newly = False
        else:
            value = self._expand(node)
            newly = node.proven is not None
        for visited in path:
            visited.visits += 1
            total = visited.total
            for i, v in enumerate(value):
                total[i] += v
        if newly:
            self._prove(path)

    def _child(self, state: Any) -> Node:
        engine = self.engine
        actor = engine.actor(state)
        if actor is None:
            value = terminal_values(self.players, engine.outcome(state).winner)
            node = Node(state, None, value)
            node.proven = value
            return node
        return Node(state, actor, self.evaluate(state))

    def _expand(self, node: Node) -> tuple[float, ...]:
        """Make every child of ``node``; its value is the best of them for
        its actor (the weighted mean at chance)."""
        engine = self.engine
        apply = engine.apply_unchecked
        state = node.state
        actor = node.actor
        if actor is CHANCE:
            outcomes = engine.chance_outcomes(state)
            edge = 0
            mean = [0.0] * self.players
            for action, weight in outcomes:
                kid = self._child(apply(state, action))
                node.actions.append(action)
                node.kids.append(kid)
                edge += weight
                node.cumulative.append(edge)
                for i, v in enumerate(kid.total):
                    mean[i] += weight * v
            self.nodes += len(outcomes)
            result = tuple(v / edge for v in mean)
            node.unproven = sum(1 for kid in node.kids if kid.proven is None)
            if not node.unproven:
                node.proven = result
            return result
        narrowed = False
        if node is self.root:
            actions = self.root_actions
        else:
            actions, narrowed = self._actions(state)
        best: Node | None = None
        for action in shuffled(actions, self.rng):
            kid = self._child(apply(state, action))
            node.actions.append(action)
            node.kids.append(kid)
            proven = kid.proven
            if proven is None:
                node.unproven += 1
            elif proven[actor] >= 1.0:
                node.proven = proven
            if best is None or kid.total[actor] > best.total[actor]:
                best = kid
        self.nodes += len(actions)
        if narrowed:
            # an action it was not given might save the position: never
            # proven from these alone
            node.unproven += 1
        assert best is not None, "a player to act has a legal action"
        if node.proven is not None:
            return node.proven
        if not node.unproven:
            node.proven = best.proven
        return tuple(best.total)

    def _prove(self, path: list[Node]) -> None:
        """The last node of ``path`` has just been proven: prove the
        ancestors it decides (a win for the player to act there, or the last
        of their children to be proven)."""
        for i in range(len(path) - 2, -1, -1):
            parent, kid = path[i], path[i + 1]
            proven = kid.proven
            assert proven is not None
            actor = parent.actor
            if actor is not CHANCE and proven[actor] >= 1.0:
                parent.proven = proven
                continue
            parent.unproven -= 1
            if parent.unproven:
                return
            if actor is CHANCE:
                mean = [0.0] * self.players
                last = 0
                for other, edge in zip(parent.kids, parent.cumulative, strict=True):
                    assert other.proven is not None
                    for seat, v in enumerate(other.proven):
                        mean[seat] += (edge - last) * v
                    last = edge
                parent.proven = tuple(v / last for v in mean)
            else:
                parent.proven = max(parent.kids, key=lambda k: k.mean(actor)).proven

    # -- secrets: one tree of information sets, a fresh draw each iteration -------
    def _iterate_sampled(self) -> None:
        engine = self.engine
        apply = engine.apply_unchecked
        state = engine.determinize(self.root_state, self.seat, self.rng)
        node = self.root
        path = [node]
        c = self.exploration
        value: Sequence[float]
        while True:
            actor = engine.actor(state)
            if actor is None:
                value = terminal_values(self.players, engine.outcome(state).winner)
                break
            if actor is CHANCE:
                action = draw(engine.chance_outcomes(state), self.rng)
                state = apply(state, action)
                kid = node.table.get(action)
                if kid is None:
                    value = self._evaluate(state)
                    kid = Node(None, None, (0.0,) * self.players)
                    kid.visits = 0
                    self._adopt(node, action, kid)
                    self.nodes += 1
                    path.append(kid)
                    break
                node = kid
                path.append(node)
                continue
            legal = self.root_actions if node is self.root else self._actions(state)[0]
            known = node.table
            missing = [a for a in legal if a not in known]
            if missing:
                best: Sequence[float] | None = None
                for action in shuffled(missing, self.rng):
                    child_value = self._evaluate(apply(state, action))
                    self._adopt(node, action, Node(None, None, child_value))
                    if best is None or child_value[actor] > best[actor]:
                        best = child_value
                self.nodes += len(missing)
                for action in legal:
                    known[action].offered += 1
                for action in legal:
                    kid = known[action]
                    assert best is not None
                    if kid.total[actor] / kid.visits > best[actor]:
                        best = [t / kid.visits for t in kid.total]
                assert best is not None
                value = best
                break
            top = -1.0
            choice = legal[0]
            for action in legal:
                kid = known[action]
                kid.offered += 1
                n = kid.visits
                score = kid.total[actor] / n + c * math.sqrt(math.log(kid.offered) / n)
                if score > top:
                    top = score
                    choice = action
            state = apply(state, choice)
            node = known[choice]
            path.append(node)
        for visited in path:
            visited.visits += 1
            total = visited.total
            for i, v in enumerate(value):
                total[i] += v

    def _iterate_in_common(self) -> None:
        """The first iteration draws the secrets once and evaluates every
        root action under that draw; each one after looks one of them, the
        likeliest first, one action further under the same draw (the best
        the chooser can make of its next action, where it acts again), so
        that the actions are compared by themselves, not by the luck of
        their draws (:attr:`Playing.compares_in_common`). Once every one
        was looked at further, a fresh draw, and so on."""
        engine = self.engine
        apply = engine.apply_unchecked
        root = self.root
        seat = self.seat
        if self._common is None or self._next >= len(self._order):
            self._common = engine.determinize(self.root_state, seat, self.rng)
            self._next = 0
            if not root.actions:
                for action in self.root_actions:
                    value = self._evaluate(apply(self._common, action))
                    self._adopt(root, action, Node(None, None, value))
                self.nodes += len(self.root_actions)
                self._order = sorted(self.root_actions, key=lambda a: -root.table[a].total[seat])
                return
        action = self._order[self._next]
        self._next += 1
        after = apply(self._common, action)
        if engine.actor(after) == seat:
            further, _ = self._actions(after)
            best: tuple[float, ...] | None = None
            for then in further:
                value = self._evaluate(apply(after, then))
                if best is None or value[seat] > best[seat]:
                    best = value
            self.nodes += len(further)
            assert best is not None, "a player to act has a legal action"
        else:
            best = self._evaluate(after)
        got = self._further.setdefault(action, [0, 0.0])
        got[0] += 1
        got[1] += best[seat]

    def _actions(self, state: Any) -> tuple[list[Any], bool]:
        """The actions weighed in ``state`` (:meth:`Playing.considered`, else
        every legal one), and whether they were narrowed."""
        narrow = self.engine.considered(state)
        if narrow is not None:
            return list(narrow), True
        return list(self.engine.legal_actions(state)), False

    @staticmethod
    def _adopt(node: Node, action: Any, kid: Node) -> None:
        node.actions.append(action)
        node.kids.append(kid)
        node.table[action] = kid

    def _evaluate(self, state: Any) -> tuple[float, ...]:
        engine = self.engine
        if engine.actor(state) is None:
            return terminal_values(self.players, engine.outcome(state).winner)
        return self.evaluate(state)
