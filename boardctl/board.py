"""The model of a physical board: its sites, their sensors and their LEDs.

A board profile (a TOML file in ``hardware/profiles/``, loaded by
``hardware.profiles``) becomes a :class:`BoardProfile`. This module is pure:
it only holds the description and answers two questions the controller asks,
``sensed_piece`` (what does this raw reading mean?) and ``project`` (what would
this board's sensor report for the piece the engine expects here?).

Piece codes are the engine's own (``"p0"`` for a Shiftago marble of player 0,
``"white-disc+black-ring"`` in DuploLine, ...). A presence-only sensor cannot
tell pieces apart, so for it every piece projects to :data:`OCCUPIED`.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from boardctl.message import M_, Mn_

#: the piece code of a presence-only sensor that sees something
OCCUPIED = "occupied"


class Reports(enum.Enum):
    """What a site's sensor reports."""

    #: 0 empty, anything else occupied
    PRESENCE = "presence"
    #: a number that the profile's ``codes`` table turns into a piece code
    CODE = "code"
    #: a light gate that pulses as a piece passes (a Shiftago track)
    PULSE = "pulse"
    #: no sensor: the site only has LEDs
    NONE = "none"


#: the control buttons a board may have: a new game, undo, the next variant,
#: and choose (steps through options; with ``[controller] chance = "button"``
#: it also draws chance's outcome, a die rolled at a press)
BUTTONS = ("new", "undo", "mode", "choose")


@dataclass(frozen=True, slots=True)
class Site:
    """A named place on the board: a cell, a track, an edge, a point, a terminal."""

    name: str
    kind: str
    #: the sensor channel that reads it, or None when it has none
    channel: int | None
    reports: Reports
    #: indexes into the LED chain of the LEDs that belong to this site
    leds: tuple[int, ...] = ()
    #: position on the board, in cell units, x east and y north (for drawing)
    x: float = 0.0
    y: float = 0.0


@dataclass(frozen=True, slots=True)
class LedChain:
    """The addressable LED chain and how it is driven."""

    count: int
    #: "ws281x", "spi", "serial" or "sim"
    backend: str = "sim"
    #: "GRB", "RGB", ... the order the LEDs expect their bytes in
    order: str = "GRB"
    #: 0.0 .. 1.0
    brightness: float = 0.5
    gamma: float = 2.2
    #: the supply's budget for the chain, and one LED's draw at full white
    max_milliamps: int = 2000
    milliamps_per_led: int = 60
    #: backend-specific settings (pin, dma, spi bus, ...)
    settings: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True, slots=True)
