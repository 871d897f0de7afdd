"""A 74HC165 chain read over the SPI bus: the load pin on gpiozero's MockFactory and
the bus on the simulated chain's spidev, driven as a hand on the board would drive
them; what the controller receives is asserted. And the profile keys that choose it."""

from __future__ import annotations

import errno
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory, MockPin
from sensing_support import Events

from boardctl.board import BoardProfile
from boardctl.sensing import (
    ButtonPress,
    LinkDown,
    LinkUp,
    SensorChange,
    SensorSnapshot,
)
from hardware.errors import HardwareUnavailable, ProfileError
from hardware.gpio_sensing import ShiftRegisterSource, Sim74HC165Chain, open_sensor_source
from hardware.profiles import find_profile, load_profile, parse_profile
from hardware.spi_sensing import Sim74HC165SpiChain, SpiShiftRegisterSource

LOAD = 27


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory()
    yield f
    f.close()


def spi_source(
    factory: MockFactory, chain: Sim74HC165SpiChain, chips: int, **kwargs: object
) -> SpiShiftRegisterSource:
    options: dict[str, object] = {"poll_hz": 1000, "debounce": 0.005}
    options.update(kwargs)
    return SpiShiftRegisterSource(
        LOAD,
        chain.bus,
        chips,
        device=chain.device,
        pin_factory=factory,
        spi_factory=chain.spidev,
        **options,  # type: ignore[arg-type]
    )


# -- the reader on the simulated chain


def test_pieces_placed_and_lifted_are_reported_on_their_channels(factory: MockFactory) -> None:
    chain = Sim74HC165SpiChain(factory, LOAD, chips=2, bus=1)
    chain.set_input(3, False)  # active low: a piece on channel 3 from the start
    events = Events()
    with spi_source(factory, chain, 2) as source:
        source.start(events)
        assert events.next() == LinkUp("74HC165 chain on SPI")
        assert events.next() == SensorSnapshot(tuple(1 if n == 3 else 0 for n in range(16)))
        chain.set_input(12, False)  # placed on input D of the second register
        assert events.next_change() == SensorChange(12, 1)
        chain.set_input(3, True)  # lifted
        assert events.next_change() == SensorChange(3, 0)
        chain.set_input(15, False)  # the last bit of the chain, input A of the far register
        assert events.next_change() == SensorChange(15, 1)
    assert events.next() == LinkDown("closed")
    # one throwaway byte at open puts SCLK at its idle level; then every read latched
    # the inputs first, in mode 2, MSB first, at the speed asked for, sampling half a
    # period away from the shifting edge
    first, *scans = chain.transfers
    assert (first.bits, first.latched) == (8, False)
    assert scans and all(t.latched and not t.sampled_on_shift for t in scans)
    assert {(t.mode, t.lsbfirst, t.speed_hz) for t in chain.transfers} == {(2, False, 1_000_000)}
    assert {t.bits for t in scans} == {16}
    assert [d.is_open for d in chain.devices] == [False]  # closed with the source
    assert chain.devices[0].no_cs  # the chain has no chip select


