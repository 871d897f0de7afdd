"""Frames that pass the CRC around random bodies, and the harness that feeds them to each end.

Random bytes almost never pass the CRC, so they test the framing and nothing
behind it. The frames made here carry a valid CRC and (almost always) the
protocol's version around bodies of every message type: well formed with random
fields, truncated, overlong, with a byte changed, wholly random, or with a
random type byte. :func:`run_decoder`, :func:`run_host` and :func:`run_mcu` feed
them to :class:`~firmware_bridge.protocol.Decoder`, the host's
:class:`~firmware_bridge.link.HostLink` and the firmware's
:class:`~firmware_bridge.firmware.core.McuLink`, in chunks, with garbage
between frames and port losses between segments.

Randomness comes from a :class:`Picker`: :class:`RandomPicker` wraps
:class:`random.Random` (``bench/fuzz_frames.py``); the property tests wrap
hypothesis's ``draw`` so that failures shrink.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Protocol

from boardctl.sensing import SensorEvent
from firmware_bridge import protocol as p
from firmware_bridge.firmware.core import McuLink
from firmware_bridge.link import HostLink, LinkStats

#: types the microcontroller sends, and the host
TO_HOST = (p.HELLO, p.SNAPSHOT, p.CHANGES, p.HEARTBEAT, p.NOTICE)
TO_MCU = (p.CONNECT, p.ACK, p.LEDS, p.LEDS_PART)
#: the sensor count of the sessions the harness opens
SENSORS = 4
#: the boot id of the microcontroller the host side talks to
BOOT_ID = 0x1234ABCD


class Picker(Protocol):
    """A source of random choices."""

    def integer(self, lo: int, hi: int) -> int:
        """An integer in ``lo .. hi``, both included."""
        ...

    def binary(self, n: int) -> bytes:
        """``n`` random bytes."""
        ...


class RandomPicker:
    """A :class:`Picker` over :class:`random.Random`."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def integer(self, lo: int, hi: int) -> int:
        return self.rng.randint(lo, hi)

    def binary(self, n: int) -> bytes:
        return self.rng.randbytes(n)


def _u16(pick: Picker) -> int:
    # event numbers, channels and counts near the session's matter most
    return pick.integer(0, 40) if pick.integer(0, 3) else pick.integer(0, 0xFFFF)


def _put16(out: bytearray, v: int) -> None:
    out += bytes(((v >> 8) & 0xFF, v & 0xFF))


def well_formed_body(pick: Picker, msg_type: int) -> bytes:
    """A body of ``msg_type`` in the right shape, with random (sometimes invalid) fields."""
    out = bytearray()
    if msg_type == p.HELLO:
        count = SENSORS if pick.integer(0, 2) else pick.integer(0, 20)
        bid = pick.binary(pick.integer(0, 12))
        out += pick.binary(3)  # firmware version
        out += BOOT_ID.to_bytes(4, "big") if pick.integer(0, 2) else pick.binary(4)
        _put16(out, count)
        _put16(out, _u16(pick))  # LEDs
        _put16(out, _u16(pick))  # next event
        out.append(len(bid))
        out += bid
        out += bytes(
            pick.integer(0, 3) if pick.integer(0, 7) else pick.integer(0, 255) for _ in range(count)
        )
    elif msg_type == p.SNAPSHOT:
        count = SENSORS if pick.integer(0, 2) else pick.integer(0, 20)
        out.append(pick.integer(0, 3))
        _put16(out, _u16(pick))
        _put16(out, count)
        for _ in range(count):
            _put16(out, pick.integer(0, 3) if pick.integer(0, 3) else pick.integer(0, 0xFFFF))
    elif msg_type == p.CHANGES:
        count = pick.integer(0, p.MAX_CHANGES_PER_FRAME + 1)
        _put16(out, _u16(pick))
        out.append(count)
        for _ in range(count):
            _put16(out, pick.integer(0, SENSORS + 1) if pick.integer(0, 7) else _u16(pick))
            _put16(out, pick.integer(0, 3) if pick.integer(0, 3) else pick.integer(0, 0xFFFF))
    elif msg_type == p.HEARTBEAT:
        out += BOOT_ID.to_bytes(4, "big") if pick.integer(0, 2) else pick.binary(4)
        _put16(out, _u16(pick))
        _put16(out, _u16(pick))
        out.append(pick.integer(0, 255))
    elif msg_type == p.NOTICE:
        out.append(pick.integer(0, 255))
        out += pick.binary(pick.integer(0, 24) if pick.integer(0, 3) else p.MAX_NOTICE + 1)
    elif msg_type == p.CONNECT:
        out += pick.binary(4)
    elif msg_type == p.ACK:
        _put16(out, _u16(pick))
        out.append(pick.integer(0, 3) if pick.integer(0, 3) else pick.integer(0, 255))
    elif msg_type == p.LEDS:
        count = pick.integer(0, 6) if pick.integer(0, 3) else pick.integer(0, 600)
        _put16(out, _u16(pick))
        _put16(out, count)
        out += pick.binary(3 * count)
    elif msg_type == p.LEDS_PART:
        count = pick.integer(0, 6) if pick.integer(0, 3) else pick.integer(0, 600)
        _put16(out, _u16(pick))
        _put16(out, _u16(pick))
        _put16(out, pick.integer(0, 8) if pick.integer(0, 3) else _u16(pick))
        _put16(out, count)
        out += pick.binary(3 * count)
    else:
        out += pick.binary(pick.integer(0, 16))
    return bytes(out)


