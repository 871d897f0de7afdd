"""The operators' control socket: a Unix socket speaking JSON lines.

Each request is one line, ``{"cmd": "status"}``, ``{"cmd": "new", "game":
"shiftago", "options": {"players": 4}}``, ``{"cmd": "undo"}``, ``{"cmd":
"games"}`` or ``{"cmd": "export", "id": 3}``, and gets one line back with
``"ok"`` and either the answer or ``"error"``. The server only passes requests
to the loop (:meth:`~.loop.Loop.submit`); the socket is owner-only by default.

What a client may send is bounded: a request line of at most
:data:`MAX_REQUEST` bytes, JSON nested at most :data:`MAX_DEPTH` deep, at most
:data:`MAX_CLIENTS` connections at once (more are answered "busy" and closed),
each closed after :data:`IDLE_SECONDS` without a request.
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
#: the longest request line, in bytes (a request is a short JSON object)
MAX_REQUEST = 64 * 1024
#: how deeply arrays and objects may nest in a request
MAX_DEPTH = 8
#: connections served at once; more are answered "busy" and closed
MAX_CLIENTS = 16
#: a connection that sends no request for this long is closed
IDLE_SECONDS = 30.0


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
        *,
        max_clients: int = MAX_CLIENTS,
        idle: float = IDLE_SECONDS,
    ) -> None:
        self.path = Path(path)
        self._submit = submit
        self._idle = idle
        self._slots = threading.BoundedSemaphore(max_clients)
        self._max_clients = max_clients
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
        failing = False
        while not self._closed.is_set():
            try:
                conn, _ = self._sock.accept()
            except OSError as exc:
                if self._closed.is_set():
                    return
                # out of file descriptors (or memory): the pending connection
                # waits in the backlog; try again shortly, never give up (and
                # say so once, not five times a second)
                if not failing:
                    log.warning("control socket: cannot accept a connection: %s", exc.strerror)
                failing = True
                self._closed.wait(0.2)
                continue
            failing = False
            if not self._slots.acquire(blocking=False):
                self._turn_away(conn)
                continue
            try:
                threading.Thread(target=self._client, args=(conn,), daemon=True).start()
            except RuntimeError:  # no thread can be started now
                self._slots.release()
                self._turn_away(conn)

    def _turn_away(self, conn: socket.socket) -> None:
        with conn:
            conn.settimeout(0.1)
            busy = {"ok": False, "error": f"busy: {self._max_clients} clients are connected"}
            with contextlib.suppress(OSError):
                conn.sendall(json.dumps(busy).encode() + b"\n")

    def _client(self, conn: socket.socket) -> None:
        try:
            conn.settimeout(self._idle)
            with conn, conn.makefile("rwb") as f:
                while not self._closed.is_set():
                    line = f.readline(MAX_REQUEST + 1)
                    if not line:
                        return
                    if len(line) > MAX_REQUEST and not line.endswith(b"\n"):
                        error = (
                            f"bad request: longer than {MAX_REQUEST} bytes; a request is one line"
                        )
                        f.write(json.dumps({"ok": False, "error": error}).encode() + b"\n")
                        f.flush()
                        return  # the rest of that line is not read
                    f.write(json.dumps(self._answer(line)).encode() + b"\n")
                    f.flush()
        except OSError:
            pass  # gone, or idle too long: nothing to answer
        finally:
            self._slots.release()

    def _answer(self, line: bytes) -> dict[str, Any]:
        try:
            body = parse_request(line)
        except ValueError as exc:
            return {"ok": False, "error": f"bad request: {exc}"}
        try:
            return self._submit(body)
        except Exception as exc:  # a request must never end the connection's thread
            log.error("control request failed: %s", exc)
            return {"ok": False, "error": f"the controller failed: {exc}"}


def parse_request(line: bytes) -> dict[str, Any]:
    """One request line as a JSON object; ValueError saying what is wrong
    (not UTF-8, not JSON, nested too deeply, not an object)."""
    if _depth(line) > MAX_DEPTH:
        raise ValueError(f"nested more than {MAX_DEPTH} deep; a request is a flat object")
    try:
        body = json.loads(line)
    except RecursionError:  # unreachable after _depth, kept as a guard
        raise ValueError("nested too deeply") from None
    except ValueError as exc:  # not UTF-8, not JSON, a number of thousands of digits
        raise ValueError(str(exc)[:200]) from None
    if not isinstance(body, dict):
        raise ValueError('a request is a JSON object, e.g. {"cmd": "status"}')
    return body


def _depth(line: bytes) -> int:
    """How deeply ``[`` and ``{`` nest in ``line``, outside strings."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in line:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > MAX_DEPTH:
                    return deepest
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return deepest


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
