"""Time from a sensor change on the board to the LED frame handed to the strip.

The main figures go through the whole path of a serial board, as the daemon
runs it: a hand changes what lies on the virtual microcontroller
(``VirtualMicrocontroller.place``/``lift``: the firmware's own scanner and link
behind a real pty), the firmware debounces and sends the change,
``SerialSensorSource``'s reader thread reads and decodes it and puts it on the
controller's queue (``Loop.emit``), and the controller's ``Loop``, running on
its own thread, handles it and hands the redrawn frame to ``output.show``.

Random games are played by hands, one sensor change at a time: each change is
made only once the loop has answered the one before and, on a board whose LEDs
hang off the link, the microcontroller shows that frame (so the firmware's queue
never fills and every reading in between really reaches the controller), and a
move's next change waits until the controller has played the move before.
Every game with an engine is played with its default options on its reference
board among the shipped profiles (Shiftago on ``shiftago-colour``: colour
sensors, no light gates, its LEDs driven over the same serial link; DuploLine
on ``duploline``, its LED frames going to the simulated strip here). A piece
pushed in through a track slides the run ahead as it does on the board: each
piece leaves its cell empty for a moment before the one behind rolls in.

For every change three times are taken, and a fourth on a serial board's LEDs:

* ``hand``: just before ``place``/``lift`` (the bench's thread);
* ``read``: when the host's read of the port returns the bytes that carry the
  change (the reader thread, through a thin wrapper around the pyserial port);
* ``frame``: when the loop hands the frame that answers the change to
  ``show`` (the loop's thread). A change that leaves the frame as it was (no
  frame is handed over) ends when the loop is done with it;
* ``written``: on a board whose LEDs hang off the serial link, when the write
  of the first LED frame after ``frame`` returned on the source's writer thread
  (the frame is the microcontroller's to read; a real board's UART then takes
  its transfer time): ``frame -> written`` is the hand-over to the writer
  thread (which runs once the loop lets go of the interpreter), its encoding of
  the frame (COBS and CRC) and the write; the writer's own CPU time per frame is
  printed too.

``hand -> read`` is the firmware's part: its debounce (``stable_scans`` scans;
the virtual microcontroller wakes on every change and repeats its scan at once
while a reading is being debounced, where a real board waits ``scan_ms``
between scans) and the pty. ``read -> frame`` is the software part, the target
figure (p99 under 2 ms). The settle time (``Timing.settle``: the board must stay
still that long before a move is played) is excluded: the figures above are the
immediate redraw that answers each change, and the frame that shows a played
move is measured apart, from the moment its settle time expired to that frame.

The virtual microcontroller runs in a process of its own (as a board's is a
chip of its own), so the figures are the daemon's: the reader thread and the
loop's thread, not a third thread of the bench sharing their interpreter.

The loop's own work is counted in its thread's CPU time (``time.thread_time``)
for every turn that answers a change, from taking the change off the queue to
the frame handed on (judging, the phase machine, the view, drawing the scene,
processing the frame for the LEDs and encoding it for the serial link, all
included). A move's turn also writes the move to the game database, a real
``Store`` (WAL, ``synchronous=FULL``) in ``--db-dir``: its wall time (what a
player waits for) is counted apart, per move, and so is the turn's CPU time.

The in-process figure (the last table) feeds the loop directly, on one
thread, with a fake clock that jumps over the settle time.

    .venv/bin/python bench/latency.py [--changes N] [--moves N] [--db-dir DIR] [--games G ...]
"""

from __future__ import annotations

import argparse
import bisect
import contextlib
import cProfile
import gc
import multiprocessing
import pstats
import random
import statistics
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType
from typing import Any

from boardctl.board import BoardProfile, LedChain, Reports, Site
from boardctl.controller.collecting import Collector
from boardctl.controller.loop import Loop
from boardctl.controller.machine import Controller, Timing
from boardctl.controller.scenes import Frame
from boardctl.controller.store import Store
from boardctl.controller.view import Phase, View
from boardctl.daemon.sound import Sounder
from boardctl.engines import CHANCE, GAMES, SiteSpec, create
from boardctl.engines.base import Engine
from boardctl.sensing import LinkUp, SensorChange, SensorEvent, SensorSnapshot
from boardctl.sim import hands
from boardctl.sim.board import values_of
from boardctl.sound.settings import SoundSettings
from boardctl.web.publish import Publisher
from firmware_bridge import protocol
from firmware_bridge.host import SerialSensorSource
from firmware_bridge.serial_port import Backoff, open_port
from firmware_bridge.virtual import VirtualMicrocontroller, kinds_for
from hardware.leds import LedStrip, SimStrip, create_strip, simulated
from hardware.leds.base import FrameProcessor, wire_bytes
from hardware.profiles import load_profile, reference_profile

#: the longest any one step may take before the bench gives up
DEADLINE = 10.0


# -- timing the path ---------------------------------------------------------------------


