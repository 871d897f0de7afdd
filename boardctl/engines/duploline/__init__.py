"""DuploLine: a two-player line game with discs and rings on a hexagonal board.

``DuploLine`` is the engine; ``Add`` and ``Move`` its actions, ``State`` its
positions and ``Options`` its rule options. The board geometry lives in
:mod:`boardctl.engines.duploline.board`.
"""

from __future__ import annotations

from boardctl.engines.duploline.engine import DuploLine
from boardctl.engines.duploline.values import Action, Add, Kind, Move, Options, Phase, State

#: the plug-in's engine
ENGINE = DuploLine

__all__ = ["ENGINE", "Action", "Add", "DuploLine", "Kind", "Move", "Options", "Phase", "State"]
