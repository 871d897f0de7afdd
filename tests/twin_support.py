"""Boards played through their simulated twins, as hands would.

A :class:`Rig` runs the real controller :class:`~boardctl.controller.loop.Loop`
on a thread, fed by the sensor source the board's profile names, reading a twin
of the hardware: the virtual microcontroller behind a real pty for a serial
board, gpiozero's ``MockFactory`` pins under a simulated 74HC165 chain for a GPIO
board. :class:`Hands` change what lies on the twin one reading at a time and
wait until the host has read each one, so every intermediate reading (a marble
rolling into its cell, a run of marbles sliding) really reaches the controller.
Nothing here sleeps: every wait is on a condition, with a deadline.
"""

from __future__ import annotations

import contextlib
import random
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from boardctl import config
from boardctl.board import BoardProfile, Reports
from boardctl.controller.loop import Loop
from boardctl.controller.machine import Controller, Timing
from boardctl.controller.scenes import RGB, Frame, Palette, scale
from boardctl.controller.store import Store
from boardctl.controller.view import View
from boardctl.daemon.runner import Daemon, Hardware
from boardctl.engines import create
from boardctl.engines.base import Engine
from boardctl.sensing import (
    Emit,
    LinkDown,
    LinkUp,
    SensorChange,
    SensorEvent,
    SensorSnapshot,
    SensorSource,
)
from boardctl.sim.hands import PULSE, Change
from firmware_bridge.host import SerialSensorSource
from firmware_bridge.serial_port import Backoff
from firmware_bridge.virtual import VirtualMicrocontroller, kinds_for
from hardware.gpio_sensing import Sim74HC165Chain, open_sensor_source
from hardware.leds import LedStrip, SimStrip, create_strip

#: short times so that whole games fit in a test run; the rules are the same
#: no amend window: the rigs' hands go on as soon as the LEDs show an action
#: (a lift right after a move is its takeback, as a player's who waited;
#: amending is tested on fake clocks: test_amending.py and the traces, and
#: through the twin with the daemon's defaults and a :class:`StillClock`)
TIMING = Timing(
    settle=0.1,
    grace=0.4,
    takeback_hold=0.6,
    clear_hold=0.4,
    pulse_memory=5.0,
    attract_after=0,
    amend=0.0,
)
DEADLINE = 10.0
#: how long a twin's serial link may stay silent before either end calls it
#: down: the virtual microcontroller runs in the test's process, where a
#: silence means a loaded machine, not a pulled cable (that closes the port)
SILENCE = 5.0
#: how far a whole game's :class:`StillClock` moves on each time a waiting test looks again
STEP = 0.02


def wait_for(predicate: Callable[[], bool], timeout: float = DEADLINE, what: str = "") -> None:
    """Poll ``predicate`` until it holds; fail with ``what`` after ``timeout``."""
    end = time.monotonic() + timeout
    tick = threading.Event()
    while not predicate():
        if time.monotonic() > end:
            raise AssertionError(f"timed out after {timeout} s waiting for {what or predicate}")
        tick.wait(0.005)


class StillClock:
    """A loop's monotonic clock that stands still until the test moves it on:
    what the loop reads at one moment does happen at that moment, however
    slow the machine (an amend window is met or missed as the test says).
    With a ``step``, a rig's waits move it on by that much each time they
    look again (:meth:`Rig.wait`)."""

    def __init__(self, step: float = 0.0) -> None:
        self._now = time.monotonic()
        self._lock = threading.Lock()
        self.step = step

    def __call__(self) -> float:
        with self._lock:
            return self._now

    def advance(self, seconds: float) -> None:
        with self._lock:
            self._now += seconds


# -- what the host saw ---------------------------------------------------------------


