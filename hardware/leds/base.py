"""What every LED backend shares: the output processing and the strip interface.

Processing is pure. A frame is one ``(r, g, b)`` per LED, 0..255, as the scene
builder means it, held as bytes (:class:`~boardctl.controller.frame.Frame`) and
processed as bytes. :class:`FrameProcessor` turns it into what the LEDs receive:
global brightness, then gamma (so that half brightness looks half as bright),
then the current limiter, which scales the whole frame down until its estimated
draw fits the chain's budget. The byte order of the LEDs (``"GRB"``...) is
applied by the backends that send bytes (:func:`wire_order`).

:class:`LedStrip` is the interface: ``open()`` starts the hardware (or fails at
once with :class:`~hardware.errors.HardwareUnavailable` saying why), ``show()``
sends a frame only if it differs from the last one sent, ``close()`` turns the
LEDs off and releases the device. Strips are context managers.
"""

from __future__ import annotations

import abc
import dataclasses
import logging
from collections.abc import Sequence
from functools import lru_cache
from types import TracebackType

from boardctl.board import LedChain
from boardctl.controller.frame import Frame
from hardware.errors import HardwareError

log = logging.getLogger(__name__)

#: one LED's colour, each channel 0..255
RGB = tuple[int, int, int]

BLACK: RGB = (0, 0, 0)


def gamma_table(brightness: float, gamma: float) -> tuple[int, ...]:
    """The 256 output levels for input levels 0..255 at this brightness and gamma."""
    return tuple(round(255 * ((v / 255) * brightness) ** gamma) for v in range(256))


def estimate_milliamps(pixels: Sequence[RGB], milliamps_per_led: int) -> float:
    """A frame's estimated draw: each colour channel draws a third of a white LED's
    current, in proportion to its level (the LEDs are PWM driven)."""
    levels = sum(r + g + b for r, g, b in pixels)
    return levels * milliamps_per_led / (3 * 255)


def wire_order(pixels: Sequence[RGB], order: str) -> list[RGB]:
    """Each pixel's channels in the order the LEDs expect them (``"GRB"`` for WS2812)."""
    index = tuple("RGB".index(c) for c in order)
    i, j, k = index
    return [(p[i], p[j], p[k]) for p in pixels]


def wire_bytes(data: bytes, order: str) -> bytes:
    """:func:`wire_order` on a frame's bytes (``r g b`` per LED)."""
    if order == "RGB":
        return data
    i, j, k = _channels(order)
    out = bytearray(len(data))
    out[0::3] = data[i::3]
    out[1::3] = data[j::3]
    out[2::3] = data[k::3]
    return bytes(out)


@lru_cache(maxsize=8)
def _channels(order: str) -> tuple[int, int, int]:
    """Where each channel of ``order`` lies in ``r g b`` (worked out once per order)."""
    i, j, k = ("RGB".index(c) for c in order)
    return i, j, k


def frame_bytes(frame: Sequence[RGB]) -> bytes:
    """A frame's bytes: a :class:`~boardctl.controller.frame.Frame`'s own, or
    those of a sequence of ``(r, g, b)`` (checked)."""
    return frame.data if isinstance(frame, Frame) else Frame.of(frame).data


