"""The host and firmware protocol engines against each other, in memory, no pty."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from boardctl.sensing import LinkDown, LinkUp, SensorChange, SensorEvent, SensorSnapshot
from firmware_bridge import protocol as p
from firmware_bridge.firmware.core import McuLink
from firmware_bridge.link import HostLink, LinkState


class Pair:
    """A host and a firmware joined by a scripted wire; time moves only when told."""

    def __init__(self, channels: int = 4, leds: int = 2, **host: object) -> None:
        self.to_host = bytearray()
        self.values = [0] * channels
        self.shown: list[bytes] = []
        self.mcu = McuLink(
            self.to_host.extend,
            self.values,
            bytes([1] * channels),
            leds,
            "t",
            7,
            show_leds=self.shown.append,
        )
        self.host = HostLink(**host)  # type: ignore[arg-type]
        self.now = 0.0
        self.events: list[SensorEvent] = []
        self.host.open(self.now)

    def step(self, ms: int = 10, lose_to_host: bool = False, lose_to_mcu: bool = False) -> None:
        self.now += ms / 1000
        out = self.host.take_output()
        if not lose_to_mcu:
            self.mcu.receive(out, int(self.now * 1000))
        self.mcu.poll(int(self.now * 1000))
        data = bytes(self.to_host)
        self.to_host.clear()
        if not lose_to_host:
            self.host.feed(data, self.now)
        self.host.poll(self.now)
        self.events += self.host.take_events()

    def change(self, ch: int, v: int) -> None:
        self.values[ch] = v
        self.mcu.changes([(ch, v)])


def test_hello_then_snapshot_bring_the_link_up() -> None:
    pair = Pair()
    pair.values[2] = 9
    pair.step()
    pair.step()
    assert pair.host.state is LinkState.UP
    assert isinstance(pair.events[0], LinkUp) and "4 sensors" in pair.events[0].description
    assert pair.events[1] == SensorSnapshot((0, 0, 9, 0))


def test_lost_changes_are_resent_and_delivered_once_in_order() -> None:
    pair = Pair()
    pair.step()
    pair.step()
    pair.change(0, 1)
    pair.step(lose_to_host=True)  # the frame with change 0 is lost
    pair.change(1, 1)
    pair.step()  # change 1 arrives ahead of the gap
    for _ in range(20):
        pair.step()
    changes = [e for e in pair.events if isinstance(e, SensorChange)]
    assert changes == [SensorChange(0, 1), SensorChange(1, 1)]
    assert pair.host.stats.gaps >= 1


def test_lost_acks_cause_duplicates_that_are_dropped() -> None:
    pair = Pair()
    pair.step()
    pair.step()
    pair.change(3, 2)
    pair.step()
    for _ in range(15):
        pair.step(lose_to_mcu=True)  # the host's acks never arrive
    for _ in range(30):
        pair.step()
    assert [e for e in pair.events if isinstance(e, SensorChange)] == [SensorChange(3, 2)]
    assert pair.host.stats.duplicates_dropped >= 1
    assert pair.mcu.queue == []


def test_silence_brings_the_link_down_within_a_second() -> None:
    pair = Pair()
    pair.step()
    pair.step()
    t0 = pair.now
    while not any(isinstance(e, LinkDown) for e in pair.events):
        pair.step(lose_to_host=True)
    assert pair.now - t0 < 1.0


def test_a_firmware_reset_is_reported_and_resynchronised() -> None:
    pair = Pair()
    pair.step()
    pair.step()
    pair.values[1] = 4
    # the firmware restarts: new boot id, nothing connected
    pair.mcu = McuLink(pair.to_host.extend, pair.values, bytes([1] * 4), 2, "t", 8)
    for _ in range(40):
        pair.step()
    kinds = [type(e).__name__ for e in pair.events]
    assert kinds == ["LinkUp", "SensorSnapshot", "LinkDown", "LinkUp", "SensorSnapshot"]
    assert pair.events[-1] == SensorSnapshot((0, 4, 0, 0))
    assert pair.host.stats.mcu_resets == 1


def test_queue_overflow_ends_in_a_gap_snapshot() -> None:
    pair = Pair()
    pair.step()
    pair.step()
    pair.mcu.max_unacked = 8
    for i in range(20):
        pair.change(i % 4, i)
    for _ in range(10):
        pair.step()
    assert pair.events[-1] == SensorSnapshot(tuple(pair.values))
    assert pair.host.stats.resyncs == 1 and pair.mcu.gaps == 1


def test_only_the_newest_led_frame_is_shown() -> None:
    pair = Pair()
    pair.step()
    pair.step()
    pair.host.set_leds([(1, 1, 1), (2, 2, 2)])
    pair.host.set_leds([(3, 3, 3), (4, 4, 4)])
    for _ in range(5):
        pair.step()
    assert pair.shown == [bytes([3, 3, 3, 4, 4, 4])]


def test_a_major_version_mismatch_refuses_the_link() -> None:
    pair = Pair()
    pair.step()
    hello = p.Hello((9, 0, 0), 1, b"\x01", 0, 0, "x").encode_body()
    pair.host.feed(p.encode_frame(p.HELLO, 0, hello, version=0x20), pair.now)
    events = pair.host.take_events()
    assert pair.host.state is LinkState.REFUSED
    assert any(isinstance(e, LinkDown) and "protocol 2.0" in e.reason for e in events)


def test_a_board_with_the_wrong_sensor_count_is_refused() -> None:
    pair = Pair(expected_sensors=77)
    pair.step()
    pair.step()
    assert pair.host.state is LinkState.REFUSED
    assert "reports 4 sensors but the board profile expects 77" in (pair.host.refusal or "")


def test_a_restarted_host_lights_the_leds_although_it_numbers_from_the_start() -> None:
    pair = Pair()
    pair.step()
    pair.step()
    for i in range(30):  # the old service got far with its frame numbers
        pair.host.set_leds([(i, i, i), (0, 0, 0)])
        pair.step()
    pair.step()
    assert pair.shown[-1] == bytes([29, 29, 29, 0, 0, 0])
    # the service restarts; the board keeps running and gets a CONNECT from a new host
    pair.host = HostLink()
    pair.host.open(pair.now)
    pair.step()
    pair.step()
    assert pair.host.state is LinkState.UP
    pair.host.set_leds([(5, 0, 0), (0, 5, 0)])
    for _ in range(5):
        pair.step()
    assert pair.shown[-1] == bytes([5, 0, 0, 0, 5, 0])
    assert pair.host.stats.led_frames_sent == 1  # the heartbeat confirmed it at once


def test_the_audit_snapshot_fires_on_schedule_while_the_board_is_busy() -> None:
    pair = Pair()
    pair.step()
    pair.step()
    # a change every 10 ms for 20 s: the queue of unacknowledged events is never empty
    for i in range(2000):
        pair.change(i % 3, i & 0xFF)
        pair.step(10)
    audits = pair.host.stats.audits_ok
    assert 20 // 5 - 1 <= audits <= 20 // 5 + 1, pair.host.stats
    assert pair.host.stats.audit_mismatches == 0 and pair.host.stats.resyncs == 0
    assert pair.host.picture == pair.values


def test_the_audit_corrects_a_wrong_host_picture_while_the_board_is_busy() -> None:
    pair = Pair()
    pair.step()
    pair.step()
    pair.host.picture[3] = 6  # the board says 0 and no change will touch channel 3
    for i in range(600):  # 6 s of changes on the other channels, one every 10 ms
        pair.change(i % 3, i & 0xFF)
        pair.step(10)
    assert pair.host.stats.audit_mismatches == 1, pair.host.stats
    assert pair.host.picture == pair.values and pair.host.picture[3] == 0
    # the controller hears of the correction as a snapshot
    assert any(isinstance(e, SensorSnapshot) for e in pair.events[2:])


#: LED frames of a chain of 12: a first frame, then changes of a few LEDs each
_FRAMES = st.lists(
    st.lists(st.tuples(st.integers(0, 11), st.binary(min_size=3, max_size=3)), max_size=4),
    min_size=1,
    max_size=12,
)


def _frames(first: bytes, changes: list[list[tuple[int, bytes]]]) -> list[bytes]:
    frames = [first]
    for change in changes:
        frame = bytearray(frames[-1])
        for led, colour in change:
            frame[3 * led : 3 * led + 3] = colour
        frames.append(bytes(frame))
    return frames


@settings(max_examples=150, deadline=None)
@given(
    first=st.binary(min_size=36, max_size=36),
    changes=_FRAMES,
    lost=st.sets(st.integers(0, 12), max_size=3),
    steps=st.lists(st.integers(0, 2), min_size=13, max_size=13),
)
def test_the_leds_that_changed_are_sent_and_the_board_shows_the_newest_frame(
    first: bytes, changes: list[list[tuple[int, bytes]]], lost: set[int], steps: list[int]
) -> None:
    """Each new frame goes as the LEDs that changed since the frame sent last;
    whatever is lost on the way to the board (a part whose frame the board
    never got is ignored), it ends up showing the newest frame, sent whole
    again if need be."""
    pair = Pair(leds=12)
    pair.step()
    pair.step()
    frames = _frames(first, changes)
    for n, frame in enumerate(frames):
        pair.host.set_leds(frame)
        for _ in range(steps[n]):  # the loop may draw again before the link runs
            pair.step(lose_to_mcu=n in lost)
    for _ in range(40):
        pair.step()
    assert pair.shown[-1] == frames[-1]
    if not lost and steps[0] and any(steps[1 : len(frames)]):
        # a frame after the first went as the LEDs it changed
        assert pair.host.stats.led_parts_sent >= 1


@given(old=st.binary(min_size=0, max_size=60).filter(lambda b: len(b) % 3 == 0), data=st.data())
def test_a_part_applied_to_the_frame_it_changes_gives_the_new_frame(
    old: bytes, data: st.DataObject
) -> None:
    new = data.draw(st.binary(min_size=len(old), max_size=len(old)))
    first, end = p.changed_range(old, new)
    assert old[: 3 * first] == new[: 3 * first] and old[3 * end :] == new[3 * end :]
    if old != new:  # the range is the tightest: its first and last LEDs differ
        assert old[3 * first : 3 * first + 3] != new[3 * first : 3 * first + 3]
        assert old[3 * end - 3 : 3 * end] != new[3 * end - 3 : 3 * end]
    part = p.LedsPart(2, 1, first, new[3 * first : 3 * end])
    _seq, decoded = p.decode_message(p.encode_message(part, 0)[:-1])
    assert isinstance(decoded, p.LedsPart) and decoded.apply(old) == new


@given(
    leds=st.integers(1, 600),
    changes=st.lists(st.tuples(st.integers(0, 1799), st.integers(0, 255)), max_size=6),
    data=st.data(),
)
def test_the_changed_range_of_a_long_frame_is_the_leds_whose_bytes_differ(
    leds: int, changes: list[tuple[int, int]], data: st.DataObject
) -> None:
    """A few bytes changed anywhere in a frame as long as a chain gets: the
    range runs from the first LED whose bytes differ to the last (a plain
    byte-by-byte look says which)."""
    old = data.draw(st.binary(min_size=3 * leds, max_size=3 * leds))
    new = bytearray(old)
    for at, value in changes:
        new[at % len(new)] = value
    differ = [i // 3 for i in range(len(old)) if old[i] != new[i]]
    want = (differ[0], differ[-1] + 1) if differ else (0, 0)
    assert p.changed_range(old, bytes(new)) == want
    assert p.changed_range(memoryview(old), new) == want


def test_a_board_of_protocol_1_0_gets_whole_frames() -> None:
    pair = Pair(leds=2)
    pair.host.feed(b"", pair.now)
    pair.step()
    # the board's HELLO came in a 1.0 frame: it does not know LEDS_PART
    hello = p.Hello((1, 0, 0), 7, bytes([1] * 4), 2, 0, "old")
    pair.host = HostLink()
    pair.host.open(pair.now)
    pair.host.feed(p.encode_frame(p.HELLO, 0, hello.encode_body(), version=0x10), pair.now)
    snap = p.Snapshot(p.SNAP_CONNECT, 0, [0, 0, 0, 0])
    pair.host.feed(p.encode_frame(p.SNAPSHOT, 1, snap.encode_body(), version=0x10), pair.now)
    assert pair.host.identity is not None and pair.host.identity.protocol == (1, 0)
    pair.host.set_leds(bytes([1, 2, 3, 4, 5, 6]))
    pair.host.poll(pair.now)
    pair.host.set_leds(bytes([1, 2, 3, 9, 9, 9]))
    pair.host.poll(pair.now)
    sent = p.Decoder().feed(pair.host.take_output())
    leds = [m for _, m in sent if isinstance(m, p.Leds | p.LedsPart)]
    assert [type(m) for m in leds] == [p.Leds, p.Leds]
    assert pair.host.stats.led_parts_sent == 0


def test_frames_handed_over_while_the_port_is_busy_leave_only_the_newest() -> None:
    pair = Pair()
    pair.step()
    pair.step()
    pair.host.take_output()
    pair.host.port_busy = True  # a write the board does not take is in flight
    for i in range(1, 6):
        pair.host.set_leds([(i, i, i), (0, 0, 0)])
        pair.host.poll(pair.now)
    assert not [
        m
        for _, m in p.Decoder().feed(pair.host.take_output())
        if isinstance(m, p.Leds | p.LedsPart)
    ]
    pair.host.port_busy = False  # the write went through: the newest frame goes out alone
    for _ in range(5):
        pair.step()
    assert pair.shown == [bytes([5, 5, 5, 0, 0, 0])]
    assert pair.host.stats.led_frames_sent == 1