class TimedPort:
    """The pyserial port, timing each read that returns bytes and noting when
    each write (the source's writer thread) has handed its bytes to the pty."""

    def __init__(self, port: Any) -> None:
        self._port = port
        self.read_at = 0.0
        #: (when the write returned, its bytes), in order: told apart after the run
        self.writes: list[tuple[float, bytes]] = []

    def read(self, size: int = 1) -> bytes:
        data: bytes = self._port.read(size)
        if data and size == 1:
            self.read_at = time.monotonic()
        return data

    def write(self, data: bytes) -> int | None:
        n: int | None = self._port.write(data)
        self.writes.append((time.monotonic(), data))
        return n

    def __getattr__(self, name: str) -> Any:
        return getattr(self._port, name)


@dataclass(slots=True)
class Answer:
    """One sensor change as the path saw it."""

    channel: int
    value: int
    read: float
    frame: float
    framed: bool
    #: the CPU time of the loop's thread in the turn that answered it
    cpu: float = 0.0
    #: whether that turn also played a move (and wrote it to the database)
    moved: bool = False


@dataclass(slots=True)
class Commit:
    """A move played: when its settle time expired and when its frame was shown."""

    expired: float
    frame: float
    state: Any
    #: the move as the controller recorded it
    text: str
    #: the CPU time of the loop's thread in the turn that played it
    cpu: float = 0.0


@dataclass
class Probe:
    """What the reader thread and the loop report; the hands wait on it."""

    cond: threading.Condition = field(default_factory=threading.Condition)
    #: the read time of each change, as the reader thread emitted it
    reads: list[float] = field(default_factory=list)
    #: when the reader thread put each change on the loop's queue
    emits: list[float] = field(default_factory=list)
    answers: list[Answer] = field(default_factory=list)
    commits: list[Commit] = field(default_factory=list)
    phase: str = ""
    moves: int = 0
    game: int = 0
    #: what the controller made of the board at its last redraw, for the message
    #: given when the bench stops
    verdict: Any = None

    def wait(self, predicate: Callable[[], bool], what: str) -> None:
        with self.cond:
            if not self.cond.wait_for(predicate, DEADLINE):
                raise SystemExit(
                    f"latency bench: {what} did not happen within {DEADLINE} s "
                    f"(phase {self.phase}, {self.moves} moves played; "
                    f"the controller's verdict: {self.verdict!r})"
                )

    def wait_count(self, items: Sequence[Any], count: int, what: str) -> None:
        self.wait(lambda: len(items) >= count, what)

    def wait_game(self, game: int) -> None:
        self.wait(lambda: self.game >= game and self.phase == "awaiting_move", "the next game")


class Output:
    """The loop's LED output: notes when a frame reaches ``show``, then hands it on."""

    def __init__(self, strip: LedStrip) -> None:
        self.strip = strip
        self.at = 0.0
        self.last: Frame | None = None

    def show(self, frame: Frame) -> None:
        self.at = time.monotonic()
        self.last = frame
        self.strip.show(frame)


class TimedLoop(Loop):
    """The controller's loop, reporting each change it answered and each move it played."""

    def __init__(
        self, controller: Controller, output: Output, probe: Probe, collector: Collector | None
    ) -> None:
        super().__init__(controller, output, collector=collector)
        self.out = output
        self.probe = probe
        self._match = controller.match
        self._pending: list[SensorChange] = []
        #: the loop thread's CPU clock when the turn began
        self._cpu0 = 0.0

    #: the loop's turns profiled one by one (``--profile``), if wanted: the
    #: changes each answered (indexes of the probe's answers), whether it
    #: played a move, and its profile
    profiled: list[tuple[range, bool, cProfile.Profile]] | None = None
    #: the changes the turn under way answered, and whether it played a move
    _answered = range(0)
    _moved = False

    def turn(self, block: bool = True) -> bool:
        self._cpu0 = time.thread_time()
        if self.profiled is None:
            return super().turn(block)
        self._answered, self._moved = range(0), False
        profiler = cProfile.Profile(time.thread_time)
        profiler.enable()
        try:
            return super().turn(block)
        finally:
            profiler.disable()
            self.profiled.append((self._answered, self._moved, profiler))

    def handle(self, item: Any, now: float, *, follow: bool = True) -> None:
        super().handle(item, now, follow=follow)
        if isinstance(item, SensorChange):
            self._pending.append(item)

    def draw(self, view: View, now: float) -> None:
        """The turn's frame: it answers every change handled in the turn."""
        shown = self.frames_shown
        super().draw(view, now)
        cpu = time.thread_time() - self._cpu0  # the turn's work, the bookkeeping below not
        c = self.controller
        p = self.probe
        framed = self.frames_shown != shown
        at = self.out.at if framed else time.monotonic()
        with p.cond:
            moved = c.match is self._match and len(c.match.actions) > p.moves
            self._answered = range(len(p.answers), len(p.answers) + len(self._pending))
            self._moved = moved
            for item in self._pending:
                read = p.reads[len(p.answers)]
                p.answers.append(Answer(item.channel, item.value, read, at, framed, cpu, moved))
            self._pending.clear()
            p.phase = c.state.value
            p.verdict = c.verdict
            if c.match is not self._match:
                self._match = c.match
                p.game += 1
            elif moved:
                # a turn of two steps may be played at once (the second step
                # came before the first had settled): one commit for each
                for i in range(p.moves, len(c.match.actions)):
                    text = c.engine.format_action(c.match.actions[i])
                    state = c.match.states[i + 1]
                    expired = c.board.changed_at + c.timing.settle
                    p.commits.append(Commit(expired, at, state, text, cpu))
            p.moves = len(c.match.actions)
            p.cond.notify_all()


