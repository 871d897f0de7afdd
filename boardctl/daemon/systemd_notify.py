"""sd_notify(3) for ``Type=notify`` services: READY, WATCHDOG, STATUS, STOPPING.

The protocol is one datagram to the socket named by ``$NOTIFY_SOCKET``; under
anything but systemd the variable is unset and every call does nothing. (The
C library's binding needs libsystemd headers to build; the protocol itself is a
few lines.)
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping

log = logging.getLogger(__name__)


class Notifier:
    """Sends state lines to systemd; silent when not run by systemd."""

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        address = env.get("NOTIFY_SOCKET", "")
        if address.startswith("@"):
            address = "\0" + address[1:]  # abstract namespace
        self._address = address
        self._socket: socket.socket | None = None
        usec = env.get("WATCHDOG_USEC", "")
        pid = env.get("WATCHDOG_PID", "")
        watched = usec.isdigit() and (not pid or pid == str(os.getpid()))
        #: the watchdog period systemd asked for, in seconds, or None
        self.watchdog_interval: float | None = int(usec) / 1e6 if watched else None

    @property
    def enabled(self) -> bool:
        return bool(self._address)

    def notify(self, **fields: str) -> None:
        """Send ``KEY=value`` lines (``ready="1"`` sends ``READY=1``)."""
        if not self._address:
            return
        message = "\n".join(f"{k.upper()}={v}" for k, v in fields.items()).encode()
        try:
            if self._socket is None:
                self._socket = socket.socket(
                    socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC
                )
            # never wait for systemd: a full queue loses one message, a
            # blocked send would stop the controller's loop
            self._socket.sendto(message, socket.MSG_DONTWAIT, self._address)
        except BlockingIOError:
            log.debug("systemd's notification queue is full: %s not sent", message[:40])
        except OSError as exc:
            log.warning("cannot notify systemd at %s: %s", self._address, exc)

    def ready(self, status: str = "") -> None:
        self.notify(ready="1", **({"status": status} if status else {}))

    def status(self, text: str) -> None:
        self.notify(status=text)

    def watchdog(self) -> None:
        self.notify(watchdog="1")

    def stopping(self) -> None:
        self.notify(stopping="1")

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None

    def __enter__(self) -> Notifier:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
