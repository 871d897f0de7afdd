"""The host and firmware protocol engines against each other, in memory, no pty."""

from __future__ import annotations

from boardctl.sensing import LinkDown, LinkUp, SensorChange, SensorEvent, SensorSnapshot
from firmware_bridge import protocol as p
from firmware_bridge.firmware.core import McuLink
from firmware_bridge.link import HostLink, LinkState


class Pair:
    """A host and a firmware joined by a scripted wire; time moves only when told."""

    def __init__(self, channels: int = 4, **host: object) -> None:
        self.to_host = bytearray()
        self.values = [0] * channels
        self.shown: list[bytes] = []
        self.mcu = McuLink(
            self.to_host.extend,
            self.values,
            bytes([1] * channels),
            2,
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