class BoardProfile:
    """A physical board: what game it plays, its sites, sensors and LEDs."""

    name: str
    game: str
    game_options: Mapping[str, Any]
    sites: tuple[Site, ...]
    #: raw sensor value -> piece code, for sites that report CODE
    codes: Mapping[int, str]
    leds: LedChain
    #: how the sensors are read: "serial", "gpio" or "shift-register"
    sensing: str = "serial"
    sensing_settings: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    #: control buttons: name ("new", "undo", "mode", "choose") -> GPIO pin
    buttons: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    #: where the profile was read from, for messages
    source: str = ""
    #: the players' LED colours as "#rrggbb" where they are not the colours of
    #: the pieces the engine declares (an LED cannot glow black); empty: the
    #: pieces' colours
    palette: tuple[str, ...] = ()
    #: what people are told about the palette ("black is lit a cold white: an
    #: LED cannot glow black")
    palette_note: str = ""

    def __post_init__(self) -> None:
        by_name = {s.name: s for s in self.sites}
        by_channel = {s.channel: s for s in self.sites if s.channel is not None}
        object.__setattr__(self, "_by_name", MappingProxyType(by_name))
        object.__setattr__(self, "_by_channel", MappingProxyType(by_channel))
        cells = tuple(
            (s.name, s.channel, s.reports is Reports.CODE)
            for s in self.sites
            if s.channel is not None and s.reports not in (Reports.PULSE, Reports.NONE)
        )
        object.__setattr__(self, "_cells", cells)
        # what project() answers for a piece on each site a sensor watches:
        # the piece's code as it is (True), or OCCUPIED (False)
        reads = {
            s.name: s.reports is Reports.CODE
            for s in self.sites
            if s.channel is not None and s.reports is not Reports.NONE
        }
        object.__setattr__(self, "_reads", MappingProxyType(reads))
        object.__setattr__(self, "reads_as_is", frozenset(n for n, as_is in reads.items() if as_is))

    # dataclass(slots=True) with __post_init__ caches: declared here for mypy
    _by_name: Mapping[str, Site] = field(init=False, repr=False, compare=False)
    _by_channel: Mapping[int, Site] = field(init=False, repr=False, compare=False)
    #: the sites a snapshot's layout is read from: (name, channel, reports a code)
    _cells: tuple[tuple[str, int, bool], ...] = field(init=False, repr=False, compare=False)
    #: the sensed sites a piece shows on: name -> the piece's code read as it is
    _reads: Mapping[str, bool] = field(init=False, repr=False, compare=False)
    #: the sensed sites whose sensor reads a piece's code as it is (:meth:`project`
    #: answers the piece itself there)
    reads_as_is: frozenset[str] = field(init=False, repr=False, compare=False)

    @property
    def channel_count(self) -> int:
        """One more than the highest channel any site uses."""
        return max((s.channel for s in self.sites if s.channel is not None), default=-1) + 1

    def site(self, name: str) -> Site:
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"{self.name}: no site {name!r}") from None

    def site_of_channel(self, channel: int) -> Site | None:
        return self._by_channel.get(channel)

    def sensed_piece(self, site: str, value: int) -> str | None:
        """What a raw reading on ``site`` means: a piece code, :data:`OCCUPIED`,
        or ``None`` for nothing there. An unknown code reads as ``"?<value>"``
        so that it never matches a legal layout."""
        if value == 0:
            return None
        reports = self._by_name[site].reports
        if reports is Reports.CODE:
            return self.codes.get(value, f"?{value}")
        return OCCUPIED

    def project(self, site: str, piece: str | None) -> str | None:
        """What this board's sensor on ``site`` reports for the engine's ``piece``."""
        if piece is None:
            return None
        reports = self._by_name[site].reports
        if reports is Reports.CODE:
            return piece
        if reports is Reports.NONE:
            return None
        return OCCUPIED

    def sensed_layout(self, values: tuple[int, ...]) -> dict[str, str]:
        """The pieces a full snapshot of readings shows, by site (cells only:
        pulse sites are events, not layout)."""
        layout: dict[str, str] = {}
        n = len(values)
        codes = self.codes
        for name, channel, code in self._cells:
            if channel < n:
                value = values[channel]
                if value:  # as sensed_piece reads it, without looking the site up
                    layout[name] = codes.get(value, f"?{value}") if code else OCCUPIED
        return layout

    def projected_layout(self, layout: Mapping[str, str]) -> dict[str, str]:
        """The engine's layout as this board's sensors would report it (each
        site as :meth:`project` says, without a call a site: the whole
        layout of every new position is projected)."""
        reads = self._reads
        out: dict[str, str] = {}
        for name, piece in layout.items():
            as_is = reads.get(name)
            if as_is is not None and piece is not None:
                out[name] = piece if as_is else OCCUPIED
        return out


def unfit(profile: BoardProfile, sites: Mapping[str, str]) -> str | None:
    """Why a game whose board has ``sites`` (name -> kind, as its engine
    declares them) cannot be played on ``profile``; None when it can. The
    board must have every site the game has, of the same kind, and no sensed
    site the game does not know; display sites (LEDs only) are optional."""
    have = {s.name: s for s in profile.sites}
    missing = [n for n, k in sites.items() if n not in have and k != "display"]
    if missing:
        return Mn_(
            "that game needs {n} site this board ({board}) lacks: {sites}",
            "that game needs {n} sites this board ({board}) lacks: {sites}",
            len(missing),
            board=profile.name,
            sites=_few(missing),
        )
    extra = [s.name for s in profile.sites if s.name not in sites]
    if extra:
        return Mn_(
            "this board ({board}) has {n} site that game does not: {sites}",
            "this board ({board}) has {n} sites that game does not: {sites}",
            len(extra),
            board=profile.name,
            sites=_few(extra),
        )
    for name, kind in sites.items():
        site = have.get(name)
        if site is not None and site.kind != kind:
            return M_(
                "{site} is a {kind} in that game but a {other} on this board",
                site=name,
                kind=kind,
                other=site.kind,
            )
    return None


def _few(names: list[str], shown: int = 6) -> str:
    """The first few of ``names``, and how many more."""
    more = len(names) - shown
    listed = ", ".join(names[:shown])
    return M_("{names} and {more} more", names=listed, more=more) if more > 0 else listed
