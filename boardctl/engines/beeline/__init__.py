"""Beeline: two players race a line of MARKS and NODES to each other's start.

``Beeline`` is the engine; ``Mark``, ``Node`` and ``Replace`` its actions,
``State`` its positions and ``Options`` its rule options. The board is a
layout picture in :mod:`boardctl.engines.beeline.layouts`, read by
:mod:`boardctl.engines.beeline.board`. Rules, notation and options:
docs/engine-beeline.md.
"""

from __future__ import annotations

from boardctl.engines.beeline.engine import Beeline
from boardctl.engines.beeline.values import Action, End, Kind, Mark, Node, Options, Replace, State

#: the plug-in's engine
ENGINE = Beeline

__all__ = [
    "ENGINE",
    "Action",
    "Beeline",
    "End",
    "Kind",
    "Mark",
    "Node",
    "Options",
    "Replace",
    "State",
]
