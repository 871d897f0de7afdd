"""The game checks of a profile: its board against what the game's engine declares.

A profile for a game with an engine must describe exactly the sites of
``create(game, options).board()``, each with its kind, give every site of a
sensed kind a sensor, and its ``codes`` table may only name the game's pieces.
Display sites (LEDs only: a die's face) are the exception: a board may leave
them out (it then shows less, and a note says so), and one it has needs an LED
and no sensor.
Nothing here names a game: the engines say it all; a game without an engine is
refused.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from boardctl.board import Reports, Site
from boardctl.config import blamed
from boardctl.engines import GAMES, create, engine_class
from boardctl.errors import BoardctlError, ConfigError, excerpt
from hardware.profiles.report import Report

log = logging.getLogger(__name__)

#: the player counts tried when collecting the pieces of every seat
_SEATS = range(1, 9)


@dataclass(frozen=True, slots=True)
class GameLayout:
    """What a game's engine expects of a board."""

    #: site name -> kind
    sites: Mapping[str, str]
    #: the kinds whose sites must have a sensor that reports presence or a code
    sensed_kinds: frozenset[str]
    #: every piece code the board's sensors may report for this game
    pieces: frozenset[str]
    #: the most players the game seats (its players option at its largest)
    seats: int = 0


def known_games() -> list[str]:
    """Every game a profile may name: those with an engine."""
    return sorted(GAMES)


def game_layout(game: str, options: Mapping[str, Any] | None = None) -> GameLayout:
    """What ``game`` with ``options`` asks of a board, read from its engine.

    The pieces are those of every seat the game allows, not only of the
    options' number of players: one board serves games of any size.
    Raises :class:`~boardctl.errors.BadOptions` for options the engine refuses
    and :class:`~boardctl.errors.UnknownGame` for a game without an engine.
    """
    opts = dict(options or {})
    engine = create(game, opts)
    spec = engine.board()
    pieces = set(engine.piece_codes())
    seats = engine.players
    fields = {f.name for f in dataclasses.fields(engine_class(game).Options)}
    if "players" in fields:
        for players in _SEATS:
            if players == engine.players:
                continue
            try:
                pieces |= create(game, {**opts, "players": players}).piece_codes()
            except BoardctlError:
                continue
            seats = max(seats, players)
    return GameLayout(spec.site_kinds, spec.sensed_kinds, frozenset(pieces), seats)


def check_game(
    r: Report,
    game: str,
    options: Mapping[str, Any],
    sites: list[Site],
    codes: dict[int, str],
    palette: list[str] | tuple[str, ...] = (),
    origin: Mapping[int, tuple[str, str]] | None = None,
) -> None:
    """The profile's game, its options, its codes, its sites and its palette
    against the engine; ``origin`` tells where each code is written (a key of
    ``[codes]`` or a field of ``[codes.fields]``)."""
    if not game:
        return
    if game not in known_games():
        r.problem(
            "board", "game", f"unknown game {game!r}", f"the games are {', '.join(known_games())}"
        )
        return
    try:
        layout = game_layout(game, options)
    except BoardctlError as exc:
        key = blamed(str(exc), list(options))
        r.problem(
            "board.options", key or "", str(exc),
            "fix or remove the option (docs/engines.md lists each game's options)",
        )  # fmt: skip
        return
    wrong = sorted((value, code) for value, code in codes.items() if code not in layout.pieces)
    written = [(v, c) for v, c in wrong if (origin or {}).get(v, ("codes",))[0] == "codes"]
    made = [(v, c) for v, c in wrong if (origin or {}).get(v, ("codes",))[0] != "codes"]
    for value, code in written[:SHOWN_PIECES]:
        r.problem("codes", str(value), f"{excerpt(code)} is not a {game} piece",
                  _pieces_hint(layout.pieces))  # fmt: skip
    if len(written) > SHOWN_PIECES:
        r.problem(
            "codes", "", f"{len(written) - SHOWN_PIECES} more codes are not {game} pieces",
            "name only the game's pieces (docs/boards.md describes each game's codes)",
        )  # fmt: skip
    if made:
        value, code = made[0]
        more = f" and {len(made) - 1} more codes they make are" if len(made) > 1 else " is"
        r.problem(
            "codes", "fields", f"{value} ({excerpt(code)}){more} not {game} pieces",
            "describe only the game's pieces: fewer values, a lower several, or needs "
            "(docs/boards.md describes each game's codes)",
        )  # fmt: skip
    if len(palette) > layout.seats:
        r.problem(
            "board", "palette", f"{len(palette)} colours, and {game} seats at most "
            f"{layout.seats} players", f"give one colour per seat, at most {layout.seats}",
        )  # fmt: skip
    _check_palette(r, palette)
    _check_sites(r, game, layout, sites)


