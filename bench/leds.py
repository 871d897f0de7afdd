"""LED frame processing for a 77-LED board (shiftago-colour): brightness, gamma and
the current limiter, a full send to the simulated strip, and SPI encoding."""

from __future__ import annotations

import random
import timeit
from collections.abc import Callable

from hardware.leds import SimStrip, simulated
from hardware.leds.base import FrameProcessor
from hardware.leds.spi import encode
from hardware.profiles import load_profile


def per_call_us(fn: Callable[[], object], number: int) -> float:
    timer = timeit.Timer(fn)
    return min(timer.repeat(repeat=5, number=number)) / number * 1e6


def main() -> None:
    board = load_profile("shiftago-colour")
    chain = board.leds
    rng = random.Random(1)
    frames = [
        [(rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(chain.count)]
        for _ in range(64)
    ]
    process = FrameProcessor(chain)
    it = iter(frames * 10_000)
    t_process = per_call_us(lambda: process(next(it)), 500)
    white = [(255, 255, 255)] * chain.count
    t_limited = per_call_us(lambda: process(white), 500)
    strip = SimStrip(simulated(chain))
    strip.open()
    it2 = iter(frames * 10_000)
    t_show = per_call_us(lambda: strip.show(next(it2)), 500)
    t_same = per_call_us(lambda: strip.show(frames[0]) or strip.show(frames[0]), 500) / 2
    pixels = process(frames[0])
    t_spi = per_call_us(lambda: encode(pixels, chain.order), 500)
    print(f"LEDs: {chain.count}")
    print(f"process a frame (brightness, gamma, limiter): {t_process:.0f} us")
    print(f"process full white (limiter scaling): {t_limited:.0f} us")
    print(f"show a changed frame on the sim strip: {t_show:.0f} us")
    print(f"show an unchanged frame (not sent): {t_same:.0f} us")
    print(f"encode a frame for SPI: {t_spi:.0f} us")


if __name__ == "__main__":
    main()
