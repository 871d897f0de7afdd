"""CPython twins of the Pico's pins, wired to a simulated board.

Like gpiozero's mock pins, they record what the firmware did to them, so tests
can check the scanning sequence as well as its result. The board is a list of
raw readings per channel (0 empty, 1 present, or a piece code) that a test or
:class:`firmware_bridge.virtual.VirtualMicrocontroller` changes.
"""

from __future__ import annotations

from collections.abc import Callable

from firmware_bridge.firmware.hardware import CodeBands


class SimPin:
    """An output or input pin; inputs read through ``source``."""

    def __init__(self, name: str, source: Callable[[], int] | None = None) -> None:
        self.name = name
        self.source = source
        self.state = 0
        self.history: list[int] = []

    def value(self, v: int | None = None) -> int:
        if v is None:
            return self.source() if self.source is not None else self.state
        self.state = 1 if v else 0
        self.history.append(self.state)
        return self.state


class SimADC:
    """An ADC input reading ``source`` (0 .. 65535)."""

    def __init__(self, source: Callable[[], int]) -> None:
        self.source = source
        self.reads = 0

    def read_u16(self) -> int:
        self.reads += 1
        return self.source()


class SimMuxBoard:
    """Sensors behind 74HC4067 multiplexers, as the pins see them."""

    def __init__(
        self, board: list[int], codes: CodeBands | None = None, with_enables: bool = True
    ) -> None:
        self.board = board
        self.codes = codes
        n = (len(board) + 15) // 16
        self.selects = [SimPin("S" + str(i)) for i in range(4)]
        self.enables = [SimPin("EN" + str(m)) for m in range(n)] if with_enables else []
        if codes is None:
            self.inputs: list[SimPin | SimADC] = [
                SimPin("SIG" + str(m), self._reader(m)) for m in range(n)
            ]
        else:
            self.inputs = [SimADC(self._analog(m)) for m in range(n)]

    def _channel(self, mux: int) -> int | None:
        if self.enables and self.enables[mux].state != 0:
            return None  # a disabled 74HC4067 leaves its output floating
        addr = sum(pin.state << i for i, pin in enumerate(self.selects))
        ch = mux * 16 + addr
        return ch if ch < len(self.board) else None

    def _reader(self, mux: int) -> Callable[[], int]:
        def read() -> int:
            ch = self._channel(mux)
            if ch is None:
                raise AssertionError("multiplexer " + str(mux) + " read while disabled")
            return 0 if self.board[ch] else 1  # pulled low by a piece

        return read

    def _analog(self, mux: int) -> Callable[[], int]:
        def read() -> int:
            ch = self._channel(mux)
            if ch is None:
                raise AssertionError("multiplexer " + str(mux) + " read while disabled")
            assert self.codes is not None
            return self.codes.reading(self.board[ch])

        return read


class SimShiftBoard:
    """Presence sensors on a chain of 74HC165, as the three pins see them."""

    def __init__(self, board: list[int]) -> None:
        self.board = board
        self._latched: list[int] = []
        self._pos = 0
        self.load = _EdgePin("SH/LD", self._on_load)
        self.clock = _EdgePin("CLK", self._on_clock)
        self.data = SimPin("QH", self._data)

    def _on_load(self, level: int) -> None:
        if level == 0:
            self._latched = list(self.board)
            self._pos = 0

    def _on_clock(self, level: int) -> None:
        if level == 1:
            self._pos += 1

    def _data(self) -> int:
        if self._pos >= len(self._latched):
            return 1
        return 0 if self._latched[self._pos] else 1


class _EdgePin(SimPin):
    def __init__(self, name: str, on_change: Callable[[int], None]) -> None:
        super().__init__(name)
        self.on_change = on_change

    def value(self, v: int | None = None) -> int:
        if v is None:
            return self.state
        before = self.state
        super().value(v)
        if self.state != before:
            self.on_change(self.state)
        return self.state