class Seen:
    """Stands between a sensor source and the loop: records every event (the
    picture of readings, the light-gate pulses), then passes it on."""

    def __init__(self, emit: Emit) -> None:
        self._emit = emit
        self._lock = threading.Lock()
        self.picture: list[int] = []
        self.changes = 0
        self.pulses: dict[int, int] = {}
        self.up = False
        self.downs = 0
        self.snapshots = 0

    def __call__(self, event: SensorEvent) -> None:
        # queued first: once a reading is seen here, the loop takes it before
        # anything the test asks after (on a still clock, at the same moment)
        self._emit(event)
        with self._lock:
            if isinstance(event, SensorSnapshot):
                self.picture = list(event.values)
                self.snapshots += 1
            elif isinstance(event, SensorChange) and event.channel < len(self.picture):
                if event.value and not self.picture[event.channel]:
                    self.pulses[event.channel] = self.pulses.get(event.channel, 0) + 1
                self.picture[event.channel] = event.value
                self.changes += 1
            elif isinstance(event, LinkUp):
                self.up = True
            elif isinstance(event, LinkDown):
                self.up = False
                self.downs += 1

    def reads(self, channel: int, value: int) -> bool:
        with self._lock:
            return channel < len(self.picture) and self.picture[channel] == value

    def pulse_count(self, channel: int) -> int:
        with self._lock:
            return self.pulses.get(channel, 0)


# -- the twins -------------------------------------------------------------------------


class Twin(Protocol):
    """The simulated hardware under the pieces: what a hand changes."""

    def put(self, channel: int, value: int) -> None: ...

    def pulse(self, channel: int) -> None: ...


class SerialTwin:
    """A board whose sensors are read by the (virtual) microcontroller. While
    ``unplugged`` the hands change the board without waiting for the host."""

    def __init__(self, vmcu: VirtualMicrocontroller, seen: Seen) -> None:
        self.vmcu = vmcu
        self.seen = seen
        self.unplugged = False

    def put(self, channel: int, value: int) -> None:
        if value:
            self.vmcu.place(channel, value)
        else:
            self.vmcu.lift(channel)
        if self.unplugged:
            return
        wait_for(lambda: self.seen.reads(channel, value), what=f"the host to read {channel}")

    def pulse(self, channel: int) -> None:
        count = self.seen.pulse_count(channel)
        self.vmcu.place(channel, 1)
        wait_for(lambda: self.seen.pulse_count(channel) > count, what=f"gate {channel}")
        self.put(channel, 0)


class ChainTwin:
    """Sensors on the inputs of a simulated 74HC165 chain (active low: a piece
    or a marble in a light gate pulls its input low)."""

    def __init__(self, chain: Sim74HC165Chain, seen: Seen) -> None:
        self.chain = chain
        self.seen = seen

    def put(self, channel: int, value: int) -> None:
        self.chain.set_input(channel, high=not value)
        wait_for(lambda: self.seen.reads(channel, value), what=f"the host to read {channel}")

    def pulse(self, channel: int) -> None:
        count = self.seen.pulse_count(channel)
        self.chain.set_input(channel, high=False)
        wait_for(lambda: self.seen.pulse_count(channel) > count, what=f"gate {channel}")
        self.put(channel, 0)


# -- hands -------------------------------------------------------------------------------


