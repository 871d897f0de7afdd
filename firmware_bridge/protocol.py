"""The wire protocol between the host and the board's microcontroller.

This one module runs on both ends: under CPython on the host and under
MicroPython on the RP2040. It therefore uses only the subset both run: no
dataclasses, no ``typing`` at run time, no f-string format specs MicroPython
lacks, integers and ``bytes`` only. ``docs/protocol.md`` describes every byte.

A frame on the wire is ``COBS(payload) + b"\\x00"``. A payload is::

    version (major << 4 | minor), type, seq, body..., crc16 (big-endian)

The CRC is CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) over every payload
byte before it. Multi-byte integers are big-endian.
"""

try:
    from binascii import crc_hqx as _crc_hqx  # CPython: the same CRC, in C

    _HAVE_CRC_HQX = True
except ImportError:  # MicroPython
    _HAVE_CRC_HQX = False

try:
    from typing import TYPE_CHECKING
except ImportError:  # MicroPython
    TYPE_CHECKING = False  # type: ignore[misc]

if TYPE_CHECKING:
    from typing import TypeAlias

    Message: TypeAlias = (
        "Hello | Snapshot | Changes | Heartbeat | Notice | Connect | Ack | Leds | LedsPart"
    )
    Buffer: TypeAlias = "bytes | bytearray | memoryview"

PROTOCOL_MAJOR = 1
PROTOCOL_MINOR = 1
VERSION_BYTE = (PROTOCOL_MAJOR << 4) | PROTOCOL_MINOR

#: the largest payload either end sends or accepts (before COBS)
MAX_PAYLOAD = 2048
#: the longest encoded frame, delimiter excluded
MAX_ENCODED = MAX_PAYLOAD + MAX_PAYLOAD // 254 + 1
HEADER_LEN = 3
CRC_LEN = 2
MIN_PAYLOAD = HEADER_LEN + CRC_LEN

# message types, microcontroller -> host
HELLO = 0x01
SNAPSHOT = 0x02
CHANGES = 0x03
HEARTBEAT = 0x04
NOTICE = 0x05
# message types, host -> microcontroller
CONNECT = 0x41
ACK = 0x42
LEDS = 0x43
# since 1.1: the LEDs that changed since a frame the MCU has
LEDS_PART = 0x44

TYPE_NAMES = {
    HELLO: "HELLO",
    SNAPSHOT: "SNAPSHOT",
    CHANGES: "CHANGES",
    HEARTBEAT: "HEARTBEAT",
    NOTICE: "NOTICE",
    CONNECT: "CONNECT",
    ACK: "ACK",
    LEDS: "LEDS",
    LEDS_PART: "LEDS_PART",
}

# what a sensor reports (HELLO's kind table)
KIND_NONE = 0
KIND_PRESENCE = 1
KIND_CODE = 2
KIND_PULSE = 3

# SNAPSHOT reasons
SNAP_CONNECT = 0
SNAP_GAP = 1
SNAP_AUDIT = 2

# ACK flags
ACK_GAP = 0x01

# HEARTBEAT flags (microcontroller)
HB_HOST_SILENT = 0x01

#: event numbers are 16-bit and wrap; a difference beyond this is "behind"
EVENT_MOD = 0x10000
EVENT_HALF = 0x8000
#: the most change records one CHANGES frame carries
MAX_CHANGES_PER_FRAME = 64
MAX_BOARD_ID = 64
MAX_NOTICE = 200


class ProtocolError(ValueError):
    """Bytes that are not a valid frame or message of this protocol."""


class VersionMismatch(ProtocolError):
    """The other end speaks a protocol major version this end does not."""


def event_diff(a: int, b: int) -> int:
    """``a - b`` on the 16-bit event circle, in ``-32768 .. 32767``."""
    d = (a - b) & 0xFFFF
    return d - EVENT_MOD if d >= EVENT_HALF else d


# ---------------------------------------------------------------- CRC


def _make_table() -> list[int]:
    table = []
    for i in range(256):
        c = i << 8
        for _ in range(8):
            c = ((c << 1) ^ 0x1021) if c & 0x8000 else (c << 1)
        table.append(c & 0xFFFF)
    return table


_CRC_TABLE = _make_table()