class FakeClock:
    """A clock that moves only when the test moves it."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class PolledByHand(SpiShiftRegisterSource):
    """A source whose polling thread returns at once: the test calls ``poll``."""

    def _run(self) -> None:
        pass


def test_a_bounce_shorter_than_the_settle_time_gives_nothing(factory: MockFactory) -> None:
    chain = Sim74HC165SpiChain(factory, LOAD, chips=1)
    clock = FakeClock()
    events = Events()
    source = PolledByHand(
        LOAD, 0, 1, debounce=0.2, pin_factory=factory, spi_factory=chain.spidev, clock_fn=clock
    )

    def poll_at(now: float) -> None:
        clock.now = now
        source.poll()

    with source:
        source.start(events)
        events.next(), events.next()
        # a marble rolls across channel 2's reed switch: seen for three reads, then gone
        chain.set_input(2, False)
        for now in (1.0, 1.05, 1.19):
            poll_at(now)
        chain.set_input(2, True)
        for now in (1.25, 1.5, 2.0):
            poll_at(now)
        assert events.q.empty()
        # a piece set on channel 6 is the next thing reported, after its own settle time
        chain.set_input(6, False)
        for now in (3.0, 3.1, 3.19):
            poll_at(now)
        assert events.q.empty()
        poll_at(3.2)
        assert events.q.get_nowait() == SensorChange(6, 1)
        poll_at(4.0)
        assert events.q.empty()
    assert events.next() == LinkDown("closed")


def test_the_channel_order_is_the_bit_banged_readers(factory: MockFactory) -> None:
    rng = random.Random(165)
    levels = [rng.random() < 0.5 for _ in range(24)]
    gpio_factory = MockFactory()
    try:
        bitbang_chain = Sim74HC165Chain(gpio_factory, load=17, clock=22, data=23, chips=3)
        spi_chain = Sim74HC165SpiChain(factory, LOAD, chips=3, bus=1)
        for channel, high in enumerate(levels):
            bitbang_chain.set_input(channel, high)
            spi_chain.set_input(channel, high)
        snapshots = []
        sources = (
            ShiftRegisterSource(17, 22, 23, 3, pin_factory=gpio_factory),
            spi_source(factory, spi_chain, 3),
        )
        for source in sources:
            events = Events()
            with source:
                source.start(events)
                events.next()
                snapshots.append(events.next())
    finally:
        gpio_factory.close()
    expected = SensorSnapshot(tuple(0 if high else 1 for high in levels))
    assert snapshots == [expected, expected]


def test_the_twin_latches_only_when_sh_ld_is_pulsed(factory: MockFactory) -> None:
    """What makes the tests above mean something: a reader that does not pulse
    SH/LD gets what is left in the registers, and one that samples on the falling
    edge loses the first bit."""
    from gpiozero import DigitalOutputDevice

    chain = Sim74HC165SpiChain(factory, LOAD, chips=2, bus=0)
    for channel in (0, 9):
        chain.set_input(channel, False)
    load = DigitalOutputDevice(LOAD, initial_value=True, pin_factory=factory)
    spi = chain.spidev()
    spi.open(0, 0)
    assert spi.readbytes(2) == [0, 0]  # nothing latched since power-on
    load.off()
    load.on()
    assert spi.readbytes(2) == [0b01111111, 0b10111111]  # H of each register is its MSB
    assert spi.readbytes(2) == [0, 0]  # not pulsed again: the registers shifted empty
    chain.set_input(0, True)
    load.off()
    load.on()
    assert spi.xfer2([0, 0]) == [0b11111111, 0b10111111]
    spi.mode = 1  # sampling on the falling edge, after the first shift
    load.off()
    load.on()
    assert spi.readbytes(2) == [0b11111111, 0b01111110]  # H lost, the next register's H late
    assert [t.latched for t in chain.transfers] == [False, True, False, True, True]
    with pytest.raises(OSError, match="Invalid argument"):  # bus 0 takes mode 1, bus 1 not
        Sim74HC165SpiChain(factory, 5, chips=1, bus=1).spidev().mode = 1
    spi.close()
    with pytest.raises(OSError, match="Bad file descriptor"):
        spi.readbytes(2)
    load.close()


def test_mode_2_samples_between_the_shifts_and_reads_the_chain_in_order(
    factory: MockFactory,
) -> None:
    """On the simulated chain, by hand: mode 2 reads H first, as mode 0 does, but
    samples half a period away from the rising edge the register shifts on; mode 0
    samples on that very edge (a race on real hardware). SCLK's first move to idle
    high is a rising edge and shifts the chain once, which the next load undoes."""
    from gpiozero import DigitalOutputDevice

    chain = Sim74HC165SpiChain(factory, LOAD, chips=2, bus=1)
    for channel in (0, 9):
        chain.set_input(channel, False)
    load = DigitalOutputDevice(LOAD, initial_value=True, pin_factory=factory)

    def latch() -> None:
        load.off()
        load.on()

    spi = chain.spidev()
    spi.open(1, 0)
    latch()
    assert spi.readbytes(2) == [0b01111111, 0b10111111]  # mode 0: H of each register first
    assert chain.transfers[-1].sampled_on_shift
    latch()
    assert not chain.clock_high
    spi.mode = 2  # SCLK rises to idle high: the chain shifts once, H is gone ...
    assert chain.clock_high
    assert spi.readbytes(2) == [0b11111111, 0b01111110]  # every bit one place early
    latch()  # ... until the next load, which every scan begins with
    assert spi.readbytes(2) == [0b01111111, 0b10111111]
    assert not chain.transfers[-1].sampled_on_shift
    assert chain.clock_high  # idle high between transfers: no more extra edges
    latch()
    assert spi.readbytes(2) == [0b01111111, 0b10111111]
    spi.close()
    load.close()


@pytest.mark.parametrize("idle_at_transfer", [False, True])
def test_the_reader_sets_mode_2_and_its_first_read_is_whole(
    factory: MockFactory, idle_at_transfer: bool
) -> None:
    """Wherever the driver moves SCLK to idle high, at the mode's setting or at the
    next transfer, that rising edge comes before the first scan's load pulse."""
    chain = Sim74HC165SpiChain(factory, LOAD, chips=2, bus=1)
    chain.idle_at_transfer = idle_at_transfer
    for channel in (0, 8, 15):
        chain.set_input(channel, False)
    events = Events()
    with spi_source(factory, chain, 2) as source:
        source.start(events)
        events.next()
        snapshot = events.next()
    assert snapshot == SensorSnapshot(tuple(int(n in (0, 8, 15)) for n in range(16)))
    assert chain.devices[0].mode == 2
    assert {t.mode for t in chain.transfers} == {2}


