"""WS281x LEDs driven by rpi_ws281x: PWM (GPIO 18/12, 13/19), PCM (21) or SPI (10)
on a Raspberry Pi up to the Pi 4. Needs root for PWM and PCM. The Pi 5 is not
supported by rpi_ws281x: use the ``spi`` backend there.

rpi_ws281x's ``PixelStrip`` registers an exit handler that shuts the DMA engine
down. If ``begin()`` fails, that handler works on a device that was never set
up and the interpreter crashes as it exits; so a failed start unregisters it and
frees the library's structure here, leaving nothing half-initialised.
"""

from __future__ import annotations

import atexit
import logging
from typing import Any

from boardctl.controller.frame import Frame
from boardctl.message import M_
from hardware.errors import HardwareError, HardwareUnavailable
from hardware.leds.base import LedStrip

log = logging.getLogger(__name__)

ADVICE = M_(
    "rpi_ws281x drives LEDs on a Raspberry Pi up to the Pi 4, as root;"
    ' on a Pi 5 or without root set backend = "spi" in [leds]'
)


def _discard(module: Any, strip: Any) -> None:
    """Forget a PixelStrip whose begin() failed without running its cleanup,
    which would call ws2811_fini on a device that was never initialised."""
    cleanup = getattr(strip, "_cleanup", None)
    if cleanup is not None:
        atexit.unregister(cleanup)
    leds = getattr(strip, "_leds", None)
    ws = getattr(module, "ws", None)
    if leds is not None and ws is not None:
        # ws2811_init frees what it allocated when it fails; the struct itself is ours
        ws.delete_ws2811_t(leds)
    # a later _cleanup() (or a __del__ in other versions) then does nothing
    strip._leds = None
    strip._channel = None


class Ws281xStrip(LedStrip):
    """The chain on one rpi_ws281x channel; settings: pin, dma, freq_hz, invert, channel."""

    _strip: Any = None
    _module: Any = None

    def _open(self) -> None:
        try:
            import rpi_ws281x
        except ImportError as e:
            raise HardwareUnavailable(
                M_(
                    "cannot start the ws281x LEDs: rpi_ws281x is not installed (pip install"
                    " rpi_ws281x); {advice}",
                    advice=ADVICE,
                )
            ) from e
        s = self.chain.settings
        pin = int(s.get("pin", 18))
        strip = rpi_ws281x.PixelStrip(
            self.chain.count,
            pin,
            freq_hz=int(s.get("freq_hz", 800_000)),
            dma=int(s.get("dma", 10)),
            invert=bool(s.get("invert", False)),
            # brightness, gamma and order are applied by FrameProcessor and strip_type
            brightness=255,
            channel=int(s.get("channel", 0)),
            strip_type=getattr(rpi_ws281x, f"WS2811_STRIP_{self.chain.order}"),
            gamma=list(range(256)),
        )
        try:
            strip.begin()
        except RuntimeError as e:
            _discard(rpi_ws281x, strip)
            raise HardwareUnavailable(
                M_(
                    "cannot start the ws281x LEDs on GPIO {pin}: {why}; {advice}",
                    pin=pin,
                    why=str(e),
                    advice=ADVICE,
                )
            ) from None
        self._strip = strip
        self._module = rpi_ws281x
        log.info("ws281x: %d LEDs on GPIO %d", self.chain.count, pin)

    def _send(self, pixels: Frame) -> None:
        strip = self._strip
        for i, (r, g, b) in enumerate(pixels):
            strip[i] = (r << 16) | (g << 8) | b
        try:
            strip.show()
        except RuntimeError as e:
            raise HardwareError(f"ws281x: sending a frame failed: {e}") from None

    def _close(self) -> None:
        strip, self._strip = self._strip, None
        if strip is not None:
            # release the DMA channel now rather than at exit
            atexit.unregister(strip._cleanup)
            strip._cleanup()
