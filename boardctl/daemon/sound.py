"""The board's sound beside its LEDs: the loop's events heard, said apart.

:class:`Sounder` is one of the loop's watchers. On the loop's thread it only hands
each turn over (:mod:`.hearing`: in order, bounded, never waiting); on the
hearing's thread it hears the turn's status
(:func:`boardctl.sound.notices.listen`), makes the sentences in the board's
language, keeps the last few for the web pages (which may play them on a
phone: ``heard`` in the state they are pushed) and hands each to the audio
worker (:class:`hardware.audio.Speaker`), which renders and plays on a thread
of its own. It is a context manager: the hearing runs from :meth:`start`
until :meth:`close`.

The settings in force are the configuration's ``[sound]``, or an operator's,
set with the control socket's ``sound`` command (the operator page, ``boardctl
sound``) and kept in the game database across restarts. During the quiet hours
nothing is played or said; until the system clock is synchronised the hours
cannot be told, and the board sounds as in the day.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from datetime import datetime
from typing import Any, Protocol

from boardctl import i18n
from boardctl.controller.lighting import Keeper
from boardctl.controller.present import Status
from boardctl.controller.store import StoreError
from boardctl.daemon.hearing import Hearing, Turn
from boardctl.engines import BoardSpec, Engine
from boardctl.sound import phrases
from boardctl.sound.cues import Cue
from boardctl.sound.notices import Board, Heard, listen, passed
from boardctl.sound.settings import KEYS, SoundError, SoundSettings
from hardware.audio import Speaker, Utterance
from hardware.audio.base import AudioError
from hardware.audio.worker import Cache, Voice

log = logging.getLogger(__name__)

#: the sentences and cues kept for the web pages (the newest)
RECENT = 8
#: the slot of an operator's check of the speaker
CHECK = "check"


class Sensed(Protocol):
    """The board as the sensors see it: a piece code by site."""

    @property
    def sensed(self) -> Mapping[str, str]: ...


class Watched(Protocol):
    """What the sounder reads of the controller, besides the turn's view: the
    game played (its players' and pieces' names) and the sensed board (which
    piece lies where it must not)."""

    @property
    def engine(self) -> Engine[Any, Any]: ...

    @property
    def board(self) -> Sensed: ...


class Sounder:
    """Hears the loop and speaks through ``speaker`` (None: no speaker on the
    board; the web pages may still play). ``local`` gives the local time,
    ``synchronised`` whether the system clock is set, ``language`` the board's
    language; ``keeper`` keeps an operator's settings; ``note`` says why
    there is no speaker."""

    def __init__(
        self,
        configured: SoundSettings,
        speaker: Speaker | None,
        *,
        local: Callable[[], datetime],
        synchronised: Callable[[], bool] = lambda: True,
        language: Callable[[], str] = lambda: i18n.DEFAULT,
        keeper: Keeper | None = None,
        note: str | None = None,
        device: str = "",
        voice: Voice | None = None,
    ) -> None:
        self.configured = configured
        self.settings = configured
        self.speaker = speaker
        self.local = local
        self.synchronised = synchronised
        self.language = language
        self.keeper = keeper
        self.note = note
        self.device = device
        self.heard: Heard | None = None
        #: how many notices were made (each one's number, for the pages)
        self.number = 0
        self.recent: deque[dict[str, Any]] = deque(maxlen=RECENT)
        #: renders the newest sentences for the web pages (their browser may have no voice)
        self.voice = voice
        self._lock = threading.Lock()  # the recent sounds, read by the web server's thread
        self._voiced = Cache(entries=RECENT)
        self._rendering = threading.Lock()
        self._boards: tuple[Any, Board] | None = None
        #: the loop's turns, heard on a thread of their own
        self.hearing = Hearing(self._hear_turn)
        #: called (on the hearing's thread) once new sounds are kept: the web
        #: pages' publisher reads the report again (``Publisher.refresh``)
        self.told: list[Callable[[], None]] = []
        kept = keeper.load() if keeper is not None else {}
        for key in KEYS:
            if f"sound.{key}" in kept:
                try:
                    self.settings = self.settings.changed({key: kept[f"sound.{key}"]}, configured)
                except SoundError as exc:
                    log.warning("a kept sound setting is not used: %s", exc)
        if speaker is not None:
            speaker.prepare(self.settings.volume)

    # -- the loop's watcher ---------------------------------------------------------
    def __call__(self, controller: Watched, view: Any, frame: Any) -> None:
        status = view.status
        if isinstance(status, Status):
            status.prepare()  # the engine is asked here, once per position
        self.hearing.hand(Turn(status, self._board(controller), view.phase.value))

    def start(self) -> None:
        self.hearing.start()

    def close(self) -> None:
        self.hearing.close()

    def __enter__(self) -> Sounder:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _hear_turn(self, turn: Turn) -> None:
        """Hear one turn handed over (the hearing's thread)."""
        if turn.unheard is not None:
            self.heard = passed(self.heard, turn.unheard)
        self.hear(turn.status, turn.board)

    def hear(self, status: Mapping[str, Any], board: Board) -> None:
        """Hear one turn's status: what is due is said (unless quiet), what is
        over is withdrawn."""
        self.heard, notices = listen(self.heard, status, board)
        if self.speaker is not None:
            self.speaker.withdraw(self.heard.over)
        s = self.settings
        if not notices or not (s.cues or s.voice) or self.quiet():
            return
        language = self.language()
        said = []
        with i18n.language(language):
            for notice in notices:
                cue = notice.cue.value if notice.cue is not None and s.cues else None
                text = notice.phrase.text() if notice.phrase is not None and s.voice else None
                if cue is not None or text is not None:
                    said.append(Utterance(notice.slot, cue, text, language, s.volume))
        self._say(*said)

    def _say(self, *utterances: Utterance) -> None:
        """Keep ``utterances`` for the pages and hand them to the worker, at once."""
        with self._lock:
            for utterance in utterances:
                self.number += 1
                self.recent.append(
                    {
                        "n": self.number,
                        "cue": utterance.cue,
                        "text": utterance.text,
                        "language": utterance.language,
                        "volume": utterance.volume,
                    }
                )
        if self.speaker is not None and utterances:
            self.speaker.say(*utterances)
        if utterances:
            for tell in self.told:
                tell()

    def _board(self, controller: Watched) -> Board:
        """The names the sentences use, for the game played now (worked out
        once per game), and what the sensors see."""
        engine = controller.engine
        if self._boards is None or self._boards[0] is not engine:
            spec = engine.board()
            self._boards = (
                engine,
                Board(players=tuple(p.name for p in spec.players), pieces=_Names(spec)),
            )
        names = self._boards[1]
        return Board(names.players, names.pieces, controller.board.sensed)

    def quiet(self) -> bool:
        """Whether the quiet hours hold now (never while the clock is unset)."""
        quiet = self.settings.quiet
        if quiet.always or not self.synchronised():
            return False
        t = self.local()
        return self.settings.silent_at(t.weekday(), t.hour * 60 + t.minute)

    # -- what the pages and the status read -----------------------------------------
    def report(self) -> dict[str, Any]:
        """The settings in force, the speaker's fault and the newest sounds
        (any thread; returns at once)."""
        with self._lock:
            heard = list(self.recent)
        out: dict[str, Any] = {
            **self.settings.json(),
            "speaker": self.speaker is not None,
            "heard": heard,
        }
        fault = self.speaker.fault if self.speaker is not None else None
        if fault is not None:
            out["fault"] = fault
        elif self.note is not None:
            out["note"] = self.note
        return out

    def voiced(self, number: int) -> bytes | None:
        """The sentence of the newest sound ``number`` as WAV bytes, for a web
        page whose browser has no voice of the board's language; None when it
        is not among the newest, has no words, or cannot be rendered. Called
        on the web server's helper thread; each sentence rendered once."""
        with self._lock:
            item = next((h for h in self.recent if h["n"] == number), None)
        voice = self.voice
        if item is None or not item["text"] or voice is None:
            return None
        text, language, volume = item["text"], item["language"], item["volume"]
        try:
            with self._rendering:  # not the loop's lock: the loop never waits for a render
                return self._voiced.get(
                    (text, language, volume), lambda: voice.render(text, language, volume)
                )
        except AudioError as exc:
            log.warning("sound: the pages' voice: %s", exc)
            return None

    # -- an operator's command ------------------------------------------------------------
    def command(self, body: Mapping[str, Any], now: float) -> dict[str, Any]:
        """``sound``: read the settings, set some (null: the configuration's
        again), or ``"check": true`` to hear a cue and a sentence at once."""
        # "language" asks for the answer's words (the control socket translates them)
        changes = {k: v for k, v in body.items() if k not in ("cmd", "check", "language")}
        settings = self.settings.changed(changes, self.configured)
        for key in KEYS:
            if key in changes:
                value = changes[key]
                self._keep(key, None if value is None else settings.json()[key])
        if settings != self.settings:
            log.info("sound: %s", settings.json())
            if self.speaker is not None and settings.volume != self.settings.volume:
                self.speaker.prepare(settings.volume)
        self.settings = settings
        if body.get("check") is not None:
            if not isinstance(body["check"], bool):
                raise SoundError("check must be true or false")
            if body["check"]:
                self.check()
        return {"sound": self.answer()}

    def check(self) -> None:
        """A cue and a sentence, whatever the settings and the hours: an
        operator's check of the speaker."""
        language = self.language()
        with i18n.language(language):
            text = phrases.check()
        self._say(
            Utterance(CHECK, Cue.YOUR_TURN.value, text, language, max(self.settings.volume, 30))
        )

    def answer(self) -> dict[str, Any]:
        """What ``sound`` answers: the settings in force and configured, the
        speaker and the worker's figures."""
        out = self.report()
        out.pop("heard")
        out["device"] = self.device
        out["quiet_now"] = self.quiet()
        out["clock_synchronised"] = self.synchronised()
        out["configured"] = self.configured.json()
        if self.speaker is not None:
            out["worker"] = self.speaker.state()
        return out

    def _keep(self, key: str, value: Any) -> None:
        if self.keeper is None:
            return
        try:
            self.keeper.save(f"sound.{key}", value)
        except StoreError as exc:
            raise SoundError(f"{exc}; the setting is not changed") from None


class _Names(Mapping[str, str]):
    """The pieces' names by code, each made when a sentence asks for it (Linie 1
    has thousands: :meth:`BoardSpec.named`)."""

    def __init__(self, spec: BoardSpec) -> None:
        self._spec = spec

    def __getitem__(self, code: str) -> str:
        if self._spec.piece(code) is None:
            raise KeyError(code)
        return self._spec.named(code)

    def __iter__(self) -> Iterator[str]:
        return (p.code for p in self._spec.pieces)

    def __len__(self) -> int:
        return len(self._spec.pieces)
