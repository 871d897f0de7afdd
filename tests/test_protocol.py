"""The wire format: frames round-trip, corruption is caught, versions are checked."""

from __future__ import annotations

import binascii

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import protocol as p
from firmware_bridge.errors import BridgeError, FrameError, VersionRefused, decode_message


def test_crc_is_ccitt_false_in_both_implementations() -> None:
    assert p.crc16_pure(b"123456789") == 0x29B1
    assert p.crc16(b"123456789") == 0x29B1
    data = bytes(range(256)) * 3
    assert p.crc16_pure(data) == binascii.crc_hqx(data, 0xFFFF)


@pytest.mark.parametrize(
    ("raw", "encoded"),
    [
        (b"", b"\x01"),
        (b"\x00", b"\x01\x01"),
        (b"\x00\x00", b"\x01\x01\x01"),
        (b"\x11\x22\x00\x33", b"\x03\x11\x22\x02\x33"),
        (b"\x11\x00\x00\x00", b"\x02\x11\x01\x01\x01"),
        (bytes(range(1, 255)), b"\xff" + bytes(range(1, 255)) + b"\x01"),
        (bytes(range(1, 256)), b"\xff" + bytes(range(1, 255)) + b"\x02\xff"),
    ],
)
def test_cobs_matches_the_published_examples(raw: bytes, encoded: bytes) -> None:
    assert p.cobs_encode(raw) == encoded
    assert p.cobs_decode(encoded) == raw


#: bytes with many zeros and long runs without one (a frame of LEDs, dark or lit)
_RUNS = st.lists(
    st.one_of(st.just(b"\x00"), st.binary(max_size=600).map(lambda b: b.replace(b"\x00", b"\x07"))),
    max_size=40,
).map(b"".join)


@settings(max_examples=300, deadline=None)
@given(_RUNS)
def test_cobs_stuffs_every_zero_away_and_back(raw: bytes) -> None:
    encoded = p.cobs_encode(raw)
    assert b"\x00" not in encoded
    assert p.cobs_decode(encoded) == raw
    # a code byte in place of each zero, one more, one per block of 254 bytes at most
    assert len(raw) + 1 <= len(encoded) <= len(raw) + 1 + len(raw) // 254


def _roundtrip(msg: p.Message) -> p.Message:
    wire = p.encode_message(msg, 7)
    assert wire.endswith(b"\x00") and b"\x00" not in wire[:-1]
    seq, out = p.decode_message(wire[:-1])
    assert seq == 7
    assert type(out) is type(msg)
    return out


def test_every_message_round_trips() -> None:
    hello = _roundtrip(p.Hello((1, 2, 3), 0xDEADBEEF, bytes([1, 2, 3, 0]), 28, 65535, "shiftago-7"))
    assert isinstance(hello, p.Hello)
    assert (hello.firmware, hello.boot_id, hello.kinds) == (
        (1, 2, 3),
        0xDEADBEEF,
        b"\x01\x02\x03\x00",
    )
    assert (hello.led_count, hello.next_event, hello.board_id) == (28, 65535, "shiftago-7")
    snap = _roundtrip(p.Snapshot(p.SNAP_AUDIT, 513, [0, 1, 65535, 7]))
    assert isinstance(snap, p.Snapshot)
    assert (snap.reason, snap.event, snap.values) == (p.SNAP_AUDIT, 513, [0, 1, 65535, 7])
    ch = _roundtrip(p.Changes(65534, [(3, 1), (76, 0), (0, 300)]))
    assert isinstance(ch, p.Changes)
    assert (ch.first, ch.changes) == (65534, [(3, 1), (76, 0), (0, 300)])
    hb = _roundtrip(p.Heartbeat(5, 6, 7, p.HB_HOST_SILENT))
    assert isinstance(hb, p.Heartbeat)
    assert (hb.boot_id, hb.next_event, hb.led_frame, hb.flags) == (5, 6, 7, 1)
    note = _roundtrip(p.Notice(1, "LED frame too long"))
    assert isinstance(note, p.Notice) and note.text == "LED frame too long"
    con = _roundtrip(p.Connect(42))
    assert isinstance(con, p.Connect) and con.nonce == 42
    ack = _roundtrip(p.Ack(9, p.ACK_GAP))
    assert isinstance(ack, p.Ack) and (ack.next_event, ack.flags) == (9, 1)
    leds = _roundtrip(p.Leds(3, bytes([255, 0, 0, 0, 0, 0])))
    assert isinstance(leds, p.Leds) and (leds.frame, leds.pixels) == (
        3,
        b"\xff\x00\x00\x00\x00\x00",
    )


