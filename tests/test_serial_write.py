"""A board that stops taking bytes never holds up the loop that sends it LED frames.

The loop hands its frame to the serial source and goes on; a writer thread of
the source does the writing. These tests stand a gate in the write path of a
real pty to the virtual microcontroller: while it is shut, every write blocks,
as it does when a wedged firmware stops reading or a USB adapter's buffer is
full. The loop's turn is measured by an event, not by a clock.
"""

from __future__ import annotations

import os
import select
import threading
from collections.abc import Iterator
from typing import Any

import pytest
import serial
from pty_support import fill

from firmware_bridge import protocol as p
from firmware_bridge.host import SerialSensorSource
from firmware_bridge.serial_port import Backoff, is_write_timeout, open_port
from firmware_bridge.virtual import EventLog, VirtualMicrocontroller

LEDS = 28


class GatedPort:
    """A pyserial port whose writes wait at a gate the test opens, or end
    with pyserial's write timeout when the test says the time is up."""

    def __init__(self, port: Any, gates: list[GatedPort]) -> None:
        self._port = port
        self._cond = threading.Condition()
        self._shut = False
        self._timed_out = False
        #: the writes that reached the gate while it was shut
        self.waiting = 0
        self.written: list[bytes] = []
        gates.append(self)

    def shut(self) -> None:
        with self._cond:
            self._shut = True

    def open(self) -> None:
        with self._cond:
            self._shut = False
            self._cond.notify_all()

    def time_out(self) -> None:
        """The write timeout passes: the blocked write fails as pyserial's does."""
        with self._cond:
            self._timed_out = True
            self._cond.notify_all()

    def write(self, data: bytes) -> int | None:
        with self._cond:
            if self._shut:
                self.waiting += 1
                self._cond.notify_all()
                self._cond.wait_for(lambda: not self._shut or self._timed_out, 10)
                if self._timed_out:
                    raise serial.SerialTimeoutException("Write timeout")
            self.written.append(bytes(data))
        return self._port.write(data)  # type: ignore[no-any-return]

    def wait_blocked(self, timeout: float = 5) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: self.waiting > 0, timeout)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._port, name)


@pytest.fixture
def gated() -> Iterator[
    tuple[VirtualMicrocontroller, SerialSensorSource, EventLog, list[GatedPort]]
]:
    gates: list[GatedPort] = []
    with (
        VirtualMicrocontroller(channels=8, leds=LEDS, scan_ms=2) as mcu,
        SerialSensorSource(
            mcu.port,
            backoff=Backoff(0.02, 0.2),
            opener=lambda path: GatedPort(open_port(path), gates),
        ) as src,
    ):
        log = EventLog()
        src.start(log)
        assert log.wait_for(lambda: log.up, 5)
        try:
            yield mcu, src, log, gates
        finally:
            for gate in gates:
                gate.open()


def frame(i: int) -> list[tuple[int, int, int]]:
    return [(i, 0, 255 - i)] * LEDS


def loop_turns(src: SerialSensorSource, frames: list[list[tuple[int, int, int]]]) -> bool:
    """Hand ``frames`` to the source as the loop does, one a turn, on a thread
    of their own; whether all the turns ended (while the gate stays shut)."""
    done = threading.Event()

    def turns() -> None:
        for f in frames:
            src.set_leds(f)
        done.set()

    threading.Thread(target=turns, name="loop", daemon=True).start()
    return done.wait(5)


def led_frame_numbers(writes: list[bytes]) -> set[int]:
    """The numbers of the LED frames (whole or in part) in ``writes``."""
    msgs = p.Decoder().feed(b"".join(writes))
    return {m.frame for _, m in msgs if isinstance(m, p.Leds | p.LedsPart)}


def test_a_board_that_stops_reading_does_not_hold_up_the_loop(gated) -> None:  # type: ignore[no-untyped-def]
    mcu, src, log, gates = gated
    gate = gates[-1]
    src.set_leds(frame(0))
    shown0 = bytes((0, 0, 255)) * LEDS
    assert mcu.wait_until(lambda: bool(mcu.led_frames) and mcu.led_frames[-1] == shown0, 5)
    gate.shut()
    before = len(gate.written)
    src.set_leds(frame(1))  # a write is now stuck at the gate (this frame, or an ACK before it)
    assert gate.wait_blocked()
    # the loop's turns go on while the board takes nothing
    assert loop_turns(src, [frame(i) for i in range(2, 40)]), "a loop turn waited for the port"
    assert log.up
    gate.open()
    newest = bytes((39, 0, 216)) * LEDS
    assert mcu.wait_until(lambda: mcu.led_frames[-1] == newest, 5)
    # only the newest frame matters: of the 39 frames handed over since the gate
    # shut, the stuck one (if it was a frame) and the newest went out, no others
    assert len(led_frame_numbers(gate.written[before:])) <= 2
    assert mcu.led_frames.count(bytes((20, 0, 235)) * LEDS) == 0


def test_writes_stalled_past_the_timeout_call_the_link_down_as_a_pulled_cable(gated) -> None:  # type: ignore[no-untyped-def]
    mcu, src, log, gates = gated
    gate = gates[-1]
    gate.shut()
    src.set_leds(frame(5))
    assert gate.wait_blocked()
    assert loop_turns(src, [frame(6)])
    gate.time_out()  # the write timeout passes: the board took nothing all that time
    assert log.wait_for(lambda: not log.up, 5)
    downs = [e.reason for e in log.events if type(e).__name__ == "LinkDown"]
    assert "writes to the microcontroller stalled" in downs[-1] and "USB cable" in downs[-1], downs[
        -1
    ]
    # reconnected by the same name: the newest frame is shown again
    assert log.wait_for(lambda: log.up, 5)
    assert len(gates) >= 2
    newest = bytes((6, 0, 249)) * LEDS
    assert mcu.wait_until(lambda: bool(mcu.led_frames) and mcu.led_frames[-1] == newest, 5)
    assert src.stats.reconnects >= 1