def _check_palette(r: Report, palette: Sequence[str]) -> None:
    """No player may be lit in a colour like the mistakes' or the restore hints'."""
    from boardctl.controller.scenes import parse_colour, signal_clash

    for n, colour in enumerate(palette):
        try:
            why = signal_clash(parse_colour(colour))
        except ConfigError:
            continue  # its form is refused where it is read
        if why is not None:
            r.problem(
                "board", "palette", f"colour {n + 1}: {why}",
                "choose a colour nearer the pieces' that is neither magenta nor cyan",
            )  # fmt: skip


#: the most piece codes a refusal lists (Linie 1 has thousands)
SHOWN_PIECES = 12


def _pieces_hint(pieces: frozenset[str]) -> str:
    names = sorted(pieces)
    if len(names) <= SHOWN_PIECES:
        return f"the pieces are {', '.join(names)}"
    shown = ", ".join(names[:SHOWN_PIECES])
    return (
        f"the pieces are {shown} and {len(names) - SHOWN_PIECES} more "
        "(docs/boards.md describes each game's codes)"
    )


def _check_sites(r: Report, game: str, layout: GameLayout, sites: list[Site]) -> None:
    present = {s.name: s for s in sites}
    missing = [n for n, k in layout.sites.items() if n not in present and k != "display"]
    unshown = [n for n, k in layout.sites.items() if n not in present and k == "display"]
    if unshown:
        log.info(
            "%s: no LEDs for the %s display sites %s: the board will not show what they show",
            r.source, game, ", ".join(unshown),
        )  # fmt: skip
    if missing:
        shown = ", ".join(missing[:8]) + (" ..." if len(missing) > 8 else "")
        r.problem(
            "sites", "", f"{game} needs {len(missing)} more sites: {shown}",
            "describe every site of the game",
        )  # fmt: skip
    for s in sites:
        kind = layout.sites.get(s.name)
        if kind is None:
            r.problem(
                "sites", s.name, f"{game} has no site {s.name!r}",
                f"name sites as the {game} engine does (see docs/boards.md)",
            )  # fmt: skip
        elif kind != s.kind:
            r.problem("sites", s.name, f"kind is {s.kind!r}", f'a {game} {s.name} is "{kind}"')
        elif kind == "display":
            _check_display(r, s)
        elif kind in layout.sensed_kinds and s.reports not in (Reports.PRESENCE, Reports.CODE):
            r.problem(
                "sites", s.name, f"a {kind} needs a sensor that reports presence or a code",
                'add channel = N and reports = "presence" or "code"',
            )  # fmt: skip


def _check_display(r: Report, s: Site) -> None:
    """A display shows with LEDs and senses nothing."""
    if not s.leds:
        r.problem(
            "sites", s.name, "is a display but has no LED", "add leds = [N], or leave the site out",
        )  # fmt: skip
    if s.channel is not None or s.reports is not Reports.NONE:
        r.problem(
            "sites", s.name, "is a display (LEDs only) but has a sensor",
            "remove channel and reports",
        )  # fmt: skip
