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
from boardctl.message import M_, said
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
            "board",
            "game",
            M_("unknown game {game}", game=repr(game)),
            M_("the games are {games}", games=", ".join(known_games())),
        )
        return
    try:
        layout = game_layout(game, options)
    except BoardctlError as exc:
        key = blamed(str(exc), list(options))
        r.problem(
            "board.options",
            key or "",
            said(exc),
            M_("fix or remove the option (docs/engines.md lists each game's options)"),
        )
        return
    wrong = sorted((value, code) for value, code in codes.items() if code not in layout.pieces)
    written = [(v, c) for v, c in wrong if (origin or {}).get(v, ("codes",))[0] == "codes"]
    made = [(v, c) for v, c in wrong if (origin or {}).get(v, ("codes",))[0] != "codes"]
    for value, code in written[:SHOWN_PIECES]:
        r.problem(
            "codes",
            str(value),
            M_("{code} is not a {game} piece", code=excerpt(code), game=game),
            _pieces_hint(layout.pieces),
        )
    if len(written) > SHOWN_PIECES:
        r.problem(
            "codes",
            "",
            M_(
                "{count} more codes are not {game} pieces",
                count=len(written) - SHOWN_PIECES,
                game=game,
            ),
            M_("name only the game's pieces (docs/boards.md describes each game's codes)"),
        )
    if made:
        value, code = made[0]
        if len(made) > 1:
            wrong_made = M_(
                "{value} ({code}) and {count} more codes they make are not {game} pieces",
                value=value,
                code=excerpt(code),
                count=len(made) - 1,
                game=game,
            )
        else:
            wrong_made = M_(
                "{value} ({code}) is not a {game} piece", value=value, code=excerpt(code), game=game
            )
        r.problem(
            "codes", "fields", wrong_made,
            M_("describe only the game's pieces: fewer values, a lower several, or needs "
            "(docs/boards.md describes each game's codes)"),
        )  # fmt: skip
    if len(palette) > layout.seats:
        r.problem(
            "board",
            "palette",
            M_(
                "{count} colours, and {game} seats at most {seats} players",
                count=len(palette),
                game=game,
                seats=layout.seats,
            ),
            M_("give one colour per seat, at most {seats}", seats=layout.seats),
        )
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
                "board", "palette", M_("colour {number}: {why}", number=n + 1, why=why),
                M_("choose a colour nearer the pieces' that is neither magenta nor cyan"),
            )  # fmt: skip


#: the most piece codes a refusal lists (Linie 1 has thousands)
SHOWN_PIECES = 12


def _pieces_hint(pieces: frozenset[str]) -> str:
    names = sorted(pieces)
    if len(names) <= SHOWN_PIECES:
        return M_("the pieces are {pieces}", pieces=", ".join(names))
    return M_(
        "the pieces are {pieces} and {count} more (docs/boards.md describes each game's codes)",
        pieces=", ".join(names[:SHOWN_PIECES]),
        count=len(names) - SHOWN_PIECES,
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
            "sites",
            "",
            M_(
                "{game} needs {count} more sites: {shown}",
                game=game,
                count=len(missing),
                shown=shown,
            ),
            M_("describe every site of the game"),
        )
    for s in sites:
        kind = layout.sites.get(s.name)
        if kind is None:
            r.problem(
                "sites", s.name, M_("{game} has no site {name}", game=game, name=repr(s.name)),
                M_("name sites as the {game} engine does (see docs/boards.md)", game=game),
            )  # fmt: skip
        elif kind != s.kind:
            r.problem(
                "sites",
                s.name,
                M_("kind is {kind}", kind=repr(s.kind)),
                M_('a {game} {name} is "{kind}"', game=game, name=s.name, kind=kind),
            )
        elif kind == "display":
            _check_display(r, s)
        elif kind in layout.sensed_kinds and s.reports not in (Reports.PRESENCE, Reports.CODE):
            r.problem(
                "sites",
                s.name,
                M_("a {kind} needs a sensor that reports presence or a code", kind=kind),
                M_('add channel = N and reports = "presence" or "code"'),
            )


def _check_display(r: Report, s: Site) -> None:
    """A display shows with LEDs and senses nothing."""
    if not s.leds:
        r.problem(
            "sites",
            s.name,
            M_("is a display but has no LED"),
            M_("add leds = [N], or leave the site out"),
        )
    if s.channel is not None or s.reports is not Reports.NONE:
        r.problem(
            "sites",
            s.name,
            M_("is a display (LEDs only) but has a sensor"),
            M_("remove channel and reports"),
        )
