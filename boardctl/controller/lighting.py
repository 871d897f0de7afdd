"""When and how bright the board's LEDs light: the opening hours and the brightness.

Outside the opening hours (``[schedule] hours``) a board that dozes into
attract mode shows no animation: its LEDs are dark. Its sensors still read,
and a board someone plays on wakes and shows the game as always; left alone
for :attr:`Lighting.rest_after` seconds it darkens again. Until the system clock
is synchronised the hours cannot be told, and the board stays lit (LEDs
never lie by going dark in opening hours).

Brightness and hours come from the configuration; an operator may set them
from the operator page or the control socket (``{"cmd": "settings",
"brightness": 0.3}``, ``{"cmd": "settings", "hours": "10:00-18:00"}``), and a
value set so is kept in the game database (:mod:`.kept`) across restarts;
``null`` goes back to the configuration's. The loop asks :meth:`Lighting.follow`
once a turn; the wall clock and the clock's synchronisation are injected.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from boardctl.controller.hours import HoursError, OpeningHours
from boardctl.controller.store import StoreError
from boardctl.controller.view import Phase, View
from boardctl.errors import BoardctlError
from boardctl.message import M_, said

log = logging.getLogger(__name__)

#: the phases a closed venue's board dozes from when left alone
_DOZES = frozenset({Phase.SETUP, Phase.AWAITING_MOVE, Phase.GAME_OVER})
#: no opening hours: always open
ALWAYS = OpeningHours()
#: how often the hours are looked at again (seconds of the loop's clock)
CHECK_EVERY = 20.0


class LightingError(BoardctlError, ValueError):
    """A setting that cannot be taken (the message says what to give)."""


class Keeper(Protocol):
    """Where settings set at run time are kept (:class:`~.kept.KeptSettings`)."""

    def load(self) -> dict[str, Any]: ...

    def save(self, key: str, value: Any) -> None: ...


class Resting(Protocol):
    """What the lighting asks of the controller."""

    state: Phase

    @property
    def activity_at(self) -> float: ...

    def rest(self, now: float) -> None: ...


@dataclass(frozen=True, slots=True)
class Configured:
    """The configuration's brightness (0 to 1) and opening hours."""

    brightness: float
    hours: OpeningHours = ALWAYS


class Lighting:
    """Opening hours and brightness in force: the configured ones, or an
    operator's. ``local`` gives the local time, ``synchronised`` whether the
    system clock is set; ``dim`` sets the LEDs' brightness; ``keeper`` keeps
    what an operator set."""

    def __init__(
        self,
        configured: Configured,
        *,
        local: Callable[[], datetime],
        synchronised: Callable[[], bool] = lambda: True,
        dim: Callable[[float], None] | None = None,
        keeper: Keeper | None = None,
        rest_after: float = 60.0,
    ) -> None:
        self.configured = configured
        self.local = local
        self.synchronised = synchronised
        self.dim = dim
        self.keeper = keeper
        self.rest_after = rest_after
        self.brightness = configured.brightness
        self.hours = configured.hours
        self.closed = False
        self._checked: float | None = None
        kept = keeper.load() if keeper is not None else {}
        try:
            if "brightness" in kept:
                self.brightness = _brightness(kept["brightness"])
            if "hours" in kept:
                self.hours = _hours(kept["hours"])
        except LightingError as exc:
            log.warning("a kept setting is not used: %s", exc)
        if self.dim is not None and self.brightness != configured.brightness:
            self.dim(self.brightness)

    # -- once a turn ---------------------------------------------------------------
    def follow(self, controller: Resting, now: float) -> None:
        """Look at the hours (every :data:`CHECK_EVERY` s), and let an idle
        board of a closed venue doze into the dark."""
        if self._checked is None or now - self._checked >= CHECK_EVERY:
            self._checked = now
            closed = self._closed_now()
            if closed != self.closed:
                log.info("the opening hours say %s", "closed" if closed else "open")
            self.closed = closed
        if (
            self.closed
            and controller.state in _DOZES
            and now - controller.activity_at >= self.rest_after
        ):
            controller.rest(now)

    def _closed_now(self) -> bool:
        if self.hours.always or not self.synchronised():
            return False
        t = self.local()
        return not self.hours.open_at(t.weekday(), t.hour * 60 + t.minute)

    def dark(self, view: View) -> bool:
        """Whether the LEDs are dark for ``view``: a closed venue's dozing board."""
        return self.closed and view.phase is Phase.ATTRACT

    def wait(self, now: float) -> float:
        """How long the loop may sleep before the hours must be looked at again."""
        if self.hours.always:
            return CHECK_EVERY * 3
        last = self._checked if self._checked is not None else now
        return max(0.0, last + CHECK_EVERY - now)

    # -- an operator's settings ----------------------------------------------------
    def settings(self) -> dict[str, Any]:
        """What is in force, and what the configuration says."""
        return {
            "brightness": self.brightness,
            "hours": str(self.hours),
            "open": not self.closed,
            "clock_synchronised": self.synchronised(),
            "configured": {
                "brightness": self.configured.brightness,
                "hours": str(self.configured.hours),
            },
        }

    def command(self, body: Mapping[str, Any], now: float) -> dict[str, Any]:
        """``settings``: read them, or set ``brightness`` / ``hours`` (null:
        the configuration's again)."""
        # "language" asks for the answer's words (the control socket translates them)
        unknown = sorted(set(body) - {"cmd", "brightness", "hours", "language"})
        if unknown:
            raise LightingError(
                M_("settings has brightness and hours, not {key}", key=repr(unknown[0]))
            )
        if "brightness" in body:
            value = body["brightness"]
            brightness = self.configured.brightness if value is None else _brightness(value)
            self._keep("brightness", value if value is None else brightness)
            self.brightness = brightness
            if self.dim is not None:
                self.dim(brightness)
            log.info("LED brightness %.2f", brightness)
        if "hours" in body:
            value = body["hours"]
            hours = self.configured.hours if value is None else _hours(value)
            self._keep("hours", value if value is None else str(hours))
            self.hours = hours
            self._checked = None  # looked at again this turn
            self.closed = self._closed_now()
            log.info("opening hours: %s", str(hours) or "always open")
        return {"settings": self.settings()}

    def _keep(self, key: str, value: Any) -> None:
        if self.keeper is None:
            return
        try:
            self.keeper.save(key, value)
        except StoreError as exc:
            raise LightingError(
                M_("{fault}; the setting is not changed", fault=said(exc))
            ) from None


def _brightness(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise LightingError(
            M_(
                "brightness must be a number from 0 to 1 (0.3 is 30 %), not {value}",
                value=repr(value),
            )
        )
    return float(value)


def _hours(value: Any) -> OpeningHours:
    if not isinstance(value, str):
        raise LightingError(
            M_('hours must be text like "mon-fri 10:00-18:00", or "" for always open')
        )
    try:
        return OpeningHours.parse(value)
    except HoursError as exc:
        raise LightingError(said(exc)) from None
