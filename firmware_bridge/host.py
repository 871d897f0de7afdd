"""The serial link as a :class:`boardctl.sensing.SensorSource`.

:class:`SerialSensorSource` owns a reader thread and a writer thread. The
reader opens the port by its stable name, feeds
:class:`~firmware_bridge.link.HostLink` and hands every event to ``emit``; on
any port error it emits ``LinkDown``, closes the port and opens it again with a
growing delay, forever, until :meth:`SerialSensorSource.close`.

The writer writes what the link answers, one write at a time, without the lock:
nobody waits for the port. It also encodes it (COBS and CRC), so the loop that
hands over an LED frame only leaves it in the link. A board that stops taking
bytes (a wedged firmware, a USB adapter whose buffer is full) holds only the
writer; an LED frame handed over meanwhile waits in the link, replaced by any
newer one, and the newest is sent when the port is free. A write that does not
go through within the port's write timeout calls the link down, as a pulled
cable does.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from boardctl.sensing import Emit, LinkUp, SensorEvent
from firmware_bridge.errors import PortError
from firmware_bridge.link import HostLink, Identity, LinkState, LinkStats, encode_output
from firmware_bridge.serial_port import WRITE_TIMEOUT, Backoff, is_write_timeout, open_port

log = logging.getLogger(__name__)


class SerialSensorSource:
    """Sensor readings (and LED output) through the board's microcontroller.

    ``port`` is a stable name such as ``/dev/serial/by-id/usb-...``.
    ``expected_sensors`` (the board profile's channel count) refuses a board
    that reports another number of sensors. ``opener`` replaces
    :func:`firmware_bridge.serial_port.open_port` (tests).
    """

    def __init__(
        self,
        port: str,
        *,
        baudrate: int = 115200,
        expected_sensors: int | None = None,
        heartbeat: float = 0.2,
        silence: float = 0.75,
        backoff: Backoff | None = None,
        opener: Callable[[str], Any] | None = None,
    ) -> None:
        self.port = port
        self.baudrate = baudrate
        self._opener = opener or (lambda path: open_port(path, baudrate=baudrate))
        self._backoff = backoff or Backoff()
        self._link = HostLink(
            port_name=port,
            expected_sensors=expected_sensors,
            heartbeat=heartbeat,
            silence=silence,
        )
        self._lock = threading.Lock()
        self._up = threading.Condition(self._lock)
        #: rung (True) when the link may have output for a writer that sleeps (or on
        #: close): one call in C, where a ``Condition.notify`` is several in Python
        self._bell: queue.SimpleQueue[bool] = queue.SimpleQueue()
        #: the bell was rung and the writer has not yet found nothing to write
        #: (under the lock)
        self._rung = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._writer: threading.Thread | None = None
        self._serial: Any = None
        self._emit: Emit | None = None
        self._broken: str | None = None

    # ------------------------------------------------------------ SensorSource

    def start(self, emit: Emit) -> None:
        """Start the reader and writer threads; every event goes to ``emit``
        from the reader thread."""
        if self._thread is not None:
            raise RuntimeError(f"the serial source on {self.port} is already started")
        self._emit = emit
        self._writer = threading.Thread(
            target=self._write_loop, name=f"serial writer {self.port}", daemon=True
        )
        self._writer.start()
        self._thread = threading.Thread(target=self._run, name=f"serial {self.port}", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop the threads and close the port."""
        self._stop.set()
        self._bell.put(True)
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)
        self._close_port()  # also ends a write the board does not take
        if self._writer is not None and self._writer is not threading.current_thread():
            self._writer.join(timeout=5)

    def __enter__(self) -> SerialSensorSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------ extras

    def set_leds(self, pixels: bytes | Sequence[tuple[int, int, int]]) -> None:
        """Show ``pixels`` (bytes, r g b per LED of the chain, or an (r, g, b)
        per LED); only the newest frame matters. Never waits for the port: the
        writer thread sends the frame (or a newer one) when the port is free."""
        with self._lock:
            self._link.set_leds(pixels)
            self._link.poll(time.monotonic())
            self._flush_output()

    @property
    def stats(self) -> LinkStats:
        """A copy of the link's counters."""
        with self._lock:
            return replace(self._link.stats)

    @property
    def identity(self) -> Identity | None:
        """What the microcontroller said in its last HELLO, once the link was up."""
        with self._lock:
            return self._link.identity

    @property
    def is_up(self) -> bool:
        with self._lock:
            return self._link.state is LinkState.UP

    def wait_up(self, timeout: float) -> bool:
        """Block until the link is up or ``timeout`` passes; whether it is up."""
        with self._up:
            return self._up.wait_for(lambda: self._link.state is LinkState.UP, timeout)

    # ------------------------------------------------------------ the threads

    def _flush_output(self) -> None:
        """Wake the writer if the link has something to send and the writer
        may be asleep (lock held)."""
        if not self._rung and self._link.output_waiting:
            self._rung = True
            self._bell.put(True)

    def _write_loop(self) -> None:
        """The writer thread: what the link has to send, one write at a time,
        written with the lock released. It sleeps on the bell until the link
        has output and a port is open, or the source closes."""
        while True:
            self._bell.get()
            while True:
                with self._lock:
                    if self._stop.is_set():
                        return
                    ser = self._serial
                    if ser is None or not self._link.output_waiting:
                        self._rung = False  # asleep: the next output rings
                        break
                    messages = self._link.take_messages()
                    self._link.port_busy = True
                try:
                    out = encode_output(messages)
                except Exception:  # never the writer's silent end: a fault shown
                    log.exception("encoding the output for %s failed", self.port)
                    broken: str | None = (
                        "the output for the microcontroller could not be encoded "
                        "(a fault of boardctl: see its log)"
                    )
                else:
                    broken = self._write(ser, out)
                with self._lock:
                    self._link.port_busy = False
                    if broken is None:
                        self._link.poll(time.monotonic())  # the newest LED frame, if one waited
                    elif self._serial is ser:  # not an old port's write ending late
                        self._broken = broken

    def _write(self, ser: Any, out: bytes) -> str | None:
        """Write ``out``; None, or why the port is lost."""
        try:
            ser.write(out)
        except Exception as e:  # any write failure means a lost port
            log.debug("write to %s failed: %s", self.port, e)
            if is_write_timeout(e):
                return (
                    f"writes to the microcontroller stalled for {WRITE_TIMEOUT:g} s (its firmware "
                    "hung or its USB adapter is stuck): check its USB cable and power"
                )
            return f"write failed ({e})"
        return None

    def _deliver(self, events: list[SensorEvent]) -> None:
        assert self._emit is not None
        for ev in events:
            if isinstance(ev, LinkUp):
                self._backoff.reset()
            self._emit(ev)

    def _close_port(self) -> None:
        ser, self._serial = self._serial, None
        if ser is not None:
            try:
                ser.close()
            except Exception as e:  # closing a dead port may fail any way
                log.debug("closing %s: %s", self.port, e)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                ser = self._opener(self.port)
            except PortError as e:
                self._lost(str(e))
                self._stop.wait(self._backoff.next())
                continue
            with self._lock:
                self._serial = ser
                self._broken = None
                self._link.open(time.monotonic())
                self._flush_output()
            reason = self._read_until_error(ser)
            if self._stop.is_set():
                break  # closed on purpose: nobody listens for LinkDown any more
            self._lost(f"{self.port}: {reason}")
            self._close_port()
            self._stop.wait(self._backoff.next())

    def _lost(self, reason: str) -> None:
        with self._lock:
            self._link.port_lost(reason, time.monotonic())
            events = self._link.take_events()
        self._deliver(events)

    def _read_until_error(self, ser: Any) -> str:
        while not self._stop.is_set():
            try:
                data = ser.read(1)
                if data:
                    waiting = ser.in_waiting
                    if waiting:
                        data += ser.read(waiting)
            except Exception as e:  # pyserial raises several kinds on unplug
                return f"read failed ({e}); reconnecting"
            now = time.monotonic()
            with self._lock:
                if data:
                    self._link.feed(data, now)
                self._link.poll(now)
                self._flush_output()
                events = self._link.take_events()
                if any(isinstance(ev, LinkUp) for ev in events):
                    self._up.notify_all()
                broken = self._broken
            self._deliver(events)
            if broken is not None:
                return f"{broken}; reconnecting"
        return "closed"
