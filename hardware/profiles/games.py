"""The sites and piece codes of the games that have an engine.

A profile for one of these games must describe exactly these sites, with these
kinds, and its ``codes`` table may only name these pieces. Profiles for the games
still to come (:data:`PLANNED`) are checked for consistency only; any other game
name is refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True, slots=True)
class GameLayout:
    """What a game's engine expects of a board."""

    #: site name -> kind
    sites: Mapping[str, str]
    #: the kinds whose sites must have a sensor that reports presence or a code
    sensed_kinds: frozenset[str]
    #: every piece code the engine uses
    pieces: frozenset[str]


def _shiftago() -> GameLayout:
    sites: dict[str, str] = {}
    for row in range(1, 8):
        for col in "abcdefg":
            sites[f"{col}{row}"] = "cell"
    for n in range(1, 8):
        sites[f"W{n}"] = "track"
        sites[f"E{n}"] = "track"
    for col in "abcdefg":
        sites[f"S{col}"] = "track"
        sites[f"N{col}"] = "track"
    return GameLayout(
        MappingProxyType(sites), frozenset({"cell"}), frozenset({"p0", "p1", "p2", "p3"})
    )


#: the cells of each DuploLine row, from the bottom
DUPLOLINE_ROWS: Mapping[str, range] = MappingProxyType(
    {
        "a": range(1, 5),
        "b": range(1, 6),
        "c": range(1, 7),
        "d": range(1, 8),
        "e": range(2, 8),
        "f": range(3, 8),
        "g": range(4, 8),
    }
)


def _duploline() -> GameLayout:
    sites = {f"{row}{n}": "cell" for row, cols in DUPLOLINE_ROWS.items() for n in cols}
    return GameLayout(
        MappingProxyType(sites),
        frozenset({"cell"}),
        frozenset(
            [f"{c}-{kind}" for c in ("white", "black") for kind in ("disc", "ring")]
            + [f"{d}-disc+{r}-ring" for d in ("white", "black") for r in ("white", "black")]
        ),
    )


#: game name -> layout, for the games that have an engine
LAYOUTS: Mapping[str, GameLayout] = MappingProxyType(
    {"shiftago": _shiftago(), "duploline": _duploline()}
)

#: the games whose boards the profile format describes before they have an engine
#: (docs/boards.md, "The games still to come")
PLANNED: tuple[str, ...] = ("beeline", "linie1", "bidiline")


def known_games() -> list[str]:
    """Every game a profile may name: those with an engine, then the planned ones."""
    from boardctl.engines import GAMES

    return sorted(GAMES) + [g for g in PLANNED if g not in GAMES]
