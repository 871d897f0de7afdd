"""LED output: one interface (:class:`LedStrip`), four backends, and the factory.

``create_strip(profile.leds)`` returns the backend the profile names, not yet
open; use it as a context manager. Backends:

- ``ws281x``: rpi_ws281x, PWM/PCM/SPI on a Pi up to the Pi 4 (:mod:`.ws281x`)
- ``spi``: spidev, for the Pi 5 and for running without root (:mod:`.spi`)
- ``serial``: the microcontroller on the serial link drives them (:mod:`.serial`)
- ``sim``: records frames, draws them in the terminal and as PNG (:mod:`.sim`)
"""

from __future__ import annotations

from dataclasses import replace
from typing import TextIO

from boardctl.board import BoardProfile, LedChain
from boardctl.message import M_
from hardware.errors import HardwareUnavailable
from hardware.leds.base import BLACK, RGB, FrameProcessor, LedStrip, estimate_milliamps
from hardware.leds.serial import LedLink
from hardware.leds.sim import SentFrame, SimStrip

__all__ = [
    "BLACK",
    "RGB",
    "FrameProcessor",
    "LedLink",
    "LedStrip",
    "SentFrame",
    "SimStrip",
    "create_strip",
    "estimate_milliamps",
    "simulated",
]


def create_strip(
    chain: LedChain,
    *,
    link: LedLink | None = None,
    profile: BoardProfile | None = None,
    stream: TextIO | None = None,
) -> LedStrip:
    """The strip for ``chain.backend``; ``link`` is needed by the serial backend,
    ``profile`` and ``stream`` let the simulated one draw its frames."""
    match chain.backend:
        case "ws281x":
            from hardware.leds.ws281x import Ws281xStrip

            return Ws281xStrip(chain)
        case "spi":
            from hardware.leds.spi import SpiStrip

            return SpiStrip(chain)
        case "serial":
            from hardware.leds.serial import SerialStrip

            return SerialStrip(chain, link)
        case "sim":
            return SimStrip(chain, profile, stream)
    raise HardwareUnavailable(
        M_(
            "unknown LED backend {backend}; use ws281x, spi, serial or sim",
            backend=repr(chain.backend),
        )
    )


def simulated(chain: LedChain) -> LedChain:
    """The same chain on the simulated backend (for ``--sim``)."""
    return replace(chain, backend="sim")
