"""The die's face on the board: seven pip LEDs beside it, lit by the face rolled.

The pips sit as on a die, three columns and three rows with the middle row
holding three: ``die-tl`` ``die-tr`` (top), ``die-ml`` ``die-c`` ``die-mr``
(middle), ``die-bl`` ``die-br`` (bottom). Faces 1 to 6 light as a die shows
them; H lights all seven (the two columns and the middle bar make an H). The
digits 7 to 9 that option ``die`` also allows light the face of 1, 2 or 3 with
the two side pips of the middle row added (``die-ml``, ``die-mr`` without
``die-tr`` and ``die-bl`` mean "six more"): ten faces, ten different patterns.
Pure data.
"""

from __future__ import annotations

from types import MappingProxyType

#: each pip's name and its place on the face (column, row from the top), 0..2
PIPS: tuple[tuple[str, int, int], ...] = (
    ("die-tl", 0, 0),
    ("die-tr", 2, 0),
    ("die-ml", 0, 1),
    ("die-c", 1, 1),
    ("die-mr", 2, 1),
    ("die-bl", 0, 2),
    ("die-br", 2, 2),
)
#: the pips' distance apart, in cell units
PITCH = 0.5

_CORNERS = ("die-tl", "die-tr", "die-bl", "die-br")
_SIX_MORE = ("die-ml", "die-mr")
_LOW = {
    1: ("die-c",),
    2: ("die-tl", "die-br"),
    3: ("die-tl", "die-c", "die-br"),
    4: _CORNERS,
    5: (*_CORNERS, "die-c"),
    6: (*_CORNERS, *_SIX_MORE),
}

#: the pips each face lights, by its value in the state (1..9, 10 for H)
FACES: MappingProxyType[int, frozenset[str]] = MappingProxyType(
    {
        **{n: frozenset(pips) for n, pips in _LOW.items()},
        **{n: frozenset((*_LOW[n - 6], *_SIX_MORE)) for n in (7, 8, 9)},
        10: frozenset(name for name, _, _ in PIPS),
    }
)
