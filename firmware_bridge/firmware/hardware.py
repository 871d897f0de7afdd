"""Reading the sensors: 74HC4067 multiplexers and 74HC165 shift registers.

Runs under MicroPython and CPython. The classes take pin objects with the
``machine.Pin`` and ``machine.ADC`` interface (``value()``, ``value(v)``,
``read_u16()``); on the Pico those are the real pins, under CPython the twins
in :mod:`firmware_bridge.firmware.simulated`. ``docs/firmware.md`` shows the wiring.
"""

try:
    from typing import TYPE_CHECKING
except ImportError:  # MicroPython
    TYPE_CHECKING = False  # type: ignore[misc]

if TYPE_CHECKING:
    from typing import Any


class CodeBands:
    """Turns an ADC reading into a piece code.

    Each piece carries a resistor; with the sensor's pull-up it makes a voltage.
    ``bands`` lists ``(upper_limit, code)`` in rising order: a reading below the
    first limit is the first code, and so on; above the last limit reads 0 (empty,
    the pull-up alone).
    """

    def __init__(self, bands: "list[tuple[int, int]]") -> None:
        last = -1
        for limit, _code in bands:
            if limit <= last:
                raise ValueError(
                    "code band limits must rise, " + str(limit) + " follows " + str(last)
                )
            last = limit
        self.bands = bands

    def code(self, reading: int) -> int:
        for limit, code in self.bands:
            if reading < limit:
                return code
        return 0

    def reading(self, code: int) -> int:
        """A reading in the middle of ``code``'s band (for simulations and tests)."""
        low = 0
        for limit, c in self.bands:
            if c == code:
                return (low + limit) // 2
            low = limit
        return 65535


class MuxBank:
    """Up to 16 channels per 74HC4067; all share the four select lines.

    ``inputs`` has one entry per multiplexer: a digital ``Pin`` (presence: the
    sensor pulls low when a piece is there) or an ``ADC`` when ``codes`` is given.
    ``enables`` (active low, one per multiplexer) may be empty when each
    multiplexer has its own input pin and stays enabled.
    """

    def __init__(
        self,
        selects: "list[Any]",
        inputs: "list[Any]",
        count: int,
        enables: "list[Any] | None" = None,
        codes: "CodeBands | None" = None,
        settle: "Any" = None,
    ) -> None:
        if len(selects) != 4:
            raise ValueError("a 74HC4067 needs 4 select lines, got " + str(len(selects)))
        if count > 16 * len(inputs):
            raise ValueError(
                str(count) + " channels need " + str((count + 15) // 16) + " multiplexers"
            )
        self.selects = selects
        self.inputs = inputs
        self.enables = enables or []
        self.count = count
        self.codes = codes
        self.settle = settle
        self._values = [0] * count
        for en in self.enables:
            en.value(1)

    def read_all(self) -> "list[int]":
        out = self._values
        s0, s1, s2, s3 = self.selects
        for addr in range(16):
            s0.value(addr & 1)
            s1.value((addr >> 1) & 1)
            s2.value((addr >> 2) & 1)
            s3.value((addr >> 3) & 1)
            if self.settle is not None:
                self.settle()
            for m in range(len(self.inputs)):
                ch = m * 16 + addr
                if ch >= self.count:
                    break
                if self.enables:
                    self.enables[m].value(0)
                pin = self.inputs[m]
                if self.codes is not None:
                    out[ch] = self.codes.code(pin.read_u16())
                else:
                    out[ch] = 0 if pin.value() else 1
                if self.enables:
                    self.enables[m].value(1)
        return out


class ShiftChain:
    """A chain of 74HC165 parallel-in shift registers: 8 presence sensors each.

    ``load`` (SH/LD, active low) latches the inputs, then each ``clock`` rising
    edge shifts the next bit to ``data`` (QH of the last register). Sensors pull
    low when a piece is there unless ``active_high``.
    """

    def __init__(
        self, load: "Any", clock: "Any", data: "Any", count: int, active_high: bool = False
    ) -> None:
        self.load = load
        self.clock = clock
        self.data = data
        self.count = count
        self.active_high = active_high
        self._values = [0] * count
        load.value(1)
        clock.value(0)

    def read_all(self) -> "list[int]":
        out = self._values
        self.load.value(0)
        self.load.value(1)
        hi = 1 if self.active_high else 0
        for i in range(self.count):
            out[i] = 1 if self.data.value() == hi else 0
            self.clock.value(1)
            self.clock.value(0)
        return out
