"""A pyserial port whose write waits for the board instead of retrying.

pyserial 3.5's ``write`` (with a write timeout) retries a write the port
refuses (``EAGAIN``: its buffer is full, the board stopped reading) in a loop
until the timeout: a board that takes nothing costs a core for up to
:data:`~firmware_bridge.serial_port.WRITE_TIMEOUT`, on the serial writer's
thread, which takes the interpreter from the loop at every retry.
:class:`WaitingSerial` waits (``select``) until the port takes bytes, the write
is cancelled or closed, or the timeout passes, and then writes what the port
takes. Imported when a port is opened (pyserial is imported only then).
"""

from __future__ import annotations

import os
import select
import time

import serial


class WaitingSerial(serial.Serial):
    """A POSIX serial port whose :meth:`write` waits without spinning."""

    def write(self, data: bytes) -> int:
        """Write all of ``data`` within the write timeout; raise
        ``SerialTimeoutException`` when the port took not all of it by then.
        A cancelled write (``cancel_write``) returns what was written; the
        port closed under a write ends it at once with ``SerialException``."""
        if not self.is_open:
            raise serial.PortNotOpenError()
        timeout = self.write_timeout
        if timeout == 0:  # non-blocking: pyserial's own write returns at once
            return int(super().write(data))
        left = memoryview(bytes(data))
        length = len(left)
        deadline = None if timeout is None else time.monotonic() + timeout
        while left:
            wait = None if deadline is None else deadline - time.monotonic()
            if wait is not None and wait <= 0:
                raise serial.SerialTimeoutException("Write timeout")
            try:
                abort, ready, _ = select.select([self.pipe_abort_write_r], [self.fd], [], wait)
                if abort:
                    os.read(self.pipe_abort_write_r, 1000)
                    break
                if ready:
                    left = left[os.write(self.fd, left) :]
            except (BlockingIOError, InterruptedError):
                continue  # taken by someone else first, or a signal: wait again
            except (OSError, TypeError, ValueError) as e:
                # the port failed, or closed under the write (its descriptors gone)
                raise serial.SerialException(f"write failed: {e}") from e
            if not ready:
                raise serial.SerialTimeoutException("Write timeout")
        return length - len(left)