def fuzz_body(pick: Picker, msg_type: int) -> bytes:
    """A body of ``msg_type``: well formed, truncated, overlong, altered or random."""
    body = well_formed_body(pick, msg_type)
    shape = pick.integer(0, 9)
    if shape == 6 and body:  # truncated
        body = body[: pick.integer(0, len(body) - 1)]
    elif shape == 7:  # overlong
        body += pick.binary(pick.integer(1, 8))
    elif shape == 8 and body:  # one byte changed
        i = pick.integer(0, len(body) - 1)
        body = body[:i] + bytes((pick.integer(0, 255),)) + body[i + 1 :]
    elif shape == 9:  # random
        body = pick.binary(pick.integer(0, 40))
    return body[: p.MAX_PAYLOAD - p.HEADER_LEN - p.CRC_LEN]


def fuzz_frame(pick: Picker, types: tuple[int, ...] = TO_HOST + TO_MCU) -> bytes:
    """One frame with a valid CRC, delimiter included; mostly one of ``types``."""
    which = pick.integer(0, 15)
    if which == 0:
        msg_type = pick.integer(0, 255)
    elif which == 1:
        msg_type = (TO_MCU if types == TO_HOST else TO_HOST)[pick.integer(0, 2)]
    else:
        msg_type = types[pick.integer(0, len(types) - 1)]
    which = pick.integer(0, 31)
    if which == 0:
        version = pick.integer(0, 255)
    elif which == 1:
        version = (p.PROTOCOL_MAJOR << 4) | pick.integer(0, 15)
    else:
        version = p.VERSION_BYTE
    return p.encode_frame(msg_type, pick.integer(0, 255), fuzz_body(pick, msg_type), version)


def garbage(pick: Picker) -> bytes:
    """Noise between frames: random bytes, a cut frame, or a stray delimiter."""
    which = pick.integer(0, 3)
    if which == 0:
        return pick.binary(pick.integer(1, 12))
    if which == 1:
        frame = fuzz_frame(pick)
        return frame[: pick.integer(0, len(frame) - 1)]
    if which == 2:
        return b"\x00"
    return pick.binary(pick.integer(1, 4)) + b"\x00"


def fuzz_stream(pick: Picker, types: tuple[int, ...], frames: int) -> bytes:
    """``frames`` fuzz frames of ``types`` with garbage between some of them."""
    out = bytearray()
    for _ in range(frames):
        if pick.integer(0, 4) == 0:
            out += garbage(pick)
        out += fuzz_frame(pick, types)
    return bytes(out)


def host_handshake(pick: Picker) -> bytes:
    """HELLO and its SNAPSHOT, so that what follows meets an established session."""
    values = [pick.integer(0, 3) for _ in range(SENSORS)]
    event = pick.integer(0, 40)
    hello = p.Hello((1, 0, 0), BOOT_ID, bytes([p.KIND_CODE] * SENSORS), 3, event + 1, "fuzz")
    return p.encode_message(hello, 0) + p.encode_message(
        p.Snapshot(p.SNAP_CONNECT, event, values), 1
    )


