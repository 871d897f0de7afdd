"""A simulated sensor source: the twin of any board's sensors, driven by a script
or a hand at the keyboard. It emits what a real source would: ``LinkUp``, a
snapshot, then a ``SensorChange`` for each reading that changes."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from types import TracebackType

from boardctl.sensing import ButtonPress, Emit, LinkDown, LinkUp, SensorChange, SensorSnapshot
from hardware.errors import HardwareError


class ScriptedSource:
    """Readings set by calls: ``set(channel, value)``, ``press(button)``."""

    def __init__(self, channels: int, initial: Sequence[int] = ()) -> None:
        values = list(initial) + [0] * (channels - len(initial))
        self.values = values[:channels]
        self._emit: Emit | None = None
        self._lock = threading.Lock()

    def start(self, emit: Emit) -> None:
        self._emit = emit
        emit(LinkUp("simulated sensors"))
        emit(SensorSnapshot(tuple(self.values)))

    def set(self, channel: int, value: int) -> None:
        """A reading changes (a piece placed, taken or swapped)."""
        if not 0 <= channel < len(self.values):
            raise HardwareError(f"no channel {channel}: the board has 0..{len(self.values) - 1}")
        with self._lock:
            if self.values[channel] == value:
                return
            self.values[channel] = value
        if self._emit is not None:
            self._emit(SensorChange(channel, value))

    def press(self, button: str) -> None:
        if self._emit is not None:
            self._emit(ButtonPress(button))

    def close(self) -> None:
        if self._emit is not None:
            self._emit(LinkDown("closed"))
            self._emit = None

    def __enter__(self) -> ScriptedSource:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
