"""The errors of the serial link, rooted in :class:`boardctl.errors.BoardctlError`.

The shared :mod:`firmware_bridge.protocol` module also runs on the
microcontroller, where boardctl does not exist, so it has its own
:class:`~firmware_bridge.protocol.ProtocolError`. The host raises the classes
below, which derive from both roots: ``except BridgeError``, ``except
ProtocolError`` and ``except ValueError`` all catch a bad frame.
"""

from __future__ import annotations

from boardctl.errors import BoardctlError
from firmware_bridge import protocol


class BridgeError(BoardctlError):
    """Root of every error raised by firmware_bridge."""


class FrameError(BridgeError, protocol.ProtocolError):
    """Bytes from the serial line that are not a valid frame or message."""


class VersionRefused(FrameError, protocol.VersionMismatch):
    """The microcontroller speaks another major protocol version; the link is refused."""


class PortError(BridgeError, OSError):
    """The serial port cannot be opened or has failed."""


def decode_message(encoded: bytes) -> tuple[int, protocol.Message]:
    """:func:`firmware_bridge.protocol.decode_message`, raising :class:`FrameError`."""
    try:
        return protocol.decode_message(encoded)
    except protocol.VersionMismatch as e:
        raise VersionRefused(str(e)) from None
    except protocol.ProtocolError as e:
        raise FrameError(str(e)) from None