class Hands:
    """Hands over a twin: ``layout`` is what lies on the board, in engine pieces."""

    def __init__(self, twin: Twin, profile: BoardProfile) -> None:
        self.twin = twin
        self.profile = profile
        self.spec = create(profile.game, profile.game_options).board()
        self.layout: dict[str, str] = {}
        self.readings = 0
        self._codes = {piece: value for value, piece in profile.codes.items()}

    def value(self, site: str, piece: str | None) -> int:
        if piece is None:
            return 0
        if self.profile.site(site).reports is Reports.CODE:
            return self._codes[piece]
        return 1

    def apply(self, changes: Sequence[Change]) -> None:
        """Do the changes one by one; each reading reaches the host before the next."""
        for change in changes:
            channel = self.profile.site(change.site).channel
            if change.piece == PULSE:
                if channel is not None:
                    self.twin.pulse(channel)
                continue
            if change.piece is None:
                self.layout.pop(change.site, None)
            else:
                self.layout[change.site] = change.piece
            if channel is not None:
                self.twin.put(channel, self.value(change.site, change.piece))
                self.readings += 1

    def put_raw(self, site: str, value: int) -> None:
        """A reading no piece of the game gives (an unknown piece)."""
        channel = self.profile.site(site).channel
        assert channel is not None
        self.twin.put(channel, value)

    def place(self, site: str, piece: str) -> None:
        self.apply([Change(site, piece)])

    def lift(self, site: str) -> str:
        piece = self.layout[site]
        self.apply([Change(site, None)])
        return piece

    def insert(self, track: str, piece: str) -> None:
        """Push a marble into a Shiftago track: the gate pulses, then the run ahead
        slides one cell at a time, each marble leaving its cell empty for a moment
        before the one behind rolls in."""
        cells = self.spec.site(track).path
        gap = next(i for i, cell in enumerate(cells) if cell not in self.layout)
        changes = [Change(track, PULSE)]
        for i in range(gap, 0, -1):
            changes += [Change(cells[i], self.layout[cells[i - 1]]), Change(cells[i - 1], None)]
        changes.append(Change(cells[0], piece))
        self.apply(changes)

    def arrange(self, target: Mapping[str, str]) -> None:
        """Make the board show ``target``: what goes is lifted first, then what
        comes is put down (a piece that moves is carried from one cell to the next)."""
        lifts = [Change(s, None) for s in sorted(self.layout) if s not in target]
        swaps = [
            Change(s, None)
            for s in sorted(self.layout)
            if s in target and self.layout[s] != target[s]
        ]
        puts = [Change(s, p) for s, p in sorted(target.items()) if self.layout.get(s) != p]
        self.apply(lifts + swaps + puts)


# -- the rig -----------------------------------------------------------------------------


class Frames:
    """The loop's LED output: records each frame as the scene drew it, then
    hands it to the strip (the simulated one, or the serial link's)."""

    def __init__(self, strip: LedStrip) -> None:
        self.strip = strip
        self.frames: list[Frame] = []
        self._lock = threading.Lock()

    def show(self, frame: Frame) -> None:
        with self._lock:
            self.frames.append(frame)
        self.strip.show(frame)

    @property
    def last(self) -> Frame:
        with self._lock:
            return self.frames[-1]

    def since(self, index: int) -> list[Frame]:
        with self._lock:
            return self.frames[index:]

    def count(self) -> int:
        with self._lock:
            return len(self.frames)


