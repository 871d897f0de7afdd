"""The host's end of the link as a pure state machine: bytes and time in, events out.

:class:`HostLink` does no I/O, starts no threads and never reads the clock: the
reader thread in :mod:`firmware_bridge.host` feeds it bytes with the time they
arrived, calls :meth:`HostLink.poll` for timers, writes what
:meth:`HostLink.take_output` returns and emits what
:meth:`HostLink.take_events` returns. Tests drive it with a scripted peer.

States: ``CONNECTING`` (CONNECT sent, waiting for HELLO and its SNAPSHOT),
``UP`` (session established, changes flow), ``REFUSED`` (the microcontroller
speaks another major version or has another sensor count; retried slowly in
case it is reflashed).
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Sequence
from dataclasses import dataclass

from boardctl.sensing import LinkDown, LinkUp, SensorChange, SensorEvent, SensorSnapshot
from firmware_bridge import protocol as p
from firmware_bridge.errors import BridgeError

log = logging.getLogger(__name__)

KIND_NAMES = {
    p.KIND_NONE: "none",
    p.KIND_PRESENCE: "presence",
    p.KIND_CODE: "code",
    p.KIND_PULSE: "pulse",
}


#: how far ahead of a gap the host keeps events while the gap is resent
MAX_AHEAD = 1024


def encode_output(messages: Sequence[tuple[p.Message, int]]) -> bytes:
    """The wire bytes of ``messages`` (each with its sequence number), in order."""
    return b"".join([p.encode_message(msg, seq) for msg, seq in messages])


class LinkState(enum.Enum):
    CONNECTING = "connecting"
    UP = "up"
    REFUSED = "refused"


@dataclass(frozen=True, slots=True)
class Identity:
    """What the microcontroller said about itself in HELLO."""

    protocol: tuple[int, int]
    firmware: tuple[int, int, int]
    board_id: str
    boot_id: int
    kinds: tuple[str, ...]
    led_count: int

    def describe(self) -> str:
        fw = ".".join(str(x) for x in self.firmware)
        return (
            f"board {self.board_id!r}, firmware {fw}, protocol {self.protocol[0]}."
            f"{self.protocol[1]}, {len(self.kinds)} sensors, {self.led_count} LEDs, "
            f"boot {self.boot_id:08x}"
        )


@dataclass(slots=True)
class LinkStats:
    """Counters of what the link saw; faults show up here."""

    frames_ok: int = 0
    #: frames whose COBS, length, CRC or body was wrong
    crc_errors: int = 0
    #: runs of bytes longer than any frame, dropped
    overlong: int = 0
    #: frames the sequence numbers say were lost
    seq_skips: int = 0
    changes: int = 0
    duplicates_dropped: int = 0
    #: CHANGES frames that skipped events (answered with a go-back ACK)
    gaps: int = 0
    #: snapshots that replaced the picture mid-session (after a gap or a re-handshake)
    resyncs: int = 0
    audits_ok: int = 0
    audit_mismatches: int = 0
    sessions: int = 0
    mcu_resets: int = 0
    link_downs: int = 0
    #: times the serial port was opened again after an error
    reconnects: int = 0
    version_refusals: int = 0
    led_frames_sent: int = 0
    #: of those, the frames sent as the LEDs that changed (LEDS_PART, since 1.1)
    led_parts_sent: int = 0
    #: the LED bytes sent (r g b per LED, whole frames and parts)
    led_bytes_sent: int = 0
    notices: int = 0


class LinkRefused(BridgeError, ValueError):
    """The microcontroller cannot be used with this host (version or sensor count)."""


class HostLink:
    """The protocol engine of the host. Not thread-safe: one owner calls it."""

    def __init__(
        self,
        *,
        port_name: str = "serial port",
        expected_sensors: int | None = None,
        heartbeat: float = 0.2,
        silence: float = 0.75,
        connect_retry: float = 0.3,
        refused_retry: float = 2.0,
        led_retry: float = 0.1,
    ) -> None:
        self.port_name = port_name
        self.expected_sensors = expected_sensors
        self.heartbeat = heartbeat
        self.silence = silence
        self.connect_retry = connect_retry
        self.refused_retry = refused_retry
        self.led_retry = led_retry
        self.stats = LinkStats()
        self.state = LinkState.CONNECTING
        self.identity: Identity | None = None
        self.picture: list[int] = []
        self.refusal: str | None = None
        self._decoder = p.Decoder()
        self._events: list[SensorEvent] = []
        #: the messages waiting to be written, each with its sequence number
        self._out: list[tuple[p.Message, int]] = []
        self._seq = 0
        self._rx_seq: int | None = None
        self._nonce = 0
        self._pending: p.Hello | None = None
        self._expected = 0
        # events that arrived ahead of a gap, by event number, until the gap fills
        self._ahead: dict[int, tuple[int, int]] = {}
        self._last_rx = 0.0
        self._last_connect = 0.0
        self._last_ack = 0.0
        self._announced_down = False
        self._open = False
        # LED state: the newest frame and whether the board showed it
        self._leds: bytes | None = None
        self._led_no = 0
        self._led_sent_at: float | None = None
        self._led_shown = -1
        #: the number and bytes of the last frame sent (what a part changes)
        self._sent: tuple[int, bytes] | None = None
        #: the port is still writing earlier output: LED frames wait, and only
        #: the newest is sent once it is free (older ones are never encoded)
        self.port_busy = False

    # ------------------------------------------------------------ outputs

    @property
    def output_waiting(self) -> bool:
        """Whether :meth:`take_output` has bytes to give."""
        return bool(self._out)

    def take_output(self) -> bytes:
        """The bytes of every message waiting (see :meth:`take_messages`)."""
        return encode_output(self.take_messages())

    def take_messages(self) -> list[tuple[p.Message, int]]:
        """The messages waiting to be written, oldest first, each with its
        sequence number; :func:`encode_output` makes their bytes."""
        out = self._out
        self._out = []
        return out

    def take_events(self) -> list[SensorEvent]:
        ev = self._events
        self._events = []
        return ev

    def _send(self, msg: p.Message) -> None:
        self._out.append((msg, self._seq))
        self._seq = (self._seq + 1) & 0xFF

    def _connect(self, now: float) -> None:
        self._nonce = (self._nonce + 1) & 0xFFFFFFFF
        self._send(p.Connect(self._nonce))
        self._last_connect = now

    def _ack(self, now: float, flags: int = 0) -> None:
        self._send(p.Ack(self._expected & 0xFFFF, flags))
        self._last_ack = now

    def _down(self, reason: str) -> None:
        if self.state is LinkState.UP:
            self.stats.link_downs += 1
        if not self._announced_down:
            self._events.append(LinkDown(reason))
            self._announced_down = True
            log.warning("link down: %s", reason)

    # ------------------------------------------------------------ port

    def open(self, now: float) -> None:
        """The port was opened: start a session."""
        if self._open:
            return
        self._open = True
        self._decoder = p.Decoder()
        self._rx_seq = None
        self._pending = None
        self.state = LinkState.CONNECTING
        self._last_rx = now
        self._connect(now)

    def port_lost(self, reason: str, now: float) -> None:
        """The port failed or could not be opened."""
        if self._open:
            self.stats.reconnects += 1
        self._open = False
        self._down(reason)
        self.state = LinkState.CONNECTING
        self._out = []

    # ------------------------------------------------------------ LEDs

    def set_leds(self, pixels: bytes | Sequence[tuple[int, int, int]]) -> None:
        """The newest LED frame (bytes, ``r g b`` per LED in the chain's
        order, or one ``(r, g, b)`` per LED); sent now if the link is up,
        else once it is."""
        if isinstance(pixels, bytes | bytearray):
            if len(pixels) % 3:
                raise ValueError(f"an LED frame of {len(pixels)} bytes: give three per LED")
            data = bytes(pixels)
        else:
            buf = bytearray()
            for i, px in enumerate(pixels):
                if len(px) != 3 or not all(0 <= c <= 255 for c in px):
                    raise ValueError(f"LED {i} is {px!r}: give (r, g, b) with each value in 0..255")
                buf += bytes(px)
            data = bytes(buf)
        if len(data) + 7 + p.HEADER_LEN + p.CRC_LEN > p.MAX_PAYLOAD:
            raise ValueError(
                f"{len(data) // 3} LEDs do not fit in one frame: at most "
                f"{(p.MAX_PAYLOAD - 12) // 3} over the serial link"
            )
        self._leds = data
        self._led_no = (self._led_no + 1) & 0xFFFF
        self._led_sent_at = None

    def _send_leds(self, now: float) -> None:
        leds = self._leds
        if self.state is not LinkState.UP or leds is None or self.port_busy:
            return
        if self._led_shown == self._led_no:
            return
        if self._led_sent_at is not None and now - self._led_sent_at < self.led_retry:
            return
        sent = self._sent
        if (
            self._led_sent_at is None  # sent again (not shown yet): whole
            and sent is not None
            and len(sent[1]) == len(leds)
            and self.identity is not None
            and self.identity.protocol[1] >= 1
        ):
            # only the LEDs that changed since the frame sent last, as Klipper's
            # neopixel module sends the changed part of its colour data
            first, end = p.changed_range(sent[1], leds)
            self._send(p.LedsPart(self._led_no, sent[0], first, leds[3 * first : 3 * end]))
            self.stats.led_parts_sent += 1
            self.stats.led_bytes_sent += 3 * (end - first)
        else:
            self._send(p.Leds(self._led_no, leds))
            self.stats.led_bytes_sent += len(leds)
        self._sent = (self._led_no, leds)
        self._led_sent_at = now
        self.stats.led_frames_sent += 1

    # ------------------------------------------------------------ input

    def feed(self, data: bytes, now: float) -> None:
        """Bytes read from the port at time ``now``."""
        before_err = self._decoder.errors
        before_long = self._decoder.splitter.overlong
        ack = False
        gap = False
        for seq, msg in self._decoder.feed(data):
            if isinstance(msg, p.VersionMismatch):
                self._refuse(str(msg))
                continue
            self.stats.frames_ok += 1
            self._last_rx = now
            if self._rx_seq is not None and seq != (self._rx_seq + 1) & 0xFF:
                self.stats.seq_skips += 1
            self._rx_seq = seq
            if isinstance(msg, p.Changes):
                got, skipped = self._changes(msg)
                ack = ack or got
                gap = gap or skipped
            elif isinstance(msg, p.Snapshot):
                ack = self._snapshot(msg, now) or ack
            elif isinstance(msg, p.Heartbeat):
                gap = self._heartbeat(msg, now) or gap
            elif isinstance(msg, p.Hello):
                self._hello(msg, now)
            elif isinstance(msg, p.Notice):
                self.stats.notices += 1
                level = (logging.INFO, logging.WARNING, logging.ERROR)[min(msg.level, 2)]
                log.log(level, "microcontroller on %s: %s", self.port_name, msg.text)
        self.stats.crc_errors += self._decoder.errors - before_err
        self.stats.overlong += self._decoder.splitter.overlong - before_long
        if self.state is LinkState.UP and (ack or gap):
            self._ack(now, p.ACK_GAP if gap else 0)
        self._send_leds(now)

    def _refuse(self, reason: str) -> None:
        self.stats.version_refusals += 1
        if self.state is not LinkState.REFUSED:
            log.error("%s: %s", self.port_name, reason)
            self._down(reason)
            self.state = LinkState.REFUSED
            self.refusal = reason

    def _hello(self, msg: p.Hello, now: float) -> None:
        if self.state is LinkState.UP:
            assert self.identity is not None
            if msg.boot_id == self.identity.boot_id and now - self._last_connect <= self.silence:
                return  # an answer to an earlier CONNECT; its SNAPSHOT is checked
            # a HELLO that answers no CONNECT: the microcontroller restarted (its
            # boot id may repeat) and waits for a host
            self.stats.mcu_resets += 1
            self._down(f"the microcontroller on {self.port_name} restarted")
            self.state = LinkState.CONNECTING
            self._connect(now)
        if self.state is LinkState.REFUSED:
            self.state = LinkState.CONNECTING  # a HELLO of our major: maybe reflashed
            self.refusal = None
        if self.expected_sensors is not None and len(msg.kinds) != self.expected_sensors:
            self._refuse(
                f"the microcontroller on {self.port_name} reports {len(msg.kinds)} sensors "
                f"but the board profile expects {self.expected_sensors}: flash the firmware "
                "configured for this board or choose the matching profile"
            )
            return
        self._pending = msg

    def _snapshot(self, msg: p.Snapshot, now: float) -> bool:
        if self.state is LinkState.CONNECTING:
            hello = self._pending
            if hello is None or msg.reason != p.SNAP_CONNECT or len(msg.values) != len(hello.kinds):
                return False
            self.identity = Identity(
                (p.PROTOCOL_MAJOR, hello.minor),
                (hello.firmware[0], hello.firmware[1], hello.firmware[2]),
                hello.board_id,
                hello.boot_id,
                tuple(KIND_NAMES[k] for k in hello.kinds),
                hello.led_count,
            )
            self._pending = None
            self.state = LinkState.UP
            self._announced_down = False
            self._expected = (msg.event + 1) & 0xFFFF
            self._ahead.clear()
            self.picture = list(msg.values)
            self.stats.sessions += 1
            self._led_shown = -1
            self._led_sent_at = None
            self._sent = None  # a new session: the MCU has no frame to change
            desc = f"{self.port_name}: {self.identity.describe()}"
            log.info("link up: %s", desc)
            self._events.append(LinkUp(desc))
            self._events.append(SensorSnapshot(tuple(msg.values)))
            return True
        if self.state is not LinkState.UP or len(msg.values) != len(self.picture):
            return False
        caught_up = msg.event == (self._expected - 1) & 0xFFFF
        if msg.reason == p.SNAP_AUDIT:
            if caught_up:
                if msg.values == self.picture:
                    self.stats.audits_ok += 1
                else:
                    self.stats.audit_mismatches += 1
                    log.warning("audit snapshot differs from the events received; adopting it")
                    self._adopt(msg)
            return False
        if p.event_diff(msg.event, (self._expected - 1) & 0xFFFF) < 0:
            return False  # older than what we have
        if not (caught_up and msg.values == self.picture):
            self.stats.resyncs += 1
            self._adopt(msg)
        self._expected = (msg.event + 1) & 0xFFFF
        self._ahead = {n: r for n, r in self._ahead.items() if p.event_diff(n, self._expected) >= 0}
        return True

    def _adopt(self, msg: p.Snapshot) -> None:
        self._ahead.clear()
        self.picture = list(msg.values)
        self._events.append(SensorSnapshot(tuple(msg.values)))

    def _changes(self, msg: p.Changes) -> tuple[bool, bool]:
        if self.state is not LinkState.UP:
            return False, False
        gap = False
        for i, record in enumerate(msg.changes):
            n = (msg.first + i) & 0xFFFF
            d = p.event_diff(n, self._expected)
            if d < 0 or (d > 0 and n in self._ahead):
                self.stats.duplicates_dropped += 1
            elif d > 0:
                if not gap:
                    self.stats.gaps += 1
                    gap = True
                if d <= MAX_AHEAD:
                    self._ahead[n] = record
            else:
                self._deliver(record)
                while self._expected in self._ahead:
                    self._deliver(self._ahead.pop(self._expected))
        return True, gap or bool(self._ahead)

    def _deliver(self, record: tuple[int, int]) -> None:
        ch, value = record
        self._expected = (self._expected + 1) & 0xFFFF
        if ch >= len(self.picture):
            log.error(
                "microcontroller on %s reports channel %d of a %d-sensor board; ignored",
                self.port_name,
                ch,
                len(self.picture),
            )
            return
        self.picture[ch] = value
        self.stats.changes += 1
        self._events.append(SensorChange(ch, value))

    def _heartbeat(self, msg: p.Heartbeat, now: float) -> bool:
        if self.state is not LinkState.UP:
            return False
        assert self.identity is not None
        if msg.boot_id != self.identity.boot_id:
            self.stats.mcu_resets += 1
            self._down(f"the microcontroller on {self.port_name} restarted")
            self.state = LinkState.CONNECTING
            self._connect(now)
            return False
        self._led_shown = msg.led_frame if self._leds is not None else -1
        if msg.led_frame == 0:
            self._sent = None  # blanked (the host was silent): nothing to change
        return p.event_diff(msg.next_event, self._expected) > 0

    # ------------------------------------------------------------ timers

    def poll(self, now: float) -> None:
        """Timers: silence, CONNECT retries, heartbeats, LED resends."""
        if not self._open:
            return
        if self.state is LinkState.UP:
            if now - self._last_rx > self.silence:
                self._down(
                    f"no frame from the microcontroller on {self.port_name} for "
                    f"{now - self._last_rx:.2f} s: check its USB cable and power"
                )
                self.state = LinkState.CONNECTING
                self._connect(now)
            elif now - self._last_ack >= self.heartbeat:
                self._ack(now)
        elif self.state is LinkState.CONNECTING:
            if now - self._last_connect >= self.connect_retry:
                if now - self._last_rx > self.silence and not self._announced_down:
                    self._down(
                        f"the microcontroller on {self.port_name} does not answer: "
                        "check that it runs the boardctl firmware (docs/firmware.md)"
                    )
                self._connect(now)
        elif now - self._last_connect >= self.refused_retry:
            self._connect(now)
        self._send_leds(now)