class FrameProcessor:
    """Brightness, gamma and the current limiter for one LED chain. Pure.

    It works on a frame's bytes (:meth:`bytes`: a table lookup per byte, in
    C); called with a sequence of colours it answers one as well."""

    def __init__(self, chain: LedChain) -> None:
        self.chain = chain
        self._table = gamma_table(chain.brightness, chain.gamma)
        self._bytes_table = bytes(self._table)

    def __call__(self, frame: Sequence[RGB]) -> tuple[RGB, ...]:
        return tuple(Frame(self.bytes(frame_bytes(frame))))

    def bytes(self, data: bytes) -> bytes:
        """The bytes the LEDs get for a frame's ``data``: every LED of the
        chain (those the frame leaves out dark), scaled down to the budget."""
        size = 3 * self.chain.count
        if len(data) > size:
            raise ValueError(f"a frame of {len(data) // 3} LEDs for a chain of {size // 3}")
        out = data.translate(self._bytes_table)
        if len(out) < size:
            out += bytes(size - len(out))
        budget = self.chain.max_milliamps
        draw = sum(out) * self.chain.milliamps_per_led / (3 * 255)
        if draw <= budget:
            return out
        scale = budget / draw
        log.debug("frame would draw %.0f mA of %d: scaled by %.2f", draw, budget, scale)
        # rounding down keeps the scaled draw within the budget
        return out.translate(bytes(int(v * scale) for v in range(256)))

    def limit(self, pixels: list[RGB]) -> list[RGB]:
        """Scale the frame down, if needed, so its estimated draw is within budget."""
        budget = self.chain.max_milliamps
        draw = estimate_milliamps(pixels, self.chain.milliamps_per_led)
        if draw <= budget:
            return pixels
        scale = budget / draw
        log.debug("frame would draw %.0f mA of %d: scaled by %.2f", draw, budget, scale)
        # rounding down keeps the scaled draw within the budget
        return [(int(r * scale), int(g * scale), int(b * scale)) for r, g, b in pixels]


class LedStrip(abc.ABC):
    """An LED chain that shows frames. Backends implement ``_open``, ``_send`` and
    ``_close``; this class does the processing and sends only changed frames."""

    def __init__(self, chain: LedChain) -> None:
        self.chain = chain
        self.process = FrameProcessor(chain)
        #: the bytes the LEDs show now (``r g b`` per LED, processed)
        self._last: bytes | None = None
        self._open_now = False

    @property
    def count(self) -> int:
        return self.chain.count

    @property
    def is_open(self) -> bool:
        return self._open_now

    @property
    def last_sent(self) -> Frame | None:
        """The processed frame the LEDs show now (None before the first)."""
        return None if self._last is None else Frame(self._last)

    @property
    def estimated_milliamps(self) -> float:
        """The estimated draw of what the LEDs show now."""
        if self._last is None:
            return 0.0
        return sum(self._last) * self.chain.milliamps_per_led / (3 * 255)

    def set_brightness(self, brightness: float) -> None:
        """Change the brightness (0 to 1) while running; the next frame shown
        is sent at it, even the same frame again."""
        self.chain = dataclasses.replace(self.chain, brightness=brightness)
        self.process = FrameProcessor(self.chain)
        self._last = None

    def open(self) -> None:
        """Start the hardware; raises :class:`~hardware.errors.HardwareUnavailable`
        with what to do when it cannot."""
        if self._open_now:
            return
        self._open()
        self._open_now = True
        self._last = None

    def show(self, frame: Sequence[RGB]) -> bool:
        """Process ``frame`` and send it if it differs from what is shown.
        Returns whether it was sent."""
        if not self._open_now:
            raise HardwareError(f"the {self.chain.backend} LED strip is not open; call open()")
        pixels = self.process.bytes(frame_bytes(frame))
        if pixels == self._last:
            return False
        self._send(Frame(pixels))
        self._last = pixels
        return True

    def clear(self) -> bool:
        """Turn every LED off."""
        return self.show([BLACK] * self.count)

    def close(self) -> None:
        """Turn the LEDs off and release the device. Safe to call twice."""
        if not self._open_now:
            return
        try:
            self.clear()
        except HardwareError as e:
            log.warning("could not turn the LEDs off: %s", e)
        finally:
            self._open_now = False
            self._close()

    def __enter__(self) -> LedStrip:
        self.open()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    @abc.abstractmethod
    def _open(self) -> None: ...

    @abc.abstractmethod
    def _send(self, pixels: Frame) -> None:
        """Send processed pixels, in RGB order, one per LED."""

    @abc.abstractmethod
    def _close(self) -> None: ...
