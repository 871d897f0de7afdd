"""The one loop that owns the controller.

Sensor sources, GPIO buttons and the control socket only put events on the
loop's queue (:meth:`Loop.emit`, :meth:`Loop.submit`, both thread-safe). The
loop takes them one at a time, hands them to the :class:`~.machine.Controller`
with the time they were taken, ticks it when a deadline passes, builds the
controller's view once per turn, draws the scene from it and hands the frame
to the LED output only when it changed. It pings the watchdog hook on every
turn, so a hung loop stops the pings. Given a :class:`~.collecting.Collector`
(the daemon's), it collects Python's garbage between turns, once the frame is
out and no event waits, rather than in the middle of judging a change.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from boardctl.board import BUTTONS
from boardctl.controller.collecting import Collector
from boardctl.controller.lighting import Lighting
from boardctl.controller.machine import Controller, ControllerError
from boardctl.controller.opponent import ComputerFailed, ComputerMoved, RemoteFailed, RemoteMoved
from boardctl.controller.scenes import Colours, Frame, Palette, render
from boardctl.controller.store import StoreError
from boardctl.controller.view import Phase, View
from boardctl.engines import Engine, PlayerSpec
from boardctl.errors import BoardctlError
from boardctl.message import said
from boardctl.seats import Seats
from boardctl.sensing import SensorEvent

log = logging.getLogger(__name__)

#: phases whose scene does not move while nothing happens
_STILL = frozenset({Phase.AWAITING_MOVE})


class LedOutput(Protocol):
    """Anything that shows frames: an LED strip, the simulated strip, a recorder."""

    def show(self, frame: Frame) -> None: ...


class Store(Protocol):
    def games(self, limit: int = 50) -> list[dict[str, Any]]: ...

    def record_of(self, game_id: int | None = None) -> dict[str, Any]: ...


@dataclass(slots=True)
class _Request:
    body: Mapping[str, Any]
    done: threading.Event
    reply: dict[str, Any] | None = None


_STOP = object()


#: the largest game number or list length a request may name (SQLite's
#: integers are 64-bit; nothing on a board comes near this)
MAX_NUMBER = 2**31 - 1
#: requests that only read: their errors never touch the board
_READS = frozenset({"status", "games", "export", "fleet"})

#: (game, options, seats) -> the options and seats a new game takes
Adopt = Callable[[str, Any, Seats], tuple[Any, Seats]]


def _whole(body: Mapping[str, Any], key: str, default: int | None, what: str) -> Any:
    """A request's whole-number field (or its default), ``what`` it must be."""
    value = body.get(key)
    if value is None:  # left out, or null: the default
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
        raise ControllerError(f"{key!r} must be a whole number, not {shown}")
    if not -MAX_NUMBER <= value <= MAX_NUMBER or (key == "limit" and value < 1):
        raise ControllerError(f"{key!r} must be {what}")
    return value


def _text(body: Mapping[str, Any], key: str) -> str:
    """A request's text field."""
    value = body.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ControllerError(f'{key!r} must be text, e.g. {{"{key}": "W3"}}')
    return value


def _words(value: str | list[Any]) -> str | list[str]:
    """A request's seats: text, or a list of text (anything else refused)."""
    if isinstance(value, str):
        if len(value) > 200:
            raise ControllerError("'seats' is too long: a word per seat, e.g. \"hands,computer:3\"")
        return value
    if len(value) > 8 or not all(isinstance(v, str) and len(v) <= 20 for v in value):
        raise ControllerError('\'seats\' must list a word per seat, e.g. ["hands", "computer:3"]')
    return value


def animated(view: View) -> bool:
    """Whether the scene changes with time alone (blinking, waves)."""
    return (
        view.phase not in _STILL
        or bool(view.destinations)
        or view.computer is not None
        or view.asking is not None
    )