def test_settings_another_program_left_on_the_device_are_undone(factory: MockFactory) -> None:
    chain = Sim74HC165SpiChain(factory, LOAD, chips=1, bus=0)
    chain.leave_settings(
        mode=3, bits_per_word=16, lsbfirst=True, cshigh=True, threewire=True, loop=True
    )
    chain.set_input(1, False)
    events = Events()
    with spi_source(factory, chain, 1) as source:
        source.start(events)
        events.next()
        assert events.next() == SensorSnapshot((0, 1, 0, 0, 0, 0, 0, 0))
    spi = chain.devices[0]
    assert (spi.mode, spi.bits_per_word, spi.lsbfirst) == (2, 8, False)
    assert not (spi.cshigh or spi.threewire or spi.loop)
    assert spi.no_cs


def test_a_reader_that_forgets_to_pulse_sh_ld_fails(factory: MockFactory) -> None:
    class Forgetful(SpiShiftRegisterSource):
        def scan(self) -> list[int]:
            data = self._spi.readbytes(self.chips)
            return [int(not byte >> (7 - k) & 1) for byte in data for k in range(8)]

    chain = Sim74HC165SpiChain(factory, LOAD, chips=1)
    events = Events()
    source = Forgetful(LOAD, 0, 1, pin_factory=factory, spi_factory=chain.spidev)
    with source:
        source.start(events)
        events.next()
        snapshot = events.next()
    assert snapshot == SensorSnapshot((1,) * 8)  # an empty board read as full


def test_an_older_spidev_without_no_cs_still_reads(factory: MockFactory) -> None:
    chain = Sim74HC165SpiChain(factory, LOAD, chips=1, bus=1)
    chain.no_cs_supported = False
    chain.set_input(7, False)
    events = Events()
    with spi_source(factory, chain, 1) as source:
        source.start(events)
        events.next()
        assert events.next() == SensorSnapshot((0,) * 7 + (1,))


def test_a_read_error_ends_the_source_with_link_down(factory: MockFactory) -> None:
    chain = Sim74HC165SpiChain(factory, LOAD, chips=1)
    events = Events()
    with spi_source(factory, chain, 1) as source:
        source.start(events)
        events.next(), events.next()
        chain.read_error = OSError(errno.EIO, "Input/output error")
        event = events.next()
        assert isinstance(event, LinkDown)
        assert event.reason.startswith("reading the shift registers failed:")
        assert "Input/output error" in event.reason
    assert events.next() == LinkDown("closed")
    assert not chain.devices[0].is_open


# -- what cannot start says why, and leaves nothing open


def test_without_spidev_the_message_says_how_to_install_it(
    factory: MockFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "spidev", None)  # import spidev fails
    source = SpiShiftRegisterSource(LOAD, 1, 2, pin_factory=factory)
    with pytest.raises(HardwareUnavailable, match="pip install spidev"):
        source.start(Events())
    # the load pin is free for the next attempt
    factory.pin(LOAD).drive_low()


