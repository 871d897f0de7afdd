"""A virtual microcontroller: the reference firmware behind a real pseudo-terminal.

It runs the firmware's own :class:`~firmware_bridge.firmware.scanner.Scanner` and
:class:`~firmware_bridge.firmware.core.McuLink` in a thread, reading a simulated
board that a test, the simulated board or a benchmark changes with
:meth:`VirtualMicrocontroller.place` and :meth:`~VirtualMicrocontroller.lift`.
The host opens :attr:`VirtualMicrocontroller.port` with pyserial exactly as it
opens a real board.

Unplugging closes the pty (the host's reads fail, as with a pulled USB cable)
and removes the stable symlink; replugging opens a new pty, points the same
symlink at it and boots the firmware afresh (a USB-powered board restarts when
plugged in), so the port's name survives while the ``/dev/pts/N`` behind it
changes, as ``/dev/serial/by-id/...`` does for a real board.

Faults (:class:`Faults`) are injected on the bytes in both directions and on
whole frames; :class:`FaultCounters` says how many really fired.
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import random
import select
import shutil
import tempfile
import threading
import time
import tty
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from boardctl.board import BoardProfile, Reports
from boardctl.sensing import LinkDown, LinkUp, SensorChange, SensorEvent, SensorSnapshot
from firmware_bridge import protocol as p
from firmware_bridge.firmware.core import McuLink
from firmware_bridge.firmware.scanner import Scanner

log = logging.getLogger(__name__)


#: what a site reports, as the microcontroller announces it in its HELLO
_KIND_OF_REPORT = {
    Reports.PRESENCE: p.KIND_PRESENCE,
    Reports.CODE: p.KIND_CODE,
    Reports.PULSE: p.KIND_PULSE,
    Reports.NONE: p.KIND_NONE,
}


def kinds_for(profile: BoardProfile) -> list[int]:
    """One ``KIND_*`` per sensor channel of a board (``kinds`` of the virtual
    microcontroller that stands in for it); unused channels report nothing."""
    kinds = [p.KIND_NONE] * profile.channel_count
    for site in profile.sites:
        if site.channel is not None:
            kinds[site.channel] = _KIND_OF_REPORT[site.reports]
    return kinds


@dataclass(frozen=True, slots=True)
class Faults:
    """What goes wrong on the wire. Byte faults are probabilities per byte."""

    #: flip one random bit of a byte
    flip: float = 0.0
    #: lose a byte
    drop: float = 0.0
    #: send a byte twice
    duplicate: float = 0.0
    #: send a random byte before this one
    insert: float = 0.0
    #: per frame: cut it short at a random point (the rest never leaves)
    truncate: float = 0.0
    #: per frame: send part of it, then the microcontroller resets
    reset_mid_frame: float = 0.0
    #: random bytes the board emits at every boot, before its first frame
    garbage_at_open: int = 0
    #: apply the byte faults to host -> microcontroller bytes as well
    to_mcu: bool = True
    seed: int | None = None


@dataclass(slots=True)
class FaultCounters:
    """How often each fault fired, and what the board did."""

    flips: int = 0
    drops: int = 0
    duplicates: int = 0
    inserts: int = 0
    truncations: int = 0
    resets: int = 0
    garbage_bytes: int = 0
    #: bytes lost because the host did not read and the pty buffer was full
    overflow_bytes: int = 0
    frames_sent: int = 0
    led_frames: int = 0


class VirtualMicrocontroller:
    """The reference firmware on a simulated board, behind a pty.

    ``kinds`` is one :data:`firmware_bridge.protocol` ``KIND_*`` per channel
    (default: presence for all). Use it as a context manager::

        with VirtualMicrocontroller(channels=77, leds=28) as mcu:
            source = SerialSensorSource(mcu.port)
            mcu.place(3, 1)
    """

    def __init__(
        self,
        channels: int = 77,
        leds: int = 0,
        *,
        kinds: Sequence[int] | None = None,
        board_id: str = "virtual",
        stable_scans: int = 2,
        scan_ms: float = 5.0,
        faults: Faults | None = None,
        heartbeat_ms: int = 200,
        host_silence_ms: int = 750,
        resend_ms: int = 100,
        audit_ms: int = 5000,
        max_unacked: int = 512,
    ) -> None:
        if kinds is not None and len(kinds) != channels:
            raise ValueError(
                f"kinds lists {len(kinds)} sensors but channels is {channels}: give one per channel"
            )
        self.channels = channels
        self.leds = leds
        self.kinds = bytes(kinds) if kinds is not None else bytes([p.KIND_PRESENCE] * channels)
        self.board_id = board_id
        self.stable_scans = stable_scans
        self.scan_ms = scan_ms
        self._link_options = (heartbeat_ms, host_silence_ms, resend_ms, audit_ms, max_unacked)
        self.faults = faults or Faults()
        self.counters = FaultCounters()
        self._rng = random.Random(self.faults.seed)
        #: the physical board: what lies on each sensor now
        self.board = [0] * channels
        #: every LED frame the firmware showed, oldest first
        self.led_frames: list[bytes] = []
        #: every change the firmware accepted: (boot_id, channel, value), in order
        self.accepted: list[tuple[int, int, int]] = []
        self.boot_ids: list[int] = []
        #: at every boot: (how many changes were accepted before it, the readings it primed)
        self.primes: list[tuple[int, tuple[int, ...]]] = []
        self._dir = tempfile.mkdtemp(prefix="boardctl-vmcu-")
        self._link_path = os.path.join(self._dir, f"usb-boardctl_virtual_{board_id}-if00")
        self._master: int | None = None
        self._slave: int | None = None
        self._pts = ""
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        self._commands: queue.Queue[tuple[Callable[[], None], threading.Event]] = queue.Queue()
        self._stop = False
        self._scanned = threading.Condition()
        self._reset_pending = False
        self._t0 = time.monotonic()
        self.link: McuLink
        self.scanner: Scanner
        self._plug()
        self._boot()
        self._thread = threading.Thread(target=self._run, name="virtual-mcu", daemon=True)
        self._thread.start()

    # ------------------------------------------------------------ public API

    @property
    def port(self) -> str:
        """The stable name to open: a symlink to the current ``/dev/pts/N``."""
        return self._link_path

    @property
    def pts(self) -> str:
        """The pseudo-terminal behind :attr:`port` now ('' while unplugged)."""
        return self._pts

    @property
    def boot_id(self) -> int:
        return self.link.boot_id

    def place(self, channel: int, code: int = 1) -> None:
        """Put a piece on sensor ``channel``; ``code`` is what the sensor reads (not 0)."""
        self._check_channel(channel)
        if code <= 0 or code > 0xFFFF:
            raise ValueError(f"piece code {code} on channel {channel}: use 1..65535 (0 is empty)")
        self.board[channel] = code
        self._wake()

    def lift(self, channel: int) -> None:
        """Take the piece off sensor ``channel``."""
        self._check_channel(channel)
        self.board[channel] = 0
        self._wake()

    def reset(self, timeout: float = 5.0, *, same_boot_id: bool = False) -> None:
        """Restart the firmware (new boot id); the board keeps its pieces.

        ``same_boot_id`` restarts it with the boot id it had, as a firmware
        whose boot id does not change between resets would.
        """
        boot_id = self.link.boot_id if same_boot_id else None
        self._call(lambda: self._boot(boot_id), timeout)

    def unplug(self, timeout: float = 5.0) -> None:
        """Pull the USB cable: the pty closes and the port's symlink disappears."""
        self._call(self._unplug, timeout)

    def replug(self, timeout: float = 5.0) -> None:
        """Plug it back: a new pty behind the same :attr:`port`, the firmware boots."""

        def replug() -> None:
            if self._master is None:
                self._plug()
                self._boot()

        self._call(replug, timeout)

    def set_faults(self, faults: Faults, timeout: float = 5.0) -> None:
        """Change the faults from now on (``Faults()`` for a clean line)."""

        def change() -> None:
            self.faults = faults
            if faults.seed is not None:
                self._rng = random.Random(faults.seed)

        self._call(change, timeout)

    def wait_scanned(self, timeout: float = 5.0) -> bool:
        """Wait until the firmware has accepted what lies on the board now."""
        with self._scanned:
            return self._scanned.wait_for(
                lambda: self.scanner.values == self.board and not self.scanner.pending(), timeout
            )

    def wait_until(self, predicate: Callable[[], bool], timeout: float) -> bool:
        """Wait until ``predicate()`` holds; it is checked after every firmware loop."""
        with self._scanned:
            return self._scanned.wait_for(predicate, timeout)

    def close(self) -> None:
        """Stop the firmware and remove the pty."""
        if self._stop:
            return
        self._stop = True
        self._wake()
        self._thread.join(timeout=5)
        self._unplug()
        os.close(self._wake_r)
        os.close(self._wake_w)
        shutil.rmtree(self._dir, ignore_errors=True)

    def __enter__(self) -> VirtualMicrocontroller:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return (
            f"VirtualMicrocontroller(channels={self.channels}, leds={self.leds}, "
            f"board_id={self.board_id!r})"
        )

    # ------------------------------------------------------------ internals

    def _check_channel(self, channel: int) -> None:
        if not 0 <= channel < self.channels:
            raise ValueError(
                f"channel {channel} does not exist: this board has 0..{self.channels - 1}"
            )

    def _wake(self) -> None:
        with contextlib.suppress(BlockingIOError, OSError):
            os.write(self._wake_w, b"x")

    def _call(self, fn: Callable[[], None], timeout: float) -> None:
        done = threading.Event()
        self._commands.put((fn, done))
        self._wake()
        if not done.wait(timeout):
            raise TimeoutError(f"the virtual microcontroller did not answer within {timeout} s")

    def now_ms(self) -> int:
        """The firmware's clock (milliseconds since this object was made)."""
        return int((time.monotonic() - self._t0) * 1000)

    def _plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self._pts = os.ttyname(slave)
        tmp = self._link_path + ".new"
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        os.symlink(self._pts, tmp)
        os.replace(tmp, self._link_path)

    def _unplug(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self._link_path)
        for fd in (self._master, self._slave):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._master = self._slave = None
        self._pts = ""

    def _boot(self, boot_id: int | None = None) -> None:
        if boot_id is None:
            boot_id = self._rng.getrandbits(32)
        self.boot_ids.append(boot_id)
        self.scanner = Scanner(lambda: list(self.board), self.channels, self.stable_scans)
        self.scanner.prime()
        self.primes.append((len(self.accepted), tuple(self.scanner.values)))
        self.link = McuLink(
            self._write,
            self.scanner.values,
            self.kinds,
            self.leds,
            self.board_id,
            boot_id,
            show_leds=self._show_leds,
            heartbeat_ms=self._link_options[0],
            host_silence_ms=self._link_options[1],
            resend_ms=self._link_options[2],
            audit_ms=self._link_options[3],
            max_unacked=self._link_options[4],
        )
        self._reset_pending = False
        if self.faults.garbage_at_open:
            junk = bytes(self._rng.getrandbits(8) for _ in range(self.faults.garbage_at_open))
            self.counters.garbage_bytes += len(junk)
            self._raw_write(junk)

    def _show_leds(self, pixels: bytes) -> None:
        self.led_frames.append(pixels)
        self.counters.led_frames += 1

    def _corrupt(self, data: bytes) -> bytes:
        f = self.faults
        if not (f.flip or f.drop or f.duplicate or f.insert):
            return data
        rng = self._rng.random
        c = self.counters
        out = bytearray()
        for b in data:
            if f.insert and rng() < f.insert:
                out.append(self._rng.getrandbits(8))
                c.inserts += 1
            if f.drop and rng() < f.drop:
                c.drops += 1
                continue
            if f.flip and rng() < f.flip:
                b ^= 1 << self._rng.randrange(8)
                c.flips += 1
            out.append(b)
            if f.duplicate and rng() < f.duplicate:
                out.append(b)
                c.duplicates += 1
        return bytes(out)

    def _write(self, frame: bytes) -> None:
        if self._reset_pending:
            return  # the firmware is resetting: nothing more leaves
        f = self.faults
        self.counters.frames_sent += 1
        if f.reset_mid_frame and self._rng.random() < f.reset_mid_frame:
            self.counters.resets += 1
            self._reset_pending = True
            frame = frame[: self._rng.randrange(len(frame))]
        elif f.truncate and self._rng.random() < f.truncate:
            self.counters.truncations += 1
            frame = frame[: self._rng.randrange(len(frame))]
        self._raw_write(self._corrupt(frame))

    def _raw_write(self, data: bytes) -> None:
        if self._master is None or not data:
            return
        try:
            n = os.write(self._master, data)
        except BlockingIOError:
            n = 0
        except OSError:
            return
        self.counters.overflow_bytes += len(data) - n

    def _run(self) -> None:
        try:
            self._loop()
        except Exception:
            log.exception("virtual microcontroller stopped")
            raise

    def _loop(self) -> None:
        scan_s = self.scan_ms / 1000
        next_scan = time.monotonic()
        while not self._stop:
            fds = [self._wake_r] if self._master is None else [self._wake_r, self._master]
            timeout = 0.0 if self.scanner.pending() else max(0.0, next_scan - time.monotonic())
            readable, _, _ = select.select(fds, [], [], timeout)
            if self._wake_r in readable:
                with contextlib.suppress(BlockingIOError):
                    os.read(self._wake_r, 4096)
            while not self._commands.empty():
                fn, done = self._commands.get()
                fn()
                done.set()
            if self._master is None:
                continue
            now = self.now_ms()
            if self._master in readable:
                try:
                    data = os.read(self._master, 65536)
                except (BlockingIOError, OSError):
                    data = b""
                if data:
                    if self.faults.to_mcu:
                        data = self._corrupt(data)
                    self.link.receive(data, now)
            changes = self.scanner.scan()
            if changes:
                boot = self.link.boot_id
                self.accepted.extend((boot, ch, v) for ch, v in changes)
                self.link.changes(changes)
            next_scan = time.monotonic() + scan_s
            with self._scanned:
                self._scanned.notify_all()
            self.link.poll(now)
            if self._reset_pending:
                self._boot()


class EventLog:
    """An ``emit`` callable that records events and the picture they paint.

    Tests and benchmarks wait on it (:meth:`wait_for`) instead of sleeping.
    """

    def __init__(self) -> None:
        self.events: list[SensorEvent] = []
        self.picture: list[int] = []
        self.up = False
        self.change_count = 0
        self.times: list[float] = []
        self._cond = threading.Condition()

    def __call__(self, event: SensorEvent) -> None:
        now = time.perf_counter()
        with self._cond:
            self.events.append(event)
            self.times.append(now)
            if isinstance(event, SensorSnapshot):
                self.picture = list(event.values)
            elif isinstance(event, SensorChange):
                self.picture[event.channel] = event.value
                self.change_count += 1
            elif isinstance(event, LinkUp):
                self.up = True
            elif isinstance(event, LinkDown):
                self.up = False
            self._cond.notify_all()

    def wait_for(self, predicate: Callable[[], bool], timeout: float) -> bool:
        with self._cond:
            return self._cond.wait_for(predicate, timeout)

    def changes(self) -> list[SensorChange]:
        with self._cond:
            return [e for e in self.events if isinstance(e, SensorChange)]


__all__ = ["EventLog", "FaultCounters", "Faults", "VirtualMicrocontroller"]
