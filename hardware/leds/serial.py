"""LEDs driven by the board's microcontroller over the serial link.

The link object comes from ``firmware_bridge``; this module only needs its
``set_leds`` method (:class:`LedLink`). The bytes it receives are final:
brightness, gamma and the current limit applied, three per LED already in the
chain's byte order (``order`` in the profile), so the firmware shifts them out
as they come.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from boardctl.board import LedChain
from boardctl.controller.frame import Frame
from boardctl.message import M_
from hardware.errors import HardwareUnavailable
from hardware.leds.base import LedStrip, wire_bytes


class LedLink(Protocol):
    """What the serial backend needs of the link to the microcontroller."""

    def set_leds(self, pixels: bytes | Sequence[tuple[int, int, int]]) -> None: ...


class SerialStrip(LedStrip):
    """The chain behind the microcontroller; the link is opened and closed by its owner."""

    def __init__(self, chain: LedChain, link: LedLink | None) -> None:
        super().__init__(chain)
        self.link = link

    def _open(self) -> None:
        if self.link is None:
            raise HardwareUnavailable(
                M_(
                    'the profile\'s LEDs are on the serial link (backend = "serial") but no link'
                    " was given; start them through the firmware link"
                )
            )

    def _send(self, pixels: Frame) -> None:
        assert self.link is not None
        self.link.set_leds(wire_bytes(pixels.data, self.chain.order))

    def _close(self) -> None:
        pass
