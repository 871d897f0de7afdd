"""The loop's turns handed to the sound, heard in order on a thread of its own.

The sound must hear every turn's status in order (a wrong board shown for one
turn is a notice), but working out what is due (reading the status, which
builds it, and making the sentences) is not the loop's work: the loop only
hands each turn over (:meth:`Hearing.hand`) and goes on. The hearing thread
takes them oldest first and hears each with ``hear``. What the status needs of
the engine is asked on the loop's thread before the hand-over
(:meth:`~boardctl.controller.present.Status.prepare`, once per position): an
engine keeps tables of its own as it lists actions, and only the loop uses it.

It is not the audio worker's thread (:class:`hardware.audio.Speaker`): that
one plays a clip for seconds at a time, and the hearing must meanwhile
withdraw what went stale from its line.

The line is bounded (:data:`WAITING` turns). A turn handed over when the line
is full is folded into the newest one waiting, which it replaces: the turns in
between are not heard, but what they leave for the next comparison is kept
(:class:`~boardctl.sound.notices.Unheard`: the phase they ended in, whether
the board was not followed in any), so what still matters is said and what
came and went (stale by then) is not. The loop never waits for the hearing:
handing over takes the line's lock only to append or fold. A ``hear`` that
fails is logged and the next turn is heard as usual.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from boardctl.sound.notices import Board, Unheard

log = logging.getLogger(__name__)

#: turns waiting to be heard at most (about a second of a busy loop's turns)
WAITING = 32


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn of the loop as the sound hears it: its ``status``, the names
    and sensed pieces the sentences use, its phase (the status's, known
    without building it), and the turns folded into it, if any."""

    status: Mapping[str, Any]
    board: Board
    phase: str
    unheard: Unheard | None = None


class Hearing:
    """Hears the turns handed over with ``hear``, in order, from :meth:`start`
    until :meth:`close`; at most ``waiting`` wait.

    The line is kept under a plain lock; the hearing thread sleeps on a bell
    (a :class:`queue.SimpleQueue`) that the loop rings only when the thread
    may be asleep, so handing a turn over is a few calls in C."""

    def __init__(self, hear: Callable[[Turn], None], *, waiting: int = WAITING) -> None:
        if waiting < 1:
            raise ValueError(f"waiting must be at least 1, not {waiting}")
        self._hear = hear
        self.waiting = waiting
        self._lock = threading.Lock()
        self._line: deque[Turn] = deque()
        #: rung (True) when the line may have turns for a thread that sleeps
        self._bell: queue.SimpleQueue[bool] = queue.SimpleQueue()
        #: the bell was rung and the thread has not yet found the line empty
        self._rung = False
        #: a turn taken off the line is being heard
        self._busy = False
        self._closed = False
        #: notified by the hearing thread whenever it finds nothing left to hear
        self._idle = threading.Condition()
        self._thread: threading.Thread | None = None
        #: turns heard, and folded into a later one unheard
        self.heard = 0
        self.folded = 0

    # -- the loop's side (never waits for the hearing) ------------------------------
    def hand(self, turn: Turn) -> None:
        """Hand one turn over, after those handed before it."""
        with self._lock:
            if self._closed:
                return
            line = self._line
            if len(line) >= self.waiting:
                tail = line.pop()
                turn = Turn(
                    turn.status, turn.board, turn.phase, Unheard.folded(tail.unheard, tail.phase)
                )
                self.folded += 1
            line.append(turn)
            if self._rung:
                return  # the thread is awake and will find it
            self._rung = True
        self._bell.put(True)

    def idle(self, timeout: float) -> bool:
        """Wait until every turn handed over is heard (False after ``timeout`` s)."""
        with self._idle:
            return self._idle.wait_for(self._done, timeout)

    def _done(self) -> bool:
        with self._lock:
            return not self._line and not self._busy

    # -- the thread -------------------------------------------------------------------
    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="boardctl-hearing", daemon=True)
        self._thread.start()

    def close(self, timeout: float = 5.0) -> None:
        """Stop: what waits is not heard, the thread ends."""
        with self._lock:
            self._closed = True
            self._line.clear()
        self._bell.put(True)
        if self._thread is not None:
            self._thread.join(timeout)
            if self._thread.is_alive():
                log.warning("the sound's hearing did not stop within %.0f s", timeout)

    def _run(self) -> None:
        while True:
            self._bell.get()
            while True:
                with self._lock:
                    if self._closed:
                        return
                    if not self._line:
                        self._rung = False
                        break
                    turn = self._line.popleft()
                    self._busy = True
                try:
                    self._hear(turn)
                except Exception:  # a bug here must not end the board's sound for good
                    log.exception("the sound could not hear a turn (phase %s)", turn.phase)
                with self._lock:
                    self._busy = False
                    self.heard += 1
            with self._idle:
                self._idle.notify_all()
