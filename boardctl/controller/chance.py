"""Chance: outcomes of a die or a draw, played as ordinary recorded actions.

When :meth:`~boardctl.engines.rules.Rules.actor` is ``CHANCE`` the controller
plays one of the engine's outcomes. It draws none itself (the core holds no
random source): it is handed a :class:`ChanceSource`, which the daemon backs
with a seeded random generator whose seed is stored with the game. Without a
source the outcome comes from an operator (``boardctl roll TEXT``) or from the
board. An outcome the room may not know (a card dealt face down) no person can
give: with an operator's chance, the source still draws those (:func:`secret`).
Pure.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from boardctl.engines import CHANCE, Engine
from boardctl.engines.rules import Rules


class ChanceSource(Protocol):
    """Draws chance's outcomes for the controller."""

    def new_seed(self) -> int:
        """A seed for a new game (stored with it, so a resumed game draws the same)."""
        ...

    def draw(self, seed: int, ply: int, weights: Sequence[int]) -> int:
        """The index of the outcome drawn for action number ``ply`` (0 first)
        of the game seeded ``seed``, each outcome as likely as its weight.
        The same arguments always give the same answer."""
        ...


def outcome_action(
    engine: Engine[Any, Any], state: Any, source: ChanceSource, seed: int, ply: int
) -> Any:
    """The outcome ``source`` draws in ``state``, where chance acts."""
    outcomes = engine.chance_outcomes(state)
    if not outcomes:
        raise ValueError(f"{engine.name}: chance acts but the engine lists no outcome")
    index = source.draw(seed, ply, [weight for _, weight in outcomes])
    return outcomes[index][0]


def chance_acts(engine: Rules[Any, Any], state: Any) -> bool:
    return engine.actor(state) is CHANCE


def secret(engine: Engine[Any, Any], state: Any) -> bool:
    """Whether chance acts in ``state`` with outcomes the room may not know
    (their public text hides them: ``deal:L?``), so that no person can name
    the one to play."""
    return chance_acts(engine, state) and any(
        engine.public_action(state, a) != engine.format_action(a)
        for a, _ in engine.chance_outcomes(state)
    )


def undo_depth(
    engine: Rules[Any, Any], states: Sequence[Any], *, drawn: Callable[[Any], bool]
) -> int:
    """How many actions an operator's undo takes back: the last one, and
    before it every outcome the controller ``drawn`` in its state (they
    would only be drawn again). 0 when there is nothing an undo may take
    back."""
    for depth, before in enumerate(reversed(states[:-1]), start=1):
        if not (chance_acts(engine, before) and drawn(before)):
            return depth
    return 0
