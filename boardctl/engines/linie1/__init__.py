"""Linie 1: lay track tiles to join your terminals through your stops, then
drive the inaugural trip.

Rules: seed 001 and the Linie 1 section of the rule notes; the board, tiles,
lines and route cards are data (:mod:`boardctl.engines.linie1.data`). The
notation, options and every rule as enforced are in docs/engine-linie1.md.
"""

from __future__ import annotations

from boardctl.engines.linie1.engine import Linie1
from boardctl.engines.linie1.values import (
    Action,
    Deal,
    Draw,
    Drive,
    Lay,
    Options,
    Pass,
    Roll,
    Start,
    State,
    Take,
)

#: the plug-in's engine
ENGINE = Linie1

__all__ = [
    "ENGINE",
    "Action",
    "Deal",
    "Draw",
    "Drive",
    "Lay",
    "Linie1",
    "Options",
    "Pass",
    "Roll",
    "Start",
    "State",
    "Take",
]
