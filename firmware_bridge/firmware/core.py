"""The microcontroller's end of the link: sessions, reliable events, LEDs, heartbeats.

Runs under MicroPython and CPython alike. It owns no clock and no port: the
main loop passes ``now`` (milliseconds) and bytes in, and :class:`McuLink`
writes bytes out through the ``write`` callable it was given.
"""

try:
    from firmware_bridge import protocol as p
except ImportError:  # MicroPython: the modules sit flat on the board's filesystem
    import protocol as p  # type: ignore[import-not-found,no-redef]

try:
    from typing import TYPE_CHECKING
except ImportError:  # MicroPython
    TYPE_CHECKING = False  # type: ignore[misc]

if TYPE_CHECKING:
    from collections.abc import Callable

FIRMWARE_VERSION = (1, 0, 0)


def _plain_diff(a: int, b: int) -> int:
    return a - b


class McuLink:
    """The protocol engine of the firmware.

    ``values`` is the scanner's list of accepted readings (shared, not copied);
    ``changes`` must be called with every accepted change, in order, right after
    the scanner accepted it, so a snapshot always matches the event numbering.
    """

    def __init__(
        self,
        write: "Callable[[bytes], object]",
        values: "list[int]",
        kinds: bytes,
        led_count: int,
        board_id: str,
        boot_id: int,
        show_leds: "Callable[[bytes], object] | None" = None,
        ticks_diff: "Callable[[int, int], int] | None" = None,
        heartbeat_ms: int = 200,
        host_silence_ms: int = 750,
        resend_ms: int = 100,
        goback_ms: int = 5,
        audit_ms: int = 5000,
        max_unacked: int = 512,
        window: int = 64,
        chunk: int = 8,
        firmware: "tuple[int, int, int]" = FIRMWARE_VERSION,
    ) -> None:
        self.write = write
        self.values = values
        self.kinds = kinds
        self.led_count = led_count
        self.board_id = board_id
        self.boot_id = boot_id
        self.show_leds = show_leds
        self.diff = ticks_diff if ticks_diff is not None else _plain_diff
        self.heartbeat_ms = heartbeat_ms
        self.host_silence_ms = host_silence_ms
        self.resend_ms = resend_ms
        self.goback_ms = goback_ms
        self.audit_ms = audit_ms
        self.max_unacked = max_unacked
        self.window = window
        self.chunk = min(chunk, p.MAX_CHANGES_PER_FRAME)
        self.last_gap_snapshot = None  # type: int | None
        self.firmware = firmware
        self.decoder = p.Decoder()
        self.seq = 0
        self.connected = False
        self.next_event = 0
        # unacknowledged events: numbers base .. base + len(queue) - 1
        self.queue = []  # type: list[tuple[int, int]]
        self.base = 0
        self.send_next = 0
        self.gap = False
        self.last_rx = None  # type: int | None
        self.last_hb = None  # type: int | None
        self.last_audit = None  # type: int | None
        self.sent_at = None  # type: int | None
        self.last_goback = None  # type: int | None
        self.led_frame = 0
        # whether this session has had an LED frame (any number is newer than none)
        self.led_seen = False
        self.pending_leds = None  # type: bytes | None
        # the pixels of the newest frame taken (what a LEDS_PART changes)
        self.leds_now = None  # type: bytes | None
        # counters, for the notices and the virtual microcontroller's report
        self.frames_in = 0
        self.resends = 0
        self.gaps = 0
        self.leds_shown = 0

    # ------------------------------------------------------------ output

    def _send(self, msg: "p.Message") -> None:
        self.write(p.encode_message(msg, self.seq))
        self.seq = (self.seq + 1) & 0xFF

    def _hello(self) -> None:
        self._send(
            p.Hello(
                self.firmware,
                self.boot_id,
                self.kinds,
                self.led_count,
                self.next_event,
                self.board_id,
            )
        )

    def _snapshot(self, reason: int, now: int) -> None:
        self._send(p.Snapshot(reason, (self.next_event - 1) & 0xFFFF, list(self.values)))
        self.last_audit = now  # any snapshot serves as the audit

    def notice(self, level: int, text: str) -> None:
        """Send a line for the host's log."""
        self._send(p.Notice(level, text))

    # ------------------------------------------------------------ input

    def receive(self, data: bytes, now: int) -> None:
        """Bytes from the host."""
        for _seq, msg in self.decoder.feed(data):
            self.frames_in += 1
            self.last_rx = now
            if isinstance(msg, p.VersionMismatch):
                # tell the host what we speak; it refuses the link and says why
                self._hello()
            elif isinstance(msg, p.Connect):
                self._connect(now)
            elif isinstance(msg, p.Ack):
                self._ack(msg, now)
            elif isinstance(msg, p.Leds):
                self._leds(msg)
            elif isinstance(msg, p.LedsPart):
                self._leds_part(msg)

    def _connect(self, now: int) -> None:
        self.connected = True
        self.queue = []
        self.base = self.send_next = self.next_event
        self.gap = False
        self.sent_at = None
        # a new host (the service restarted) numbers its LED frames from the start
        self.led_frame = 0
        self.led_seen = False
        self._hello()
        self._snapshot(p.SNAP_CONNECT, now)

    def _ack(self, msg: "p.Ack", now: int) -> None:
        if not self.connected:
            return
        d = p.event_diff(msg.next_event, self.base)
        if d < 0:
            # the host misses events this end no longer has (its GAP snapshot was lost)
            if self.last_gap_snapshot is None or (
                self.diff(now, self.last_gap_snapshot) >= self.resend_ms
            ):
                self.last_gap_snapshot = now
                self._snapshot(p.SNAP_GAP, now)
            return
        if 0 < d <= len(self.queue):
            self.queue = self.queue[d:]
            self.base = msg.next_event
            if p.event_diff(self.send_next, self.base) < 0:
                self.send_next = self.base
            self.sent_at = now if self.queue else None
        if (
            msg.flags & p.ACK_GAP
            and self.queue
            and p.event_diff(msg.next_event, self.base) == 0
            and (self.last_goback is None or self.diff(now, self.last_goback) >= self.goback_ms)
        ):
            self._go_back(now)

    def _go_back(self, now: int) -> None:
        self.send_next = self.base
        self.last_goback = now
        self.resends += 1

    def _leds(self, msg: "p.Leds") -> None:
        if self.led_seen and p.event_diff(msg.frame, self.led_frame) <= 0:
            return  # an older frame, or one already shown
        self.led_seen = True
        self.led_frame = msg.frame
        pixels = msg.pixels
        want = 3 * self.led_count
        if len(pixels) != want:
            self.notice(
                1,
                "LED frame "
                + str(msg.frame)
                + " has "
                + str(len(pixels) // 3)
                + " LEDs, this board has "
                + str(self.led_count)
                + ": extra LEDs ignored, missing ones dark",
            )
            pixels = (pixels + bytes(want))[:want]
        self.pending_leds = self.leds_now = pixels

    def _leds_part(self, msg: "p.LedsPart") -> None:
        # only on the frame it changes; otherwise the host sends the whole frame again
        if not self.led_seen or msg.base != self.led_frame or self.leds_now is None:
            return
        if p.event_diff(msg.frame, self.led_frame) <= 0:
            return
        pixels = msg.apply(self.leds_now)
        if pixels is None:
            return
        self.led_frame = msg.frame
        self.pending_leds = self.leds_now = pixels

    # ------------------------------------------------------------ events

    def changes(self, changes: "list[tuple[int, int]]") -> None:
        """Accepted sensor changes, in the order the scanner accepted them."""
        if not self.connected:
            return  # the snapshot at CONNECT covers them
        for ch in changes:
            self.next_event = (self.next_event + 1) & 0xFFFF
            if self.gap:
                continue
            self.queue.append(ch)
            if len(self.queue) > self.max_unacked:
                # the host is gone too long: drop the queue, a snapshot covers it
                self.gap = True
                self.gaps += 1
                self.queue = []
        if self.gap:
            self.base = self.send_next = self.next_event

    # ------------------------------------------------------------ timing

    def host_silent(self, now: int) -> bool:
        return self.last_rx is None or self.diff(now, self.last_rx) >= self.host_silence_ms

    def poll(self, now: int) -> None:
        """Send whatever is due: events, resends, snapshots, heartbeats, LED output."""
        if self.pending_leds is not None:
            pixels = self.pending_leds
            self.pending_leds = None
            self.leds_shown += 1
            if self.show_leds is not None:
                self.show_leds(pixels)
        silent = self.host_silent(now)
        if silent and self.led_seen:
            # the host is gone: a game it no longer watches must not stay lit. Frame 0
            # in the heartbeats makes a host that comes back send its frame again.
            self.led_seen = False
            self.led_frame = 0
            self.leds_shown += 1
            if self.show_leds is not None:
                self.show_leds(bytes(3 * self.led_count))
        hb_due = self.last_hb is None or self.diff(now, self.last_hb) >= self.heartbeat_ms
        if not self.connected:
            if hb_due:
                self._hello()  # until a host connects, HELLO is the heartbeat
                self.last_hb = now
            return
        if not silent:
            if self.gap:
                self.gap = False
                self.last_gap_snapshot = now
                self._snapshot(p.SNAP_GAP, now)
            if (
                self.queue
                and self.sent_at is not None
                and self.diff(now, self.sent_at) >= self.resend_ms
            ):
                self._go_back(now)
            self._send_events(now)
            # the audit is due by time since the last snapshot, busy or not; it goes
            # between change batches, once every accepted change has been sent, so
            # a host that received them all compares it with its picture
            if (
                self.send_next == self.next_event
                and self.last_audit is not None
                and self.diff(now, self.last_audit) >= self.audit_ms
            ):
                self._snapshot(p.SNAP_AUDIT, now)
        if hb_due:
            self._send(
                p.Heartbeat(
                    self.boot_id,
                    self.next_event,
                    self.led_frame,
                    p.HB_HOST_SILENT if silent else 0,
                )
            )
            self.last_hb = now

    def _send_events(self, now: int) -> None:
        start = p.event_diff(self.send_next, self.base)
        # at most ``window`` events beyond the last acknowledged one are in flight
        n = min(len(self.queue), self.window)
        if start >= n:
            return
        while start < n:
            chunk = self.queue[start : min(n, start + self.chunk)]
            self._send(p.Changes((self.base + start) & 0xFFFF, chunk))
            start += len(chunk)
        self.send_next = (self.base + n) & 0xFFFF
        self.sent_at = now
