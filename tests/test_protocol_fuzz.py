"""Property tests of the frame decoder: any bytes, any chunking, one kind of error."""

from __future__ import annotations

import contextlib
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import framegen as g
from firmware_bridge import protocol as p
from firmware_bridge.errors import FrameError, decode_message


def _messages() -> st.SearchStrategy[p.Message]:
    u16 = st.integers(0, 0xFFFF)
    return st.one_of(
        st.builds(
            p.Changes,
            u16,
            st.lists(st.tuples(u16, u16), min_size=1, max_size=p.MAX_CHANGES_PER_FRAME),
        ),
        st.builds(p.Snapshot, st.integers(0, 2), u16, st.lists(u16, max_size=200)),
        st.builds(p.Ack, u16, st.integers(0, 255)),
        st.builds(p.Heartbeat, st.integers(0, 2**32 - 1), u16, u16, st.integers(0, 255)),
        st.builds(p.Leds, u16, st.binary(max_size=90).map(lambda b: b[: len(b) // 3 * 3])),
        st.builds(
            p.Hello,
            st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255)),
            st.integers(0, 2**32 - 1),
            st.binary(max_size=150).map(lambda b: bytes(x % 4 for x in b)),
            u16,
            u16,
            st.text(max_size=20),
        ),
    )


def _stream_messages(data: bytes, cuts: list[int]) -> tuple[list[bytes], int]:
    dec = p.Decoder()
    out = []
    points = sorted({c % (len(data) + 1) for c in cuts})
    start = 0
    for end in [*points, len(data)]:
        out.extend(dec.feed(data[start:end]))
        start = end
    return [p.encode_message(m, s) for s, m in out if not isinstance(m, Exception)], dec.errors


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=600))
def test_any_bytes_give_a_message_or_the_protocol_error(data: bytes) -> None:
    with contextlib.suppress(p.ProtocolError):
        p.decode_message(data)
    with contextlib.suppress(FrameError):
        decode_message(data)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=800), st.lists(st.integers(0, 10_000), max_size=12))
def test_results_do_not_depend_on_chunking(data: bytes, cuts: list[int]) -> None:
    assert _stream_messages(data, cuts) == _stream_messages(data, [])


@settings(max_examples=200, deadline=None)
@given(
    st.lists(_messages(), min_size=1, max_size=8),
    st.binary(max_size=40),
    st.lists(st.integers(0, 10_000), max_size=8),
)
def test_valid_frames_survive_garbage_before_them_whatever_the_chunking(
    msgs: list[p.Message], garbage: bytes, cuts: list[int]
) -> None:
    wire = b"".join(p.encode_message(m, i) for i, m in enumerate(msgs))
    got, _ = _stream_messages(garbage + b"\x00" + wire, cuts)
    assert got == [p.encode_message(m, i) for i, m in enumerate(msgs)]


@settings(max_examples=200, deadline=None)
@given(_messages(), st.integers(0, 10_000), st.integers(0, 7))
def test_a_flipped_bit_never_yields_a_different_message(
    msg: p.Message, where: int, bit: int
) -> None:
    wire = bytearray(p.encode_message(msg, 3))
    i = where % len(wire)
    wire[i] ^= 1 << bit
    dec = p.Decoder()
    ack = p.encode_message(p.Ack(0, 0), 4)
    out = dec.feed(bytes(wire) + ack)
    decoded = [p.encode_message(m, s) for s, m in out if not isinstance(m, Exception)]
    # the CRC catches the flip; the next frame survives unless the flip hit the delimiter
    assert dec.errors >= 1
    assert decoded == ([] if i == len(wire) - 1 else [ack])


# Frames that pass the CRC: random bytes die there, these reach the message
# parsers and both ends' state machines (firmware_bridge/framegen.py).


class _DrawPicker:
    def __init__(self, draw: st.DrawFn) -> None:
        self.draw = draw

    def integer(self, lo: int, hi: int) -> int:
        return self.draw(st.integers(lo, hi))

    def binary(self, n: int) -> bytes:
        return self.draw(st.binary(min_size=n, max_size=n))


@st.composite
def _frames(draw: st.DrawFn, types: tuple[int, ...] = g.TO_HOST + g.TO_MCU) -> bytes:
    return g.fuzz_frame(_DrawPicker(draw), types)


@st.composite
def _segments(draw: st.DrawFn, types: tuple[int, ...], handshake: bool) -> list[bytes]:
    pick = _DrawPicker(draw)
    out = []
    for _ in range(draw(st.integers(1, 3))):
        start = g.host_handshake(pick) if handshake and draw(st.booleans()) else b""
        out.append(start + g.fuzz_stream(pick, types, draw(st.integers(1, 10))))
    return out


_cuts = st.lists(st.integers(0, 10_000), max_size=10)


@settings(max_examples=300, deadline=None)
@given(_frames())
def test_frames_that_pass_the_crc_give_a_message_or_the_protocol_error(frame: bytes) -> None:
    encoded = frame[:-1]
    with contextlib.suppress(p.ProtocolError):
        p.decode_message(encoded)
    with contextlib.suppress(FrameError):
        decode_message(encoded)


@settings(max_examples=120, deadline=None)
@given(_segments(g.TO_HOST + g.TO_MCU, handshake=False), _cuts)
def test_decoding_frames_that_pass_the_crc_does_not_depend_on_chunking(
    segments: list[bytes], cuts: list[int]
) -> None:
    data = b"".join(segments)
    assert g.run_decoder(data, cuts) == g.run_decoder(data, [])


@settings(max_examples=120, deadline=None)
@given(_segments(g.TO_HOST, handshake=True), _cuts)
def test_the_host_link_swallows_any_frame_and_chunking_changes_nothing(
    segments: list[bytes], cuts: list[int]
) -> None:
    # run_host checks that every frame was read or counted as an error
    assert g.run_host(segments, cuts) == g.run_host(segments, [])


@settings(max_examples=200, deadline=None)
@given(
    _segments(g.TO_MCU, handshake=False),
    _cuts,
    st.lists(st.integers(0, 24), min_size=1, max_size=3),
)
def test_the_firmware_link_swallows_any_frame_and_chunking_changes_nothing(
    segments: list[bytes], cuts: list[int], changes: list[int]
) -> None:
    # run_mcu checks that every frame was read or counted, and that what it wrote decodes
    assert g.run_mcu(segments, cuts, changes) == g.run_mcu(segments, [], changes)


def test_fuzz_frames_reach_every_parser_and_both_state_machines() -> None:
    """The generator is worth its name: the frames get past the CRC to the parsers."""
    rng = random.Random(2)
    pick = g.RandomPicker(rng)
    read = rejected = 0
    types: set[int] = set()
    for _ in range(2000):
        try:
            _seq, msg = p.decode_message(g.fuzz_frame(pick)[:-1])
            read += 1
            types.add(p.MESSAGE_TYPES[type(msg)])
        except p.ProtocolError as e:
            rejected += 1
            assert "CRC" not in str(e)
    assert read > 500 and rejected > 500
    assert types == set(p.MESSAGE_CLASSES)
    changes = sessions = leds = 0
    for _ in range(100):
        host = g.run_host([g.host_handshake(pick) + g.fuzz_stream(pick, g.TO_HOST, 10)], [])
        changes += host.stats.changes
        sessions += host.stats.sessions
        leds += g.run_mcu([g.fuzz_stream(pick, g.TO_MCU, 10)], [], [5]).leds_shown
    assert sessions >= 100 and changes > 100 and leds > 20
