"""Fuzzing the frame decoder with random inputs (default: 1,000,000).

Each input is random bytes, a valid frame with bytes flipped, cut, duplicated
or inserted, several frames glued with garbage, or (half of them) a frame with
a valid CRC around a random body of any message type or a random type
(``firmware_bridge.framegen``), which reaches the message parsers. Every input
is decoded whole and every fourth again in random chunks: only the protocol's
error may be raised and both ways must give the same messages. Every 100th
input also opens a stream of such frames, with garbage and port losses, fed in
random chunks to the host's HostLink and to the firmware's McuLink: neither may
raise, and chunking must not change what they do.

    .venv/bin/python bench/fuzz_frames.py [COUNT] [SEED]     (make fuzz)
"""

from __future__ import annotations

import logging
import random
import sys
import time

from firmware_bridge import framegen as g
from firmware_bridge import protocol as p
from firmware_bridge.errors import FrameError, decode_message


def valid_frame(rng: random.Random) -> bytes:
    kind = rng.randrange(5)
    if kind == 0:
        n = rng.randint(1, 16)
        msg: p.Message = p.Changes(
            rng.randrange(65536), [(rng.randrange(200), rng.randrange(65536)) for _ in range(n)]
        )
    elif kind == 1:
        msg = p.Snapshot(
            rng.randrange(3), rng.randrange(65536), [rng.randrange(9)] * rng.randrange(80)
        )
    elif kind == 2:
        msg = p.Ack(rng.randrange(65536), rng.randrange(2))
    elif kind == 3:
        msg = p.Heartbeat(rng.getrandbits(32), rng.randrange(65536), rng.randrange(65536), 0)
    else:
        msg = p.Hello((1, 0, 0), rng.getrandbits(32), bytes([1] * rng.randrange(80)), 28, 0, "b")
    return p.encode_message(msg, rng.randrange(256))


def mutate(rng: random.Random, data: bytes) -> bytes:
    b = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(4)
        if not b:
            b.append(rng.randrange(256))
        i = rng.randrange(len(b))
        if op == 0:
            b[i] ^= 1 << rng.randrange(8)
        elif op == 1:
            del b[i]
        elif op == 2:
            b.insert(i, b[i])
        else:
            b.insert(i, rng.randrange(256))
    return bytes(b)


def make_input(rng: random.Random, pick: g.Picker) -> bytes:
    kind = rng.randrange(8)
    if kind >= 4:
        return g.fuzz_frame(pick)
    if kind == 0:
        return rng.randbytes(rng.randrange(64))
    if kind == 1:
        return mutate(rng, valid_frame(rng))
    if kind == 2:
        return valid_frame(rng)[: rng.randrange(1, 40)]
    parts = [
        valid_frame(rng) if rng.random() < 0.7 else rng.randbytes(rng.randrange(20))
        for _ in range(rng.randint(2, 5))
    ]
    return b"".join(parts)


def decode_stream(data: bytes, cuts: list[int]) -> list[bytes]:
    dec = p.Decoder()
    out: list[bytes] = []
    start = 0
    for end in [*cuts, len(data)]:
        for seq, msg in dec.feed(data[start:end]):
            if not isinstance(msg, Exception):
                out.append(p.encode_message(msg, seq))
        start = end
    return out


def check_links(rng: random.Random, pick: g.Picker) -> str | None:
    """Streams of fuzz frames into both ends; a description of what went wrong, if anything."""
    cuts = [rng.randrange(2000) for _ in range(rng.randrange(8))]
    host = [
        (g.host_handshake(pick) if rng.random() < 0.7 else b"")
        + g.fuzz_stream(pick, g.TO_HOST, rng.randint(1, 12))
        for _ in range(rng.randint(1, 3))
    ]
    try:
        if g.run_host(host, cuts) != g.run_host(host, []):
            return f"HostLink differs in chunks {cuts}: {[s.hex() for s in host]}"
    except Exception as e:
        return f"HostLink raised {type(e).__name__}: {e}: {[s.hex() for s in host]}"
    mcu = [g.fuzz_stream(pick, g.TO_MCU, rng.randint(1, 12)) for _ in range(rng.randint(1, 3))]
    changes = [rng.randrange(24) for _ in range(3)]
    try:
        if g.run_mcu(mcu, cuts, changes) != g.run_mcu(mcu, [], changes):
            return f"McuLink differs in chunks {cuts}: {[s.hex() for s in mcu]}"
    except Exception as e:
        return f"McuLink raised {type(e).__name__}: {e}: {[s.hex() for s in mcu]}"
    return None


def main() -> int:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    rng = random.Random(seed)
    pick = g.RandomPicker(rng)
    logging.disable(logging.CRITICAL)  # the links log every bad frame they swallow
    t0 = time.perf_counter()
    decoded = rejected = streams = 0
    for i in range(count):
        data = make_input(rng, pick)
        try:
            decode_message(data.rstrip(b"\x00"))
            decoded += 1
        except FrameError:
            rejected += 1
        except Exception as e:
            print(f"input {i} (seed {seed}) raised {type(e).__name__}: {e}: {data.hex()}")
            return 1
        if i % 4 == 0:
            cuts = sorted(rng.randrange(len(data) + 1) for _ in range(rng.randrange(4)))
            if decode_stream(data, cuts) != decode_stream(data, []):
                print(f"input {i} (seed {seed}) decodes differently in chunks {cuts}: {data.hex()}")
                return 1
        if i % 100 == 0:
            failure = check_links(rng, pick)
            if failure is not None:
                print(f"input {i} (seed {seed}): {failure}")
                return 1
            streams += 1
    elapsed = time.perf_counter() - t0
    print(
        f"{count:,} random inputs in {elapsed:.1f} s: {decoded:,} decoded, {rejected:,} "
        "rejected with FrameError, nothing else raised; chunked decoding agreed on every "
        f"fourth input; {streams:,} streams of fuzz frames through HostLink and McuLink "
        "raised nothing and did not depend on chunking"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