@pytest.mark.parametrize(
    ("error", "bus", "device", "says"),
    [
        (None, 1, 0, "No such file or directory; enable SPI bus 1 (dtoverlay=spi1-1cs"),
        (None, 1, 2, "/dev/spidev1.2 for the shift registers: No such file or directory; "),
        (None, 0, 1, "enable SPI bus 0 (dtparam=spi=on in /boot/firmware/config.txt"),
        (PermissionError(errno.EACCES, "Permission denied"), 0, 0, "add the user to the spi"),
    ],
)
def test_a_device_that_cannot_be_opened_is_named_with_how_to_enable_it(
    factory: MockFactory, error: OSError | None, bus: int, device: int, says: str
) -> None:
    chain = Sim74HC165SpiChain(factory, LOAD, chips=1, bus=0, device=0)
    chain.open_error = error
    source = SpiShiftRegisterSource(
        LOAD, bus, 1, device=device, pin_factory=factory, spi_factory=chain.spidev
    )
    with pytest.raises(HardwareUnavailable) as caught:
        source.start(Events())
    message = str(caught.value)
    assert message.startswith(f"cannot open /dev/spidev{bus}.{device} for the shift registers:")
    assert says in message
    assert not chain.devices[0].is_open


class HeldElsewhere(MockPin):  # type: ignore[misc]
    def __init__(self, factory: MockFactory, info: object) -> None:
        raise OSError(16, "Device or resource busy")


def test_a_busy_load_pin_closes_the_spi_device_again() -> None:
    busy = MockFactory(pin_class=HeldElsewhere)
    spare = MockFactory()
    try:
        chain = Sim74HC165SpiChain(spare, LOAD, chips=1)
        source = SpiShiftRegisterSource(LOAD, 0, 1, pin_factory=busy, spi_factory=chain.spidev)
        with pytest.raises(HardwareUnavailable, match=f"GPIO {LOAD}"):
            source.start(Events())
    finally:
        busy.close()
        spare.close()
    assert chain.devices[0].closed_count == 1 and not chain.devices[0].is_open


# -- the profile


PROFILE = find_profile("shiftago-presence")
DOC = Path(__file__).resolve().parent.parent / "docs" / "boards.md"


def spi_sensing_of_the_docs() -> str:
    """The [sensing] table docs/boards.md shows for the SPI reader."""
    blocks = re.findall(r"```toml\n(.*?)```", DOC.read_text(), re.S)
    (table,) = [b for b in blocks if b.lstrip().startswith("[sensing]") and '"spi"' in b]
    return str(table)


def with_sensing(sensing: str, source: str = "spi.toml") -> BoardProfile:
    """The cheap Shiftago board with another [sensing] table."""
    text = PROFILE.read_text()
    start = text.index("[sensing]\n")
    end = text.index("[leds]\n")
    return parse_profile(text[:start] + sensing.strip() + "\n\n" + text[end:], source)


def problems(sensing: str) -> list[str]:
    with pytest.raises(ProfileError) as info:
        with_sensing(sensing)
    return info.value.problems


def line_of(sensing: str, key: str) -> int:
    text = PROFILE.read_text()
    before = text[: text.index("[sensing]\n")].count("\n")
    lines = sensing.strip().splitlines()
    return before + 1 + next(n for n, line in enumerate(lines) if line.startswith(f"{key} ="))


GOOD = """
[sensing]
kind = "shift-register"
reader = "spi"
bus = 1
load = 27
chips = 10
poll_hz = 200
"""


def test_the_docs_spi_sensing_table_builds_a_source_that_reads_the_board(
    factory: MockFactory,
) -> None:
    board = with_sensing(spi_sensing_of_the_docs(), "docs/boards.md")
    s = board.sensing_settings
    assert (s["reader"], s["bus"], s["device"], s["speed_hz"]) == ("spi", 1, 0, 1_000_000)
    assert "clock" not in s and "data" not in s
    chain = Sim74HC165SpiChain(factory, s["load"], s["chips"], bus=1)
    events = Events()
    with open_sensor_source(board, pin_factory=factory, spi_factory=chain.spidev) as source:
        assert isinstance(source, SpiShiftRegisterSource)
        source.start(events)
        events.next(), events.next()
        gate = board.site("W3").channel
        assert gate is not None
        chain.set_input(gate, False)  # a marble interrupts the gate: reported at once ...
        assert events.next_change() == SensorChange(gate, 1)
        chain.set_input(gate, True)  # ... and has rolled through
        assert events.next_change() == SensorChange(gate, 0)
        factory.pin(board.buttons["new"]).drive_low()
        assert events.next() == ButtonPress("new")