class TimedStore:
    """The game database, timing each write of a move: its wall time (what
    the loop waits for, fsync included) and the loop thread's CPU time."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def record(self, *args: Any, **kwargs: Any) -> None:
        t0, c0 = time.perf_counter(), time.thread_time()
        self.store.record(*args, **kwargs)
        self.cpu.append(time.thread_time() - c0)
        self.wall.append(time.perf_counter() - t0)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)


# -- the virtual microcontroller, in a process of its own -------------------------------


def _serve_mcu(
    conn: Any, channels: int, leds: int, kinds: list[int], scan_ms: float, stable_scans: int
) -> None:
    """The child process: the virtual microcontroller, changed on the parent's word."""
    with VirtualMicrocontroller(
        channels, leds=leds, kinds=kinds, scan_ms=scan_ms, stable_scans=stable_scans
    ) as mcu:
        conn.send(mcu.port)
        while True:
            what, *args = conn.recv()
            if what == "set":
                channel, value = args
                at = time.monotonic()  # the hand: system-wide, the parent's clock too
                if value:
                    mcu.place(channel, value)
                else:
                    mcu.lift(channel)
                conn.send(at)
            elif what == "leds":
                want, timeout = args
                start = max(0, len(mcu.led_frames) - 1)

                def shown(want: bytes = want, start: int = start) -> bool:
                    return want in mcu.led_frames[start:]

                conn.send(mcu.wait_until(shown, timeout))
            else:
                conn.send(None)
                return


class McuProcess:
    """A :class:`VirtualMicrocontroller` run in a child process, with its pty
    opened by this one. A context manager."""

    def __init__(
        self, channels: int, leds: int, kinds: list[int], scan_ms: float, stable_scans: int
    ) -> None:
        context = multiprocessing.get_context("spawn")
        self._conn, child = context.Pipe()
        self._process = context.Process(
            target=_serve_mcu,
            args=(child, channels, leds, kinds, scan_ms, stable_scans),
            name="virtual-mcu",
            daemon=True,
        )
        self._process.start()
        child.close()
        if not self._conn.poll(DEADLINE):
            raise SystemExit("latency bench: the virtual microcontroller's process did not start")
        self.port: str = self._conn.recv()
        #: what lies on each sensor now
        self.board = [0] * channels

    def set(self, channel: int, value: int) -> float:
        """Put ``value`` on sensor ``channel`` (0: lift); when it was done."""
        self._conn.send(("set", channel, value))
        self.board[channel] = value
        at: float = self._conn.recv()
        return at

    def shows(self, frame: bytes, timeout: float) -> bool:
        """Wait until the microcontroller has shown ``frame`` (now or later)."""
        self._conn.send(("leds", frame, timeout))
        return bool(self._conn.recv())

    def close(self) -> None:
        if self._process.is_alive():
            self._conn.send(("close",))
            self._conn.poll(DEADLINE)
        self._process.join(DEADLINE)
        self._conn.close()

    def __enter__(self) -> McuProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# -- hands ------------------------------------------------------------------------------


class Hands:
    """Change what lies on the virtual microcontroller, one reading at a time."""

    def __init__(
        self,
        mcu: McuProcess,
        profile: BoardProfile,
        probe: Probe,
        serial_leds: Output | None,
    ) -> None:
        self.mcu = mcu
        self.profile = profile
        self.probe = probe
        self.serial_leds = serial_leds
        self._process = FrameProcessor(profile.leds)
        self._wire: dict[Frame, bytes] = {}
        self.layout: dict[str, str] = {}
        self.codes = {piece: value for value, piece in profile.codes.items()}
        #: when each change was made, in order
        self.made: list[float] = []

    def value(self, site: str, piece: str | None) -> int:
        if piece is None:
            return 0
        return self.codes[piece] if self.profile.site(site).reports is Reports.CODE else 1

    def apply(self, changes: Sequence[hands.Change]) -> None:
        for change in changes:
            if change.piece == hands.PULSE:
                continue  # no light gates on these boards
            channel = self.profile.site(change.site).channel
            if change.piece is None:
                self.layout.pop(change.site, None)
            else:
                self.layout[change.site] = change.piece
            if channel is None:
                continue
            value = self.value(change.site, change.piece)
            if self.mcu.board[channel] == value:
                continue
            n = len(self.made) + 1
            self.made.append(self.mcu.set(channel, value))
            self.probe.wait_count(self.probe.answers, n, f"the answer to change {n}")
            a = self.probe.answers[n - 1]
            if (a.channel, a.value) != (channel, value):
                raise SystemExit(
                    f"latency bench: change {n} set channel {channel} to {value} "
                    f"but the loop answered channel {a.channel} = {a.value}"
                )
            if self.serial_leds is not None and not self.leds_shown():
                raise SystemExit(f"latency bench: the LEDs never showed the answer to change {n}")

    def leds_shown(self) -> bool:
        """Wait until the microcontroller shows the newest frame handed to the
        strip (asked again with the newer one while the scene moves)."""
        assert self.serial_leds is not None
        until = time.monotonic() + DEADLINE
        while time.monotonic() < until:
            frame = self.serial_leds.last
            if frame is None:
                return True
            want = self._wire.get(frame)
            if want is None:
                if len(self._wire) > 256:
                    self._wire.clear()
                pixels = self._process.bytes(frame.data)
                want = self._wire[frame] = wire_bytes(pixels, self.profile.leds.order)
            if self.mcu.shows(want, 0.2):
                return True
        return False

    def insert(self, cells: Sequence[str], piece: str) -> None:
        """Push a piece into a track whose path is ``cells``: the run ahead slides
        one cell at a time, each piece leaving its cell empty before the one
        behind rolls in."""
        gap = next(i for i, cell in enumerate(cells) if cell not in self.layout)
        changes = []
        for i in range(gap, 0, -1):
            changes += [
                hands.Change(cells[i], self.layout[cells[i - 1]]),
                hands.Change(cells[i - 1], None),
            ]
        changes.append(hands.Change(cells[0], piece))
        self.apply(changes)

    def arrange(self, target: dict[str, str]) -> None:
        """Lift what goes, then put down what comes."""
        lifts = [
            hands.Change(s, None) for s in sorted(self.layout) if target.get(s) != self.layout[s]
        ]
        puts = [hands.Change(s, p) for s, p in sorted(target.items()) if self.layout.get(s) != p]
        self.apply(lifts + puts)


