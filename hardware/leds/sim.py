"""The simulated LED chain: a full backend that records every frame it is sent.

Tests read :attr:`SimStrip.frames`; listeners added with :meth:`SimStrip.on_frame`
see each frame as it is sent (a simulated hand can react to a lit site); with a
profile and a stream it draws each frame in the terminal as well.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from boardctl.board import BoardProfile, LedChain
from boardctl.controller.frame import Frame
from hardware.leds.base import LedStrip
from hardware.leds.render import render_ansi


@dataclass(frozen=True, slots=True)
class SentFrame:
    """One frame as the LEDs received it (processed, RGB), numbered from 0."""

    index: int
    #: reads as one (r, g, b) per LED
    pixels: Frame

    def lit(self) -> tuple[int, ...]:
        """The indexes of the LEDs that are on."""
        return tuple(i for i, p in enumerate(self.pixels) if any(p))


class SimStrip(LedStrip):
    """Records frames; optionally draws them on ``stream`` laid out as ``profile``."""

    def __init__(
        self,
        chain: LedChain,
        profile: BoardProfile | None = None,
        stream: TextIO | None = None,
    ) -> None:
        super().__init__(chain)
        self.profile = profile
        self.stream = stream
        self.frames: list[SentFrame] = []
        self.opened = 0
        self.closed = 0
        self._listeners: list[Callable[[SentFrame], None]] = []

    def on_frame(self, listener: Callable[[SentFrame], None]) -> None:
        """Call ``listener`` with every frame sent from now on."""
        self._listeners.append(listener)

    def _open(self) -> None:
        self.opened += 1

    def _send(self, pixels: Frame) -> None:
        frame = SentFrame(len(self.frames), pixels)
        self.frames.append(frame)
        if self.stream is not None and self.profile is not None:
            self.stream.write(f"frame {frame.index}\n{render_ansi(self.profile, pixels)}\n")
            self.stream.flush()
        for listener in list(self._listeners):
            listener(frame)

    def _close(self) -> None:
        self.closed += 1
