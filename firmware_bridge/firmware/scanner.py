"""Debouncing: a sensor's new reading counts once it held for ``stable_scans`` scans.

Runs under MicroPython and CPython. ``read`` is any callable that returns the
raw reading of every channel (a list of ints), such as
:meth:`firmware_bridge.firmware.hardware.MuxBank.read_all`.
"""

try:
    from typing import TYPE_CHECKING
except ImportError:  # MicroPython
    TYPE_CHECKING = False  # type: ignore[misc]

if TYPE_CHECKING:
    from collections.abc import Callable


class Scanner:
    """The accepted reading of every channel, updated one scan at a time."""

    def __init__(self, read: "Callable[[], list[int]]", count: int, stable_scans: int = 3) -> None:
        if stable_scans < 1:
            raise ValueError("stable_scans is " + str(stable_scans) + ", it must be 1 or more")
        self.read = read
        self.count = count
        self.stable_scans = stable_scans
        #: what the host is told: the debounced readings
        self.values = [0] * count
        self._candidate = [0] * count
        self._seen = [0] * count
        self.scans = 0

    def prime(self) -> None:
        """Take the first reading as it is (at boot nothing is 'changing')."""
        raw = self.read()
        for i in range(self.count):
            self.values[i] = raw[i]
            self._seen[i] = 0

    def scan(self) -> "list[tuple[int, int]]":
        """Read once; the ``(channel, value)`` changes that became stable, in channel order."""
        raw = self.read()
        self.scans += 1
        values = self.values
        cand = self._candidate
        seen = self._seen
        out = []
        for i in range(self.count):
            r = raw[i]
            if r == values[i]:
                seen[i] = 0
                continue
            if seen[i] and cand[i] == r:
                seen[i] += 1
            else:
                cand[i] = r
                seen[i] = 1
            if seen[i] >= self.stable_scans:
                values[i] = r
                seen[i] = 0
                out.append((i, r))
        return out

    def pending(self) -> bool:
        """Whether some channel is part-way through its debounce."""
        return any(self._seen)