def crc16_pure(data: "Buffer", crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE of ``data``, byte by byte (what MicroPython runs)."""
    table = _CRC_TABLE
    for b in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ b]
    return crc


def crc16(data: "Buffer", crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE of ``data``; ``binascii.crc_hqx`` where it exists."""
    if _HAVE_CRC_HQX:
        return _crc_hqx(data, crc)
    return crc16_pure(data, crc)


# ---------------------------------------------------------------- COBS


#: the code byte of a run of n bytes (n < 254) that a zero ends: n + 1
_CODES = [bytes((n + 1,)) for n in range(254)]


def cobs_encode(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing: ``data`` with every 0x00 removed.

    Each run of bytes up to a zero (or the end) is cut out by ``split``, in
    C: a frame of dark LEDs is mostly zeros, one run each. Each run after
    its code, in one comprehension, while no run is 254 bytes long."""
    runs = bytes(data).split(b"\x00")
    codes = _CODES
    try:
        return b"".join([codes[len(run)] + run for run in runs])
    except IndexError:  # a run of 254 bytes or more: cut into blocks
        pass
    out = bytearray()
    for run in runs:
        # blocks of at most 254 data bytes, then the rest up to the zero
        while len(run) >= 254:
            out.append(0xFF)
            out += run[:254]
            run = run[254:]
        out.append(len(run) + 1)
        out += run
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    """The inverse of :func:`cobs_encode`; raises :class:`ProtocolError`."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise ProtocolError("COBS block starts with a zero byte at offset " + str(i))
        end = i + code
        if end > n:
            raise ProtocolError(
                "COBS block at offset " + str(i) + " runs " + str(end - n) + " bytes past the frame"
            )
        block = data[i + 1 : end]
        if b"\x00" in block:
            raise ProtocolError("COBS block at offset " + str(i) + " contains a zero byte")
        out += block
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)


# ---------------------------------------------------------------- frames


def encode_frame(msg_type: int, seq: int, body: bytes = b"", version: int = VERSION_BYTE) -> bytes:
    """One frame ready for the wire: COBS-encoded payload and the 0x00 delimiter."""
    payload = bytearray(HEADER_LEN + len(body) + CRC_LEN)
    payload[0] = version
    payload[1] = msg_type
    payload[2] = seq & 0xFF
    payload[HEADER_LEN : HEADER_LEN + len(body)] = body
    crc = crc16(memoryview(payload)[: HEADER_LEN + len(body)])
    payload[-2] = crc >> 8
    payload[-1] = crc & 0xFF
    if len(payload) > MAX_PAYLOAD:
        raise ProtocolError(
            "payload of " + str(len(payload)) + " bytes exceeds " + str(MAX_PAYLOAD)
        )
    return cobs_encode(bytes(payload)) + b"\x00"


def decode_payload(encoded: bytes) -> "tuple[int, int, int, bytes]":
    """``(version, type, seq, body)`` of one frame without its delimiter.

    Raises :class:`ProtocolError` when the COBS encoding, the length or the CRC is
    wrong. The version is returned, not checked: see :func:`check_version`.
    """
    if len(encoded) > MAX_ENCODED:
        raise ProtocolError("frame of " + str(len(encoded)) + " bytes is longer than any frame")
    payload = cobs_decode(encoded)
    if len(payload) < MIN_PAYLOAD:
        raise ProtocolError("frame of " + str(len(payload)) + " bytes is shorter than a header")
    want = (payload[-2] << 8) | payload[-1]
    got = crc16(memoryview(payload)[:-CRC_LEN])
    if want != got:
        raise ProtocolError("CRC mismatch: frame says " + hex(want) + ", bytes give " + hex(got))
    return payload[0], payload[1], payload[2], payload[HEADER_LEN:-CRC_LEN]


def check_version(version: int, msg_type: int) -> None:
    """Raise :class:`VersionMismatch` unless ``version`` has our major number."""
    if version >> 4 != PROTOCOL_MAJOR:
        raise VersionMismatch(
            "the other end speaks protocol "
            + str(version >> 4)
            + "."
            + str(version & 0xF)
            + " (in a "
            + TYPE_NAMES.get(msg_type, hex(msg_type))
            + " frame), this end speaks "
            + str(PROTOCOL_MAJOR)
            + "."
            + str(PROTOCOL_MINOR)
            + ": flash the firmware that ships with this host software (docs/firmware.md)"
        )


class FrameSplitter:
    """Cuts a byte stream at 0x00 delimiters into encoded frames.

    Bytes after the last delimiter wait for the next :meth:`feed`. A run longer
    than any frame is dropped (counted in ``overlong``) so that garbage without
    delimiters cannot grow memory; the splitter resynchronises at the next 0x00.
    """

    def __init__(self) -> None:
        self.buf = bytearray()
        self.discarding = False
        self.overlong = 0

    def feed(self, data: bytes) -> "list[bytes]":
        """The complete encoded frames (delimiters removed, empty ones skipped)."""
        frames = []
        start = 0
        n = len(data)
        while start < n:
            end = data.find(b"\x00", start)
            if end < 0:
                if not self.discarding:
                    self.buf += data[start:]
                    if len(self.buf) > MAX_ENCODED:
                        self.buf = bytearray()
                        self.discarding = True
                        self.overlong += 1
                break
            if self.discarding:
                self.discarding = False
            else:
                self.buf += data[start:end]
                if len(self.buf) > MAX_ENCODED:
                    self.overlong += 1
                elif self.buf:
                    frames.append(bytes(self.buf))
            self.buf = bytearray()
            start = end + 1
        return frames


# ---------------------------------------------------------------- integers


def _u16(b: bytes, i: int) -> int:
    return (b[i] << 8) | b[i + 1]


def _u32(b: bytes, i: int) -> int:
    return (b[i] << 24) | (b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]


def _put16(out: bytearray, v: int) -> None:
    out.append((v >> 8) & 0xFF)
    out.append(v & 0xFF)


def _put32(out: bytearray, v: int) -> None:
    out.append((v >> 24) & 0xFF)
    out.append((v >> 16) & 0xFF)
    out.append((v >> 8) & 0xFF)
    out.append(v & 0xFF)


def _need(body: bytes, n: int, what: str) -> None:
    if len(body) != n:
        raise ProtocolError(what + " body is " + str(len(body)) + " bytes, expected " + str(n))


# ---------------------------------------------------------------- messages


class Hello:
    """The microcontroller identifies itself (answer to CONNECT; heartbeat before it)."""

    def __init__(
        self,
        firmware: "tuple[int, int, int]",
        boot_id: int,
        kinds: bytes,
        led_count: int,
        next_event: int,
        board_id: str,
    ) -> None:
        self.firmware = firmware  # (major, minor, patch)
        self.boot_id = boot_id
        self.kinds = kinds  # bytes, one KIND_* per sensor
        self.led_count = led_count
        self.next_event = next_event
        self.board_id = board_id
        # the minor version of the frame it came in (what else that end understands)
        self.minor = PROTOCOL_MINOR

    def encode_body(self) -> bytes:
        bid = self.board_id.encode()
        if len(bid) > MAX_BOARD_ID:
            raise ProtocolError("board id is longer than " + str(MAX_BOARD_ID) + " bytes")
        out = bytearray(self.firmware)
        _put32(out, self.boot_id)
        _put16(out, len(self.kinds))
        _put16(out, self.led_count)
        _put16(out, self.next_event)
        out.append(len(bid))
        out += bid
        out += self.kinds
        return bytes(out)

    @classmethod
    def decode_body(cls, body: bytes) -> "Hello":
        if len(body) < 14:
            raise ProtocolError("HELLO body is " + str(len(body)) + " bytes, at least 14 needed")
        count = _u16(body, 7)
        blen = body[13]
        _need(body, 14 + blen + count, "HELLO")
        try:
            board_id = bytes(body[14 : 14 + blen]).decode()
        except UnicodeError:
            raise ProtocolError("HELLO board id is not UTF-8") from None
        kinds = bytes(body[14 + blen :])
        for k in kinds:
            if k > KIND_PULSE:
                raise ProtocolError("HELLO names sensor kind " + str(k) + ", known are 0..3")
        return cls(
            (body[0], body[1], body[2]),
            _u32(body, 3),
            kinds,
            _u16(body, 9),
            _u16(body, 11),
            board_id,
        )


class Snapshot:
    """Every sensor's value after event ``event`` (state, not a change)."""

    def __init__(self, reason: int, event: int, values: "list[int]") -> None:
        self.reason = reason
        self.event = event
        self.values = values  # list of ints 0..65535

    def encode_body(self) -> bytes:
        out = bytearray()
        out.append(self.reason)
        _put16(out, self.event)
        _put16(out, len(self.values))
        for v in self.values:
            _put16(out, v)
        return bytes(out)

    @classmethod
    def decode_body(cls, body: bytes) -> "Snapshot":
        if len(body) < 5:
            raise ProtocolError("SNAPSHOT body is " + str(len(body)) + " bytes, at least 5 needed")
        count = _u16(body, 3)
        _need(body, 5 + 2 * count, "SNAPSHOT")
        if body[0] > SNAP_AUDIT:
            raise ProtocolError("SNAPSHOT reason " + str(body[0]) + " is unknown")
        values = [_u16(body, 5 + 2 * i) for i in range(count)]
        return cls(body[0], _u16(body, 1), values)


class Changes:
    """Consecutive sensor changes: event numbers ``first``, ``first + 1``, ..."""

    def __init__(self, first: int, changes: "list[tuple[int, int]]") -> None:
        self.first = first
        self.changes = changes  # list of (channel, value)

    def encode_body(self) -> bytes:
        out = bytearray()
        _put16(out, self.first)
        out.append(len(self.changes))
        for ch, v in self.changes:
            _put16(out, ch)
            _put16(out, v)
        return bytes(out)

    @classmethod
    def decode_body(cls, body: bytes) -> "Changes":
        if len(body) < 3:
            raise ProtocolError("CHANGES body is " + str(len(body)) + " bytes, at least 3 needed")
        count = body[2]
        if count == 0 or count > MAX_CHANGES_PER_FRAME:
            raise ProtocolError("CHANGES carries " + str(count) + " records, 1..64 allowed")
        _need(body, 3 + 4 * count, "CHANGES")
        changes = [(_u16(body, 3 + 4 * i), _u16(body, 5 + 4 * i)) for i in range(count)]
        return cls(_u16(body, 0), changes)


class Heartbeat:
    """The microcontroller is alive: its boot, next event, last LED frame shown."""

    def __init__(self, boot_id: int, next_event: int, led_frame: int, flags: int) -> None:
        self.boot_id = boot_id
        self.next_event = next_event
        self.led_frame = led_frame
        self.flags = flags

    def encode_body(self) -> bytes:
        out = bytearray()
        _put32(out, self.boot_id)
        _put16(out, self.next_event)
        _put16(out, self.led_frame)
        out.append(self.flags)
        return bytes(out)

    @classmethod
    def decode_body(cls, body: bytes) -> "Heartbeat":
        _need(body, 9, "HEARTBEAT")
        return cls(_u32(body, 0), _u16(body, 4), _u16(body, 6), body[8])


class Notice:
    """A line of text from the microcontroller for the host's log."""

    def __init__(self, level: int, text: str) -> None:
        self.level = level  # 0 info, 1 warning, 2 error
        self.text = text

    def encode_body(self) -> bytes:
        return bytes([self.level]) + self.text.encode()[:MAX_NOTICE]

    @classmethod
    def decode_body(cls, body: bytes) -> "Notice":
        if len(body) < 1 or len(body) > 1 + MAX_NOTICE:
            raise ProtocolError("NOTICE body is " + str(len(body)) + " bytes, 1..201 allowed")
        return cls(body[0], bytes(body[1:]).decode("utf-8", "replace"))


class Connect:
    """The host opens a session: the microcontroller answers HELLO and SNAPSHOT."""

    def __init__(self, nonce: int) -> None:
        self.nonce = nonce

    def encode_body(self) -> bytes:
        out = bytearray()
        _put32(out, self.nonce)
        return bytes(out)

    @classmethod
    def decode_body(cls, body: bytes) -> "Connect":
        _need(body, 4, "CONNECT")
        return cls(_u32(body, 0))


class Ack:
    """Every event before ``next_event`` arrived (also the host's heartbeat)."""

    def __init__(self, next_event: int, flags: int) -> None:
        self.next_event = next_event
        self.flags = flags

    def encode_body(self) -> bytes:
        out = bytearray()
        _put16(out, self.next_event)
        out.append(self.flags)
        return bytes(out)

    @classmethod
    def decode_body(cls, body: bytes) -> "Ack":
        _need(body, 3, "ACK")
        return cls(_u16(body, 0), body[2])


class Leds:
    """The whole LED chain: newest frame number wins."""

    def __init__(self, frame: int, pixels: bytes) -> None:
        self.frame = frame
        self.pixels = pixels  # bytes, r g b per LED

    def encode_body(self) -> bytes:
        out = bytearray()
        _put16(out, self.frame)
        _put16(out, len(self.pixels) // 3)
        out += self.pixels
        return bytes(out)

    @classmethod
    def decode_body(cls, body: bytes) -> "Leds":
        if len(body) < 4:
            raise ProtocolError("LEDS body is " + str(len(body)) + " bytes, at least 4 needed")
        count = _u16(body, 2)
        _need(body, 4 + 3 * count, "LEDS")
        return cls(_u16(body, 0), bytes(body[4:]))


class LedsPart:
    """Since 1.1: LED frame ``frame`` is frame ``base`` with the LEDs from
    ``start`` on changed to ``pixels`` (r g b per LED). An MCU that does not
    show frame ``base`` ignores it (the host sends the whole frame again)."""

    def __init__(self, frame: int, base: int, start: int, pixels: bytes) -> None:
        self.frame = frame
        self.base = base
        self.start = start
        self.pixels = pixels  # bytes, r g b per LED

    def encode_body(self) -> bytes:
        out = bytearray()
        _put16(out, self.frame)
        _put16(out, self.base)
        _put16(out, self.start)
        _put16(out, len(self.pixels) // 3)
        out += self.pixels
        return bytes(out)

    @classmethod
    def decode_body(cls, body: bytes) -> "LedsPart":
        if len(body) < 8:
            raise ProtocolError("LEDS_PART body is " + str(len(body)) + " bytes, at least 8 needed")
        count = _u16(body, 6)
        _need(body, 8 + 3 * count, "LEDS_PART")
        return cls(_u16(body, 0), _u16(body, 2), _u16(body, 4), bytes(body[8:]))

    def apply(self, pixels: bytes) -> "bytes | None":
        """Frame ``base``'s ``pixels`` with this part's LEDs changed; None when
        the part reaches beyond them."""
        first = 3 * self.start
        end = first + len(self.pixels)
        if end > len(pixels):
            return None
        return pixels[:first] + self.pixels + pixels[end:]


def changed_range(old: "Buffer", new: "Buffer") -> "tuple[int, int]":
    """The LEDs ``first, end`` (``end`` excluded) outside which two frames
    of the same length are equal; ``(0, 0)`` when they are equal.

    The frames are read as two big integers: the highest bit of their
    exclusive or lies in the first byte that differs, the lowest in the last
    one, found in C. The host's alone: the microcontroller only applies parts
    (MicroPython's integers have no ``bit_length``)."""
    n = len(new)
    if len(old) != n:
        raise ValueError("frames of " + str(len(old)) + " and " + str(n) + " bytes")
    if old == new:
        return 0, 0
    x = int.from_bytes(old, "big") ^ int.from_bytes(new, "big")
    first = n - 1 - (x.bit_length() - 1) // 8
    last = n - 1 - ((x & -x).bit_length() - 1) // 8
    return first // 3, last // 3 + 1


MESSAGE_CLASSES = {  # type: dict[int, type[Message]]
    HELLO: Hello,
    SNAPSHOT: Snapshot,
    CHANGES: Changes,
    HEARTBEAT: Heartbeat,
    NOTICE: Notice,
    CONNECT: Connect,
    ACK: Ack,
    LEDS: Leds,
    LEDS_PART: LedsPart,
}
MESSAGE_TYPES = {cls: t for t, cls in MESSAGE_CLASSES.items()}


def encode_message(msg: "Message", seq: int) -> bytes:
    """The wire bytes of one message object."""
    return encode_frame(MESSAGE_TYPES[type(msg)], seq, msg.encode_body())


def decode_message(encoded: bytes) -> "tuple[int, Message]":
    """``(seq, message)`` of one encoded frame (delimiter removed).

    Raises :class:`ProtocolError` (or its :class:`VersionMismatch`) and nothing else.
    """
    version, msg_type, seq, body = decode_payload(encoded)
    # the version first: another major may have types this one does not know
    check_version(version, msg_type)
    cls = MESSAGE_CLASSES.get(msg_type)
    if cls is None:
        raise ProtocolError("unknown message type " + hex(msg_type))
    msg = cls.decode_body(body)
    if isinstance(msg, Hello):
        msg.minor = version & 0xF
    return seq, msg


class Decoder:
    """Turns a byte stream into messages, however it is chunked.

    :meth:`feed` returns a list of ``(seq, message)`` pairs; frames that fail go
    to ``errors`` (a count) and ``last_error`` rather than being raised, except a
    version mismatch, which is returned as the :class:`VersionMismatch` instance
    in place of a message so the caller can refuse the link.
    """

    def __init__(self) -> None:
        self.splitter = FrameSplitter()
        self.frames = 0
        self.errors = 0
        self.last_error = None  # type: ProtocolError | None

    def feed(self, data: bytes) -> "list[tuple[int, Message | VersionMismatch]]":
        out = []  # type: list[tuple[int, Message | VersionMismatch]]
        for encoded in self.splitter.feed(data):
            try:
                out.append(decode_message(encoded))
                self.frames += 1
            except VersionMismatch as e:
                self.errors += 1
                self.last_error = e
                out.append((-1, e))
            except ProtocolError as e:
                self.errors += 1
                self.last_error = e
        return out
