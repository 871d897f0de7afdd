"""Opening the board's serial port by a stable name, and the reconnect backoff.

A board is named by ``/dev/serial/by-id/usb-...`` (udev's stable link) or a
udev rule's own symlink, never by ``/dev/ttyACM0``, whose number changes with
plug order. pyserial is imported here only (and in :mod:`.waiting_port`, whose
port this module opens), when a port is opened.
"""

from __future__ import annotations

import glob
import os
from typing import Any

from firmware_bridge.errors import PortError

BY_ID = "/dev/serial/by-id"

#: seconds a write may take to go through before the port counts as lost (a
#: board that stopped reading, a pulled cable); only the writer thread waits for it
WRITE_TIMEOUT = 1.0


def candidate_ports() -> list[str]:
    """The stable names of the serial ports plugged in now."""
    return sorted(glob.glob(os.path.join(BY_ID, "*")))


def open_port(path: str, *, baudrate: int = 115200, read_timeout: float = 0.1) -> Any:
    """Open ``path`` for exclusive use in raw mode; raise :class:`PortError` if it fails.

    A read returns after ``read_timeout`` with nothing, so the reader runs the
    link's timers (heartbeats every 0.2 s, the silent link declared down after
    0.75 s) at least that often; shorter costs idle CPU for nothing."""
    if not os.path.exists(path):
        found = ", ".join(candidate_ports()) or "none"
        raise PortError(
            f"serial port {path} does not exist: is the board plugged in? "
            f"Ports under {BY_ID}: {found}"
        )
    import serial  # lazily: the package imports on machines without pyserial

    from firmware_bridge.waiting_port import WaitingSerial

    try:
        return WaitingSerial(
            path,
            baudrate=baudrate,
            timeout=read_timeout,
            write_timeout=WRITE_TIMEOUT,
            exclusive=True,
        )
    except (serial.SerialException, OSError, ValueError) as e:
        raise PortError(
            f"cannot open serial port {path}: {e}; check that no other program holds it "
            "and that this user is in the 'dialout' group"
        ) from e


def is_write_timeout(error: BaseException) -> bool:
    """Whether ``error`` is pyserial's: a write did not go through within its timeout."""
    try:
        import serial
    except ImportError:
        return False
    return isinstance(error, serial.SerialTimeoutException)


class Backoff:
    """Delays between reconnect attempts: doubling from ``first`` up to ``most``."""

    def __init__(self, first: float = 0.05, most: float = 2.0) -> None:
        if not 0 < first <= most:
            raise ValueError(f"backoff from {first} s to {most} s: need 0 < first <= most")
        self.first = first
        self.most = most
        self._next = first

    def next(self) -> float:
        d = self._next
        self._next = min(self.most, self._next * 2)
        return d

    def reset(self) -> None:
        self._next = self.first