# -- through the virtual microcontroller ------------------------------------------------


IN_TURNS, AT_START, BETWEEN = "in turns", "at start-up", "between turns"


class Collections:
    """Python's garbage collections on one thread (the loop's): each one's
    generation and CPU time (``gc.callbacks``)."""

    def __init__(self) -> None:
        self.thread: int | None = None
        #: each collection's CPU time by generation, by where it was made: in
        #: the middle of a turn (Python's own), or by the loop's collector
        #: (:class:`TimedCollector`) at start-up or between turns
        self.made: dict[str, dict[int, list[float]]] = {
            where: {0: [], 1: [], 2: []} for where in (IN_TURNS, AT_START, BETWEEN)
        }
        #: where the loop collects now
        self.where = IN_TURNS
        self._start = 0.0

    def __enter__(self) -> Collections:
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._callback)

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if threading.get_ident() != self.thread:
            return
        if phase == "start":
            self._start = time.thread_time()
        else:
            self.made[self.where][info["generation"]].append(time.thread_time() - self._start)


class TimedCollector(Collector):
    """The daemon's collector, telling :class:`Collections` when it collects."""

    def __init__(self, collections: Collections) -> None:
        super().__init__()
        self.collections = collections

    def start(self) -> None:
        self.collections.where = AT_START
        try:
            super().start()
        finally:
            self.collections.where = IN_TURNS

    def between(self) -> None:
        self.collections.where = BETWEEN
        try:
            super().between()
        finally:
            self.collections.where = IN_TURNS


@dataclass
class Figures:
    changes: int
    moves: int
    games: int
    hand_to_frame: list[float]
    hand_to_read: list[float]
    read_to_frame: list[float]
    read_to_queue: list[float]
    #: the frame handed to the serial link -> the write that carried it done
    #: (the writer thread's wake-up and the write), and the hand -> that write;
    #: empty on a board whose LEDs are not on the serial link
    frame_to_written: list[float]
    #: the serial writer thread's CPU time per frame the loop handed over (its
    #: encoding, COBS and CRC, and its writes), 0 where the LEDs are not on the link
    writer_cpu: float
    hand_to_written: list[float]
    unframed: int
    settle_to_frame: list[float]
    #: moves recorded under another notation that leaves the same position
    renamed: int
    #: the loop thread's CPU time in each turn that answered a change and
    #: played no move, and in each turn that played a move
    cpu_change: list[float] = field(default_factory=list)
    cpu_move: list[float] = field(default_factory=list)
    #: each move's write to the game database: wall time and CPU time
    store_wall: list[float] = field(default_factory=list)
    store_cpu: list[float] = field(default_factory=list)
    #: the garbage collections on the loop's thread (see :class:`Collections`)
    collected: dict[str, dict[int, list[float]]] = field(default_factory=dict)
    #: the loop's turns profiled (``--profile``), by kind (see :data:`TURNS`)
    profiles: dict[str, pstats.Stats] = field(default_factory=dict)


