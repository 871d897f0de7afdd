"""The Bidirectional Line Game: two players grow one line from both ends on a grid.

Rules: seed 002 (Leroy Quet, 2010) and the rule notes; every option and the
points the seed leaves open are in ``docs/engine-bidiline.md``.

Points are named like chess squares, ``a1`` at the bottom left (see
:mod:`boardctl.engines.bidiline.grid`). A move, :class:`Extend`, is written
``A:c3-c4``: the colour of the end that is extended, then the segment from
the point that end is at to the next point. Piece codes in
:meth:`BidiLine.layout`: ``"A"`` and ``"B"``, an amber or a blue stick on a
segment (site ``"c3-c4"``, the lower point first). :meth:`BidiLine.expects`
answers ``"first-segment"``, ``"second-segment"``, ``"extend"`` or
``"nothing"``.
"""

from __future__ import annotations

from boardctl.engines.bidiline.engine import BidiLine
from boardctl.engines.bidiline.grid import Grid
from boardctl.engines.bidiline.values import Action, Colour, End, Extend, Options, State

#: the plug-in's engine
ENGINE = BidiLine

__all__ = ["ENGINE", "Action", "BidiLine", "Colour", "End", "Extend", "Grid", "Options", "State"]
