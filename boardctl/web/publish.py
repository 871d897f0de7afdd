"""What the web pages show, as the loop publishes it.

:class:`Publisher` is one of the loop's watchers: on the loop's thread it keeps
the latest public status, the pieces on the board and the LED frame, and wakes
the web server. The frame's bytes are read as colours by site only when a page
asks for them, on the web server's thread (once per frame), not by the loop.
It never waits: a slow browser only ever gets the latest state, late.
Everything it keeps is public (the status, the layout of the pieces every
player sees); a player's secrets are asked of the loop only for that player's
page.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from boardctl import i18n
from boardctl.board import BoardProfile
from boardctl.controller.machine import Controller
from boardctl.controller.present import Status
from boardctl.controller.scenes import Colours, Frame, Palette, hex_colour
from boardctl.controller.view import View
from boardctl.engines import Engine
from boardctl.engines.describe import PieceSpec, SiteSpec


def declaration(
    engine: Engine[Any, Any], profile: BoardProfile, palette: Palette | None = None
) -> dict[str, Any]:
    """The board as the engine declares it, JSON-ready: what the pages draw.
    Each player has their name, their label (``blue (player 1)``: seats count
    from 1 for people, from 0 in ``owner`` and the status), the colour of
    their pieces and the colour the LEDs light them in (``palette``'s)."""
    spec = engine.board()
    if palette is None:
        palette = Colours().palette(spec.players)
    lit = {s.name for s in profile.sites if s.leds}
    doc = (type(engine).__doc__ or "").strip()
    return {
        "game": engine.name,
        "title": engine.title or engine.name,
        "options": engine.options_json(),
        "players": [
            {
                "name": p.name,
                "label": spec.player_label(n),
                "colour": p.colour,
                "lights": hex_colour(palette.player(n)),
            }
            for n, p in enumerate(spec.players)
        ],
        "lights_note": palette.note,
        "cells": spec.cells,
        "sites": [_site(s, s.name in lit) for s in spec.sites],
        # a piece whose code is its parts joined by "+" the pages make up themselves
        "pieces": [_piece(p) for p in spec.pieces if not p.parts or p.code != "+".join(p.parts)],
        "secrets": bool(engine.has_secrets),
        "rules": engine.summary or doc.split("\n\n")[0].replace("\n", " "),
        "board": profile.name,
    }


def _site(s: SiteSpec, lit: bool) -> dict[str, Any]:
    """A site as the pages draw it: x east and y north, in cells."""
    out: dict[str, Any] = {"name": s.name, "kind": s.kind, "x": s.x, "y": s.y, "lit": lit}
    if s.ends:
        out["ends"] = list(s.ends)
    if s.path:
        out["toward"] = s.path[0]
    if s.label:
        out["label"] = s.label
    if s.colour:
        out["colour"] = s.colour
    return out


def _piece(p: PieceSpec) -> dict[str, Any]:
    """A piece as the pages draw it: a single one by its look, one made of
    parts as its parts."""
    out: dict[str, Any] = {"code": p.code, "name": p.name, "owner": p.owner, "parts": list(p.parts)}
    if p.look is not None:
        look = p.look
        out["look"] = {"shape": look.shape, "colour": look.colour}
        if look.label:
            out["look"]["label"] = look.label
        if look.angle is not None:
            out["look"]["angle"] = look.angle
        if look.rails:
            out["look"]["rails"] = [list(r) for r in look.rails]
    return out


def lights(profile: BoardProfile, frame: Frame) -> dict[str, str]:
    """Each lit site's colour as ``#rrggbb`` (its first LED)."""
    return _lights(first_leds(profile), frame)


def first_leds(profile: BoardProfile) -> tuple[tuple[str, int], ...]:
    """Each lit site and its first LED, in the profile's order."""
    return tuple((site.name, site.leds[0]) for site in profile.sites if site.leds)


def _lights(first: Sequence[tuple[str, int]], frame: Frame) -> dict[str, str]:
    """:func:`lights` read off the frame's bytes at once (a frame of a few
    hundred LEDs, on every change: no colour is made a tuple on the way)."""
    hexed = frame.data.hex()
    n = len(hexed) // 6
    return {name: "#" + hexed[6 * i : 6 * i + 6] for name, i in first if i < n}


def _plain(value: Any) -> Any:
    return dict(value) if isinstance(value, Mapping) else list(value)


class Publisher:
    """The latest board, state and lights, each with a version that grows
    when it changes. Called by the loop, which hands over the turn's status
    (prepared: the engine asked on the loop's thread) and frame; read by the
    web server's threads, which build the state from the status and work out
    the lights (each lit site's colour) from the frame, once per turn that
    may have changed them, when a page or a push stream asks."""

    def __init__(
        self,
        profile: BoardProfile,
        reports: Mapping[str, Callable[[], Any]] | None = None,
        palette_of: Callable[[Engine[Any, Any]], Palette] | None = None,
    ) -> None:
        self.profile = profile
        self._first = first_leds(profile)
        #: what the state says beside the status (the broker reached or not)
        self.reports = reports if reports is not None else {}
        self._reported: dict[str, Any] = {}
        #: the palette each game is lit in (the loop's), for the players' lights
        self.palette_of = palette_of
        self._lock = threading.Lock()
        self._engine: Any = None
        self._status: Mapping[str, Any] | None = None
        #: the newest status handed over and its pieces, and whether a reader
        #: has yet to build the state from them (with the reports as they are then)
        self._newest: tuple[Mapping[str, Any], dict[str, str]] | None = None
        self._unread = False
        #: held while a reader builds the state from what was told (one at a time, in order)
        self._building = threading.Lock()
        self._frame: Frame | None = None
        #: the last state whose pieces were published, and its layout
        self._laid: tuple[Any, dict[str, str]] = (None, {})
        self._parts: dict[str, tuple[int, Any]] = {}
        self._encoded: dict[tuple[str, str], tuple[int, bytes]] = {}
        #: the lights of the frame of a version, worked out by a reader
        self._lit: tuple[int, dict[str, str]] = (0, {})
        #: set by the server: called (on the loop's thread) when anything changed
        self.wake: Callable[[], None] | None = None

    def __call__(self, controller: Controller, view: View, frame: Frame) -> None:
        changed = False
        if controller.engine is not self._engine:
            self._engine = controller.engine
            palette = self.palette_of(controller.engine) if self.palette_of else None
            self._put("board", declaration(controller.engine, self.profile, palette))
            changed = True
        status = view.status
        reported = {key: report() for key, report in self.reports.items()}
        if status is not self._status or reported != self._reported:
            # a status that may say something new (the loop reuses the last
            # one when it would say the same): built and compared by a reader
            self._status = status
            self._reported = reported
            if isinstance(status, Status):
                status.prepare()  # the engine is asked here, once per position
            layout = self._layout(controller.engine, controller.match.state)
            with self._lock:
                self._newest = (status, layout)
                self._unread = True
            changed = True
        if frame != self._frame:
            self._frame = frame
            self._put("lights", frame)  # read as lights by the pages' thread (get)
            changed = True
        if changed and self.wake is not None:
            self.wake()

    def _layout(self, engine: Engine[Any, Any], state: Any) -> dict[str, str]:
        """The pieces of ``state``, worked out once per state (the status
        changes with every sensor change, the pieces only with a move)."""
        laid, layout = self._laid
        if laid is not state:
            layout = dict(engine.layout(state))
            self._laid = (state, layout)
        return layout

    def _put(self, part: str, value: Any) -> None:
        with self._lock:
            version = self._parts.get(part, (0, None))[0] + 1
            self._parts[part] = (version, value)

    def refresh(self) -> None:
        """A report changed apart from the loop's turns (the sound heard a
        turn on its own thread): the pages read the state again, with the
        reports as they are then. Any thread; returns at once."""
        with self._lock:
            if self._newest is None:
                return
            self._unread = True
        if self.wake is not None:
            self.wake()

    def _state(self) -> None:
        """The state built from the status last handed over and the reports
        as they are now, a new version if it says something new (a reader's
        thread)."""
        with self._building:
            with self._lock:
                if not self._unread or self._newest is None:
                    return
                self._unread = False
                status, layout = self._newest
            state = dict(status.items())  # its own view, not a lookup per key
            state.update({key: report() for key, report in self.reports.items()})
            state["layout"] = layout
            with self._lock:
                version, before = self._parts.get("state", (0, None))
                if state != before:
                    self._parts["state"] = (version + 1, state)

    def version(self, part: str) -> int:
        self._state()
        with self._lock:
            return self._parts.get(part, (0, None))[0]

    def get(self, part: str) -> Any:
        return self._read(part)[1]

    def _read(self, part: str) -> tuple[int, Any]:
        """The part's version and value; the lights worked out from the frame
        the loop kept, once per version, on the reader's thread."""
        self._state()
        with self._lock:
            version, value = self._parts.get(part, (0, None))
            lit = self._lit
        if not isinstance(value, Frame):
            return version, value
        if lit[0] != version:
            lit = (version, _lights(self._first, value))
            with self._lock:
                if self._lit[0] < version:
                    self._lit = lit
        return lit

    def encoded(self, part: str, language: str = i18n.DEFAULT) -> tuple[int, bytes]:
        """The part's version and its JSON, its texts for people in ``language``
        (encoded once per version and language)."""
        self._state()
        with self._lock:
            version = self._parts.get(part, (0, None))[0]
            cached = self._encoded.get((part, language))
        if cached is not None and cached[0] == version:
            return cached
        version, value = self._read(part)
        data = json.dumps(
            i18n.localized(value, language), separators=(",", ":"), default=_plain
        ).encode()
        with self._lock:
            self._encoded[(part, language)] = (version, data)
        return version, data
