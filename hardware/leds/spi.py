"""WS2812 LEDs on the SPI bus through spidev: the Pi 5 (which rpi_ws281x does not
support) and any Pi without root (the user needs only the ``spi`` group).

The data line is MOSI (GPIO 10 on bus 0). At 2.4 MHz three SPI bits last one
WS2812 bit (1.25 us): ``110`` sends a 1 and ``100`` a 0, so each LED byte
becomes three SPI bytes. Zero bytes at the end hold the line low for 300 us,
which latches the frame.

spidev is Pi-only and imported when the strip opens: ``pip install spidev``
(or ``apt install python3-spidev``) and enable SPI (``dtparam=spi=on``).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from typing import Any

from boardctl.controller.frame import Frame
from boardctl.message import M_
from hardware.errors import HardwareError
from hardware.leds.base import RGB, LedStrip, wire_order
from hardware.spi_bus import open_device, spidev_class

log = logging.getLogger(__name__)

#: how long the line stays low after a frame, to latch it
LATCH_SECONDS = 300e-6


def _byte_pattern(value: int) -> bytes:
    bits = 0
    for k in range(7, -1, -1):
        bits = (bits << 3) | (0b110 if value >> k & 1 else 0b100)
    return bits.to_bytes(3, "big")


#: LED byte -> the three SPI bytes that send it
SPI_PATTERNS: tuple[bytes, ...] = tuple(_byte_pattern(v) for v in range(256))


def encode(pixels: Sequence[RGB], order: str, speed_hz: int = 2_400_000) -> bytes:
    """The SPI bytes that send ``pixels`` (RGB) to WS2812s wanting ``order``,
    followed by the latch."""
    patterns = SPI_PATTERNS
    data = b"".join(patterns[c] for pixel in wire_order(pixels, order) for c in pixel)
    latch = math.ceil(LATCH_SECONDS * speed_hz / 8)
    return data + bytes(latch)


class SpiStrip(LedStrip):
    """The chain on ``/dev/spidev<bus>.<device>``; settings: bus, device, speed_hz."""

    _spi: Any = None

    def _open(self) -> None:
        factory = spidev_class(M_("cannot start the SPI LEDs"))
        s = self.chain.settings
        bus, device = int(s.get("bus", 0)), int(s.get("device", 0))
        self._speed = int(s.get("speed_hz", 2_400_000))
        spi = open_device(factory, bus, device, M_("for the LEDs"))
        spi.max_speed_hz = self._speed
        spi.mode = 0
        self._spi = spi
        log.info("spi: %d LEDs on /dev/spidev%d.%d", self.chain.count, bus, device)

    def _send(self, pixels: Frame) -> None:
        try:
            self._spi.writebytes2(encode(pixels, self.chain.order, self._speed))
        except OSError as e:
            raise HardwareError(f"spi: sending a frame failed: {e}") from None

    def _close(self) -> None:
        spi, self._spi = self._spi, None
        if spi is not None:
            spi.close()
