"""A game in progress: an engine, the actions played and the states they led to."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Generic, TypeVar

from boardctl.engines.base import Engine, Outcome
from boardctl.errors import IllegalMove, excerpt
from boardctl.message import M_, said

S = TypeVar("S")
A = TypeVar("A")


class Match(Generic[S, A]):
    """The history of one game, with ``play`` and ``undo``.

    Like python-chess's move stack: ``states[i]`` is the state before action
    ``i``, and ``state`` is the current one. Undo pops the last action and
    restores the exact earlier state.
    """

    def __init__(self, engine: Engine[S, A], start: S | None = None) -> None:
        self.engine = engine
        self.states: list[S] = [engine.initial() if start is None else start]
        self.actions: list[A] = []

    @property
    def state(self) -> S:
        return self.states[-1]

    def play(self, action: A) -> S:
        """Apply a legal action; :class:`IllegalMove` (state unchanged) if not."""
        new = self.engine.apply(self.state, action)
        self.states.append(new)
        self.actions.append(action)
        return new

    def play_text(self, text: str) -> S:
        """Apply an action written in the game's notation."""
        return self.play(self.engine.parse_action(text))

    def undo(self) -> A:
        """Take back the last action and return it."""
        if not self.actions:
            raise IllegalMove("nothing to undo: no action has been played")
        self.states.pop()
        return self.actions.pop()

    def legal_actions(self) -> Iterator[A]:
        return self.engine.legal_actions(self.state)

    def outcome(self) -> Outcome:
        return self.engine.outcome(self.state)

    def to_move(self) -> int | None:
        return self.engine.to_move(self.state)

    def expects(self) -> str:
        return self.engine.expects(self.state)

    def scores(self) -> tuple[int, ...] | None:
        return self.engine.scores(self.state)

    def moves_text(self) -> list[str]:
        return [self.engine.format_action(a) for a in self.actions]

    def summary(self) -> dict[str, Any]:
        """The JSON summary that ``boardctl rules replay --json`` prints."""
        outcome = self.outcome()
        scores = self.scores()
        return {
            "game": self.engine.name,
            "options": self.engine.options_json(),
            "status": outcome.status.value,
            "winner": outcome.winner,
            "reason": outcome.reason,
            "to_move": self.to_move(),
            "expects": self.expects(),
            "task": self.engine.task(self.state),
            "scores": list(scores) if scores is not None else None,
            "moves_applied": len(self.actions),
        }

    @classmethod
    def from_moves(cls, engine: Engine[S, A], moves: Sequence[str]) -> Match[S, A]:
        """Replay moves written in notation; raises :class:`ReplayError` at
        the first bad one."""
        match = cls(engine)
        for number, text in enumerate(moves, start=1):
            try:
                match.play_text(text)
            except ValueError as exc:
                raise ReplayError(number, text, said(exc), match) from exc
        return match


class ReplayError(IllegalMove):
    """A move of a record that cannot be played, with its 1-based number."""

    def __init__(self, number: int, move: str, reason: str, match: Match[Any, Any]) -> None:
        super().__init__(
            M_("move {number} ({move}): {reason}", number=number, move=excerpt(move), reason=reason)
        )
        self.number = number
        self.move = move
        self.reason = reason
        self.match = match
