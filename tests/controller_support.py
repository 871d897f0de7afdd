"""Boards and hands for the controller's tests: a board profile for any engine,
with one sensor and one LED per site, and helpers that play like hands do."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from boardctl.board import BoardProfile, LedChain, Reports, Site
from boardctl.engines.base import Engine
from boardctl.engines.describe import BoardSpec, SiteSpec


def codes_for(spec: BoardSpec) -> dict[int, str]:
    """The game's pieces numbered 1..N, as a colour sensor would tell them."""
    return {n: piece.code for n, piece in enumerate(spec.pieces, start=1)}


def is_track(spec: BoardSpec, name: str) -> bool:
    """Whether ``name`` is a track of the game: its light gate pulses."""
    return spec.has_site(name) and spec.site(name).kind == "track"


def through_track(engine: Engine[Any, Any], state: Any, action: Any) -> SiteSpec | None:
    """The track ``action`` pushes a piece in through, if it goes through one."""
    spec = engine.board()
    for name in sorted(engine.touches(state, action)):
        if is_track(spec, name) and spec.site(name).path:
            return spec.site(name)
    return None


def profile_for(
    engine: Engine[Any, Any],
    *,
    presence: bool = False,
    options: Mapping[str, Any] | None = None,
) -> BoardProfile:
    """A board for ``engine``: site ``i`` has channel ``i`` and LED ``i``;
    tracks are light gates; displays have their LED only; other sites read
    colours unless ``presence``."""
    spec = engine.board()
    sites = []
    for i, site in enumerate(spec.sites):
        if site.kind == "display":  # LEDs only, as on a real board
            sites.append(
                Site(site.name, site.kind, None, Reports.NONE, (i,), x=float(i % 9), y=i // 9)
            )
            continue
        track = site.kind == "track"
        reports = Reports.PULSE if track else Reports.PRESENCE if presence else Reports.CODE
        sites.append(Site(site.name, site.kind, i, reports, (i,), x=float(i % 9), y=i // 9))
    codes = codes_for(spec)
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


class Table:
    """A board on a table with hands over it: what the hands do becomes the
    sensor events a controller is fed, at times the test controls."""

    def __init__(self, controller: Any, step: float = 0.02) -> None:
        from boardctl.sensing import LinkUp, SensorSnapshot

        self.controller = controller
        self.profile: BoardProfile = controller.profile
        self.layout: dict[str, str] = {}
        self.now = 0.0
        self.step = step
        controller.start(self.now)
        controller.feed(LinkUp("test table"), self.now)
        controller.feed(SensorSnapshot(readings(self.profile, self.layout)), self.now)

    def _value(self, site: str, piece: str | None) -> int:
        if piece is None:
            return 0
        if self.profile.site(site).reports is Reports.CODE:
            return {p: v for v, p in self.profile.codes.items()}[piece]
        return 1

    def apply(self, changes: list[Any]) -> None:
        """Feed hand changes (``boardctl.sim.hands.Change``) one by one."""
        from boardctl.sensing import SensorChange
        from boardctl.sim.hands import PULSE, apply_changes

        for change in changes:
            self.now += self.step
            channel = self.profile.site(change.site).channel
            assert channel is not None
            if change.piece == PULSE:
                self.controller.feed(SensorChange(channel, 1), self.now)
                self.controller.feed(SensorChange(channel, 0), self.now)
                continue
            self.controller.feed(
                SensorChange(channel, self._value(change.site, change.piece)), self.now
            )
        self.layout = apply_changes(self.layout, changes)

    def wait(self, seconds: float) -> None:
        """Let time pass, ticking as the loop would."""
        end = self.now + seconds
        while True:
            deadline = self.controller.next_deadline()
            if deadline is None or deadline > end:
                break
            self.now = max(self.now, deadline)
            self.controller.tick(self.now)
        self.now = end
        self.controller.tick(self.now)

    def settle(self) -> None:
        """Let the board settle and the action it shows become final (past
        the window in which the hand going on amends it)."""
        timing = self.controller.timing
        self.wait(max(timing.settle, timing.amend) + 0.01)

    def hands(self, text: str, piece: str | None = None) -> None:
        """Do what a command of the simulated hands says, then let it settle."""
        from boardctl.sim import hands

        spec = self.controller.match.engine.board()
        cmd = hands.HandCommand.parse(text)
        if cmd.verb == "insert":
            assert piece is not None
            self.apply(hands.insert(spec, self.layout, cmd.args[0], piece))
        elif cmd.verb == "place":
            self.apply(hands.place(spec, self.layout, cmd.args[0], cmd.args[1]))
        elif cmd.verb == "lift":
            self.apply(hands.lift(spec, self.layout, *cmd.args))
        elif cmd.verb == "move":
            self.apply(hands.move(spec, self.layout, cmd.args[0], cmd.args[1]))
        else:
            raise AssertionError(f"unknown hand command {text!r}")
        self.settle()