class Loop:
    """Runs ``controller``: frames go to ``output.show``; ``watchdog`` (if
    given) is called on every turn of the loop; ``store`` answers ``games`` and
    ``export`` requests; ``clock`` is monotonic seconds."""

    def __init__(
        self,
        controller: Controller,
        output: LedOutput,
        *,
        palette: Palette | Colours | None = None,
        frame_rate: float = 30.0,
        store: Store | None = None,
        watchdog: Callable[[], None] | None = None,
        watchdog_interval: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
        lighting: Lighting | None = None,
        collector: Collector | None = None,
    ) -> None:
        self.controller = controller
        self.output = output
        #: a fixed palette, or where the players' colours come from (then each
        #: game is lit in the colours of its pieces)
        self.colours = palette or Palette()
        self._palettes: dict[tuple[PlayerSpec, ...], Palette] = {}
        self.frame_period = 1.0 / frame_rate
        self.store = store
        self.watchdog = watchdog
        self.watchdog_interval = watchdog_interval
        self.clock = clock
        #: the opening hours and brightness (:mod:`.lighting`), if the daemon keeps them
        self.lighting = lighting
        #: Python's garbage collection done between turns (:mod:`.collecting`),
        #: if the daemon wants it
        self.collector = collector
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._last: Frame | None = None
        #: the view of the last turn (how soon the next turn must come depends on it)
        self._view: View | None = None
        self.frames_shown = 0
        #: called on the loop's thread with each turn's view and the frame shown
        #: (the web pages' publisher); a watcher must return at once
        self.watchers: list[Callable[[Controller, View, Frame], None]] = []
        #: what ``status`` says beside the controller's status, by key (the
        #: broker reached or not): each called from any thread, returning at once
        self.reports: dict[str, Callable[[], Any]] = {}
        #: more commands, by name (remote play's ``accept`` and ``decline``):
        #: each called on the loop's thread with the request and the time
        self.commands: dict[str, Callable[[Mapping[str, Any], float], dict[str, Any]]] = {}
        #: a new game's options and seats when they seat another board: those
        #: of that board's invitation when they match it (remote play)
        self.adopt: Adopt | None = None

    # -- thread-safe entry points ----------------------------------------------
    def emit(
        self, event: SensorEvent | ComputerMoved | ComputerFailed | RemoteMoved | RemoteFailed
    ) -> None:
        """A sensor source's ``emit`` (and the computer player's, with its
        answer, and the other board's of a remote game): queue one event."""
        self._queue.put(event)

    def submit(self, request: Mapping[str, Any], timeout: float = 5.0) -> dict[str, Any]:
        """Queue a control request and wait for the loop's reply."""
        item = _Request(request, threading.Event())
        self._queue.put(item)
        if not item.done.wait(timeout):
            return {"ok": False, "error": "the controller did not answer in time"}
        assert item.reply is not None
        return item.reply

    def stop(self) -> None:
        self._queue.put(_STOP)

    # -- the loop ------------------------------------------------------------
    def start(self) -> None:
        now = self.clock()
        self.controller.start(now)
        self.draw(self.controller.view(), now)
        if self.collector is not None:
            self.collector.start()

    def run(self) -> None:
        """Run until :meth:`stop`; then show a dark frame."""
        self.start()
        try:
            while self.turn():
                pass
        finally:
            if self.collector is not None:
                self.collector.stop()
        self.output.show(Frame.dark(self.controller.profile.leds.count))

    def turn(self, block: bool = True) -> bool:
        """Take one event (waiting until the next deadline at most), handle it
        and every event already queued, tick, draw. False after :meth:`stop`."""
        try:
            item = self._queue.get(block, self._timeout()) if block else self._queue.get_nowait()
        except queue.Empty:
            item = None
        while item is not None:
            if item is _STOP:
                return False
            self.handle(item, self.clock(), follow=False)  # the tick below follows
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                item = None
        now = self.clock()
        self._guarded(self.controller.tick, now)
        if self.lighting is not None:
            self.lighting.follow(self.controller, now)
        self.draw(self.controller.view(), now)
        if self.watchdog is not None:
            self.watchdog()
        if self.collector is not None and self._queue.empty():
            self.collector.between()  # the frame is out and nothing waits
        return True

    def _timeout(self) -> float:
        now = self.clock()
        wait = self.watchdog_interval if self.watchdog is not None else 60.0
        deadline = self.controller.next_deadline()
        if deadline is not None:
            wait = min(wait, max(0.0, deadline - now))
        lighting, view = self.lighting, self._view
        dark = lighting is not None and view is not None and lighting.dark(view)
        if self._view is None or (animated(self._view) and not dark):
            wait = min(wait, self.frame_period)
        if self.lighting is not None:
            wait = min(wait, self.lighting.wait(now))
        return wait

    def handle(self, item: Any, now: float, *, follow: bool = True) -> None:
        """Handle one event or request at ``now``. ``follow``: a sensor's event
        is followed at once (:meth:`.Controller.feed`); without, it is only
        taken in (:meth:`.Controller.sense`) and the board is followed by the
        next :meth:`.Controller.tick`, once for every event a turn takes."""
        if isinstance(item, _Request):
            try:
                item.reply = {"ok": True, **self.command(item.body, now)}
            except StoreError as exc:
                item.reply = {"ok": False, "error": said(exc)}
                if item.body.get("cmd") not in _READS:
                    # a new game or an undo that cannot be saved: the board
                    # must not go on as if it had been
                    self.controller.fail(str(exc), now)
            except (BoardctlError, LookupError, TypeError, ValueError) as exc:
                item.reply = {"ok": False, "error": said(exc)}
            except Exception as exc:  # a request must never stop the loop
                log.exception("control request %r failed", dict(item.body))
                item.reply = {"ok": False, "error": f"the controller failed: {exc}"}
            item.done.set()
            return
        if isinstance(item, ComputerMoved | ComputerFailed | RemoteMoved | RemoteFailed):
            self._guarded(self.controller.computer_answered, item, now)
            return
        self._guarded(self.controller.feed if follow else self.controller.sense, item, now)

    def _guarded(self, step: Callable[..., object], *args: Any) -> None:
        """Run a step of the controller; a game that cannot be saved is a fault
        shown on the board, not the end of the daemon."""
        try:
            step(*args)
        except StoreError as exc:
            self.controller.fail(str(exc), args[-1])

    @property
    def palette(self) -> Palette:
        """The palette of the game played now."""
        return self.palette_of(self.controller.engine)

    def palette_of(self, engine: Engine[Any, Any]) -> Palette:
        """The palette ``engine``'s players are lit in."""
        if isinstance(self.colours, Palette):
            return self.colours
        players = tuple(engine.board().players)
        palette = self._palettes.get(players)
        if palette is None:
            palette = self._palettes[players] = self.colours.palette(players)
        return palette

    def draw(self, view: View, now: float) -> None:
        """Show the scene of ``view`` (the turn's view) at ``now``."""
        self._view = view
        if self.lighting is not None and self.lighting.dark(view):
            frame: Frame = Frame.dark(self.controller.profile.leds.count)
        else:
            frame = render(view, self.controller.profile, self.palette, now)
        if frame != self._last:
            self._last = frame
            self.frames_shown += 1
            self.output.show(frame)
        for watch in self.watchers:
            try:
                watch(self.controller, view, frame)
            except Exception:  # a watcher must never stop the loop
                log.exception("a watcher of the loop failed")

    # -- operators' commands ------------------------------------------------------
    def command(self, body: Mapping[str, Any], now: float) -> dict[str, Any]:
        cmd = body.get("cmd")
        c = self.controller
        if cmd == "status":
            return {**c.status(), **{key: report() for key, report in self.reports.items()}}
        if cmd == "settings":
            if self.lighting is None:
                raise ControllerError("this controller keeps no settings")
            reply = self.lighting.command(body, now)
            self._last = None  # shown again: at the new brightness, or dark
            return reply
        if cmd == "new":
            seats = body.get("seats")
            if seats is not None and not isinstance(seats, str | list):
                raise ControllerError(
                    "'seats' must be text like \"hands,computer:3\" or a list of such words"
                )
            chosen = None if seats is None else Seats.of(_words(seats))
            options = body.get("options")
            if chosen is not None and chosen.any_remote and self.adopt is not None:
                options, chosen = self.adopt(body.get("game") or c.engine.name, options, chosen)
            c.new(body.get("game"), options, now, chosen)
            return c.status()
        if cmd == "another":
            return {"instead_of": c.another(now), **c.status()}
        if cmd == "undo":
            return {"undone": c.undo(now), **c.status()}
        if cmd == "choose":
            return {"chosen": c.choose(_text(body, "option"), now), **c.status()}
        if cmd == "chance":
            return {"played": c.roll(_text(body, "action"), now), **c.status()}
        if cmd == "play":
            ply = _whole(body, "ply", None, "the number of actions played")
            return {"played": c.play(_text(body, "action"), now, ply), **c.status()}
        if cmd == "press":
            name = _text(body, "button")
            if name not in BUTTONS:
                raise ControllerError(
                    f"there is no button {name!r}; the buttons are {', '.join(BUTTONS)}"
                )
            c.button(name, now)
            return {"pressed": name, **c.status()}
        if cmd == "private":
            player = _whole(body, "player", None, "a seat number")
            if player is None or not 0 <= player < c.engine.players:
                raise ControllerError(
                    f"'player' must be a seat from 0 to {c.engine.players - 1}, not {player!r}"
                )
            return {"player": player, "private": c.engine.private_view(c.match.state, player)}
        if cmd == "fleet":
            # the board among others: the broker reached or not, remote play
            return {key: report() for key, report in self.reports.items()}
        if cmd in ("games", "export"):
            if self.store is None:
                raise ControllerError("this controller keeps no games")
            if cmd == "games":
                limit = _whole(body, "limit", 50, f"a count from 1 to {MAX_NUMBER}")
                return {"games": self.store.games(limit)}
            game_id = _whole(body, "id", None, "a game number from `boardctl games`")
            return {"record": self.store.record_of(game_id)}
        more = self.commands.get(cmd) if isinstance(cmd, str) else None
        if more is not None:
            return more(body, now)
        names = ", ".join(["fleet", *self.commands])
        raise ControllerError(
            f"unknown command {cmd!r}; the commands are status, new, undo, another, choose, "
            f"chance, play, press, games, export, private, settings, {names}"
        )
