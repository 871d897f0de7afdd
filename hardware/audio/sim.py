"""The recording twin of the board's speaker, as the simulated LED strip is of
the LEDs: a full output that keeps every clip it is given, with the time, and
plays it on a real speaker too where it is given one.

Tests read :attr:`RecordingAudio.heard` (or wait for a clip with
:meth:`RecordingAudio.wait_for`); ``boardctl sim`` plays through aplay where
the machine has a sound card, and only records where it has none.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from hardware.audio.base import AudioError, AudioOutput, Clip


@dataclass(frozen=True, slots=True)
class Played:
    """One clip as the twin was given it: when (seconds of its clock), what
    kind (``cue`` or ``voice``), its text (a cue's name, the sentence said),
    in which language, and for how long it sounds."""

    at: float
    kind: str
    text: str
    language: str
    seconds: float


class RecordingAudio:
    """Records every clip; plays it on ``speaker`` too, if given. ``fail``
    (for tests) is raised by every play, as a speaker that is gone would."""

    def __init__(
        self,
        speaker: AudioOutput | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        limit: int = 10_000,
    ) -> None:
        self.speaker = speaker
        self.clock = clock
        self.limit = limit
        self.heard: list[Played] = []
        self.fail: str | None = None
        self.closed = False
        self._cond = threading.Condition()

    def play(self, clip: Clip) -> None:
        with self._cond:
            if len(self.heard) >= self.limit:
                del self.heard[: self.limit // 2]
            self.heard.append(
                Played(self.clock(), clip.kind, clip.text, clip.language, clip.seconds)
            )
            self._cond.notify_all()
            fail = self.fail
        if fail is not None:
            raise AudioError(fail)
        if self.speaker is not None:
            self.speaker.play(clip)

    def stop(self) -> None:
        if self.speaker is not None:
            self.speaker.stop()

    def close(self) -> None:
        self.closed = True
        if self.speaker is not None:
            self.speaker.close()

    def texts(self, kind: str | None = None) -> list[str]:
        """What was played (cues by name) or said, in order."""
        with self._cond:
            return [p.text for p in self.heard if kind is None or p.kind == kind]

    def wait_for(self, predicate: Callable[[list[Played]], bool], timeout: float) -> bool:
        """Wait until what was heard meets ``predicate`` (False after ``timeout`` s)."""
        with self._cond:
            return self._cond.wait_for(lambda: predicate(self.heard), timeout)