def through_mcu(
    profile_name: str,
    changes: int,
    timing: Timing,
    scan_ms: float,
    stable_scans: int,
    seed: int,
    db_dir: str | None = None,
    profiled: bool = False,
    watchers: Sequence[str] = (),
    collect: str = "loop",
) -> Figures:
    profile = load_profile(profile_name)
    probe = Probe()
    rng = random.Random(seed)
    serial_leds = profile.leds.backend == "serial"
    with (
        Collections() as collections,
        tempfile.TemporaryDirectory(prefix="latency-", dir=db_dir) as directory,
        Store(f"{directory}/games.db") as database,
        McuProcess(
            profile.channel_count,
            profile.leds.count if serial_leds else 0,
            kinds_for(profile),
            scan_ms,
            stable_scans,
        ) as mcu,
        contextlib.ExitStack() as watching,
    ):
        store = TimedStore(database)
        controller = Controller(profile, timing=timing, recorder=store)
        engine: Engine[Any, Any] = controller.engine
        timed: list[TimedPort] = []

        def opener(path: str) -> TimedPort:
            timed.append(TimedPort(open_port(path, baudrate=profile_baudrate(profile))))
            return timed[-1]

        def emit(event: SensorEvent) -> None:
            if isinstance(event, SensorChange):
                with probe.cond:
                    probe.reads.append(timed[-1].read_at)
                    probe.emits.append(time.monotonic())
            loop.emit(event)

        source = SerialSensorSource(
            mcu.port,
            expected_sensors=profile.channel_count,
            backoff=Backoff(0.01, 0.1),
            opener=opener,
        )
        strip = (
            create_strip(profile.leds, link=source)
            if serial_leds
            else SimStrip(simulated(profile.leds), profile)
        )
        strip.open()
        output = Output(strip)
        collector = TimedCollector(collections) if collect == "loop" else None
        loop = TimedLoop(controller, output, probe, collector)
        loop.profiled = [] if profiled else None
        for name in watchers:
            watcher = WATCHERS[name](loop, profile)
            if isinstance(watcher, contextlib.AbstractContextManager):
                watcher = watching.enter_context(watcher)  # the sound's hearing thread
            loop.watchers.append(watcher)
        runner = threading.Thread(target=loop.run, name="loop", daemon=True)
        runner.start()
        collections.thread = runner.ident
        source.start(emit)
        writers = [t for t in threading.enumerate() if t.name.startswith("serial writer")]
        writer = writers[0] if writers else None
        writer_clock = time.pthread_getcpuclockid(writer.ident) if writer and writer.ident else None
        writer_cpu = time.clock_gettime(writer_clock) if writer_clock is not None else 0.0
        frames_before = loop.frames_shown
        h = Hands(mcu, profile, probe, output if serial_leds else None)
        try:
            probe.wait(lambda: probe.phase in ("setup", "awaiting_move"), "the link coming up")
            state = engine.initial()
            h.arrange(dict(engine.layout(state)))  # a game may start with pieces out
            probe.wait(lambda: probe.phase == "awaiting_move", "the board set up")
            moves = games = renamed = 0
            measured: list[int] = []  # indices of the changes that belong to moves
            commits: list[int] = []
            while len(measured) < changes:
                if engine.outcome(state).over:
                    game = probe.game
                    h.arrange(dict(engine.layout(engine.initial())))
                    probe.wait_game(game + 1)
                    state = engine.initial()
                    games += 1
                    continue
                if engine.actor(state) is CHANCE:  # thrown by hand and told, not timed
                    outcomes = engine.chance_outcomes(state)
                    drawn = rng.choices([a for a, _ in outcomes], [w for _, w in outcomes])[0]
                    n = len(probe.commits)
                    loop.submit({"cmd": "chance", "action": engine.format_action(drawn)})
                    probe.wait_count(probe.commits, n + 1, "chance's outcome to be played")
                    state = engine.apply(state, drawn)
                    continue
                shown = visible(engine, state)
                if not shown:
                    unseen = told_unseen(engine, state)
                    if not unseen:
                        break  # only starts that carry a route card are left: not timed
                    # told as an operator does, not timed (a pass, a caught start)
                    told = rng.choice(unseen)
                    n = len(probe.commits)
                    loop.submit({"cmd": "play", "action": engine.format_action(told)})
                    probe.wait_count(probe.commits, n + 1, "the told action to be played")
                    state = engine.apply(state, told)
                    continue
                action = rng.choice(shown)
                text = engine.format_action(action)
                after = engine.apply(state, action)
                first = len(h.made)
                # counted before the hands move: under load the move may be
                # played while they still wait for the LEDs of their last change
                n = len(probe.commits)
                track = track_of(engine, state, action)
                if track is not None:
                    h.insert(track.path, engine.layout(after)[track.path[0]])
                else:
                    h.arrange(dict(engine.layout(after)))
                measured += range(first, len(h.made))
                if not engine.choosing(state):

                    def played_or_offered(n: int = n) -> bool:
                        return len(probe.commits) > n or probe.phase == "choosing"

                    probe.wait(played_or_offered, f"the move {text} to be played or offered")
                    if len(probe.commits) <= n:  # the board cannot show which: an operator says
                        loop.submit({"cmd": "choose", "option": text})
                probe.wait_count(probe.commits, n + 1, f"the move {text} to be played")
                commit = probe.commits[n]
                if commit.state != after:
                    raise SystemExit(f"latency bench: the hands played {text}, the board another")
                commits.append(n)
                renamed += commit.text != text
                state = after
                moves += 1
        finally:
            if writer_clock is not None and serial_leds:
                # the writer's CPU (encoding and writing every frame handed over)
                frames = loop.frames_shown - frames_before
                writer_cpu = (time.clock_gettime(writer_clock) - writer_cpu) / max(frames, 1)
            else:
                writer_cpu = 0.0
            source.close()
            loop.stop()
            runner.join(5)
            strip.close()
    answers = probe.answers
    written = led_writes(timed) if serial_leds else []
    wrote = {
        i: at
        for i in measured
        if answers[i].framed and (at := written_after(answers[i].frame, written)) is not None
    }
    return Figures(
        changes=len(measured),
        moves=moves,
        games=games,
        hand_to_frame=[answers[i].frame - h.made[i] for i in measured],
        hand_to_read=[answers[i].read - h.made[i] for i in measured],
        read_to_frame=[answers[i].frame - answers[i].read for i in measured],
        read_to_queue=[probe.emits[i] - answers[i].read for i in measured],
        frame_to_written=[at - answers[i].frame for i, at in wrote.items()],
        writer_cpu=writer_cpu,
        hand_to_written=[at - h.made[i] for i, at in wrote.items()],
        unframed=sum(not answers[i].framed for i in measured),
        settle_to_frame=[probe.commits[i].frame - probe.commits[i].expired for i in commits],
        renamed=renamed,
        cpu_change=[answers[i].cpu for i in measured if not answers[i].moved],
        cpu_move=[probe.commits[i].cpu for i in commits],
        store_wall=store.wall,
        store_cpu=store.cpu,
        collected=collections.made,
        profiles=by_kind(loop.profiled or [], frozenset(measured)),
    )


