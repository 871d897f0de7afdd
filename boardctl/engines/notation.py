"""A game written down: actions, states and options as text and JSON.

Records read and write it (a record is the options and the moves in notation),
as do the command line (``boardctl rules``, ``play``, ``roll``), the store and
the logs. ``format_action(parse_action(s)) == s`` for canonical text, and
``state_from_json(state_to_json(s)) == s``.

:meth:`Notation.public_action` is the notation with any secret an action
carries left out: what the store keeps for a game not finished, what the logs
and the status print, and what a choice is offered as.
"""

from __future__ import annotations

import abc
import dataclasses
from collections.abc import Mapping
from typing import Any, Generic, TypeVar

S = TypeVar("S")
A = TypeVar("A")


class Notation(abc.ABC, Generic[S, A]):
    """A game's notation for actions, and JSON for its states and options."""

    @abc.abstractmethod
    def parse_action(self, text: str) -> A:
        """Read an action in the game's notation; :class:`BadNotation` if it
        is not one."""

    @abc.abstractmethod
    def format_action(self, action: A) -> str:
        """Write an action in the game's notation."""

    def public_action(self, state: S, action: A) -> str:
        """``action`` (played in ``state``) as every player may read it: the
        notation, with any secret it carries (a dealt card) left out."""
        return self.format_action(action)

    @abc.abstractmethod
    def state_to_json(self, state: S) -> dict[str, Any]:
        """A JSON-ready dict that ``state_from_json`` turns back into an
        equal state."""

    @abc.abstractmethod
    def state_from_json(self, data: Mapping[str, Any]) -> S:
        """The state that ``state_to_json`` wrote."""

    def options_json(self) -> dict[str, Any]:
        """The options this engine was built with, as a record stores them."""
        opts = getattr(self, "options", None)
        if opts is None or not dataclasses.is_dataclass(opts):
            return {}
        return dataclasses.asdict(opts)  # type: ignore[arg-type]
