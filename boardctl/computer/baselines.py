"""Two plain players to measure the computer against (the ladder, tests).

Neither is a level: :func:`random_action` plays any legal action, and
:func:`greedy_action` the one whose position the game's evaluation likes
best for the mover, looking no further. They read the state whole, secrets
included: fine for a yardstick, not for an opponent.
"""

from __future__ import annotations

from typing import Any

from boardctl.computer.search import draw
from boardctl.engines import CHANCE, Engine
from boardctl.engines.playing import Rng, terminal_values


def random_action(engine: Engine[Any, Any], state: Any, rng: Rng) -> Any:
    """A legal action drawn uniformly (chance: an outcome drawn by its weight)."""
    if engine.actor(state) is CHANCE:
        return draw(engine.chance_outcomes(state), rng)
    actions = list(engine.legal_actions(state))
    return actions[rng.randrange(len(actions))]


def greedy_action(engine: Engine[Any, Any], state: Any, rng: Rng) -> Any:
    """The legal action after which ``evaluate`` gives the mover the most,
    ties broken by ``rng`` (chance: an outcome drawn by its weight)."""
    actor = engine.actor(state)
    if actor is CHANCE:
        return draw(engine.chance_outcomes(state), rng)
    assert isinstance(actor, int), "greedy_action needs a player to act"
    best: list[Any] = []
    top = -1.0
    for action in engine.legal_actions(state):
        after = engine.apply_unchecked(state, action)
        if engine.actor(after) is None:
            value = terminal_values(engine.players, engine.outcome(after).winner)[actor]
        else:
            value = engine.evaluate(after)[actor]
        if value > top + 1e-12:
            top, best = value, [action]
        elif value >= top - 1e-12:
            best.append(action)
    return best[rng.randrange(len(best))]
