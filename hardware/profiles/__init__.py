"""Board profiles: TOML files that describe a physical board, loaded strictly.

``load_profile("shiftago-colour")`` (a name from this folder) or
``load_profile("boards/mine.toml")`` (a path) returns a
:class:`boardctl.board.BoardProfile`. Every problem in the file is collected
before anything is raised, and each one names the file, the line, the key, what
is wrong and how to fix it; :class:`~hardware.errors.ProfileError` carries them
all. ``check_profile`` returns the list instead of raising.

One module per concern: :mod:`.report` finds where a key is written and words
the problems, :mod:`.parse` reads the tables into a profile, :mod:`.electrical`
checks pins, buses, LEDs and channels, and :mod:`.games` checks the board
against what the game's engine declares. The format is described in
``docs/boards.md``.
"""

from __future__ import annotations

import logging
from pathlib import Path

from boardctl.board import BoardProfile
from boardctl.message import M_
from hardware.errors import ProfileError
from hardware.profiles.parse import Parser
from hardware.profiles.report import Report, table_header

log = logging.getLogger(__name__)

__all__ = [
    "PROFILE_DIR",
    "ProfileError",
    "builtin_profiles",
    "check_profile",
    "find_profile",
    "load_profile",
    "parse_profile",
    "reference_profile",
    "table_header",
]

#: where the reference profiles live
PROFILE_DIR = Path(__file__).resolve().parent


def builtin_profiles() -> list[str]:
    """The names of the reference profiles shipped in this folder."""
    return sorted(p.stem for p in PROFILE_DIR.glob("*.toml"))


def find_profile(name_or_path: str | Path) -> Path:
    """A profile's file: a path as given, or a name from :data:`PROFILE_DIR`."""
    path = Path(name_or_path)
    if path.suffix == ".toml" or path.exists() or len(path.parts) > 1:
        if not path.is_file():
            raise ProfileError(str(path), [M_("no such file; give a profile file or a name")])
        return path
    candidate = PROFILE_DIR / f"{name_or_path}.toml"
    if candidate.is_file():
        return candidate
    names = ", ".join(builtin_profiles())
    raise ProfileError(
        str(name_or_path), [M_("no such profile; the shipped ones are {names}", names=names)]
    )


def load_profile(name_or_path: str | Path, *, require_channels: bool = True) -> BoardProfile:
    """Read, check and build a profile; raises :class:`ProfileError` listing every problem.

    ``require_channels=False`` accepts sensed sites whose channel is not known yet
    (a new board before ``boardctl calibrate``)."""
    from boardctl.textfiles import MAX_TOML, UnreadableFile, read_text

    path = find_profile(name_or_path)
    try:
        text = read_text(path, MAX_TOML, M_("the profile"))
    except UnreadableFile as e:
        raise ProfileError(str(path), [e.of(path)]) from None
    return parse_profile(text, str(path), require_channels=require_channels)


def check_profile(name_or_path: str | Path) -> list[str]:
    """Every problem in a profile, as messages; empty when it is good."""
    try:
        load_profile(name_or_path)
    except ProfileError as e:
        return e.problems
    return []


def parse_profile(
    text: str, source: str = "<profile>", *, require_channels: bool = True
) -> BoardProfile:
    """Build a profile from TOML text; ``source`` names it in messages."""
    from boardctl.textfiles import UnreadableFile, parse_toml

    try:
        data = parse_toml(text)
    except UnreadableFile as e:
        raise ProfileError(source, [e.of(source)]) from None
    report = Report(source, text)
    profile = Parser(report, require_channels).build(data)
    if report.problems or profile is None:
        raise ProfileError(source, report.sorted_problems())
    log.debug("loaded profile %s from %s: %d sites", profile.name, source, len(profile.sites))
    return profile


def reference_profile(game: str) -> str | None:
    """The shipped profile a game is played on when none is named: the one
    named like the game, else the first by name whose ``board.game`` is it;
    None when no shipped board plays it."""
    playing = [
        name for name in builtin_profiles() if _game_of(PROFILE_DIR / f"{name}.toml") == game
    ]
    if game in playing:
        return game
    return playing[0] if playing else None


def _game_of(path: Path) -> str | None:
    """The ``board.game`` of a profile file, without checking the rest."""
    from boardctl.textfiles import UnreadableFile, read_toml

    try:
        _, data = read_toml(path)
    except (OSError, UnreadableFile):
        return None
    board = data.get("board")
    game = board.get("game") if isinstance(board, dict) else None
    return game if isinstance(game, str) else None
