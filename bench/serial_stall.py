"""What a board that stops reading costs the host's serial writer.

A real pty nobody reads, its buffer full, stands for a hung firmware or a USB
adapter whose buffer is full. A write of one LED frame (300 bytes) waits for it
until the write timeout (1 s, as the daemon's) and fails. Printed for the
port the daemon opens (``open_port``: its write waits with ``select``) and for
pyserial's own ``Serial.write``: the writer thread's CPU time during the stall
and the writes it tried on the full port.

    .venv/bin/python bench/serial_stall.py
"""

from __future__ import annotations

import os
import select
import threading
import time
from typing import Any

import serial

from firmware_bridge.serial_port import WRITE_TIMEOUT, open_port


def _fill(fd: int) -> None:
    """Write to ``fd`` until the pty takes nothing more, even a moment later."""
    while True:
        for size in (4096, 256, 16, 1):
            try:
                while True:
                    os.write(fd, bytes(size))
            except BlockingIOError:
                pass
        if not select.select([], [fd], [], 0.05)[1]:
            return


def stall(write: Any, port: Any) -> tuple[float, float, int, str]:
    """One write into the full port on a thread of its own: its CPU seconds,
    wall seconds, the writes tried on the port and how it ended."""
    tries = 0
    real_write = os.write

    def counting(fd: int, data: Any) -> int:
        nonlocal tries
        if fd == port.fd:
            tries += 1
        return real_write(fd, data)

    result: dict[str, Any] = {}

    def writer() -> None:
        t0 = time.thread_time()
        try:
            write(port, bytes(300))
            result["end"] = "written"
        except serial.SerialTimeoutException:
            result["end"] = "write timeout"
        result["cpu"] = time.thread_time() - t0

    os.write = counting  # type: ignore[assignment]
    try:
        start = time.monotonic()
        thread = threading.Thread(target=writer)
        thread.start()
        thread.join()
        wall = time.monotonic() - start
    finally:
        os.write = real_write
    return result["cpu"], wall, tries, result["end"]


def main() -> None:
    print(f"A board that reads nothing, one LED frame written, write timeout {WRITE_TIMEOUT:g} s:")
    for name, write in (
        ("the daemon's port (waits with select)", lambda p, d: p.write(d)),
        ("pyserial's Serial.write (retries)", lambda p, d: serial.Serial.write(p, d)),
    ):
        master, slave = os.openpty()
        try:
            port = open_port(os.ttyname(slave))
            _fill(port.fd)
            cpu, wall, tries, end = stall(write, port)
            port.close()
        finally:
            os.close(master)
            os.close(slave)
        print(
            f"  {name}: {end} after {wall:.2f} s, writer CPU {cpu * 1000:.2f} ms "
            f"({100 * cpu / wall:.0f} % of a core), {tries:,} writes tried"
        )


if __name__ == "__main__":
    main()
