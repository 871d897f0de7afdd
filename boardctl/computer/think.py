"""The computer's entry points: choose an action, or plan a whole turn.

Pure: no clock, no threads, no random source of its own. The caller hands in
the random source (seeded) and, to think against a clock, a ``stop``
callable; the same inputs with the same seed give the same answer.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from boardctl.computer.alphabeta import MAX_DEPTH, AlphaBeta
from boardctl.computer.levels import Level
from boardctl.computer.search import Search
from boardctl.engines import CHANCE, Engine
from boardctl.engines.playing import Playing, Rng, terminal_values
from boardctl.errors import NotThinking


@dataclass(frozen=True, slots=True)
class Thought:
    """What the computer chose and how sure it is."""

    #: the action chosen
    action: Any
    #: search iterations spent (each looks at one more position's actions)
    iterations: int
    #: the chooser's estimated value of it, in [0, 1] (1: a sure win)
    value: float


def _seat(engine: Engine[Any, Any], state: Any) -> int:
    actor = engine.actor(state)
    if actor is None:
        raise NotThinking(f"{engine.name}: the game is over, there is nothing to choose")
    if actor is CHANCE:
        raise NotThinking(
            f"{engine.name}: chance acts now (a die, a draw), not a player: "
            "draw its outcome from chance_outcomes instead"
        )
    if engine.computer_refused is not None:
        raise NotThinking(f"{engine.name}: {engine.computer_refused}")
    if engine.has_secrets and type(engine).determinize is Playing.determinize:
        raise NotThinking(
            f"{engine.name}: this game keeps secrets, but its engine cannot draw what a "
            "player does not know (determinize): the computer would see every card"
        )
    return actor


def think(
    engine: Engine[Any, Any],
    state: Any,
    level: Level,
    rng: Rng,
    *,
    exclude: Collection[Any] = (),
    stop: Callable[[], bool] | None = None,
) -> Thought:
    """The action the computer chooses for the player to act in ``state``.

    ``level`` sets how much it thinks; ``rng`` (``random.Random(seed)``)
    breaks ties between equally good actions and draws chance and secrets in
    its thoughts. ``exclude`` holds actions already suggested here ("another
    move, please"): it chooses the best of the others, or, when every legal
    action is excluded, starts again from the best. It weighs the actions
    the game considers (:meth:`Playing.considered`), then, once all of
    those were suggested, the other legal ones. With one action to choose
    from it plays it without thinking (0 iterations). ``stop``, asked every
    few iterations, cuts the thinking short (the best so far is returned).

    Raises :class:`NotThinking` where no player acts (chance, or the game is
    over) or in a game with secrets whose engine cannot ``determinize``.
    """
    seat = _seat(engine, state)
    legal = list(engine.legal_actions(state))
    narrow = engine.considered(state)
    weighed = legal if narrow is None else list(narrow)
    allowed = [a for a in weighed if a not in exclude]
    if not allowed:
        allowed = [a for a in legal if a not in exclude] or legal
    if len(allowed) == 1:
        # nothing to think about: an obvious move is played at once (its
        # value from a draw of what the chooser cannot see)
        seen = engine.determinize(state, seat, rng) if engine.has_secrets else state
        after = engine.apply_unchecked(seen, allowed[0])
        if engine.actor(after) is None:
            value = terminal_values(engine.players, engine.outcome(after).winner)[seat]
        else:
            value = level.judge(engine)(after)[seat]
        return Thought(allowed[0], 0, value)
    search: Search | AlphaBeta
    if level.alphabeta(engine) and engine.players == 2 and not engine.has_secrets:
        depth = level.reads(engine)
        search = AlphaBeta(
            engine,
            state,
            seat,
            allowed,
            rng,
            level.judge(engine),
            MAX_DEPTH if depth is None else depth,
        )
    else:
        search = Search(engine, state, seat, allowed, rng, level.exploration, level.judge(engine))
    search.run(level.budget(engine), stop)
    action, value = search.best()
    return Thought(action, search.iterations, value)


def plan_turn(
    engine: Engine[Any, Any],
    state: Any,
    level: Level,
    rng: Rng,
    *,
    exclude: Collection[Any] = (),
    stop: Callable[[], bool] | None = None,
) -> tuple[Any, ...]:
    """The computer's whole turn: the action :func:`think` chooses, then,
    while the same player is still to act (DuploLine's second action,
    Shiftago's scoring choice after an insertion), the action thought from
    the state after it. ``exclude`` applies to the first action only."""
    seat = _seat(engine, state)
    action = think(engine, state, level, rng, exclude=exclude, stop=stop).action
    actions = [action]
    state = engine.apply_unchecked(state, action)
    while engine.actor(state) == seat:
        action = think(engine, state, level, rng, stop=stop).action
        actions.append(action)
        state = engine.apply_unchecked(state, action)
    return tuple(actions)
