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
from types import MappingProxyType

from boardctl.board import BoardProfile, Reports
from boardctl.errors import BadNotation
from boardctl.sim import hands
from boardctl.sim.hands import PULSE, Change, HandCommand

#: the players' marbles and pieces by the names people use
PLAYER_NAMES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        # the colour sensors of the Shiftago reference board classify these marbles
        "shiftago": ("blue", "red", "yellow", "green"),
        "duploline": ("white", "black"),
    }
)

#: every piece code a hand can hold, by game (DuploLine's locked pairs follow from these)
_SINGLE_PIECES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "shiftago": ("p0", "p1", "p2", "p3"),
        "duploline": ("white-disc", "black-disc", "white-ring", "black-ring"),
    }
)

#: the verbs that move pieces
HAND_VERBS = ("insert", "place", "lift", "move", "remove")


@dataclass(frozen=True, slots=True)
class Write:
    """One sensor reading changed on the simulated board."""

    channel: int
    value: int


def game_pieces(game: str) -> tuple[str, ...]:
    """Every piece code that can lie on one site of ``game``'s board."""
    singles = _SINGLE_PIECES.get(game, ())
    if game != "duploline":
        return singles
    discs = [p for p in singles if p.endswith("-disc")]
    rings = [p for p in singles if p.endswith("-ring")]
    return singles + tuple(f"{d}+{r}" for d in discs for r in rings)


def piece_value(profile: BoardProfile, site: str, piece: str | None) -> int:
    """What ``site``'s sensor reads with ``piece`` on it (0: nothing)."""
    if piece is None:
        return 0
    reports = profile.site(site).reports
    if reports is Reports.CODE:
        for value, code in profile.codes.items():
            if code == piece:
                return value
        raise BadNotation(f"the sensors of {profile.name} cannot tell a {piece!r}")
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


def parse_piece(game: str, word: str, mover: int | None) -> str:
    """A piece as a person names it: ``p1``/``red`` (Shiftago), ``white-disc``."""
    w = word.lower()
    names = PLAYER_NAMES.get(game, ())
    if game == "shiftago":
        if w in names:
            return f"p{names.index(w)}"
        if w in _SINGLE_PIECES["shiftago"]:
            return w
        raise BadNotation(
            f"{word!r} is not a marble: write p0..p3 or {', '.join(names)}"
            + (f" (the mover's is {names[mover]})" if mover is not None else "")
        )
    pieces = game_pieces(game)
    if w in pieces:
        return w
    raise BadNotation(f"{word!r} is not a {game} piece: write one of {', '.join(pieces[:4])}")


def _cell(profile: BoardProfile, name: str) -> str:
    for site in profile.sites:
        if site.name == name and site.kind != "track":
            return name
    raise BadNotation(f"{profile.name} has no cell {name!r}")


def plan(
    profile: BoardProfile,
    command: HandCommand,
    layout: Mapping[str, str],
    mover: int | None,
) -> list[Change]:
    """What the hands do for ``command`` on ``layout``, as site changes in order.

    ``mover`` is the player to act: ``insert W3`` pushes in their marble.
    """
    game = profile.game
    verb, args = command.verb, command.args
    if verb == "insert":
        if game != "shiftago":
            raise BadNotation("insert pushes a Shiftago marble in; on this board use place")
        if len(args) not in (1, 2):
            raise BadNotation("write insert TRACK [COLOUR], e.g. insert W3 or insert W3 red")
        if len(args) == 2:
            piece = parse_piece(game, args[1], mover)
        elif mover is None:
            raise BadNotation("nobody is to move: name the marble, e.g. insert W3 red")
        else:
            piece = f"p{mover}"
        return hands.insert(layout, args[0], piece)
    if verb == "place":
        if len(args) != 2:
            example = "place d4 red" if game == "shiftago" else "place d4 white-disc"
            raise BadNotation(f"write place CELL PIECE, e.g. {example}")
        return hands.place(layout, _cell(profile, args[0]), parse_piece(game, args[1], mover))
    if verb == "lift":
        if len(args) not in (1, 2):
            raise BadNotation("write lift CELL [disc|ring], e.g. lift d4")
        part = args[1].lower() if len(args) == 2 else None
        if part not in (None, "disc", "ring"):
            raise BadNotation(f"lift {args[0]} {args[1]}: the part is disc or ring")
        return hands.lift(layout, _cell(profile, args[0]), part)
    if verb == "move":
        if len(args) != 2:
            raise BadNotation("write move FROM TO, e.g. move d4 e4")
        return hands.move(layout, _cell(profile, args[0]), _cell(profile, args[1]))
    if verb == "remove":
        if not args:
            raise BadNotation("write remove CELL..., e.g. remove b1 c1 d1")
        changes: list[Change] = []
        current = dict(layout)
        for name in args:
            step = hands.lift(current, _cell(profile, name))
            current = hands.apply_changes(current, step)
            changes.extend(step)
        return changes
    raise BadNotation(f"unknown hand {verb!r}; the hands can {', '.join(HAND_VERBS)}")


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
