"""What a player's hands do to a physical board, as a sequence of site changes.

The simulated board is driven by what people do, not by moves: ``insert W3``
pushes a marble into a Shiftago track (the run ahead of it slides along),
``place d4 white-disc`` puts a piece down, ``lift d4`` picks one up, ``move d4
e4`` carries a DuploLine piece into the neighbouring cell. Each command becomes
the changes the board's sensors would see, in the order they happen, including
the moments in between (a marble passing the track's light gate, a run of
marbles sliding one by one). Pure: nothing here touches a sensor.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import dataclass

from boardctl.errors import BadNotation

#: a track's light gate fires as a marble passes it
PULSE = "pulse"


@dataclass(frozen=True, slots=True)
class Change:
    """One site's new content (``None``: empty), or a light-gate ``pulse``."""

    site: str
    piece: str | None


@dataclass(frozen=True, slots=True)
class HandCommand:
    """A parsed command line: the verb and its words."""

    verb: str
    args: tuple[str, ...]

    @classmethod
    def parse(cls, text: str) -> HandCommand:
        try:
            words = shlex.split(text)
        except ValueError as exc:
            raise BadNotation(f"cannot read {text!r}: {exc}") from None
        if not words:
            raise BadNotation("type a command, e.g. 'insert W3' or 'place d4 white-disc'")
        return cls(words[0].lower(), tuple(words[1:]))


COLUMNS = "abcdefg"


def track_cells(track: str) -> tuple[str, ...]:
    """The cells of a Shiftago track in the order a marble pushed in travels."""
    if len(track) != 2:
        raise BadNotation(f"{track!r} is not a track: W1..W7, E1..E7, Sa..Sg or Na..Ng")
    edge, where = track[0].upper(), track[1].lower()
    if edge in "WE" and where in "1234567":
        cells = tuple(f"{c}{where}" for c in COLUMNS)
        return cells if edge == "W" else cells[::-1]
    if edge in "SN" and where in COLUMNS:
        cells = tuple(f"{where}{r}" for r in "1234567")
        return cells if edge == "S" else cells[::-1]
    raise BadNotation(f"{track!r} is not a track: W1..W7, E1..E7, Sa..Sg or Na..Ng")


def canonical_track(track: str) -> str:
    track_cells(track)
    edge, where = track[0].upper(), track[1]
    return edge + (where if edge in "WE" else where.lower())


def insert(layout: Mapping[str, str], track: str, piece: str) -> list[Change]:
    """Push a marble into ``track``: the gate pulses, the run ahead slides on.

    A full track does not take a marble: the hand cannot push it in.
    """
    cells = track_cells(track)
    try:
        gap = next(i for i, cell in enumerate(cells) if cell not in layout)
    except StopIteration:
        raise BadNotation(
            f"track {canonical_track(track)} is full: the marble will not go in"
        ) from None
    changes = [Change(canonical_track(track), PULSE)]
    # the run slides: the marble at the front moves first, into the gap
    for i in range(gap, 0, -1):
        changes.append(Change(cells[i], layout[cells[i - 1]]))
    changes.append(Change(cells[0], piece))
    return changes


def place(layout: Mapping[str, str], site: str, piece: str) -> list[Change]:
    """Put ``piece`` on ``site``; in DuploLine a disc and a ring may share a cell."""
    here = layout.get(site)
    return [Change(site, piece if here is None else combine(here, piece))]


def lift(layout: Mapping[str, str], site: str, part: str | None = None) -> list[Change]:
    """Pick up what is on ``site`` (or only its ``disc`` or ``ring``)."""
    here = layout.get(site)
    if here is None:
        raise BadNotation(f"there is nothing on {site} to lift")
    if part is None:
        return [Change(site, None)]
    kept = [p for p in here.split("+") if not p.endswith("-" + part)]
    if len(kept) == len(here.split("+")):
        raise BadNotation(f"there is no {part} on {site} to lift")
    return [Change(site, "+".join(kept) or None)]


def move(layout: Mapping[str, str], source: str, target: str) -> list[Change]:
    """Carry the lone piece on ``source`` to ``target`` (a DuploLine move)."""
    here = layout.get(source)
    if here is None:
        raise BadNotation(f"there is nothing on {source} to move")
    if "+" in here:
        raise BadNotation(f"the disc and ring on {source} are locked together")
    return [Change(source, None), *place(layout, target, here)]


def combine(a: str, b: str) -> str:
    """Two DuploLine pieces in one cell, written disc first."""
    parts = sorted(a.split("+") + b.split("+"), key=lambda p: not p.endswith("-disc"))
    return "+".join(parts)


def apply_changes(layout: Mapping[str, str], changes: list[Change]) -> dict[str, str]:
    """The layout after ``changes`` (pulses leave no trace)."""
    out = dict(layout)
    for change in changes:
        if change.piece == PULSE:
            continue
        if change.piece is None:
            out.pop(change.site, None)
        else:
            out[change.site] = change.piece
    return out
