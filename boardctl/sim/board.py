"""The simulated board's physical model: pieces, what hands do to them, and the
channel values the board's sensors then read.

Pure: a hand command and the layout on the table become site changes
(:mod:`.hands`), and a site change becomes the writes a virtual
microcontroller receives, channel by channel, with the values of the board's
profile (its ``codes`` table for colour sensors, 1 for presence sensors, a
1-then-0 pulse for a track's light gate).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from boardctl.board import BoardProfile, Reports
from boardctl.engines import BoardSpec, create
from boardctl.errors import BadNotation
from boardctl.message import M_
from boardctl.sim import hands
from boardctl.sim.hands import PULSE, Change, HandCommand

#: the verbs that move pieces
HAND_VERBS = ("insert", "place", "lift", "move", "remove")


@dataclass(frozen=True, slots=True)
class Write:
    """One sensor reading changed on the simulated board."""

    channel: int
    value: int


def spec_of(game: str, options: Mapping[str, Any] | None = None) -> BoardSpec:
    """The board, pieces and players ``game`` declares with ``options``."""
    return create(game, options or {}).board()


def piece_word(spec: BoardSpec, code: str) -> str:
    """A piece as people type it: its owner's name where that player has one
    kind of piece (``blue`` for a Shiftago marble), else its code."""
    piece = spec.piece(code)
    owner = piece.owner if piece is not None else None
    if owner is not None and owner < len(spec.players) and spec.player_piece(owner) == piece:
        return spec.players[owner].name
    return code


def piece_value(profile: BoardProfile, site: str, piece: str | None) -> int:
    """What ``site``'s sensor reads with ``piece`` on it (0: nothing)."""
    if piece is None:
        return 0
    reports = profile.site(site).reports
    if reports is Reports.CODE:
        for value, code in profile.codes.items():
            if code == piece:
                return value
        raise BadNotation(
            M_(
                "the sensors of {board} cannot tell the piece {piece}",
                board=profile.name,
                piece=repr(piece),
            )
        )
    return 1


def writes_for(profile: BoardProfile, change: Change) -> list[Write]:
    """The sensor writes one site change makes (none on a site without a sensor)."""
    site = profile.site(change.site)
    if site.channel is None or site.reports is Reports.NONE:
        return []
    if change.piece == PULSE:
        if site.reports is not Reports.PULSE:
            return []
        return [Write(site.channel, 1), Write(site.channel, 0)]
    if site.reports is Reports.PULSE:
        return []
    return [Write(site.channel, piece_value(profile, change.site, change.piece))]


def values_of(profile: BoardProfile, layout: Mapping[str, str]) -> list[int]:
    """Every channel's reading with ``layout`` on the board."""
    values = [0] * profile.channel_count
    for name, piece in layout.items():
        for write in writes_for(profile, Change(name, piece)):
            values[write.channel] = write.value
    return values


def parse_piece(spec: BoardSpec, word: str, mover: int | None) -> str:
    """A piece as a person names it: its code, its name, or its owner's name
    where that player has one kind of piece (``p1``, ``red``, ``white-disc``)."""
    piece = spec.find_piece(word)
    if piece is not None:
        return piece.code
    words = ", ".join(piece_word(spec, p.code) for p in spec.singles())
    mine = spec.player_piece(mover) if mover is not None else None
    if mine is None:
        raise BadNotation(
            M_("{word} is not a piece of this game: write {pieces}", word=repr(word), pieces=words)
        )
    raise BadNotation(
        M_(
            "{word} is not a piece of this game: write {pieces} (the mover's is {own})",
            word=repr(word),
            pieces=words,
            own=str(piece_word(spec, mine.code)),
        )
    )


def _cell(profile: BoardProfile, name: str) -> str:
    for site in profile.sites:
        if site.name == name and site.kind == "display":
            raise BadNotation(
                M_("{name} is a display (LEDs only): nothing is put there", name=name)
            )
        if site.name == name and site.kind != "track":
            return name
    raise BadNotation(M_("{board} has no cell {name}", board=profile.name, name=repr(name)))


def plan(
    profile: BoardProfile,
    spec: BoardSpec,
    command: HandCommand,
    layout: Mapping[str, str],
    mover: int | None,
) -> list[Change]:
    """What the hands do for ``command`` on ``layout``, as site changes in order.

    ``spec`` is the game being played; ``mover`` is the player to act: ``insert
    W3`` pushes in their piece where each player has one kind.
    """
    verb, args = command.verb, command.args
    # a word to type, as the hands read it (English in every language)
    example = str(example_piece(spec))
    if verb == "insert":
        tracks = [s.name for s in spec.sites if s.kind == "track"]
        if not tracks:
            raise BadNotation(
                M_(
                    "this game has no tracks to push a piece into: write place CELL {piece}",
                    piece=example,
                )
            )
        if len(args) not in (1, 2):
            raise BadNotation(
                M_(
                    "write insert TRACK [PIECE], e.g. insert {track} or insert {track} {piece}",
                    track=tracks[0],
                    piece=example,
                )
            )
        if len(args) == 2:
            piece = parse_piece(spec, args[1], mover)
        else:
            own = spec.player_piece(mover) if mover is not None else None
            if own is None:
                raise BadNotation(
                    M_(
                        "name the piece to push in, e.g. insert {track} {piece}",
                        track=args[0],
                        piece=example,
                    )
                )
            piece = own.code
        return hands.insert(spec, layout, args[0], piece)
    if verb == "place":
        if len(args) != 2:
            raise BadNotation(M_("write place CELL PIECE, e.g. place d4 {piece}", piece=example))
        site = _cell(profile, args[0])
        return hands.place(spec, layout, site, parse_piece(spec, args[1], mover))
    if verb == "lift":
        if len(args) not in (1, 2):
            raise BadNotation(M_("write lift CELL [PART], e.g. lift d4"))
        part = args[1] if len(args) == 2 else None
        return hands.lift(spec, layout, _cell(profile, args[0]), part)
    if verb == "move":
        if len(args) != 2:
            raise BadNotation(M_("write move FROM TO, e.g. move d4 e4"))
        return hands.move(spec, layout, _cell(profile, args[0]), _cell(profile, args[1]))
    if verb == "remove":
        if not args:
            raise BadNotation(M_("write remove CELL..., e.g. remove b1 c1 d1"))
        changes: list[Change] = []
        current = dict(layout)
        for name in args:
            step = hands.lift(spec, current, _cell(profile, name))
            current = hands.apply_changes(current, step)
            changes.extend(step)
        return changes
    raise BadNotation(
        M_(
            "unknown hand {verb}; the hands can {verbs}",
            verb=repr(verb),
            verbs=", ".join(HAND_VERBS),
        )
    )


def example_piece(spec: BoardSpec) -> str:
    """A piece to show in an example: the first player's own, else the first single."""
    own = spec.player_piece(0)
    if own is not None:
        return piece_word(spec, own.code)
    singles = spec.singles()
    return singles[0].code if singles else "PIECE"


def undo_changes(layout: Mapping[str, str], changes: Sequence[Change]) -> list[Change]:
    """The changes that put ``layout`` back after ``changes`` were made on it
    (a hand taking its action back, last change first)."""
    steps: list[Change] = []
    current = dict(layout)
    before: list[str | None] = []
    for change in changes:
        before.append(current.get(change.site))
        current = hands.apply_changes(current, [change])
    for change, old in zip(reversed(changes), reversed(before), strict=True):
        if change.piece == PULSE:
            continue
        steps.append(Change(change.site, old))
    return steps
