"""Shiftago: push marbles into a 7 x 7 board and make lines of your colour.

Rules: seed 004 (the Expert variant) and the Shiftago section of the rule notes.
Every option, its default and the reasoning behind it is in ``docs/engines.md``.

Coordinates: cells ``a1``..``g7``, ``a1`` at the south-west corner, columns
``a``..``g`` west to east, rows ``1``..``7`` south to north. Inside, cell ``a1``
is bit 0, ``b1`` bit 1, ... ``g7`` bit 48 (row by row from the south, west to
east in a row); a player's marbles are one 49-bit int.

Actions (the notation in brackets):

* :class:`Insert` (``W3``, ``E3``, ``Sd``, ``Nd``): a marble enters at the west,
  east, south or north edge of that row or column and pushes the run of marbles
  starting at the edge one cell along. A track without an empty cell is full.
* :class:`Score` (``x:a1-e1``; with 3-4 players ``x:a1-e1/e1`` names the end
  marble that stays), Expert only: the line the mover scores. The canonical
  text writes first the end with the lower cell number (the southern end, or
  the western end of a row); the parser accepts both orders.

Piece codes in :meth:`Shiftago.layout`: ``"p0"``..``"p3"``, a marble of that
player. Tracks are sites (they have LEDs and, on some boards, a light gate)
but are never occupied. :meth:`Shiftago.expects` answers ``"insert"``,
``"score"`` or ``"nothing"``.
"""

from boardctl.engines.shiftago.actions import Action, Insert, Score, parse_action
from boardctl.engines.shiftago.engine import (
    MARBLES,
    Shiftago,
    ShiftagoOptions,
    ShiftagoState,
)
from boardctl.engines.shiftago.geometry import CELL_NAMES, CELLS, TRACK_NAMES

#: the plug-in's engine
ENGINE = Shiftago

__all__ = [
    "CELLS",
    "CELL_NAMES",
    "ENGINE",
    "MARBLES",
    "TRACK_NAMES",
    "Action",
    "Insert",
    "Score",
    "Shiftago",
    "ShiftagoOptions",
    "ShiftagoState",
    "parse_action",
]
