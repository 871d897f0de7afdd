"""The rules of a game: its states, its legal actions, who acts and how it ends.

This is what a referee needs and nothing more: a search that looks ahead, the
controller's phases (whose turn, is the game over), :class:`~.match.Match`
playing and undoing actions, and the reconciler's search for the actions a
board shows all read it. It knows nothing of a physical board, of notation or
of what the room is shown.

Terms:

* **actor**: who acts next: a player (a 0-based seat), :data:`CHANCE` (a die
  roll, a draw from a stack: the engine lists the outcomes with their weights,
  and whoever runs the game picks one and plays it as an ordinary action, so a
  record replays exactly), or nobody once the game is over.
* **outcome**: playing, won by a player, or drawn (:class:`Outcome`).
"""

from __future__ import annotations

import abc
import enum
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from boardctl.errors import IllegalMove
from boardctl.message import M_


class Status(enum.Enum):
    """Where a game stands."""

    PLAYING = "playing"
    WON = "won"
    DRAW = "draw"


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a game so far: still playing, won by a player, or drawn."""

    status: Status
    winner: int | None = None
    reason: str = ""

    @property
    def over(self) -> bool:
        return self.status is not Status.PLAYING


PLAYING = Outcome(Status.PLAYING)


class Chance(enum.Enum):
    """The actor of a chance event: nobody's hand, a die or a shuffled stack."""

    CHANCE = "chance"

    def __repr__(self) -> str:
        return "CHANCE"


#: :meth:`Rules.actor` of a state where chance acts next
CHANCE = Chance.CHANCE

#: who acts next: a seat, chance, or nobody (the game is over)
Actor = int | Chance | None

S = TypeVar("S")
A = TypeVar("A")


class Rules(abc.ABC, Generic[S, A]):
    """The rules of one game: states, legal actions, turns, chance and outcome."""

    @abc.abstractmethod
    def initial(self) -> S:
        """The state before the first action."""

    @abc.abstractmethod
    def legal_actions(self, state: S) -> Iterator[A]:
        """The legal actions of the player to act, generated lazily.

        Empty when the game is over.
        """

    def is_legal(self, state: S, action: A) -> bool:
        """Whether ``action`` may be applied to ``state``."""
        return self.why_illegal(state, action) is None

    @abc.abstractmethod
    def why_illegal(self, state: S, action: A) -> str | None:
        """``None`` for a legal action, else a sentence that says why not."""

    def apply(self, state: S, action: A) -> S:
        """The state after ``action``; raises :class:`IllegalMove` saying why
        when the rules forbid it."""
        reason = self.why_illegal(state, action)
        if reason is not None:
            raise IllegalMove(
                M_("{action}: {reason}", action=self.format_action(action), reason=reason)
            )
        return self.apply_unchecked(state, action)

    @abc.abstractmethod
    def apply_unchecked(self, state: S, action: A) -> S:
        """The state after a legal ``action``, without checking it (fast path
        for playouts over ``legal_actions``)."""

    @abc.abstractmethod
    def to_move(self, state: S) -> int | None:
        """The player whose turn it is (0-based seat), or ``None`` when over.

        While chance acts on a player's behalf (their draw, their die roll)
        this is that player; :meth:`actor` tells who acts."""

    def actor(self, state: S) -> Actor:
        """Who acts next: a seat, :data:`CHANCE`, or ``None`` when over."""
        return self.to_move(state)

    def chance_outcomes(self, state: S) -> tuple[tuple[A, int], ...]:
        """When :meth:`actor` is :data:`CHANCE`: every outcome as ``(action,
        weight)``, weights positive integers (a die's faces: weight 1 each, or
        2 for a face printed twice). Empty otherwise."""
        return ()

    @abc.abstractmethod
    def expects(self, state: S) -> str:
        """The kind of action expected next (``"insert"``, ``"score"``, ...);
        ``"nothing"`` when the game is over."""

    @abc.abstractmethod
    def outcome(self, state: S) -> Outcome:
        """Playing, won (by whom) or drawn."""

    def scores(self, state: S) -> tuple[int, ...] | None:
        """Each player's points, for games that keep a score; else ``None``."""
        return None

    if TYPE_CHECKING:
        # of another concern, used by a default above (see boardctl.engines.base)
        @abc.abstractmethod
        def format_action(self, action: A) -> str: ...