def by_kind(
    profiled: Sequence[tuple[range, bool, cProfile.Profile]], measured: frozenset[int]
) -> dict[str, pstats.Stats]:
    """The turns' profiles added up by kind (see :data:`TURNS`): a turn that
    played a move is a move's, one that answered a measured change a change's
    (as the figures count them), any other turn another's."""
    stats: dict[str, pstats.Stats] = {}
    for answered, moved, profiler in profiled:
        kind = "move" if moved else "change" if measured.intersection(answered) else "other"
        if kind in stats:
            stats[kind].add(profiler)
        else:
            stats[kind] = pstats.Stats(profiler)
    return stats


def visible(engine: Engine[Any, Any], state: Any) -> list[Any]:
    """The legal actions hands can make: those that change the board and
    need not be told (a Linie 1 start carrying its route card is told)."""
    before = engine.layout(state)
    return [
        a
        for a in engine.legal_actions(state)
        if not engine.told(state, a) and engine.layout(engine.apply_unchecked(state, a)) != before
    ]


def told_unseen(engine: Engine[Any, Any], state: Any) -> list[Any]:
    """The legal actions a person tells that leave the board as it was (a
    pass, a caught start): told by the bench as an operator does."""
    before = engine.layout(state)
    return [
        a
        for a in engine.legal_actions(state)
        if engine.told(state, a) and engine.layout(engine.apply_unchecked(state, a)) == before
    ]


def track_of(engine: Engine[Any, Any], state: Any, action: Any) -> SiteSpec | None:
    """The track ``action`` pushes a piece in through, if it goes through one."""
    spec = engine.board()
    for name in sorted(engine.touches(state, action)):
        if spec.has_site(name) and spec.site(name).kind == "track" and spec.site(name).path:
            return spec.site(name)
    return None


def profile_baudrate(profile: BoardProfile) -> int:
    return int(profile.sensing_settings.get("baudrate", 115200))


# -- in process --------------------------------------------------------------------------


class Strip:
    def __init__(self) -> None:
        self.at = 0.0

    def show(self, frame: Frame) -> None:
        self.at = time.perf_counter()


def board(engine: Engine[Any, Any]) -> BoardProfile:
    """A board for ``engine``: the declared sites in order, tracks as light
    gates, the other sites reading the pieces numbered 1..N as colours."""
    spec = engine.board()
    sites = [
        Site(
            site.name,
            site.kind,
            i,
            Reports.PULSE if site.kind == "track" else Reports.CODE,
            (i,),
            x=float(i % 9),
            y=i // 9,
        )
        for i, site in enumerate(spec.sites)
    ]
    codes = {n: piece.code for n, piece in enumerate(spec.pieces, start=1)}
    return BoardProfile(
        engine.name,
        engine.name,
        MappingProxyType({}),
        tuple(sites),
        MappingProxyType(codes),
        LedChain(len(sites)),
    )