class Phases:
    """The phase of every turn the loop drew (a watcher of the loop): a phase
    the LEDs showed for a single turn is seen, however late the test looks."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.drawn: list[str] = []

    def watch(self, controller: Controller, view: View, frame: Frame) -> None:
        with self._lock:
            if not self.drawn or self.drawn[-1] != view.phase.value:
                self.drawn.append(view.phase.value)

    def since(self, index: int) -> list[str]:
        with self._lock:
            return self.drawn[index:]

    def count(self) -> int:
        with self._lock:
            return len(self.drawn)


@dataclass
class Rig:
    """A board, its twin, hands over it and the controller's loop on a thread."""

    profile: BoardProfile
    controller: Controller
    loop: Loop
    frames: Frames
    hands: Hands
    seen: Seen
    store: Store
    vmcu: VirtualMicrocontroller | None = None
    source: SensorSource | None = None
    runner: threading.Thread | None = None
    phases: Phases = field(default_factory=Phases)
    #: the loop's clock when it stands still until the rig's waits move it on
    clock: StillClock | None = None

    def stop(self) -> None:
        """Stop the loop (it shows a dark frame) while the sensors still run."""
        self.loop.stop()
        if self.runner is not None:
            self.runner.join(5)
            assert not self.runner.is_alive()

    @property
    def palette(self) -> Palette:
        return self.loop.palette

    def status(self) -> dict[str, Any]:
        # a loaded machine may hold the loop's thread for seconds: the answer
        # is awaited as long as any other wait of the rig
        reply = self.loop.submit({"cmd": "status"}, timeout=DEADLINE)
        assert reply["ok"], reply
        return reply

    def wait(self, predicate: Callable[[], bool], what: str, timeout: float = DEADLINE) -> None:
        """Wait until ``predicate`` holds. On a still clock with a step, time
        moves on by that step each time the rig looks again, once the loop
        has taken every reading queued before (a status asked): the hands'
        readings all arrive at one moment and time passes only while the test
        waits, so a loaded machine neither lets a reading settle halfway
        through a hand's move nor lets a phase go by unseen."""

        def look() -> bool:
            if predicate():
                return True
            self.tick()
            return False

        wait_for(look if self.clock is not None and self.clock.step else predicate, timeout, what)

    def tick(self) -> None:
        """Move a still clock on by its step, and wake the loop up at that time."""
        assert self.clock is not None
        self.clock.advance(self.clock.step)
        self.status()

    def wait_status(
        self, predicate: Callable[[dict[str, Any]], bool], what: str, timeout: float = DEADLINE
    ) -> dict[str, Any]:
        got: dict[str, Any] = {}
        looked = False

        def check() -> bool:
            nonlocal looked
            if looked and self.clock is not None:
                self.clock.advance(self.clock.step)
            looked = True
            got.clear()  # the last reply alone: an earlier one's keys would mislead
            got.update(self.status())
            return predicate(got)

        try:
            wait_for(check, timeout, what)
        except AssertionError as exc:
            raise AssertionError(f"{exc}; last status {got}") from None
        return got

    def wait_phase(self, *phases: str, moves: int | None = None) -> dict[str, Any]:
        return self.wait_status(
            lambda s: s["phase"] in phases and (moves is None or len(s["moves"]) == moves),
            f"phase {phases} after {moves} moves",
        )

    def wait_frame(self, predicate: Callable[[Frame], bool], what: str, start: int = 0) -> Frame:
        """The first frame from ``start`` on that satisfies ``predicate`` (waiting for it)."""
        found: list[Frame] = []

        def check() -> bool:
            for frame in self.frames.since(start):
                if predicate(frame):
                    found.append(frame)
                    return True
            return False

        self.wait(check, what)
        return found[0]

    def leds(self, site: str) -> tuple[int, ...]:
        return self.profile.site(site).leds

    def colour(self, frame: Frame, site: str) -> RGB:
        return frame[self.leds(site)[0]]


@contextlib.contextmanager
def daemon_at(tmp_path: Path, profile: BoardProfile, source: Any, *settings: str) -> Iterator[Path]:
    """A daemon on ``profile`` reading ``source``, its state and control
    socket in ``tmp_path`` (settle 30 ms, then ``settings``), ready to
    answer; yields the control socket's path."""
    tmp_path.mkdir(exist_ok=True)
    sock = tmp_path / "control.sock"
    cfg = config.load(
        "/nonexistent",
        [
            f'storage.state_dir="{tmp_path / "state"}"',
            f'control.socket="{sock}"',
            "controller.settle_ms=30",
            *settings,
        ],
    )
    daemon = Daemon(cfg, profile, hardware=Hardware(source, SimStrip(profile.leds)))
    thread = threading.Thread(target=daemon.run)
    thread.start()
    try:
        wait_for(daemon.ready.is_set, 10.0, "the daemon ready")
        yield sock
    finally:
        daemon.stop()
        thread.join(10)