def test_every_single_bit_flip_is_caught() -> None:
    wire = p.encode_message(p.Changes(10, [(1, 2), (3, 4)]), 1)[:-1]
    for i in range(len(wire)):
        for bit in range(8):
            bad = bytearray(wire)
            bad[i] ^= 1 << bit
            frames = p.FrameSplitter().feed(bytes(bad) + b"\x00")
            for f in frames:
                with pytest.raises(p.ProtocolError):
                    p.decode_message(f)


def test_host_errors_belong_to_every_root() -> None:
    with pytest.raises(FrameError) as info:
        decode_message(p.cobs_encode(b"\x10\x42\x00\x00\x01\x00\x12\x34"))
    assert isinstance(info.value, BridgeError)
    assert isinstance(info.value, p.ProtocolError)
    assert isinstance(info.value, ValueError)
    assert "CRC" in str(info.value)


def test_a_major_version_mismatch_is_refused_with_what_to_do() -> None:
    body = p.Hello((2, 0, 0), 1, b"\x01", 0, 0, "x").encode_body()
    wire = p.encode_frame(p.HELLO, 0, body, version=0x20)[:-1]
    with pytest.raises(VersionRefused) as info:
        decode_message(wire)
    assert "protocol 2.0" in str(info.value) and "flash the firmware" in str(info.value)
    # a newer minor version of the same major is accepted
    wire = p.encode_frame(p.HELLO, 0, body, version=0x13)[:-1]
    assert isinstance(p.decode_message(wire)[1], p.Hello)


def test_a_new_major_with_a_message_type_we_do_not_know_is_still_refused() -> None:
    # a 2.x peer may open with a type 1.x never had: the version decides, not the type
    wire = p.encode_frame(0x7E, 0, b"\x01\x02", version=0x20)
    with pytest.raises(VersionRefused) as info:
        decode_message(wire[:-1])
    assert "protocol 2.0" in str(info.value)
    out = p.Decoder().feed(wire)
    assert len(out) == 1 and isinstance(out[0][1], p.VersionMismatch)
    # an unknown type of our own major is only a bad frame
    with pytest.raises(FrameError, match="unknown message type"):
        decode_message(p.encode_frame(0x7E, 0, b"", version=0x10)[:-1])


def test_decoder_resynchronises_after_garbage_and_counts_it() -> None:
    good = p.encode_message(p.Ack(1, 0), 0)
    dec = p.Decoder()
    out = dec.feed(b"\x13\x37garbage" + good[:4] + b"\x00" + good + good)
    assert [type(m) for _, m in out] == [p.Ack, p.Ack]
    assert dec.errors == 1 and dec.frames == 2


def test_overlong_runs_without_delimiters_are_dropped() -> None:
    split = p.FrameSplitter()
    assert split.feed(b"\x01" * (p.MAX_ENCODED + 10)) == []
    assert split.feed(b"\x01" * 10) == []
    good = p.encode_message(p.Ack(1, 0), 0)
    assert split.feed(b"\x00" + good) == [good[:-1]]
    assert split.overlong == 1


def test_malformed_bodies_say_what_is_wrong() -> None:
    wire = p.encode_frame(p.CHANGES, 0, b"\x00\x01\x02\x00\x01")[:-1]
    with pytest.raises(p.ProtocolError, match="CHANGES body is 5 bytes, expected 11"):
        p.decode_message(wire)
    wire = p.encode_frame(0x7E, 0, b"")[:-1]
    with pytest.raises(p.ProtocolError, match="unknown message type 0x7e"):
        p.decode_message(wire)


def test_event_numbers_wrap() -> None:
    assert p.event_diff(1, 65535) == 2
    assert p.event_diff(65535, 1) == -2
    assert p.event_diff(5, 5) == 0