def in_process(game: str, moves: int, seed: int) -> list[float]:
    """The loop fed directly on this thread, with a clock that jumps over the settle time."""
    engine = create(game)
    profile = board(engine)
    value = {p: v for v, p in profile.codes.items()}
    clock = [0.0]
    timing = Timing()
    strip = Strip()
    rng = random.Random(seed)
    times: list[float] = []
    loop = Loop(Controller(profile, timing=timing), strip, clock=lambda: clock[0])
    c = loop.controller
    layout: dict[str, str] = {}

    def restart() -> None:
        nonlocal loop, c, layout
        loop = Loop(Controller(profile, timing=timing), strip, clock=lambda: clock[0])
        c = loop.controller
        layout = dict(engine.layout(engine.initial()))  # a game may start with pieces out
        loop.start()
        loop.handle(LinkUp("bench"), clock[0])
        loop.handle(SensorSnapshot(tuple(values_of(profile, layout))), clock[0])
        clock[0] += 1.0
        loop.turn(block=False)

    restart()
    played = 0
    while played < moves:
        if c.match.outcome().over:
            restart()
            continue
        state = c.match.state
        if engine.actor(state) is CHANCE:  # thrown by hand and told to the controller
            outcomes = engine.chance_outcomes(state)
            drawn = rng.choices([a for a, _ in outcomes], [w for _, w in outcomes])[0]
            c.roll(engine.format_action(drawn), clock[0])
            continue
        shown = visible(engine, state)
        if not shown:
            unseen = told_unseen(engine, state)
            if not unseen:
                break  # only starts that carry a route card are left: not timed
            c.play(engine.format_action(rng.choice(unseen)), clock[0])  # told, not timed
            continue
        action = rng.choice(shown)
        text = engine.format_action(action)
        after = engine.layout(engine.apply(state, action))
        track = track_of(engine, state, action)
        if track is not None:
            changes = hands.insert(engine.board(), layout, track.name, after[track.path[0]])
        else:
            changes = [hands.Change(s, None) for s in layout if s not in after]
            changes += [hands.Change(s, p) for s, p in after.items() if layout.get(s) != p]
        for ch in changes:
            channel = profile.site(ch.site).channel
            assert channel is not None
            v = 1 if ch.piece == hands.PULSE else value[ch.piece] if ch.piece else 0
            clock[0] += 0.02
            strip.at = 0.0
            t0 = time.perf_counter()
            loop.handle(SensorChange(channel, v), clock[0])
            t1 = strip.at or time.perf_counter()
            times.append(t1 - t0)
        layout = hands.apply_changes(layout, changes)
        clock[0] += timing.settle + 0.01  # settle time: excluded
        loop.turn(block=False)
        if c.state is Phase.CHOOSING and not engine.choosing(state):
            c.choose(text, clock[0])  # the board cannot show which: an operator says
            loop.turn(block=False)
        played += 1
        assert c.match.moves_text()[-1] == text, (text, c.match.moves_text()[-2:])
    return times


# -- report ------------------------------------------------------------------------------


def led_writes(ports: Sequence[TimedPort]) -> list[float]:
    """When each write that carried an LED frame (whole or in part) returned,
    in order: the frame is then the microcontroller's to read."""
    out: list[float] = []
    for port in ports:
        decoder = protocol.Decoder()
        for at, data in port.writes:
            if any(isinstance(m, protocol.Leds | protocol.LedsPart) for _, m in decoder.feed(data)):
                out.append(at)
    out.sort()
    return out


def written_after(handed: float, written: list[float]) -> float | None:
    """When the first LED frame written after ``handed`` was done (None: none was)."""
    i = bisect.bisect_left(written, handed)
    return written[i] if i < len(written) else None


def ms(times: list[float]) -> str:
    s = sorted(times)
    p99 = s[min(len(s) - 1, int(len(s) * 0.99))]
    return (
        f"median {statistics.median(s) * 1000:6.3f}  p99 {p99 * 1000:6.3f}  "
        f"max {s[-1] * 1000:7.3f} ms"
    )


def _sounder(loop: Loop, profile: BoardProfile) -> Callable[..., None]:
    """The sound as the daemon's default ``[sound]`` hears the loop (cues on),
    on a board without a speaker (its pages may still play)."""
    return Sounder(SoundSettings(), None, local=lambda: datetime.now().astimezone())


def _publisher(loop: Loop, profile: BoardProfile) -> Callable[..., None]:
    """The web pages' publisher, as a daemon with ``[web] listen`` set has it."""
    return Publisher(profile, reports=loop.reports, palette_of=loop.palette_of)


#: the loop's watchers ``--watchers`` may add, in the daemon's order
WATCHERS: dict[str, Callable[[Loop, BoardProfile], Callable[..., None]]] = {
    "sound": _sounder,
    "web": _publisher,
}


