"""The operators' control socket: a Unix socket speaking JSON lines.

Each request is one line, ``{"cmd": "status"}``, ``{"cmd": "new", "game":
"shiftago", "options": {"players": 4}}``, ``{"cmd": "undo"}``, ``{"cmd":
"games"}`` or ``{"cmd": "export", "id": 3}``, and gets one line back with
``"ok"`` and either the answer or ``"error"``. The server only passes requests
to the loop (:meth:`~.loop.Loop.submit`); the socket is owner-only by default.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import socket
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from boardctl.errors import BoardctlError

log = logging.getLogger(__name__)

DEFAULT_SOCKET = "/run/boardctl/control.sock"


class ControlError(BoardctlError, OSError):
    """The control socket cannot be reached or answered badly."""


class SocketInUse(ControlError):
    """Another controller answers on the control socket's path."""


def _answers(path: Path) -> bool:
    """Whether something listens on the Unix socket at ``path``."""
    if not path.is_socket():
        return False
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        probe.settimeout(1.0)
        try:
            probe.connect(str(path))
        except OSError:
            return False
    return True


class ControlServer:
    """Serves ``submit`` on a Unix socket at ``path`` with file ``mode``."""

    def __init__(
        self,
        path: str | Path,
        submit: Callable[[Mapping[str, Any]], dict[str, Any]],
        mode: int = 0o600,
    ) -> None:
        self.path = Path(path)
        self._submit = submit
        if _answers(self.path):
            raise SocketInUse(
                f"another boardctl answers on the control socket {self.path}: stop it first, "
                "or give this one its own socket (--set control.socket=PATH)"
            )
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()
            old = os.umask(0o177)
            try:
                self._sock.bind(str(self.path))
            finally:
                os.umask(old)
            os.chmod(self.path, mode)
            self._sock.listen(8)
        except OSError as exc:
            self._sock.close()
            reason = exc.strerror or str(exc)
            if isinstance(exc, FileExistsError | NotADirectoryError):
                reason = f"{exc.filename or self.path.parent} is not a directory"
            raise ControlError(f"cannot make the control socket {self.path}: {reason}") from None
        self._closed = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="control", daemon=True)
        self._thread.start()

    def __enter__(self) -> ControlServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._closed.set()
        with contextlib.suppress(OSError):
            self._sock.shutdown(socket.SHUT_RDWR)
        self._sock.close()
        self._thread.join(timeout=2.0)
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()

    def _serve(self) -> None:
        while not self._closed.is_set():
            try:
                conn, _ = self._sock.accept()
            except OSError:
                return
            threading.Thread(target=self._client, args=(conn,), daemon=True).start()

    def _client(self, conn: socket.socket) -> None:
        with conn, conn.makefile("rwb") as f:
            for line in f:
                try:
                    body = json.loads(line)
                    if not isinstance(body, dict):
                        raise ValueError("a request is a JSON object")
                    reply = self._submit(body)
                except ValueError as exc:
                    reply = {"ok": False, "error": f"bad request: {exc}"}
                f.write(json.dumps(reply).encode() + b"\n")
                f.flush()


def request(path: str | Path, body: Mapping[str, Any], timeout: float = 10.0) -> dict[str, Any]:
    """Send one request to the control socket at ``path`` and return the reply."""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(timeout)
            s.connect(str(path))
            s.sendall(json.dumps(dict(body)).encode() + b"\n")
            with s.makefile("rb") as f:
                line = f.readline()
    except OSError as exc:
        raise ControlError(
            f"cannot reach the controller at {path}: {exc}; is `boardctl run` running?"
        ) from exc
    if not line:
        raise ControlError(f"the controller at {path} closed the connection without answering")
    reply = json.loads(line)
    if not isinstance(reply, dict):
        raise ControlError(f"the controller at {path} answered {reply!r}")
    return reply
