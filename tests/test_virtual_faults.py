"""The fault matrix: the real host link against the virtual microcontroller over a pty.

Every scenario drives hundreds of sensor changes through a faulty line, then
makes the line clean and waits for quiet. The host's picture must equal the
board, every change the firmware accepted must reach the host once and in order
(except where a snapshot after a reset or gap stands for it), none may be
invented, and the counters must show that the faults really happened.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator

import pytest

from boardctl.sensing import SensorChange, SensorEvent, SensorSnapshot
from firmware_bridge.host import SerialSensorSource
from firmware_bridge.serial_port import Backoff
from firmware_bridge.virtual import EventLog, Faults, VirtualMicrocontroller

CHANNELS = 77


def drive(
    mcu: VirtualMicrocontroller,
    rng: random.Random,
    changes: int,
    batch: int = 6,
    pace: bool = False,
) -> None:
    """Toggle random sensors; wait for the firmware to accept each batch.

    With ``pace``, also wait while more than 200 changes wait for the host's
    acknowledgement, as hands on a board would (the firmware keeps 512).
    """
    done = 0
    while done < changes:
        for ch in rng.sample(range(CHANNELS), batch):
            if mcu.board[ch]:
                mcu.lift(ch)
            else:
                mcu.place(ch, rng.choice((1, 2, 7, 300)))
        done += batch
        assert mcu.wait_scanned(5)
        if pace is not None:
            assert mcu.wait_until(lambda: len(mcu.link.queue) <= 200, 10), "host stopped"


def quiet(mcu: VirtualMicrocontroller, log: EventLog, src: SerialSensorSource) -> None:
    mcu.set_faults(Faults())
    assert mcu.wait_scanned(5)
    ok = log.wait_for(lambda: log.up and log.picture == mcu.board, timeout=15)
    assert ok, f"host picture never matched the board; stats {src.stats}, mcu {mcu.counters}"


def check_delivery(
    events: list[SensorEvent], accepted: list[tuple[int, int, int]], allow_skips: bool
) -> int:
    """Changes arrive in the firmware's order, once; skips only where a snapshot stands.

    The host's changes between two snapshots must be one contiguous run of the
    changes the firmware accepted, each run after the previous one. Returns how
    many accepted changes were covered by snapshots instead.
    """
    seq = [(ch, v) for _boot, ch, v in accepted]
    runs: list[list[tuple[int, int]]] = [[]]
    for ev in events:
        if isinstance(ev, SensorSnapshot):
            runs.append([])
        elif isinstance(ev, SensorChange):
            runs[-1].append((ev.channel, ev.value))
    pos = 0
    skipped = 0
    for run in runs:
        if not run:
            continue
        k = pos
        while k + len(run) <= len(seq) and seq[k : k + len(run)] != run:
            k += 1
        assert k + len(run) <= len(seq), (
            f"the host's changes {run[:8]}... after accepted change {pos} are not a run "
            "of what the firmware accepted: lost, reordered, duplicated or invented"
        )
        if k != pos:
            assert allow_skips, f"accepted changes {seq[pos:k]} never reached the host"
            skipped += k - pos
        pos = k + len(run)
    return skipped


@pytest.fixture
def rig() -> Iterator[tuple[VirtualMicrocontroller, SerialSensorSource, EventLog]]:
    with (
        VirtualMicrocontroller(channels=CHANNELS, leds=28, scan_ms=2) as mcu,
        SerialSensorSource(mcu.port, backoff=Backoff(0.02, 0.2)) as src,
    ):
        log = EventLog()
        src.start(log)
        assert log.wait_for(lambda: log.up, 5)
        yield mcu, src, log


def test_clean_line_delivers_every_change_in_order(rig) -> None:  # type: ignore[no-untyped-def]
    mcu, src, log = rig
    drive(mcu, random.Random(1), 600)
    quiet(mcu, log, src)
    assert check_delivery(log.events, mcu.accepted, allow_skips=False) == 0
    assert len(log.changes()) == len(mcu.accepted) == 600
    assert src.stats.crc_errors == 0 and src.stats.sessions == 1


BYTE_FAULTS = {
    "bit flips": (Faults(flip=0.01, seed=2), "crc_errors"),
    "dropped bytes": (Faults(drop=0.01, seed=3), "crc_errors"),
    "duplicated bytes": (Faults(duplicate=0.01, seed=4), "crc_errors"),
    "inserted bytes": (Faults(insert=0.01, seed=5), "crc_errors"),
    "truncated frames": (Faults(truncate=0.05, seed=6), "crc_errors"),
    "everything at once": (
        Faults(flip=0.003, drop=0.003, duplicate=0.003, insert=0.003, truncate=0.01, seed=7),
        "crc_errors",
    ),
}


@pytest.mark.parametrize("name", list(BYTE_FAULTS))
def test_corrupted_line_loses_and_invents_nothing(rig, name: str) -> None:  # type: ignore[no-untyped-def]
    mcu, src, log = rig
    faults, counter = BYTE_FAULTS[name]
    mcu.set_faults(faults)
    drive(mcu, random.Random(name), 1200, pace=True)
    counters = mcu.counters
    quiet(mcu, log, src)
    assert check_delivery(log.events, mcu.accepted, allow_skips=False) == 0
    assert len(log.changes()) == len(mcu.accepted)
    stats = src.stats
    assert getattr(stats, counter) > 0, stats
    fired = (
        counters.flips
        + counters.drops
        + counters.duplicates
        + counters.inserts
        + counters.truncations
    )
    assert fired > 0
    # the faults cost resends, which the host saw as gaps or duplicates
    assert stats.gaps + stats.duplicates_dropped > 0 or stats.sessions > 1


def test_resets_mid_frame_end_in_a_snapshot_that_matches(rig) -> None:  # type: ignore[no-untyped-def]
    mcu, src, log = rig
    mcu.set_faults(Faults(reset_mid_frame=0.02, garbage_at_open=40, seed=8))
    drive(mcu, random.Random(8), 600)
    counters = mcu.counters
    quiet(mcu, log, src)
    check_delivery(log.events, mcu.accepted, allow_skips=True)
    assert counters.resets > 0 and counters.garbage_bytes > 0
    assert src.stats.mcu_resets > 0 and src.stats.sessions > 1


def test_unplug_and_replug_resynchronise_by_the_same_name(rig) -> None:  # type: ignore[no-untyped-def]
    mcu, src, log = rig
    rng = random.Random(9)
    old_pts = mcu.pts
    for _ in range(3):
        drive(mcu, rng, 60)
        mcu.unplug()
        assert log.wait_for(lambda: not log.up, 5)
        for ch in rng.sample(range(CHANNELS), 10):  # pieces move while the cable is out
            mcu.place(ch, 2) if not mcu.board[ch] else mcu.lift(ch)
        mcu.replug()
        assert log.wait_for(lambda: log.up, 5)
    quiet(mcu, log, src)
    check_delivery(log.events, mcu.accepted, allow_skips=True)
    assert src.stats.reconnects == 3 and src.stats.sessions == 4
    assert mcu.port and mcu.pts  # same stable name, new pts behind it
    del old_pts


def test_a_host_that_stalls_catches_up_without_losing_changes() -> None:
    stall = threading.Event()
    release = threading.Event()
    with (
        VirtualMicrocontroller(channels=CHANNELS, scan_ms=2) as mcu,
        SerialSensorSource(mcu.port) as src,
    ):
        log = EventLog()

        def emit(ev: SensorEvent) -> None:
            log(ev)
            if stall.is_set():
                stall.clear()
                release.wait(10)  # the controller hangs: the reader thread is stuck here

        src.start(emit)
        assert log.wait_for(lambda: log.up, 5)
        rng = random.Random(10)
        drive(mcu, rng, 60)
        stall.set()
        drive(mcu, rng, 6)
        assert log.wait_for(lambda: not stall.is_set(), 5)  # the host is now stuck
        drive(mcu, rng, 120)  # pieces move while the host hears nothing
        # the firmware notices the silence and holds its queue
        assert mcu.wait_until(lambda: mcu.link.host_silent(mcu.now_ms()), 3)
        drive(mcu, rng, 120)
        release.set()
        quiet(mcu, log, src)
        assert check_delivery(log.events, mcu.accepted, allow_skips=False) == 0
        assert len(log.changes()) == len(mcu.accepted)
        assert src.stats.sessions == 1


def test_silent_link_is_declared_down_within_a_second(rig) -> None:  # type: ignore[no-untyped-def]
    mcu, _src, log = rig
    import time

    mcu.set_faults(Faults(drop=1.0, to_mcu=False))  # the board says nothing any more
    t0 = time.monotonic()
    assert log.wait_for(lambda: not log.up, 2)
    assert time.monotonic() - t0 < 1.0
    mcu.set_faults(Faults())
    assert log.wait_for(lambda: log.up, 5)
    assert log.picture == mcu.board


def test_led_frames_arrive_newest_wins_even_on_a_bad_line(rig) -> None:  # type: ignore[no-untyped-def]
    mcu, src, log = rig
    mcu.set_faults(Faults(flip=0.01, seed=11))
    for i in range(50):
        src.set_leds([(i, 0, 255 - i)] * 28)
    last = bytes((49, 0, 206)) * 28
    mcu.set_faults(Faults())
    ok = log.wait_for(lambda: bool(mcu.led_frames) and mcu.led_frames[-1] == last, 5)
    if not ok:  # no host event wakes the log here; the LED resend timer does the work
        import time

        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not (mcu.led_frames and mcu.led_frames[-1] == last):
            mcu.wait_scanned(0.05)
    assert mcu.led_frames[-1] == last
    assert len(mcu.led_frames) <= 50


@pytest.mark.slow
def test_soak_every_fault_mixed_over_many_changes(rig) -> None:  # type: ignore[no-untyped-def]
    mcu, src, log = rig
    rng = random.Random(99)
    for round_ in range(10):
        mcu.set_faults(
            Faults(
                flip=0.003,
                drop=0.002,
                duplicate=0.002,
                insert=0.002,
                truncate=0.01,
                reset_mid_frame=0.002 if round_ % 3 == 0 else 0.0,
                garbage_at_open=30,
                seed=round_,
            )
        )
        drive(mcu, rng, 1500, pace=True)
        quiet(mcu, log, src)
    check_delivery(log.events, mcu.accepted, allow_skips=True)
    assert src.stats.audit_mismatches == 0
