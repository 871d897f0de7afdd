"""Serial link throughput and latency through a real pty, with and without faults.

Prints change events per second from the virtual microcontroller to the host's
emit, and the latency from ``place``/``lift`` to the host's SensorChange
(median and p99), then the same under 1% corrupted bytes. After each run it
checks delivery, not just counts: every change the firmware accepted reached
the host once and in order (a duplicate cannot hide a loss), and the host's
final picture equals the board.

    .venv/bin/python bench/link.py
"""

from __future__ import annotations

import contextlib
import random
import statistics
import sys
import time
from collections.abc import Iterator

from boardctl.sensing import SensorChange, SensorEvent, SensorSnapshot
from firmware_bridge.host import SerialSensorSource
from firmware_bridge.virtual import EventLog, Faults, VirtualMicrocontroller

CHANNELS = 77


def delivery(events: list[SensorEvent], accepted: list[tuple[int, int]]) -> tuple[int, str]:
    """How many accepted changes did not arrive once and in order, and what went wrong.

    The host's changes between snapshots must be runs of the accepted changes, in
    order, each run after the last; changes a snapshot jumps over, or that never
    arrived, count as lost; a run that fits nowhere (a duplicate, a reordered or
    invented change) is reported.
    """
    runs: list[list[tuple[int, int]]] = []
    for ev in events:
        if isinstance(ev, SensorSnapshot):
            runs.append([])
        elif isinstance(ev, SensorChange) and runs:
            runs[-1].append((ev.channel, ev.value))
    pos = lost = 0
    for i, run in enumerate(runs):
        k = next(
            (
                k
                for k in range(pos, len(accepted) - len(run) + 1)
                if accepted[k : k + len(run)] == run
            ),
            None,
        )
        if k is None:
            return len(
                accepted
            ) - pos, f"run {i} of {len(run)} changes duplicates, reorders or invents"
        lost += k - pos
        pos = k + len(run)
    lost += len(accepted) - pos
    return lost, "every change once and in order" if lost == 0 else f"{lost} changes skipped"


@contextlib.contextmanager
def linked() -> Iterator[tuple[VirtualMicrocontroller, SerialSensorSource, EventLog]]:
    """A virtual microcontroller and the host's source over its pty, the link up."""
    with (
        VirtualMicrocontroller(channels=CHANNELS, scan_ms=1, stable_scans=1) as mcu,
        SerialSensorSource(mcu.port) as src,
    ):
        log = EventLog()
        src.start(log)
        assert log.wait_for(lambda: log.up, 5), "link did not come up"
        yield mcu, src, log


def throughput(faults: Faults, changes: int) -> tuple[float, int, str]:
    with linked() as (mcu, src, log):
        mcu.set_faults(faults)
        rng = random.Random(1)
        t0 = time.perf_counter()
        done = 0
        while done < changes:
            for ch in rng.sample(range(CHANNELS), 38):
                if mcu.board[ch]:
                    mcu.lift(ch)
                else:
                    mcu.place(ch, 1 + rng.randrange(9))
            done += 38
            assert mcu.wait_scanned(5)
            want = len(mcu.accepted) - 300
            log.wait_for(lambda w=want: log.change_count >= w, 10)
        total = len(mcu.accepted)
        log.wait_for(lambda: log.change_count >= total, 30)
        elapsed = time.perf_counter() - t0
        mcu.set_faults(Faults())
        assert mcu.wait_scanned(5)
        same = log.wait_for(lambda: log.picture == mcu.board, 5)
        lost, how = delivery(log.events, [(ch, v) for _boot, ch, v in mcu.accepted])
        s = src.stats
        info = (
            f"{how}, final picture {'equals' if same else 'DIFFERS FROM'} the board; "
            f"crc errors {s.crc_errors}, gaps {s.gaps}, duplicates {s.duplicates_dropped}, "
            f"resyncs {s.resyncs}, flips {mcu.counters.flips}"
        )
        return log.change_count / elapsed, lost + (0 if same else 1), info


def latency(samples: int) -> list[float]:
    with linked() as (mcu, _src, log):
        out = []
        for i in range(samples):
            ch = i % CHANNELS
            n = log.change_count
            t0 = time.perf_counter()
            if mcu.board[ch]:
                mcu.lift(ch)
            else:
                mcu.place(ch, 1)
            assert log.wait_for(lambda n=n: log.change_count > n, 2)
            ev_time = log.times[-1]
            assert isinstance(log.events[-1], SensorChange)
            out.append(ev_time - t0)
        return out


def main() -> int:
    rate, lost, info = throughput(Faults(), 20_000)
    print(f"clean line: {rate:,.0f} change events/s, {lost} lost ({info})")
    lat = sorted(latency(2000))
    med = statistics.median(lat) * 1000
    p99 = lat[int(len(lat) * 0.99)] * 1000
    print(f"latency place -> host SensorChange: median {med:.3f} ms, p99 {p99:.3f} ms")
    rate_f, lost_f, info_f = throughput(
        Faults(flip=0.0025, drop=0.0025, duplicate=0.0025, insert=0.0025, seed=3), 10_000
    )
    print(f"1% of bytes corrupted: {rate_f:,.0f} change events/s, {lost_f} lost ({info_f})")
    ok = rate >= 5000 and p99 < 2.0 and lost == 0 and lost_f == 0
    print("targets (>= 5,000/s, p99 < 2 ms, zero loss): " + ("met" if ok else "NOT met"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
