"""GPIO sensing with gpiozero's MockFactory: pins driven as a hand on the board
would drive them, bounce included; what the controller receives is asserted."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory, MockPin
from sensing_support import Events

from boardctl.sensing import (
    ButtonPress,
    LinkDown,
    LinkUp,
    SensorChange,
    SensorSnapshot,
)
from hardware.gpio_sensing import (
    Debouncer,
    PinSource,
    PolledSource,
    ShiftRegisterSource,
    Sim74HC165Chain,
    open_sensor_source,
)
from hardware.profiles import load_profile


class HeldPin(MockPin):  # type: ignore[misc]
    """A pin a piece already holds low when the source starts (the pull-up cannot
    raise it, as on the board)."""

    held_low = False

    def _set_pull(self, value: str) -> None:
        super()._set_pull(value)
        if self.held_low:
            self.drive_low()


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory()
    yield f
    f.close()


def test_debouncer_reports_the_final_level_once_it_has_settled() -> None:
    d = Debouncer([0, 0], settle=0.02)
    # a marble rocks as it lands: 1, 0, 1 within a few ms
    for t, level in ((0.000, 1), (0.003, 0), (0.006, 1)):
        assert d.update(0, level, t) == []
    assert d.due(0.025) == []  # 19 ms after the last edge
    assert d.next_deadline() == pytest.approx(0.026)
    assert d.due(d.next_deadline() or 0) == [(0, 1)]
    # a glitch that comes back to the reported level is never reported
    d.update(1, 1, 0.1)
    d.update(1, 0, 0.105)
    assert d.due(1.0) == [] and d.next_deadline() is None
    # a poll that keeps seeing the new level does not restart its settle time
    for t in (2.0, 2.01, 2.02):
        d.update(1, 1, t)
    assert d.due(2.02) == [(1, 1)]


def test_debouncer_reports_a_light_gate_at_once() -> None:
    d = Debouncer([0], settle=0.02, pulse_channels=[0])
    assert d.update(0, 1, 0.0) == [(0, 1)]
    d.update(0, 0, 0.004)
    d.update(0, 1, 0.005)  # bounce while still interrupted: nothing new
    d.update(0, 0, 0.006)
    assert d.due(0.02) == [] and d.due(0.027) == [(0, 0)]


def test_pins_report_a_placed_piece_once_despite_bounce(factory: MockFactory) -> None:
    events = Events()
    source = PinSource([17, 27], debounce=0.01, pin_factory=factory)
    with source:
        factory.pin(27, pin_class=HeldPin).held_low = True  # a piece already on channel 1
        source.start(events)
        assert events.next() == LinkUp("gpio pins")
        assert events.next() == SensorSnapshot((0, 1))
        pin = factory.pin(17)
        for _ in range(3):  # contacts bounce as the marble lands
            pin.drive_low()
            pin.drive_high()
        pin.drive_low()
        assert events.next_change() == SensorChange(0, 1)
        # a piece dragged across channel 1's sensor for a moment: no event for it;
        # taking the piece off channel 0 is reported after its own settle time
        factory.pin(27).drive_high()
        factory.pin(27).drive_low()
        pin.drive_high()
        assert events.next_change() == SensorChange(0, 0)
        assert events.q.empty()
    assert events.next() == LinkDown("closed")


def test_buttons_give_one_press_per_push(factory: MockFactory) -> None:
    events = Events()
    with PinSource([], buttons={"undo": 6}, debounce=0.01, pin_factory=factory) as source:
        source.start(events)
        events.next(), events.next()
        pin = factory.pin(6)
        pin.drive_low()
        pin.drive_high()
        pin.drive_low()  # the bounce of the press
        pin.drive_high()  # released
        pin.drive_low()  # the bounce of the release
        pin.drive_high()
        assert events.next() == ButtonPress("undo")
    assert events.next() == LinkDown("closed")  # and nothing else came before it


def test_shift_register_chain_reads_every_channel(factory: MockFactory) -> None:
    chain = Sim74HC165Chain(factory, load=22, clock=11, data=9, chips=2)
    chain.set_input(3, False)  # active low: a piece on channel 3 from the start
    events = Events()
    source = ShiftRegisterSource(22, 11, 9, 2, poll_hz=1000, debounce=0.005, pin_factory=factory)
    with source:
        source.start(events)
        assert events.next() == LinkUp("74HC165 chain")
        snapshot = events.next()
        assert isinstance(snapshot, SensorSnapshot)
        assert snapshot.values == tuple(1 if n == 3 else 0 for n in range(16))
        chain.set_input(12, False)
        assert events.next_change() == SensorChange(12, 1)
        chain.set_input(3, True)
        assert events.next_change() == SensorChange(3, 0)
    assert chain.scans >= 2


class ScriptedChain(PolledSource):
    """A chain whose scans are given: each scan takes the next, the last one stays."""

    def __init__(self, scans: list[list[int]]) -> None:
        super().__init__(
            1,
            active_low=False,
            poll_hz=1000,
            debounce=0.005,
            pulse_channels=(),
            buttons=None,
            pin_factory=None,
            clock=time.monotonic,
        )
        self.scans = scans

    def _open(self) -> list[int]:
        return self.scan()

    def scan(self) -> list[int]:
        return list(self.scans.pop(0) if len(self.scans) > 1 else self.scans[0])


def test_a_polled_source_started_again_reports_from_its_new_snapshot() -> None:
    empty, one = [0] * 8, [1] + [0] * 7
    source = ScriptedChain([empty, empty])
    events = Events()
    with source:
        source.start(events)
        assert [events.next(), events.next()] == [LinkUp("gpio"), SensorSnapshot(tuple(empty))]
    assert events.next() == LinkDown("closed")
    # started again with a piece on channel 0, lifted as the first poll reads the board
    source.scans = [one, empty]
    with source:
        source.start(events)
        assert [events.next(), events.next()] == [LinkUp("gpio"), SensorSnapshot(tuple(one))]
        assert events.next_change() == SensorChange(0, 0)


def test_profile_builds_its_source_with_light_gates_and_buttons(factory: MockFactory) -> None:
    board = load_profile("shiftago-presence")
    s = board.sensing_settings
    chain = Sim74HC165Chain(factory, s["load"], s["clock"], s["data"], s["chips"])
    events = Events()
    with open_sensor_source(board, pin_factory=factory) as source:
        source.start(events)
        events.next(), events.next()
        gate = board.site("W3").channel
        assert gate is not None
        chain.set_input(gate, False)  # a marble interrupts the gate ...
        assert events.next_change() == SensorChange(gate, 1)
        chain.set_input(gate, True)  # ... and has rolled through
        assert events.next_change() == SensorChange(gate, 0)
        factory.pin(board.buttons["new"]).drive_low()
        assert events.next() == ButtonPress("new")
    with pytest.raises(Exception, match="come through the firmware link"):
        open_sensor_source(load_profile("duploline"))


class LgpioError(Exception):
    """Like lgpio's ``error``: neither a GPIOZeroError nor an OSError."""

    def __init__(self, value: str) -> None:
        super().__init__(value)
        self.value = value

    def __str__(self) -> str:
        return repr(self.value)


