"""The operators' control socket: a Unix socket speaking JSON lines.

Each request is one line, ``{"cmd": "status"}``, ``{"cmd": "new", "game":
"shiftago", "options": {"players": 4}}``, ``{"cmd": "undo"}``, ``{"cmd":
"games"}`` or ``{"cmd": "export", "id": 3}``, and gets one line back with
``"ok"`` and either the answer or ``"error"``. The server only passes requests
to the loop (:meth:`~.loop.Loop.submit`); the socket is owner-only by default.

What a client may send is bounded: a request line of at most
:data:`MAX_REQUEST` bytes, JSON nested at most :data:`MAX_DEPTH` deep, at most
:data:`MAX_CLIENTS` connections at once, each closed after
:data:`IDLE_SECONDS` without a request. Clients that connect and say nothing
cannot lock the operators out: when every place is taken, a new connection
takes the place of the one that has waited longest without a request; only
when every client is being answered is the newcomer told "busy".
:func:`request` tries again for a moment when the server is busy or its
queue of connections is full.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from boardctl import i18n
from boardctl.errors import BoardctlError, shorten

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
#: an answer that the client does not take within this many seconds ends its connection
WRITE_SECONDS = 5.0
#: connections waiting to be accepted (the listen backlog)
BACKLOG = 64
#: how long :func:`request` tries again while the server is busy or its backlog full
RETRY_SECONDS = 3.0


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


class _Client:
    """One connection and what its thread is doing: waiting for a request
    (``reading``, since ``since``) or answering one."""

    __slots__ = ("conn", "reading", "since")

    def __init__(self, conn: socket.socket, now: float) -> None:
        self.conn = conn
        self.reading = True
        self.since = now


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
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.path = Path(path)
        self._submit = submit
        self._idle = idle
        self._clock = clock
        self._max_clients = max_clients
        #: the connections served now (an evicted one leaves at once)
        self._clients: list[_Client] = []
        self._lock = threading.Lock()
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
            self._sock.listen(BACKLOG)
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

    @property
    def clients(self) -> int:
        """The connections served now."""
        with self._lock:
            return len(self._clients)

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
            client = self._admit(conn)
            if client is None:
                self._turn_away(conn)
                continue
            try:
                threading.Thread(target=self._client, args=(client,), daemon=True).start()
            except RuntimeError:  # no thread can be started now
                self._leave(client)
                self._turn_away(conn)

    def _admit(self, conn: socket.socket) -> _Client | None:
        """A place for ``conn``: a free one, else the place of the client that
        has waited longest without a request (it is disconnected); None when
        every client is being answered."""
        now = self._clock()
        with self._lock:
            if len(self._clients) >= self._max_clients:
                waiting = [c for c in self._clients if c.reading]
                if not waiting:
                    return None
                oldest = min(waiting, key=lambda c: c.since)
                self._clients.remove(oldest)
                # its thread wakes from its read to find the connection ended
                with contextlib.suppress(OSError):
                    oldest.conn.shutdown(socket.SHUT_RDWR)
            client = _Client(conn, now)
            self._clients.append(client)
            return client

    def _leave(self, client: _Client) -> None:
        with self._lock, contextlib.suppress(ValueError):
            self._clients.remove(client)

    def _mark(self, client: _Client, reading: bool) -> bool:
        """Say what the client's thread does now; False if it was evicted."""
        with self._lock:
            if client not in self._clients:
                return False
            client.reading = reading
            client.since = self._clock()
            return True

    def _turn_away(self, conn: socket.socket) -> None:
        with conn:
            conn.settimeout(0.1)
            busy = {
                "ok": False,
                "busy": True,
                "error": f"busy: {self._max_clients} clients are being answered",
            }
            with contextlib.suppress(OSError):
                conn.sendall(json.dumps(busy).encode() + b"\n")

    def _client(self, client: _Client) -> None:
        conn = client.conn
        try:
            with conn, conn.makefile("rwb") as f:
                while not self._closed.is_set():
                    conn.settimeout(self._idle)
                    line = f.readline(MAX_REQUEST + 1)
                    if not line or not self._mark(client, reading=False):
                        return
                    conn.settimeout(WRITE_SECONDS)
                    if len(line) > MAX_REQUEST and not line.endswith(b"\n"):
                        error = (
                            f"bad request: longer than {MAX_REQUEST} bytes; a request is one line"
                        )
                        f.write(json.dumps({"ok": False, "error": error}).encode() + b"\n")
                        f.flush()
                        return  # the rest of that line is not read
                    f.write(json.dumps(self._answer(line)).encode() + b"\n")
                    f.flush()
                    if not self._mark(client, reading=True):
                        return
        except (OSError, ValueError):
            pass  # gone, evicted, or idle or slow too long: nothing to answer
        finally:
            self._leave(client)

    def _answer(self, line: bytes) -> dict[str, Any]:
        try:
            body = parse_request(line)
        except ValueError as exc:
            return {"ok": False, "error": f"bad request: {exc}"}
        # "language" asks for the answer's words and is the socket's own business: no
        # command sees it, so none that checks its keys strictly can refuse it (the
        # command line asks every answer in the operator's language)
        code = body.pop("language", None)
        try:
            reply = self._submit(body)
        except Exception as exc:  # a request must never end the connection's thread
            log.error("control request failed: %s", shorten(str(exc)))
            return {"ok": False, "error": shorten(f"the controller failed: {exc}")}
        if isinstance(code, str) and i18n.known(code):
            # the texts for people in the language asked (`boardctl status` in the
            # operator's); without one the answer is English, as JSON stays
            reply = {**i18n.localized(reply, code), "language": code}
        if isinstance(reply.get("error"), str):
            reply["error"] = shorten(reply["error"])  # a short Message stays one
        return reply


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


def request(
    path: str | Path,
    body: Mapping[str, Any],
    timeout: float = 10.0,
    *,
    retry: float = RETRY_SECONDS,
) -> dict[str, Any]:
    """Send one request to the control socket at ``path`` and return the reply.

    While the server is busy (every client being answered) or its queue of
    connections is full, try again for up to ``retry`` seconds."""
    deadline = time.monotonic() + retry
    pause = 0.02
    while True:
        try:
            reply = _request_once(path, body, timeout)
        except BlockingIOError as exc:  # the backlog is full: EAGAIN
            if time.monotonic() + pause > deadline:
                raise ControlError(
                    f"the controller at {path} is busy: too many connections wait; "
                    "try again in a moment"
                ) from exc
        else:
            if not reply.get("busy") or time.monotonic() + pause > deadline:
                return reply
        time.sleep(pause)
        pause = min(pause * 2, 0.25)


def _request_once(path: str | Path, body: Mapping[str, Any], timeout: float) -> dict[str, Any]:
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(timeout)
            s.connect(str(path))
            # a server too busy to take the request answers without reading it
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                s.sendall(json.dumps(dict(body)).encode() + b"\n")
            with s.makefile("rb") as f:
                line = f.readline()
    except BlockingIOError:
        raise
    except OSError as exc:
        raise ControlError(
            f"cannot reach the controller at {path}: {exc}; is `boardctl run` running?"
        ) from exc
    if not line:
        raise ControlError(f"the controller at {path} closed the connection without answering")
    try:
        reply = json.loads(line)
    except ValueError:
        reply = None
    if not isinstance(reply, dict):
        raise ControlError(f"the controller at {path} answered {line[:80]!r}, not a JSON object")
    return reply