class _EnteredPort:
    """A real pyserial port that says when a write has begun."""

    def __init__(self, port: Any, writing: threading.Event) -> None:
        self._port = port
        self.writing = writing

    def write(self, data: bytes) -> int | None:
        self.writing.set()
        return self._port.write(data)  # type: ignore[no-any-return]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._port, name)


def test_closing_ends_a_write_the_board_does_not_take_at_once() -> None:
    """A real pty nobody reads, its buffer full: the writer's write waits for
    the board (here up to a minute). Closing the source ends it: the writer
    thread has ended when ``close`` returns."""
    master, slave = os.openpty()
    writing = threading.Event()

    def opener(path: str) -> _EnteredPort:
        ser = open_port(path)
        fill(ser.fd)  # the board takes nothing more
        ser.write_timeout = 60
        return _EnteredPort(ser, writing)

    try:
        src = SerialSensorSource(os.ttyname(slave), backoff=Backoff(0.02, 0.2), opener=opener)
        src.start(EventLog())
        src.set_leds(frame(1))
        assert writing.wait(5), "no write began"
        src.close()
        assert src._writer is not None and not src._writer.is_alive(), (
            "the write still waited for the board after close"
        )
    finally:
        os.close(master)
        os.close(slave)


def test_the_loop_hands_its_frame_over_and_the_writer_encodes_it(gated, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """COBS and the CRC are the writer's work: the loop's turn only leaves the
    frame in the link (and the frame still reaches the board as it was)."""
    mcu, src, _log, _gates = gated
    encoded_on: list[str] = []
    encode = p.encode_message

    def recording(msg: p.Message, seq: int) -> bytes:
        if isinstance(msg, p.Leds | p.LedsPart):
            encoded_on.append(threading.current_thread().name)
        return encode(msg, seq)

    monkeypatch.setattr(p, "encode_message", recording)
    for i in (3, 4):
        assert loop_turns(src, [frame(i)])
        shown = bytes((i, 0, 255 - i)) * LEDS
        assert mcu.wait_until(lambda shown=shown: mcu.led_frames[-1:] == [shown], 5)
    assert encoded_on and "loop" not in encoded_on
    assert all(name.startswith("serial writer") for name in encoded_on), encoded_on


def test_a_frame_the_writer_cannot_encode_is_a_fault_shown_and_the_link_comes_back(  # type: ignore[no-untyped-def]
    gated, monkeypatch
) -> None:
    """The writer encodes on its own thread: an encoding that fails must not
    end that thread (the LEDs frozen for good, no fault shown), but call the
    link down, and the next frame goes out once the link is up again."""
    mcu, src, log, _gates = gated
    encode = p.encode_message
    failed: list[str] = []

    def failing_once(msg: p.Message, seq: int) -> bytes:
        if isinstance(msg, p.Leds | p.LedsPart) and not failed:
            failed.append(threading.current_thread().name)
            raise ValueError("a frame that cannot be encoded")
        return encode(msg, seq)

    monkeypatch.setattr(p, "encode_message", failing_once)
    assert loop_turns(src, [frame(7)])
    assert log.wait_for(lambda: not log.up, 5), "no fault came of the failed encoding"
    downs = [e.reason for e in log.events if type(e).__name__ == "LinkDown"]
    assert "could not be encoded" in downs[-1], downs[-1]
    assert log.wait_for(lambda: log.up, 5)
    assert loop_turns(src, [frame(8)])
    newest = bytes((8, 0, 247)) * LEDS
    assert mcu.wait_until(lambda: bool(mcu.led_frames) and mcu.led_frames[-1] == newest, 5)
    assert src._writer is not None and src._writer.is_alive()


def test_a_board_that_takes_nothing_is_waited_for_not_written_to_again_and_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A real pty nobody reads, its buffer full: the port's write waits until
    the board takes bytes (pyserial's own retried the refused write in a loop
    for the whole write timeout, a core busy on the writer's thread), and
    still gives up as a write timeout."""
    master, slave = os.openpty()
    try:
        ser = open_port(os.ttyname(slave))
        fill(ser.fd)
        ser.write_timeout = 0.3
        tries: list[int] = []
        write = os.write

        def counting(fd: int, data: Any) -> int:
            if fd == ser.fd:
                tries.append(len(data))
            return write(fd, data)

        monkeypatch.setattr(os, "write", counting)
        with pytest.raises(serial.SerialTimeoutException) as stalled:
            ser.write(bytes(300))
        monkeypatch.undo()
        assert is_write_timeout(stalled.value)
        assert len(tries) <= 3, f"the full port was written to {len(tries)} times"
        # once the board reads again, the write goes through
        ser.write_timeout = 5
        drained = threading.Event()

        def board_reads() -> None:
            while not drained.is_set():
                if select.select([master], [], [], 0.05)[0]:
                    os.read(master, 65536)

        reader = threading.Thread(target=board_reads, daemon=True)
        reader.start()
        try:
            assert ser.write(b"\x01" * 20000) == 20000
        finally:
            drained.set()
            reader.join(5)
            ser.close()
    finally:
        os.close(master)
        os.close(slave)
