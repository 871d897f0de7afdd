"""Scripted games for ``boardctl sim --demo``: whole games with human mistakes.

Each game's script is its own: an engine package may have a module ``demo``
whose ``demo()`` returns a :class:`~boardctl.engines.describe.Demo` (hand
command lines with a narration line each, the options, what the controller
must say after each step, and the winner), built from the rules and checked
move by move. This module finds it by import (``boardctl.engines.<game>.demo``)
and turns it into the steps the console plays. Pure: nothing here runs a board.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from boardctl.engines import GAMES
from boardctl.engines.describe import Demo
from boardctl.errors import BoardctlError

#: what the controller's phase is once the board is right and a move is awaited
STEADY = frozenset({"awaiting_move", "choosing", "game_over"})


class ScriptError(BoardctlError, ValueError):
    """A demo script that the rules do not allow (the script is wrong, not the board)."""


@dataclass(frozen=True, slots=True)
class Expect:
    """What the controller must say after a step: the number of actions in the
    game (``None``: any) and one of ``phases``."""

    moves: int | None
    phases: frozenset[str] = STEADY

    def met(self, status: Mapping[str, Any]) -> bool:
        if status.get("phase") not in self.phases:
            return False
        return self.moves is None or len(status.get("moves", [])) == self.moves


@dataclass(frozen=True, slots=True)
class Step:
    """One thing the hands do, what the narrator says, and what must follow."""

    say: str
    command: str
    expect: Expect


@dataclass(frozen=True, slots=True)
class Script:
    """A demo game: the game and options to start, the steps, and the result."""

    game: str
    options: Mapping[str, Any]
    steps: tuple[Step, ...]
    winner: int
    moves: tuple[str, ...] = field(default=())
    #: who gives chance's outcomes: "random" (the daemon draws) or "operator"
    #: (the script's ``roll`` steps)
    chance: str = "random"

    @property
    def settings(self) -> tuple[str, ...]:
        """The configuration the simulated daemon must run the script with."""
        return (f'controller.chance="{self.chance}"',)


def demo_games() -> tuple[str, ...]:
    """The games whose engine package has a demo, without importing them."""
    return tuple(g for g in GAMES if importlib.util.find_spec(f"boardctl.engines.{g}.demo"))


def script(game: str) -> Script:
    """The demo of ``game``; :class:`ScriptError` naming the demos if it has none."""
    if game not in demo_games():
        raise ScriptError(f"there is no demo of {game!r}; the demos are {', '.join(demo_games())}")
    module = importlib.import_module(f"boardctl.engines.{game}.demo")
    try:
        made: Demo = module.demo()
    except BoardctlError as exc:
        raise ScriptError(f"the demo script of {game} is not legal: {exc}") from exc
    steps = tuple(Step(s.say, s.command, Expect(s.moves, s.phases or STEADY)) for s in made.steps)
    if made.chance not in ("random", "operator"):
        raise ScriptError(
            f'the demo script of {game} gives chance {made.chance!r}: use "random" or "operator"'
        )
    return Script(game, dict(made.options), steps, made.winner, made.moves, made.chance)
