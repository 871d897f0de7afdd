"""What reading a 74HC165 chain costs: one poll of the cheap Shiftago board's 80
inputs (10 chips), bit by bit through gpiozero's pins and over the SPI bus with
spidev, and the share of one core that polling takes at several rates.

A poll is what the source's thread does each time: scan the chain, hand the
readings that changed to the debouncer (none: the board is still), report what
has settled. The pins are gpiozero's simulated ones (MockFactory) and the chain
and the SPI bus are simulated too, so the figures are Python's own cost; a Pi's
native pin factory adds its own to each pin operation. For the SPI reader the
bench prints two figures: a poll on the simulated chain, whose Python model of
every clock edge is most of it (on a Pi the SPI peripheral does that work), and
the reader's own work (the load pulse, one read, the bits to readings) with a
device that answers at once. Neither includes the read's system call and the
kernel's driver on a Pi; the transfer itself takes chips * 8 / speed_hz seconds,
printed below.

    .venv/bin/python bench/sensing.py [--polls N] [--speed-hz HZ]
"""

from __future__ import annotations

import argparse
import time

from gpiozero.pins.mock import MockFactory

from hardware.gpio_sensing import Debouncer, PolledSource, ShiftRegisterSource, Sim74HC165Chain
from hardware.profiles import load_profile
from hardware.spi_sensing import Sim74HC165SpiChain, SpiShiftRegisterSource

RATES = (100, 200, 500)
#: spi-bcm2835 (bus 0) busy-waits on transfers up to this long, waits on an interrupt beyond
POLLING_LIMIT_US = 30


class ReadyDevice:
    """An SPI device that answers every read at once with the same bytes."""

    mode = 0
    bits_per_word = 8
    lsbfirst = False
    max_speed_hz = 0
    no_cs = False

    def open(self, bus: int, device: int) -> None:
        pass

    def close(self) -> None:
        pass

    def readbytes(self, count: int) -> list[int]:
        return [0xFF] * count


def per_poll(source: PolledSource, polls: int) -> float:
    """Seconds per poll, as the source's thread polls, without the thread."""
    initial = source._open()
    source._debouncer = Debouncer(initial, source.debounce, source.pulse_channels)
    source._emit = lambda event: None
    try:
        source.poll()
        start = time.perf_counter()
        for _ in range(polls):
            source.poll()
        return (time.perf_counter() - start) / polls
    finally:
        source._release()


def spi_poll(chips: int, speed_hz: int, polls: int, *, simulated: bool) -> float:
    """Seconds per poll over SPI, on the simulated chain or on a device that
    answers at once."""
    factory = MockFactory()
    try:
        spi = Sim74HC165SpiChain(factory, 27, chips, bus=1).spidev if simulated else ReadyDevice
        source = SpiShiftRegisterSource(
            27, 1, chips, speed_hz=speed_hz, pin_factory=factory, spi_factory=spi
        )
        return per_poll(source, polls)
    finally:
        factory.close()


def rates(seconds: float) -> None:
    for hz in RATES:
        print(f"    polled at {hz:>3} Hz: {seconds * hz * 100:6.2f} % of one core")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--polls", type=int, default=2000)
    parser.add_argument("--speed-hz", type=int, default=1_000_000)
    args = parser.parse_args()
    board = load_profile("shiftago-presence")
    s = board.sensing_settings
    chips, inputs = s["chips"], 8 * s["chips"]

    factory = MockFactory()
    Sim74HC165Chain(factory, s["load"], s["clock"], s["data"], chips)
    source = ShiftRegisterSource(s["load"], s["clock"], s["data"], chips, pin_factory=factory)
    bitbang = per_poll(source, args.polls)
    factory.close()
    print(f"74HC165 chain, {inputs} inputs, one poll of a still board:")
    print(f"  bit by bit through gpiozero: {bitbang * 1e3:.3f} ms")
    print("    (the simulated chain's callbacks on every pin change included)")
    rates(bitbang)

    simulated = spi_poll(chips, args.speed_hz, args.polls, simulated=True)
    own = spi_poll(chips, args.speed_hz, args.polls, simulated=False)
    wire_us = inputs / args.speed_hz * 1e6
    how = "busy-waits" if wire_us <= POLLING_LIMIT_US else "sleeps on an interrupt"
    print(f"  over SPI with spidev, on the simulated chain: {simulated * 1e3:.3f} ms")
    print("    (mostly the simulation of each clock edge, the SPI peripheral's work on a Pi)")
    print(f"  over SPI, the reader's own work: {own * 1e3:.3f} ms")
    print(f"    (load pulse, one read answered at once, {inputs} readings, the debouncer)")
    rates(own)
    print("  not measured: the read's system call and driver on a Pi, and the transfer:")
    print(
        f"    {inputs} bits at {args.speed_hz} Hz take {wire_us:.0f} us, the bus busy "
        f"{wire_us * 200 / 1e4:.2f} % of the time at 200 Hz;"
    )
    print(f"    for a transfer that long spi-bcm2835 (bus 0) {how} (limit {POLLING_LIMIT_US} us)")
    print(f"  the profile polls at {s.get('poll_hz', 200)} Hz")


if __name__ == "__main__":
    main()
