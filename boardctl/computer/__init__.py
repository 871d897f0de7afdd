"""The computer opponent: one search for every game, five levels.

Pure, like the engines: no I/O, no threads, no clock, no random source of
its own. The caller hands in a seeded random source and, to think against a
clock, a ``stop`` callable. docs/computer.md tells the whole story.

* :func:`think`: the action chosen for the player to act, as a
  :class:`Thought` (action, iterations spent, estimated value);
* :func:`plan_turn`: the computer's whole turn (every action until another
  player or chance acts);
* :func:`level`, :data:`LEVELS`, :class:`Level`: the levels 1 (Puppy) to 5
  (Master);
* :func:`random_action`, :func:`greedy_action`: plain yardsticks for tests
  and the ladder (``bench/opponents.py``).
"""

from __future__ import annotations

from boardctl.computer.baselines import greedy_action, random_action
from boardctl.computer.levels import LEVELS, Level, level
from boardctl.computer.think import Thought, plan_turn, think
from boardctl.engines.playing import Rng

__all__ = [
    "LEVELS",
    "Level",
    "Rng",
    "Thought",
    "greedy_action",
    "level",
    "plan_turn",
    "random_action",
    "think",
]
