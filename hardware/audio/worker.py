"""The audio worker: what is to be heard, rendered and played on a thread of its own.

The loop hands each :class:`Utterance` to :meth:`Speaker.say`, which only puts
it in a short line and returns. The worker thread takes them in order: the
cue's tones (drawn once per volume), then the sentence, rendered by the voice
(espeak-ng) once and kept in a bounded cache, each played through the output
(aplay, the recording twin, or both).

The line is bounded and drops what has gone stale: a new utterance replaces
an unsaid one of the same slot (a newer "your turn" replaces the older), the
loop withdraws a slot whose subject is over (the board is right again), and
past :attr:`Speaker.pending` the oldest is dropped. A speaker that is missing
or a player that crashes costs the clip, is shown as :attr:`Speaker.fault`
(what it is and what to do), and the next clip is tried as usual: the board
plays on either way. :meth:`Speaker.close` ends the clip being played and the
thread.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from boardctl.message import joined, said
from boardctl.sound.cues import Cue, wav_of
from hardware.audio.base import AudioError, AudioOutput, Clip

log = logging.getLogger(__name__)

#: utterances waiting at most (older ones are dropped: they are stale by then)
PENDING = 4
#: rendered sentences kept, at most, and their bytes at most (about 90 s of speech)
CACHE_ENTRIES = 64
CACHE_BYTES = 4_000_000


class Voice(Protocol):
    """Renders a sentence as WAV bytes (:class:`~hardware.audio.espeak.Espeak`)."""

    def render(self, text: str, language: str, volume: int) -> bytes: ...


@dataclass(frozen=True, slots=True)
class Utterance:
    """What is to be heard: a cue (by its name), a sentence in ``language``,
    or both, at ``volume`` (0 to 100 %). ``slot`` says which older one it
    makes stale."""

    slot: str
    cue: str | None = None
    text: str | None = None
    language: str = "en"
    volume: int = 70


class Cache:
    """Rendered sentences by (text, language, volume), the least recently used
    dropped first beyond ``entries`` or ``size`` bytes."""

    def __init__(self, entries: int = CACHE_ENTRIES, size: int = CACHE_BYTES) -> None:
        self.entries = entries
        self.size = size
        self.bytes = 0
        self.hits = 0
        self.misses = 0
        self._kept: OrderedDict[tuple[str, str, int], bytes] = OrderedDict()

    def __len__(self) -> int:
        return len(self._kept)

    def get(self, key: tuple[str, str, int], render: Callable[[], bytes]) -> bytes:
        found = self._kept.get(key)
        if found is not None:
            self._kept.move_to_end(key)
            self.hits += 1
            return found
        self.misses += 1
        data = render()
        if len(data) <= self.size:
            self._kept[key] = data
            self.bytes += len(data)
            while len(self._kept) > self.entries or self.bytes > self.size:
                _, old = self._kept.popitem(last=False)
                self.bytes -= len(old)
        return data


class Speaker:
    """Plays utterances on ``output``, sentences rendered by ``voice``; the
    worker runs from :meth:`start` until :meth:`close`."""

    def __init__(
        self,
        output: AudioOutput,
        voice: Voice | None,
        *,
        pending: int = PENDING,
        cache: Cache | None = None,
    ) -> None:
        self.output = output
        self.voice = voice
        self.pending = pending
        self.cache = cache if cache is not None else Cache()
        self._cond = threading.Condition()
        self._line: list[Utterance] = []
        self._closed = False
        self._busy = False
        self._thread: threading.Thread | None = None
        #: the cues drawn, at one volume (another volume draws them again)
        self._cues: dict[str, bytes] = {}
        self._cue_volume: int | None = None
        #: a volume whose cues are to be drawn before they are needed
        self._warm: int | None = None
        #: why the speaker or the voice fails now, by part (None: they work)
        self._faults: dict[str, str] = {}
        self.played = 0
        self.dropped = 0
        self.failed = 0

    # -- the loop's side (returns at once) ---------------------------------------------
    def say(self, *utterances: Utterance) -> None:
        """Put ``utterances`` (one turn's, in order) in the line at once."""
        with self._cond:
            if self._closed:
                return
            for utterance in utterances:
                stale = [u for u in self._line if u.slot == utterance.slot]
                for u in stale:
                    self._line.remove(u)
                self._line.append(utterance)
                self.dropped += len(stale)
            while len(self._line) > self.pending:
                self._line.pop(0)
                self.dropped += 1
            self._cond.notify_all()

    def withdraw(self, slots: Iterable[str]) -> None:
        """Drop the unsaid utterances of ``slots`` (their subject is over)."""
        gone = set(slots)
        if not gone:
            return
        with self._cond:
            kept = [u for u in self._line if u.slot not in gone]
            self.dropped += len(self._line) - len(kept)
            self._line = kept

    def prepare(self, volume: int) -> None:
        """Draw the cues at ``volume`` while nothing waits (the first of each
        then sounds at once, even on a slow Pi)."""
        with self._cond:
            self._warm = volume
            self._cond.notify_all()

    @property
    def fault(self) -> str | None:
        """What keeps the board from sounding now, or None."""
        with self._cond:
            return joined(list(self._faults.values()), "; ") or None

    def state(self) -> dict[str, Any]:
        """The worker's figures and fault, JSON-ready."""
        with self._cond:
            return {
                "fault": joined(list(self._faults.values()), "; ") or None,
                "waiting": len(self._line),
                "played": self.played,
                "dropped": self.dropped,
                "failed": self.failed,
                "cues_drawn": len(self._cues),
                "cached": len(self.cache),
                "cached_bytes": self.cache.bytes,
            }

    def idle(self, timeout: float) -> bool:
        """Wait until nothing waits or plays (False after ``timeout`` s)."""
        with self._cond:
            return self._cond.wait_for(
                lambda: not self._line and not self._busy and self._warm is None, timeout
            )

    # -- the worker -------------------------------------------------------------------------
    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="boardctl-sound", daemon=True)
        self._thread.start()

    def close(self, timeout: float = 5.0) -> None:
        """Stop: what waits is dropped, what plays is cut short, the thread ends."""
        with self._cond:
            self._closed = True
            self._line.clear()
            self._cond.notify_all()
        self.output.stop()
        if self._thread is not None:
            self._thread.join(timeout)
            if self._thread.is_alive():
                log.warning("the sound worker did not stop within %.0f s", timeout)
        self.output.close()

    def __enter__(self) -> Speaker:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _run(self) -> None:
        while True:
            with self._cond:
                self._busy = False
                self._cond.notify_all()
                self._cond.wait_for(
                    lambda: self._closed or bool(self._line) or self._warm is not None
                )
                if self._closed:
                    return
                self._busy = True
                utterance = self._line.pop(0) if self._line else None
                warm, self._warm = (
                    (None, self._warm) if utterance is not None else (self._warm, None)
                )
            try:
                if utterance is not None:
                    self._utter(utterance)
                elif warm is not None:
                    self._draw_cues(warm)
            except Exception:  # a bug here must not end the board's sound for good
                log.exception("the sound worker failed on %r", utterance)
                self._fault("worker", "the sound worker failed: see the log")

    def _draw_cues(self, volume: int) -> None:
        for cue in Cue:
            if self._line or self._closed:
                return  # something to say: said first, the rest drawn when needed
            self._cue(cue.value, volume)

    def _utter(self, u: Utterance) -> None:
        if u.cue is not None:
            self._play(Clip("cue", u.cue, "", self._cue(u.cue, u.volume)))
        if u.text is not None and not self._closed:
            self._play(Clip("voice", u.text, u.language, self._render(u)))

    def _cue(self, name: str, volume: int) -> bytes:
        if volume != self._cue_volume:
            self._cues.clear()
            self._cue_volume = volume
        wav = self._cues.get(name)
        if wav is None:
            wav = self._cues[name] = wav_of(Cue(name), volume / 100)
        return wav

    def _render(self, u: Utterance) -> bytes:
        assert u.text is not None
        if self.voice is None:
            return b""
        voice = self.voice
        text = u.text
        try:
            wav = self.cache.get(
                (text, u.language, u.volume), lambda: voice.render(text, u.language, u.volume)
            )
        except AudioError as exc:
            self._fault("voice", said(exc))
            return b""  # the sentence is still handed on: the twin records it
        self._fault("voice", None)
        return wav

    def _play(self, clip: Clip) -> None:
        try:
            self.output.play(clip)
        except AudioError as exc:
            with self._cond:
                self.failed += 1
            self._fault("speaker", said(exc))
            return
        with self._cond:
            self.played += 1
        self._fault("speaker", None)

    def _fault(self, part: str, why: str | None) -> None:
        with self._cond:
            before = self._faults.get(part)
            if why is None:
                self._faults.pop(part, None)
            else:
                self._faults[part] = why
        if why is not None and why != before:
            log.warning("sound: %s", why)
        elif why is None and before is not None:
            log.info("sound: the %s works again", part)