@contextlib.contextmanager
def rig(
    profile: BoardProfile,
    store: Store,
    options: Mapping[str, Any],
    *,
    serial_leds: bool = False,
    timing: Timing = TIMING,
    clock: Callable[[], float] = time.monotonic,
) -> Iterator[Rig]:
    """The whole board: twin, sensor source, controller, loop on a thread, LEDs
    (the loop's ``clock`` may be one the test moves on)."""
    controller = Controller(profile, options=options, timing=timing, recorder=store)
    with contextlib.ExitStack() as stack:
        vmcu: VirtualMicrocontroller | None = None
        source: Any
        if profile.sensing == "serial":
            vmcu = stack.enter_context(
                VirtualMicrocontroller(
                    profile.channel_count,
                    leds=profile.leds.count if serial_leds else 0,
                    kinds=kinds_for(profile),
                    host_silence_ms=int(SILENCE * 1000),
                )
            )
            source = SerialSensorSource(
                vmcu.port,
                expected_sensors=profile.channel_count,
                backoff=Backoff(0.01, 0.1),
                silence=SILENCE,
            )
            strip = create_strip(profile.leds, link=source) if serial_leds else None
        else:
            from gpiozero.pins.mock import MockFactory

            factory = MockFactory()
            s = profile.sensing_settings
            chain = Sim74HC165Chain(factory, s["load"], s["clock"], s["data"], s["chips"])
            source = open_sensor_source(profile, pin_factory=factory)
            strip = None
        frames = Frames(strip or SimStrip(profile.leds))
        frames.strip.open()
        stack.callback(frames.strip.close)
        loop = Loop(controller, frames, store=store, clock=clock)
        phases = Phases()
        loop.watchers.append(phases.watch)
        seen = Seen(loop.emit)
        twin: Twin = SerialTwin(vmcu, seen) if vmcu is not None else ChainTwin(chain, seen)
        runner = threading.Thread(target=loop.run, name="loop", daemon=True)
        runner.start()
        source.start(seen)
        stack.callback(source.close)
        r = Rig(profile, controller, loop, frames, Hands(twin, profile), seen, store, vmcu, source)
        r.phases = phases
        r.runner = runner
        r.clock = clock if isinstance(clock, StillClock) else None
        stack.callback(r.stop)
        r.wait_phase("setup", "awaiting_move")
        yield r


# -- playing -------------------------------------------------------------------------------


def plan_game(game: str, options: Mapping[str, Any], seed: int) -> list[str]:
    """A whole game's moves, chosen before it is played: random legal actions,
    Shiftago players taking a line (or a win) when one is offered."""
    engine = create(game, options)
    state = engine.initial()
    rng = random.Random(seed)
    moves: list[str] = []
    while not engine.outcome(state).over:
        actions = list(engine.legal_actions(state))
        if game == "shiftago":
            mover = engine.to_move(state)
            good = [
                a
                for a in actions
                if engine.expects(engine.apply(state, a)) == "score"
                or engine.outcome(engine.apply(state, a)).winner == mover
            ]
            if good and rng.random() < 0.9:
                actions = good
        action = rng.choice(actions)
        moves.append(engine.format_action(action))
        state = engine.apply(state, action)
    return moves


def do_move(hands: Hands, engine: Engine[Any, Any], state: Any, text: str) -> None:
    """Make one move with the hands: push a piece in through the track the
    action goes through, or lift and put down pieces (a scored line's marbles
    one by one)."""
    action = engine.parse_action(text)
    spec = engine.board()
    after = engine.layout(engine.apply(state, action))
    tracks = [
        s
        for s in engine.touches(state, action)
        if spec.has_site(s) and spec.site(s).kind == "track"
    ]
    if tracks:
        hands.insert(tracks[0], after[spec.site(tracks[0]).path[0]])
        return
    hands.arrange(after)


def canonical(engine: Engine[Any, Any], state: Any, text: str) -> str:
    """The move a board without light gates records for ``text``: of the actions
    that leave the same position (W1 and Sa on an empty corner), the first the
    engine lists."""
    after = engine.apply(state, engine.parse_action(text))
    same = [
        engine.format_action(a)
        for a in engine.legal_actions(state)
        if engine.apply(state, a) == after
    ]
    return same[0]


def player_colour(palette: Palette, player: int, factor: float = 1.0) -> RGB:
    return scale(palette.player(player), factor)
