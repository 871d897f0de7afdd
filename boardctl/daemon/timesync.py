"""Whether the system clock tells the date.

A Raspberry Pi has no clock that runs while it is off: it boots at the time it
last saved (or 1970) and learns the date from the network, perhaps much later,
perhaps never in a venue without internet. Until then the dates of games are
marked unsure and opening hours cannot be told. The clock counts as set once
systemd-timesyncd says so (``/run/systemd/timesync/synchronized``) or the
kernel's clock discipline is synchronised (``adjtimex``: chrony, ntpd, a GPS
or an RTC driver that sets it). Durations never depend on it: they are
measured on the monotonic clock.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import logging
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger(__name__)

#: systemd-timesyncd touches this file once it has synchronised the clock
TIMESYNCD_FLAG = Path("/run/systemd/timesync/synchronized")
#: adjtimex's answer when the clock is not synchronised
TIME_ERROR = 5
#: struct timex is 208 bytes on 64-bit Linux (less on 32-bit): room to spare
_TIMEX_BYTES = 512


@functools.cache
def _libc() -> ctypes.CDLL | None:
    """The C library, found once (finding it runs ldconfig: milliseconds on a
    Pi, and the loop asks every 20 s until the clock is set)."""
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        return ctypes.CDLL(name, use_errno=True)
    except OSError:
        return None


def kernel_synchronised() -> bool | None:
    """The kernel's word (``adjtimex``), or None where it cannot be asked."""
    libc = _libc()
    if libc is None:
        return None
    try:
        timex = ctypes.create_string_buffer(_TIMEX_BYTES)  # modes = 0: only read
        state = int(libc.adjtimex(timex))
    except (OSError, AttributeError):
        return None
    if state < 0:
        return None
    return state != TIME_ERROR


class ClockWatch:
    """Whether the clock is synchronised, asked of ``flag`` then ``kernel``;
    once it has been, it stays so (it is not asked again)."""

    def __init__(
        self,
        flag: Path = TIMESYNCD_FLAG,
        kernel: Callable[[], bool | None] = kernel_synchronised,
    ) -> None:
        self.flag = flag
        self.kernel = kernel
        self._set = False

    def __call__(self) -> bool:
        if self._set:
            return True
        if self.flag.exists() or self.kernel():
            self._set = True
            log.info("the system clock is synchronised: dates are sure from now on")
        return self._set
