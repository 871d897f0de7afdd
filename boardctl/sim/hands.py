"""What a player's hands do to a physical board, as a sequence of site changes.

The simulated board is driven by what people do, not by moves: ``insert W3``
pushes a piece into a track (the run ahead of it slides along the track's path
as the game declares it), ``place d4 white-disc`` puts a piece down, ``lift
d4`` picks one up, ``move d4 e4`` carries a piece into another cell. What a
piece is made of, and which pieces may share a site, is the game's
:class:`~boardctl.engines.describe.BoardSpec`. Each command becomes
the changes the board's sensors would see, in the order they happen, including
the moments in between (a marble passing the track's light gate, a run of
marbles sliding one by one). Pure: nothing here touches a sensor.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import dataclass

from boardctl.engines.describe import BoardSpec, SiteSpec
from boardctl.errors import BadNotation
from boardctl.message import M_, and_list, or_list

#: a track's light gate fires as a piece passes it
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
            raise BadNotation(
                M_("cannot read {text}: {error}", text=repr(text), error=str(exc))
            ) from None
        if not words:
            raise BadNotation(M_("type a command, e.g. 'insert W3' or 'place d4 white-disc'"))
        return cls(words[0].lower(), tuple(words[1:]))


def track(spec: BoardSpec, name: str) -> SiteSpec:
    """The track site ``name`` (its case as written or not), or :class:`BadNotation`
    listing the tracks."""
    tracks = [s for s in spec.sites if s.kind == "track"]
    found = [s for s in tracks if s.name == name] or [
        s for s in tracks if s.name.lower() == name.lower()
    ]
    if len(found) == 1 and found[0].path:
        return found[0]
    if not tracks:
        raise BadNotation(
            M_("{name} is not a track: this board has none; use place", name=repr(name))
        )
    shown = ", ".join(s.name for s in tracks[:8]) + (" ..." if len(tracks) > 8 else "")
    raise BadNotation(
        M_("{name} is not a track: the tracks are {tracks}", name=repr(name), tracks=shown)
    )


def insert(spec: BoardSpec, layout: Mapping[str, str], name: str, piece: str) -> list[Change]:
    """Push ``piece`` into the track ``name``: the gate pulses, the run ahead
    slides on along the track's path.

    A full track does not take a piece: the hand cannot push it in.
    """
    site = track(spec, name)
    cells = site.path
    try:
        gap = next(i for i, cell in enumerate(cells) if cell not in layout)
    except StopIteration:
        raise BadNotation(
            M_("track {track} is full: the piece will not go in", track=site.name)
        ) from None
    changes = [Change(site.name, PULSE)]
    # the run slides: the piece at the front moves first, into the gap
    for i in range(gap, 0, -1):
        changes.append(Change(cells[i], layout[cells[i - 1]]))
    changes.append(Change(cells[0], piece))
    return changes


def singles(spec: BoardSpec, code: str) -> tuple[str, ...]:
    """The single pieces ``code`` is made of (itself when it is single)."""
    piece = spec.piece(code)
    return piece.parts if piece is not None and piece.parts else (code,)


def combine(spec: BoardSpec, a: str, b: str) -> str:
    """The piece the game makes of ``a`` and ``b`` in one site (a disc in a
    ring), or :class:`BadNotation` when the game has no such piece."""
    wanted = sorted(singles(spec, a) + singles(spec, b))
    for piece in spec.pieces:
        if piece.parts and sorted(piece.parts) == wanted:
            return piece.code
    raise BadNotation(
        M_(
            "a {first} and a {second} cannot share a site",
            first=_name(spec, a),
            second=_name(spec, b),
        )
    )


def place(spec: BoardSpec, layout: Mapping[str, str], site: str, piece: str) -> list[Change]:
    """Put ``piece`` on ``site``; where the game has pieces made of parts (a
    DuploLine disc in a ring), onto the part already there."""
    here = layout.get(site)
    return [Change(site, piece if here is None else combine(spec, here, piece))]


def lift(
    spec: BoardSpec, layout: Mapping[str, str], site: str, part: str | None = None
) -> list[Change]:
    """Pick up what is on ``site``, or only one ``part`` of it: a part's code,
    its name or a word of its name (``white-ring``, ``ring``)."""
    here = layout.get(site)
    if here is None:
        raise BadNotation(M_("there is nothing on {site} to lift", site=site))
    if part is None:
        return [Change(site, None)]
    parts = singles(spec, here)
    w = part.lower()
    found = [p for p in parts if w in _words(spec, p)]
    if len(found) != 1 or len(parts) < 2:
        names = or_list([_name(spec, p) for p in parts])
        what = (
            M_("the parts on {site} are {names}", site=site, names=names)
            if len(parts) > 1
            else M_("{site} holds {names}", site=site, names=names)
        )
        if not found:
            raise BadNotation(
                M_("there is no {part} on {site} to lift: {what}", part=part, site=site, what=what)
            )
        if len(found) > 1:
            raise BadNotation(
                M_("lift {site} {part}: which one? {what}", site=site, part=part, what=what)
            )
        return [Change(site, None)]
    kept = [p for p in parts if p != found[0]]
    rest = kept[0] if len(kept) == 1 else _compose(spec, kept)
    return [Change(site, rest)]


def move(spec: BoardSpec, layout: Mapping[str, str], source: str, target: str) -> list[Change]:
    """Carry the lone piece on ``source`` to ``target`` (a DuploLine move)."""
    here = layout.get(source)
    if here is None:
        raise BadNotation(M_("there is nothing on {site} to move", site=source))
    if len(singles(spec, here)) > 1:
        raise BadNotation(
            M_(
                "the pieces on {site} ({names}) are locked together",
                site=source,
                names=_name(spec, here),
            )
        )
    return [Change(source, None), *place(spec, layout, target, here)]


def _compose(spec: BoardSpec, parts: list[str]) -> str:
    for piece in spec.pieces:
        if piece.parts and sorted(piece.parts) == sorted(parts):
            return piece.code
    raise BadNotation(
        M_("{pieces} cannot share a site", pieces=and_list([_name(spec, p) for p in parts]))
    )


def _words(spec: BoardSpec, code: str) -> set[str]:
    """What a person may type to name the part ``code``: its code, its name and
    each word of it, as written and in the reader's language (``Scheibe``: the
    refusals list the parts by their translated names)."""
    from boardctl.i18n import translate

    words = {code.lower()}
    for name in {_name(spec, code), translate(_name(spec, code))}:
        words |= {name.lower(), *name.lower().split()}
    return words


def _name(spec: BoardSpec, code: str) -> str:
    piece = spec.piece(code)
    return piece.name if piece is not None else code


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
