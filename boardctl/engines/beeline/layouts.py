"""Beeline board layouts: pictures of hexagonal cells, one character a cell.

A layout is data, not code: a real board is described by adding a picture here
and naming it in the engine's ``layout`` option. Each line of a picture is one
row of cells, the northern row first; cells of a row stand two characters apart
and each row is shifted one character against its neighbours, so a cell touches
the two cells diagonally above and below it. The characters:

* ``.`` an open cell, usable by both players; ``+`` the same, marked as the
  centre of the board (for reference only);
* ``b`` a dark cell on Black's goal side: only Black may use it;
* ``r`` a dark cell on Red's goal side: only Red may use it;
* ``#`` out of bounds for both players;
* ``B`` Black's starting point, ``R`` Red's (Black plays first and seat 0).

The standard layout is a hexagon of 127 cells, seven on a side: a ring of 36
cells round it is the dark perimeter, its northern half (next to Red's start)
Black's and its southern half Red's, the two out-of-bounds cells at the east
and west corners separating them. The starting points, b4 (Black) and l10
(Red), stand just inside the dark ring, ten cells apart, each the other turned
half round the centre g7: the dark cells behind a starting point are room for
the opponent's approach to it, which only the opponent may use.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

STANDARD = """\
      b b b b b b b
     b . . . R . . b
    b . . . . . . . b
   b . . . . . . . . b
  b . . . . . . . . . b
 b . . . . . . . . . . b
# . . . . . + . . . . . #
 r . . . . . . . . . . r
  r . . . . . . . . . r
   r . . . . . . . . r
    r . . . . . . . r
     r . . B . . . r
      r r r r r r r
"""

#: layout name -> picture
LAYOUTS: Mapping[str, str] = MappingProxyType({"standard": STANDARD})
