"""Property tests of the frame decoder: any bytes, any chunking, one kind of error."""

from __future__ import annotations

import contextlib

from hypothesis import given, settings
from hypothesis import strategies as st

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