def chunks(data: bytes, cuts: list[int]) -> list[bytes]:
    """``data`` cut at the points ``cuts`` (taken modulo its length, in any order)."""
    points = sorted({c % (len(data) + 1) for c in cuts})
    out = []
    start = 0
    for end in [*points, len(data)]:
        out.append(data[start:end])
        start = end
    return out


def count_frames(data: bytes) -> int:
    """How many frames a fresh splitter cuts from ``data``."""
    return len(p.FrameSplitter().feed(data))


def run_decoder(data: bytes, cuts: list[int]) -> tuple[list[bytes], int]:
    """What a :class:`~firmware_bridge.protocol.Decoder` reads (re-encoded) and its errors."""
    dec = p.Decoder()
    out = []
    for part in chunks(data, cuts):
        for seq, msg in dec.feed(part):
            out.append(
                repr(msg).encode() if isinstance(msg, Exception) else p.encode_message(msg, seq)
            )
    assert dec.frames + dec.errors == count_frames(data), "a frame was neither read nor counted"
    return out, dec.errors


@dataclass
class HostOutcome:
    events: list[SensorEvent] = field(default_factory=list)
    picture: list[int] = field(default_factory=list)
    state: str = ""
    stats: LinkStats = field(default_factory=LinkStats)


def run_host(segments: list[bytes], cuts: list[int]) -> HostOutcome:
    """A :class:`HostLink` reads each segment in chunks; the port is lost between segments.

    Time stands still within a segment and moves on by a second between them,
    so the silence timer fires there too. Whatever the host sends is discarded.
    """
    link = HostLink(expected_sensors=SENSORS)
    now = 0.0
    link.open(now)
    frames = 0
    outcome = HostOutcome()
    for i, segment in enumerate(segments):
        if i:
            now += 1.0
            link.poll(now)
            link.port_lost("fuzz: port lost", now)
            link.open(now)
        for part in chunks(segment, cuts):
            link.feed(part, now)
            link.poll(now)
        link.take_output()
        outcome.events += link.take_events()
        frames += count_frames(segment)
    s = link.stats
    assert s.frames_ok + s.crc_errors == frames, f"{frames} frames, {s}"
    outcome.picture = list(link.picture)
    outcome.state = link.state.value
    outcome.stats = s
    return outcome


@dataclass
class McuOutcome:
    written: bytes = b""
    frames_in: int = 0
    errors: int = 0
    leds_shown: int = 0
    next_event: int = 0


def run_mcu(segments: list[bytes], cuts: list[int], pick_changes: list[int]) -> McuOutcome:
    """A :class:`McuLink` reads each segment in chunks; between segments it polls, the
    board changes (``pick_changes[i]`` changes after segment ``i``) and time moves on.

    Every frame the firmware writes must decode cleanly.
    """
    written = bytearray()
    values = [0] * SENSORS
    shown: list[bytes] = []
    link = McuLink(
        written.extend,
        values,
        bytes([p.KIND_CODE] * SENSORS),
        2,
        "fuzz",
        BOOT_ID,
        show_leds=shown.append,
        max_unacked=16,
    )
    now = 0
    frames = 0
    for i, segment in enumerate(segments):
        for part in chunks(segment, cuts):
            link.receive(part, now)
        link.poll(now)
        frames += count_frames(segment)
        n = pick_changes[i % len(pick_changes)] if pick_changes else 0
        batch = []
        for k in range(n):
            ch = (i + k) % SENSORS
            values[ch] = (values[ch] + 1) & 3
            batch.append((ch, values[ch]))
        link.changes(batch)
        now += 150 * (1 + i % 6)
        link.poll(now)
    dec = p.Decoder()
    dec.feed(bytes(written))
    assert dec.errors == 0, f"the firmware wrote a bad frame: {dec.last_error}"
    assert link.decoder.frames + link.decoder.errors == frames
    return McuOutcome(
        bytes(written), link.frames_in, link.decoder.errors, link.leds_shown, link.next_event
    )