class BusyPin(MockPin):  # type: ignore[misc]
    """A pin another process has claimed: lgpio refuses it as gpiozero opens it."""

    def __init__(self, factory: MockFactory, info: object) -> None:
        raise LgpioError("GPIO busy")


def test_a_busy_pin_is_a_clear_error_naming_the_pin_and_the_service(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sys
    import types

    from hardware.errors import HardwareUnavailable

    lgpio = types.ModuleType("lgpio")
    lgpio.error = LgpioError  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "lgpio", lgpio)
    board = load_profile("shiftago-presence")
    busy = MockFactory(pin_class=BusyPin)
    try:
        source = open_sensor_source(board, pin_factory=busy)
        with pytest.raises(HardwareUnavailable) as caught:
            source.start(Events())
    finally:
        busy.close()
    message = str(caught.value)
    assert f"GPIO {board.sensing_settings['load']}:" in message
    assert "GPIO busy" in message
    assert "is boardctl.service running? `sudo systemctl stop boardctl`" in message


def test_buttons_of_a_serial_board_are_read_beside_the_link(
    factory: MockFactory, tmp_path: Path
) -> None:
    from boardctl.daemon.runner import open_hardware
    from firmware_bridge.host import SerialSensorSource
    from hardware.gpio_sensing import ButtonSource, CombinedSource
    from hardware.profiles import find_profile, parse_profile

    text = find_profile("shiftago-colour").read_text()
    port = tmp_path / "no-microcontroller"
    text = text.replace('port = "/dev/boardctl-mcu"', f'port = "{port}"')
    text = text.replace("[sensing]\n", "[buttons]\nnew = 5\nundo = 6\n\n[sensing]\n", 1)
    board = parse_profile(text, "serial-with-buttons.toml")
    assert board.sensing == "serial" and dict(board.buttons) == {"new": 5, "undo": 6}
    hardware = open_hardware(board, pin_factory=factory)
    assert isinstance(hardware.link, SerialSensorSource)
    assert isinstance(hardware.sensors, CombinedSource)
    assert hardware.sensors.sources[0] is hardware.link
    assert isinstance(hardware.sensors.sources[1], ButtonSource)
    events = Events()
    with hardware.sensors:
        hardware.sensors.start(events)
        factory.pin(6).drive_low()  # undo, pressed as the link keeps looking for its port
        while (event := events.next()) != ButtonPress("undo"):
            assert isinstance(event, LinkDown), event
    assert factory.pin(6).state  # the pin was released: its pull-up is back


class HeldElsewhere(MockPin):  # type: ignore[misc]
    def __init__(self, factory: MockFactory, info: object) -> None:
        raise OSError(16, "Device or resource busy")


def test_button_source_gives_only_presses_and_a_combined_source_starts_all_or_none(
    factory: MockFactory,
) -> None:
    from hardware.errors import HardwareUnavailable
    from hardware.gpio_sensing import ButtonSource, CombinedSource
    from hardware.sim_sensing import ScriptedSource

    events = Events()
    readings = ScriptedSource(2)
    with CombinedSource(readings, ButtonSource({"new": 5}, pin_factory=factory)) as source:
        source.start(events)
        assert events.next() == LinkUp("simulated sensors")
        assert events.next() == SensorSnapshot((0, 0))
        factory.pin(5).drive_low()
        assert events.next() == ButtonPress("new")
        readings.set(1, 1)
        assert events.next() == SensorChange(1, 1)
    assert events.next() == LinkDown("closed")
    assert events.q.empty()

    # the buttons cannot start: the readings already started are closed again
    readings = ScriptedSource(2)
    busy = MockFactory(pin_class=HeldElsewhere)
    try:
        with pytest.raises(HardwareUnavailable, match="GPIO 5"):
            CombinedSource(readings, ButtonSource({"new": 5}, pin_factory=busy)).start(events)
    finally:
        busy.close()
    assert [events.next(), events.next(), events.next()][-1] == LinkDown("closed")
