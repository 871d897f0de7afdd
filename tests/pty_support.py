"""A pseudo-terminal whose buffer is full: a board that stopped reading."""

from __future__ import annotations

import os
import select


def fill(fd: int) -> None:
    """Write to ``fd`` (opened non-blocking) until the pty takes nothing more,
    even a moment later (the kernel moves what was written on to the other
    side in steps)."""
    while True:
        for size in (4096, 256, 16, 1):
            try:
                while True:
                    os.write(fd, bytes(size))
            except BlockingIOError:
                pass
        _, writable, _ = select.select([], [fd], [], 0.05)
        if not writable:
            return
