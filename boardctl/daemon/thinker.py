"""The computer player's thinking, in a process of its own.

:class:`ProcessThinker` is the controller's :class:`~boardctl.controller.opponent.Thinker`
in the daemon and the simulator: it starts ``python -m boardctl.daemon.think_worker``
when a game first needs it, sends it one request at a time and hands each
answer to the loop's queue (``emit``) from a reader thread, so the loop, the
LEDs, the sensors and the pages never wait for the computer. Only the
position as the computer's seat may know it leaves this process (no other
player's secret does).

A request the game has left is cancelled (the process stops its search at
once). A process that stops, or does not answer within its time limit and a
grace, is a failure the controller shows; the next request starts a new one.
A context manager: closing it ends the process.
"""

from __future__ import annotations

import contextlib
import json
import logging
import subprocess
import sys
import threading
from collections.abc import Callable
from typing import IO, Any

from boardctl.controller.opponent import ComputerFailed, ComputerMoved, Think
from boardctl.daemon.thinking import hidden

log = logging.getLogger(__name__)

#: how much longer than its time limit the process may take before it is stopped
GRACE = 5.0
#: the longest answer line read from the process
MAX_ANSWER = 64 * 1024
#: the most actions one turn of the computer's may have
MAX_ACTIONS = 16

Emit = Callable[[ComputerMoved | ComputerFailed], None]


class ProcessThinker:
    """Thinks in a child process; answers go to ``emit`` (settable later
    with :meth:`attach`). ``max_seconds`` caps one turn's thinking (the
    best move found by then is taken); ``command`` starts the process."""

    def __init__(
        self,
        emit: Emit | None = None,
        *,
        max_seconds: float = 10.0,
        command: list[str] | None = None,
    ) -> None:
        self._emit = emit
        self.max_seconds = max_seconds
        self.command = command or [sys.executable, "-m", "boardctl.daemon.think_worker"]
        self._lock = threading.Lock()
        self._process: subprocess.Popen[str] | None = None
        #: the request waited for, and its timer
        self._current: int | None = None
        self._timer: threading.Timer | None = None
        self._overdue: int | None = None
        self.started = 0  # processes started, for tests and the log

    def attach(self, emit: Emit) -> None:
        self._emit = emit

    # -- the Thinker ----------------------------------------------------------------
    def ask(self, request: Think) -> None:
        known = hidden(
            request.engine, request.state, request.seat, request.seed, request.ply, request.attempt
        )
        line = json.dumps(
            {
                "id": request.id,
                "game": request.engine.name,
                "options": request.engine.options_json(),
                "state": request.engine.state_to_json(known),
                "level": request.level,
                "seed": request.seed,
                "ply": request.ply,
                "attempt": request.attempt,
                "exclude": list(request.exclude),
                "max_seconds": self.max_seconds,
            }
        )
        with self._lock:
            self._cancel_locked()
            try:
                process = self._running()
                assert process.stdin is not None
                process.stdin.write(line + "\n")
                process.stdin.flush()
            except OSError as exc:
                self._stop_locked()
                self._fail(request.id, f"its process could not be started or reached ({exc})")
                return
            self._current = request.id
            timer = threading.Timer(self.max_seconds + GRACE, self._too_long, (request.id,))
            timer.daemon = True
            self._timer = timer
            timer.start()

    def cancel(self) -> None:
        with self._lock:
            self._cancel_locked()

    def _cancel_locked(self) -> None:
        current = self._current
        if current is None:
            return
        self._current = None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        process = self._process
        if process is not None and process.poll() is None:
            with contextlib.suppress(OSError, ValueError):
                assert process.stdin is not None
                process.stdin.write(json.dumps({"cancel": current}) + "\n")
                process.stdin.flush()

    # -- the process ------------------------------------------------------------------
    def _running(self) -> subprocess.Popen[str]:
        process = self._process
        if process is not None and process.poll() is None:
            return process
        process = subprocess.Popen(
            self.command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=None,  # its tracebacks go to the daemon's journal
            text=True,
            bufsize=1,
        )
        self._process = process
        self.started += 1
        log.info("the computer player's process started (pid %d)", process.pid)
        assert process.stdout is not None
        threading.Thread(
            target=self._read, args=(process, process.stdout), name="computer", daemon=True
        ).start()
        return process

    def _read(self, process: subprocess.Popen[str], stdout: IO[str]) -> None:
        """The reader thread of one process: its answers, then its end."""
        while True:
            try:
                line = stdout.readline(MAX_ANSWER + 1)
            except (OSError, ValueError):
                line = ""
            if not line:
                break
            try:
                answer = json.loads(line)
            except ValueError:
                log.warning("the computer player wrote something that is not an answer")
                continue
            try:
                self._answered(answer)
            except Exception:  # the reader goes on whatever comes: a stuck board is worse
                log.exception("the computer player's answer could not be taken")
        code = process.wait()
        with self._lock:
            if self._process is not process:
                return  # replaced or closed on purpose
            self._process = None
            current, self._current = self._current, None
            overdue, self._overdue = self._overdue, None
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
        if current is not None:
            if overdue == current:
                reason = f"it thought longer than {self.max_seconds + GRACE:.0f} s"
            else:
                reason = f"its process stopped (exit status {code})"
            self._fail(current, reason)

    def _answered(self, answer: Any) -> None:
        if not isinstance(answer, dict):
            return
        with self._lock:
            if answer.get("id") != self._current or self._current is None:
                return  # an answer to a request cancelled or replaced
            current, self._current = self._current, None
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
        if "error" in answer:
            self._fail(current, str(answer["error"])[:300])
            return
        actions = answer.get("actions")
        seconds = answer.get("seconds", 0.0)
        if (
            not isinstance(actions, list)
            or not 0 < len(actions) <= MAX_ACTIONS
            or not all(isinstance(a, str) and len(a) <= 200 for a in actions)
            or isinstance(seconds, bool)
            or not isinstance(seconds, int | float)
        ):
            self._fail(current, "it answered something that is not a move")
            return
        event = ComputerMoved(
            current, tuple(actions), seconds=float(seconds), cut=answer.get("cut") is True
        )
        if event.cut:
            log.warning(
                "the computer player was cut short after %.1f s: its move is the best found so far",
                event.seconds,
            )
        self._send(event)

    def _too_long(self, request: int) -> None:
        """The process did not answer in time: stop it (the reader reports why)."""
        with self._lock:
            if self._current != request or self._process is None:
                return
            self._overdue = request
            process = self._process
        log.error("the computer player did not answer within %.0f s", self.max_seconds + GRACE)
        with contextlib.suppress(OSError):
            process.kill()

    def _fail(self, request: int, reason: str) -> None:
        self._send(ComputerFailed(request, reason))

    def _send(self, event: ComputerMoved | ComputerFailed) -> None:
        emit = self._emit
        if emit is not None:
            emit(event)

    # -- closing --------------------------------------------------------------------
    def _stop_locked(self) -> None:
        self._cancel_locked()
        process, self._process = self._process, None
        self._current = None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if process is None:
            return
        with contextlib.suppress(OSError, ValueError):
            assert process.stdin is not None
            process.stdin.close()
        try:
            process.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def close(self) -> None:
        """End the process (its thinking is dropped)."""
        with self._lock:
            self._stop_locked()

    def __enter__(self) -> ProcessThinker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
