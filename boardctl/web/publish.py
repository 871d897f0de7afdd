"""What the web pages show, as the loop publishes it.

:class:`Publisher` is one of the loop's watchers: on the loop's thread it keeps
the latest public status, the pieces on the board and the LED colours by site,
and wakes the web server. It never waits: a slow browser only ever gets the
latest state, late. Everything it keeps is public (the status, the layout of
the pieces every player sees); a player's secrets are asked of the loop only
for that player's page.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping
from typing import Any

from boardctl.board import BoardProfile
from boardctl.controller.machine import Controller
from boardctl.controller.scenes import Frame
from boardctl.controller.view import View
from boardctl.engines import Engine


def declaration(engine: Engine[Any, Any], profile: BoardProfile) -> dict[str, Any]:
    """The board as the engine declares it, JSON-ready: what the pages draw."""
    spec = engine.board()
    lit = {s.name for s in profile.sites if s.leds}
    doc = (type(engine).__doc__ or "").strip()
    return {
        "game": engine.name,
        "options": engine.options_json(),
        "players": [{"name": p.name, "colour": p.colour} for p in spec.players],
        "sites": [
            {"name": s.name, "kind": s.kind, "x": s.x, "y": s.y, "lit": s.name in lit}
            for s in spec.sites
        ],
        "pieces": [
            {"code": p.code, "name": p.name, "owner": p.owner, "parts": list(p.parts)}
            for p in spec.pieces
        ],
        "secrets": bool(engine.has_secrets),
        "rules": doc.split("\n\n")[0].replace("\n", " "),
        "board": profile.name,
    }


def lights(profile: BoardProfile, frame: Frame) -> dict[str, str]:
    """Each lit site's colour as ``#rrggbb`` (its first LED)."""
    out: dict[str, str] = {}
    for site in profile.sites:
        if site.leds and site.leds[0] < len(frame):
            r, g, b = frame[site.leds[0]]
            out[site.name] = f"#{r:02x}{g:02x}{b:02x}"
    return out


def _plain(value: Any) -> Any:
    return dict(value) if isinstance(value, Mapping) else list(value)


class Publisher:
    """The latest board, state and lights, each with a version that grows
    when it changes. Called by the loop; read by the web server's thread."""

    def __init__(
        self, profile: BoardProfile, reports: Mapping[str, Callable[[], Any]] | None = None
    ) -> None:
        self.profile = profile
        #: what the state says beside the status (the broker reached or not)
        self.reports = reports if reports is not None else {}
        self._reported: dict[str, Any] = {}
        self._lock = threading.Lock()
        self._engine: Any = None
        self._status: Mapping[str, Any] | None = None
        self._frame: Frame | None = None
        self._parts: dict[str, tuple[int, Any]] = {}
        self._encoded: dict[str, tuple[int, bytes]] = {}
        #: set by the server: called (on the loop's thread) when anything changed
        self.wake: Callable[[], None] | None = None

    def __call__(self, controller: Controller, view: View, frame: Frame) -> None:
        changed = False
        if controller.engine is not self._engine:
            self._engine = controller.engine
            self._put("board", declaration(controller.engine, self.profile))
            changed = True
        status = view.status
        reported = {key: report() for key, report in self.reports.items()}
        if status != self._status or reported != self._reported:
            self._status = status
            self._reported = reported
            state = {**status, **reported}
            state["layout"] = dict(controller.engine.layout(controller.match.state))
            self._put("state", state)
            changed = True
        if frame != self._frame:
            self._frame = frame
            self._put("lights", lights(self.profile, frame))
            changed = True
        if changed and self.wake is not None:
            self.wake()

    def _put(self, part: str, value: Any) -> None:
        with self._lock:
            version = self._parts.get(part, (0, None))[0] + 1
            self._parts[part] = (version, value)

    def version(self, part: str) -> int:
        with self._lock:
            return self._parts.get(part, (0, None))[0]

    def get(self, part: str) -> Any:
        with self._lock:
            return self._parts.get(part, (0, None))[1]

    def encoded(self, part: str) -> tuple[int, bytes]:
        """The part's version and its JSON (encoded once per version)."""
        with self._lock:
            version, value = self._parts.get(part, (0, None))
            cached = self._encoded.get(part)
        if cached is not None and cached[0] == version:
            return cached
        data = json.dumps(value, separators=(",", ":"), default=_plain).encode()
        with self._lock:
            self._encoded[part] = (version, data)
        return version, data
