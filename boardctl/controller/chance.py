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


class Draws:
    """How chance's outcomes come in a controller: drawn from ``source`` (each
    one at once, or with ``on_button`` only once the choose button was pressed:
    :meth:`ask`), or, without a source, given by an operator or the board.
    With ``by_operator`` an operator gives the outcomes a person may know (a
    die) and ``source`` draws only the secret ones (:func:`secret`)."""

    def __init__(
        self, source: ChanceSource | None, on_button: bool = False, by_operator: bool = False
    ) -> None:
        self.source = source
        self.on_button = on_button
        self.by_operator = by_operator
        #: the choose button pressed while chance acts: draw its outcomes
        self.asked = False

    def drawn(self, engine: Engine[Any, Any], state: Any) -> bool:
        """Whether chance's outcome in ``state`` is drawn here (else an
        operator or the board gives it)."""
        if self.source is None:
            return False
        return not self.by_operator or secret(engine, state)

    def mode(self, engine: Engine[Any, Any], state: Any) -> str:
        """Who gives chance's outcome in ``state``, as the status says:
        ``random`` (drawn at once), ``button`` (drawn at a press),
        ``operator`` (given by a person) or ``none`` (secret, and nothing
        here draws it)."""
        if self.drawn(engine, state):
            return "button" if self.on_button else "random"
        return "none" if secret(engine, state) else "operator"

    def refusal(self, engine: Engine[Any, Any], state: Any) -> str | None:
        """Why a person cannot give chance's outcome in ``state``: it is
        secret (a card dealt face down); None when they can."""
        if not secret(engine, state):
            return None
        if not self.drawn(engine, state):
            how = "it, and this board draws none"
        else:
            press = " at a press of the choose button" if self.on_button else ""
            how = f"it: the board draws it{press}"
        return (
            f"chance's outcome now is secret (a card dealt face down), so no person can give {how}"
        )

    def ask(self) -> None:
        """The choose button: draw chance's next outcomes once chance acts."""
        self.asked = True

    def forget(self) -> None:
        """A press no longer counts (the game went back or began anew)."""
        self.asked = False

    def next(self, engine: Engine[Any, Any], state: Any, seed: int | None, ply: int) -> Any:
        """The outcome to play now in ``state``, action number ``ply`` of the
        game seeded ``seed``; None when chance does not act, nothing is drawn
        here, or the press of the button is awaited."""
        if self.source is None or seed is None or not chance_acts(engine, state):
            return None
        if not self.drawn(engine, state):
            return None
        if self.on_button and not self.asked:
            return None
        return outcome_action(engine, state, self.source, seed, ply)

    def drew(self, engine: Engine[Any, Any], state: Any) -> None:
        """Outcomes were drawn up to ``state``: one press draws them up to
        the next player's action."""
        if not chance_acts(engine, state):
            self.asked = False
