"""Boards and hands for the controller's tests: a board profile for any engine,
with one sensor and one LED per site, and helpers that play like hands do."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from boardctl.board import BoardProfile, LedChain, Reports, Site
from boardctl.engines.base import Engine

SHIFTAGO_CODES = {1: "p0", 2: "p1", 3: "p2", 4: "p3"}
DUPLOLINE_CODES = {
    1: "white-disc",
    2: "black-disc",
    3: "white-ring",
    4: "black-ring",
    5: "white-disc+white-ring",
    6: "white-disc+black-ring",
    7: "black-disc+white-ring",
    8: "black-disc+black-ring",
}


def is_track(name: str) -> bool:
    return name[0] in "WESN" and name[0].isupper()


def profile_for(
    engine: Engine[Any, Any],
    *,
    presence: bool = False,
    options: Mapping[str, Any] | None = None,
) -> BoardProfile:
    """A board for ``engine``: site ``i`` has channel ``i`` and LED ``i``;
    Shiftago tracks are light gates; cells read colours unless ``presence``."""
    sites = []
    for i, name in enumerate(engine.sites()):
        track = engine.name == "shiftago" and is_track(name)
        reports = Reports.PULSE if track else Reports.PRESENCE if presence else Reports.CODE
        sites.append(
            Site(name, "track" if track else "cell", i, reports, (i,), x=float(i % 9), y=i // 9)
        )
    codes = SHIFTAGO_CODES if engine.name == "shiftago" else DUPLOLINE_CODES
    return BoardProfile(
        name=f"test-{engine.name}{'-presence' if presence else ''}",
        game=engine.name,
        game_options=MappingProxyType(dict(options or {})),
        sites=tuple(sites),
        codes=MappingProxyType(codes),
        leds=LedChain(count=len(sites)),
    )


def readings(profile: BoardProfile, layout: Mapping[str, str]) -> tuple[int, ...]:
    """The raw readings a board shows for an engine layout."""
    back = {piece: value for value, piece in profile.codes.items()}
    values = [0] * profile.channel_count
    for site in profile.sites:
        piece = layout.get(site.name)
        if piece is None or site.channel is None or site.reports is Reports.PULSE:
            continue
        values[site.channel] = back[piece] if site.reports is Reports.CODE else 1
    return tuple(values)
