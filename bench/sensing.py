"""What reading a 74HC165 chain through GPIO costs: one scan of the cheap Shiftago
board's 80 inputs (10 chips) with gpiozero's pins, and the share of one core
that polling takes at several rates.

The pins are gpiozero's simulated ones (MockFactory) driving a simulated chain,
so the figure is Python's own cost per pin operation; a Pi's native pin factory
adds its own.

    .venv/bin/python bench/sensing.py [--scans N]
"""

from __future__ import annotations

import argparse
import time

from gpiozero.pins.mock import MockFactory

from hardware.gpio_sensing import ShiftRegisterSource, Sim74HC165Chain
from hardware.profiles import load_profile


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--scans", type=int, default=2000)
    args = parser.parse_args()
    board = load_profile("shiftago-presence")
    s = board.sensing_settings
    factory = MockFactory()
    Sim74HC165Chain(factory, s["load"], s["clock"], s["data"], s["chips"])
    source = ShiftRegisterSource(s["load"], s["clock"], s["data"], s["chips"], pin_factory=factory)
    source._open()
    start = time.perf_counter()
    for _ in range(args.scans):
        source.scan()
    per_scan = (time.perf_counter() - start) / args.scans
    print(f"74HC165 chain, {source.channels} inputs: one scan {per_scan * 1e3:.3f} ms")
    for hz in (100, 200, 500):
        print(f"  polled at {hz:>3} Hz: {per_scan * hz * 100:5.1f} % of one core")
    print(f"  the profile polls at {s.get('poll_hz', 200)} Hz")


if __name__ == "__main__":
    main()