#: the kinds of the loop's turns ``--profile`` tells apart
TURNS = {
    "change": "answering a change (no move played)",
    "move": "playing a move",
    "other": "answering no change (an animation's frame, a request)",
}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--changes", type=int, default=2000, help="sensor changes per game, through the MCU"
    )
    parser.add_argument("--moves", type=int, default=1000, help="moves per game, in process")
    parser.add_argument("--settle", type=float, default=0.04, help="the controller's settle (s)")
    parser.add_argument("--scan-ms", type=float, default=1.0, help="the firmware's scan period")
    parser.add_argument("--stable-scans", type=int, default=2, help="the firmware's debounce")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--db-dir",
        default=None,
        help="where the game database is written (default: the system's temporary directory); "
        "a directory on the file system to measure, e.g. an SD card's",
    )
    parser.add_argument("--games", nargs="*", default=list(GAMES), help="the games to run")
    parser.add_argument(
        "--watchers",
        nargs="*",
        choices=tuple(WATCHERS),
        default=[],
        help="the loop's watchers to add, as the daemon has them: sound (its default "
        "[sound] cues = true), web (with [web] listen set); none by default",
    )
    parser.add_argument(
        "--gc",
        choices=("loop", "python"),
        default="loop",
        help="who collects Python's garbage: the loop between turns, as the daemon's does "
        "(boardctl.controller.collecting), or Python whenever its threshold is crossed",
    )
    parser.add_argument(
        "--no-in-process", action="store_true", help="leave out the in-process table"
    )
    parser.add_argument(
        "--profile",
        type=int,
        default=0,
        metavar="N",
        help="profile the loop's turns (its CPU time) and print the N functions that took longest",
    )
    parser.add_argument(
        "--profile-turns",
        choices=tuple(TURNS),
        default="change",
        help="the turns to profile: "
        + "; ".join(f"{key}: those {what}" for key, what in TURNS.items()),
    )
    parser.add_argument(
        "--profile-by",
        choices=("cumulative", "tottime"),
        default="cumulative",
        help="the profile's order: time within a function and its callees, or within it alone",
    )
    args = parser.parse_args()
    games = [g for g in GAMES if g in args.games]
    timing = Timing(
        settle=args.settle, grace=5.0, takeback_hold=5.0, clear_hold=0.05, attract_after=0
    )
    print(
        f"Through the virtual microcontroller (real pty, reader thread, loop thread); "
        f"firmware: {args.stable_scans} stable scans, scan every {args.scan_ms:g} ms "
        f"(scanned again at once while debouncing); settle {args.settle * 1000:.0f} ms "
        "excluded (the controller's default is "
        f"{Timing().settle * 1000:.0f} ms)"
    )
    print(f"The game database: {args.db_dir or tempfile.gettempdir()} (WAL, synchronous=FULL)")
    print(f"The loop's watchers: {', '.join(args.watchers) or 'none'}")
    print(
        "Python's garbage collected "
        + ("by the loop between turns" if args.gc == "loop" else "by Python, at its thresholds")
    )
    for game in games:
        name = reference_profile(game)
        if name is None:
            print(f"{game}: no shipped board plays it; skipped")
            continue
        f = through_mcu(
            name,
            args.changes,
            timing,
            args.scan_ms,
            args.stable_scans,
            args.seed,
            args.db_dir,
            bool(args.profile),
            [w for w in WATCHERS if w in args.watchers],
            args.gc,
        )
        print(
            f"{game}: {f.changes} sensor changes in {f.moves} moves, {f.games} games "
            f"({f.unframed} changes left the frame as it was; {f.renamed} moves recorded "
            "under another notation with the same result)"
        )
        print(f"  software, host read -> frame:   {ms(f.read_to_frame)}   (target p99 < 2 ms)")
        print(f"    of which read -> queue:       {ms(f.read_to_queue)}")
        print(f"  firmware + pty, hand -> read:   {ms(f.hand_to_read)}")
        print(f"  whole, hand -> frame:           {ms(f.hand_to_frame)}")
        if f.frame_to_written:
            print(
                f"  frame handed -> written:        {ms(f.frame_to_written)}   "
                f"(the serial writer; {len(f.frame_to_written)} frames)"
            )
            print(
                f"  the serial writer's CPU, per frame: {f.writer_cpu * 1000:.3f} ms "
                "(encoding and writing it, on its own thread)"
            )
            print(f"  whole, hand -> frame written:   {ms(f.hand_to_written)}")
        print(f"  settle expired -> move's frame: {ms(f.settle_to_frame)}   ({f.moves} moves)")
        print(
            f"  loop CPU, turn answering a change: {ms(f.cpu_change)}   "
            "(target median 0.3, p99 1 ms)"
        )
        print(f"  loop CPU, turn playing a move:     {ms(f.cpu_move)}")
        print(f"  of which the database write, CPU:  {ms(f.store_cpu)}")
        print(f"  the database write, wall:          {ms(f.store_wall)}")
        for where, collected in f.collected.items():
            print(
                f"  garbage collected {where}, by generation: "
                + "; ".join(
                    f"{g}: {len(t)}" + (f", max {max(t) * 1000:.3f} ms" if t else "")
                    for g, t in collected.items()
                )
            )
        if args.profile:
            stats = f.profiles.get(args.profile_turns)
            if stats is None:
                print(f"  no turn {TURNS[args.profile_turns]} to profile ({game})")
            else:
                print(f"  the loop's turns {TURNS[args.profile_turns]}, profiled ({game}):")
                stats.sort_stats(args.profile_by).print_stats(args.profile)
    if args.no_in_process:
        return
    print(
        "In process (the loop fed directly on one thread, fake clock, settle excluded): "
        "change entering the loop -> frame"
    )
    for game in games:
        if reference_profile(game) is None:
            print(f"  {game:<10} no shipped board plays it; skipped")
            continue
        times = in_process(game, args.moves, seed=args.seed)
        print(f"  {game:<10} {args.moves} moves, {len(times)} changes: {ms(times)}")


if __name__ == "__main__":
    main()
