"""Shiftago actions and their notation: ``W3``, ``Sd``, ``x:a1-e1``, ``x:a1-d1/d1``."""

from __future__ import annotations

import re
from dataclasses import dataclass

from boardctl.engines.shiftago.geometry import CELL_INDEX, CELL_NAMES, TRACK_INDEX, TRACK_NAMES
from boardctl.errors import BadNotation, excerpt
from boardctl.message import M_


@dataclass(frozen=True, slots=True)
class Insert:
    """Insert a marble on a track (0..27: W1..W7, E1..E7, Sa..Sg, Na..Ng)."""

    track: int

    def __str__(self) -> str:
        return TRACK_NAMES[self.track]

    @classmethod
    def from_str(cls, text: str) -> Insert:
        action = parse_action(text)
        if not isinstance(action, Insert):
            raise BadNotation(
                M_("{text} is a scoring choice, not an insertion", text=excerpt(text))
            )
        return action


@dataclass(frozen=True, slots=True)
class Score:
    """Score the line from cell ``first`` to cell ``last`` (bit numbers, stored in
    canonical order, lower first); ``keep`` is the end marble that stays, named
    with 3-4 players only."""

    first: int
    last: int
    keep: int | None = None

    def __post_init__(self) -> None:
        if self.first > self.last:
            first, last = self.last, self.first
            object.__setattr__(self, "first", first)
            object.__setattr__(self, "last", last)

    def __str__(self) -> str:
        text = f"x:{CELL_NAMES[self.first]}-{CELL_NAMES[self.last]}"
        return text if self.keep is None else f"{text}/{CELL_NAMES[self.keep]}"

    @classmethod
    def from_str(cls, text: str) -> Score:
        action = parse_action(text)
        if not isinstance(action, Score):
            raise BadNotation(
                M_("{text} is an insertion, not a scoring choice", text=excerpt(text))
            )
        return action


Action = Insert | Score

_CELL_RE = "([a-g][1-7])"
_SCORE_RE = re.compile(rf"x:{_CELL_RE}-{_CELL_RE}(?:/{_CELL_RE})?")
_NOTATION_HELP = M_(
    "write a track (W1..W7, E1..E7, Sa..Sg, Na..Ng) or a scoring line"
    " (x:a1-e1, with 3-4 players x:a1-e1/e1)"
)


def _not_an_action(text: object) -> BadNotation:
    return BadNotation(
        M_("{text} is not a Shiftago action: {help}", text=excerpt(text), help=_NOTATION_HELP)
    )


def parse_action(text: str) -> Action:
    """Read ``W3``, ``Sd``, ``x:a1-e1`` or ``x:a1-d1/d1``; :class:`BadNotation`
    for anything else."""
    if not isinstance(text, str):
        raise _not_an_action(text)
    s = text.strip()
    track = TRACK_INDEX.get(s)
    if track is not None:
        return Insert(track)
    m = _SCORE_RE.fullmatch(s)
    if m is None:
        raise _not_an_action(text)
    a, b, keep = m.groups()
    if a == b:
        raise BadNotation(M_("{text}: a line needs two different end cells", text=excerpt(text)))
    return Score(CELL_INDEX[a], CELL_INDEX[b], None if keep is None else CELL_INDEX[keep])