def test_the_shipped_profile_still_reads_bit_by_bit_and_spi_defaults_to_1_mhz() -> None:
    board = load_profile("shiftago-presence")
    assert board.sensing_settings["reader"] == "gpio"
    assert isinstance(open_sensor_source(board), ShiftRegisterSource)
    assert with_sensing(GOOD).sensing_settings["speed_hz"] == 1_000_000


def test_clock_and_data_are_refused_with_the_spi_reader() -> None:
    sensing = GOOD + "clock = 21\ndata = 19\n"
    assert problems(sensing) == [
        f"spi.toml:{line_of(sensing, 'clock')}: sensing.clock: not used with reader = "
        '"spi"; remove it: SCLK of SPI bus 1 (GPIO 21) goes to every CLK',
        f"spi.toml:{line_of(sensing, 'data')}: sensing.data: not used with reader = "
        '"spi"; remove it: MISO of SPI bus 1 (GPIO 19) reads QH of the register nearest the Pi',
    ]
    bitbang = GOOD.replace('reader = "spi"', "clock = 23\ndata = 24").replace("27", "22")
    assert problems(bitbang) == [
        f'spi.toml:{line_of(bitbang, "bus")}: sensing.bus: only for reader = "spi"; '
        'remove it, or add reader = "spi" to read the chain over the SPI bus'
    ]


def test_the_leds_spi_bus_cannot_read_the_registers_too() -> None:
    sensing = GOOD.replace("bus = 1", "bus = 0")  # the cheap board's LEDs are on bus 0
    assert problems(sensing) == [
        f"spi.toml:{line_of(sensing, 'bus')}: sensing.bus: SPI bus 0 is also the LEDs' bus "
        "(leds.settings.bus); the registers have no chip select, so every LED frame would "
        "clock them, and the LED frames need the bus to themselves to keep their timing: "
        "read the registers on bus 1, or move the LEDs"
    ]


def test_the_sensors_spi_bus_holds_its_pins() -> None:
    sensing = GOOD.replace("load = 27", "load = 17")  # CE1 of bus 1
    assert problems(sensing) == [
        f"spi.toml:{line_of(sensing, 'load')}: sensing.load: GPIO 17 is also used by the "
        "sensors' SPI bus 1 (CE1); SPI bus 1 holds GPIO 16-21 when enabled: move sensing.load "
        "to a free GPIO (4, 12, 22, 23)"
    ]


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        ("speed_hz = 20000000", "bad value 20000000; expected the SPI clock in Hz, "),
        ("speed_hz = 1000", "bad value 1000; expected the SPI clock in Hz, 100000..10000000"),
        ("device = 3", "bad value 3; expected a device of the bus, 0..2 (/dev/spidev1.N)"),
    ],
)
def test_bad_spi_settings_are_refused(extra: str, says: str) -> None:
    sensing = GOOD + extra + "\n"
    key = extra.split()[0]
    (problem,) = problems(sensing)
    assert problem.startswith(f"spi.toml:{line_of(sensing, key)}: sensing.{key}: {says}")


def test_a_clock_too_slow_for_the_poll_rate_is_refused() -> None:
    sensing = GOOD.replace("chips = 10", "chips = 32").replace("poll_hz = 200", "poll_hz = 2000")
    sensing += "speed_hz = 200000\n"
    assert problems(sensing) == [
        f"spi.toml:{line_of(sensing, 'speed_hz')}: sensing.speed_hz: 256 bits at 200000 Hz "
        "take 1.3 ms, more than half of the 0.5 ms between reads at poll_hz = 2000; "
        "raise speed_hz or lower poll_hz"
    ]


def test_the_spi_reader_needs_its_bus() -> None:
    sensing = GOOD.replace("bus = 1\n", "")
    (problem,) = problems(sensing)
    assert problem.endswith(
        "sensing.bus: missing; add bus = 1 (the auxiliary bus: MISO GPIO 19, SCLK 21) "
        "or 0 (MISO 9, SCLK 11)"
    )


def test_a_read_before_the_chain_is_open_is_said_in_the_readers_language(
    factory: MockFactory,
) -> None:
    from boardctl import i18n
    from boardctl.message import said
    from hardware.errors import HardwareError

    source = SpiShiftRegisterSource(LOAD, bus=1, chips=1, pin_factory=factory)
    with pytest.raises(HardwareError) as caught:
        source.scan()
    with i18n.language("de"):
        german = i18n.translate(said(caught.value))
    assert german == "/dev/spidev1.0: die Schieberegister sind nicht geöffnet"
