"""Audio output: the board's cues and voice, one interface and its backends.

- :mod:`.base`: :class:`Clip`, the :class:`AudioOutput` interface, WAV bytes;
- :mod:`.aplay`: the speaker, through ALSA's ``aplay`` (Debian's alsa-utils);
- :mod:`.espeak`: the voice, espeak-ng (Debian's package), offline;
- :mod:`.sim`: the recording twin, which keeps what would be played and said;
- :mod:`.worker`: the thread that renders and plays, apart from the loop.

:func:`open_speaker` chooses the output for ``[sound] device``.
"""

from __future__ import annotations

import logging

from boardctl.message import M_
from hardware.audio.aplay import AplayOutput, player, sound_cards
from hardware.audio.base import AudioError, AudioOutput, Clip
from hardware.audio.sim import Played, RecordingAudio
from hardware.audio.worker import Speaker, Utterance

__all__ = [
    "AplayOutput",
    "AudioError",
    "AudioOutput",
    "Clip",
    "Played",
    "RecordingAudio",
    "Speaker",
    "Utterance",
    "can_play",
    "open_speaker",
]

log = logging.getLogger(__name__)

#: ``[sound] device``: play where this machine has a sound card
AUTO = "auto"


def can_play() -> str | None:
    """Why this machine cannot play sound (no aplay, no sound card), or None."""
    if player() is None:
        return M_("aplay is not installed (sudo apt install alsa-utils)")
    if not sound_cards():
        return M_("this machine has no sound card")
    return None


def open_speaker(device: str) -> tuple[AudioOutput | None, str | None]:
    """The speaker ``device`` names, and a note when there is none: ``""`` is
    none on purpose; ``"auto"`` is ALSA's default device where the machine has
    a sound card and aplay (else none, with why); any other is that ALSA
    device, which must play (its faults are shown)."""
    if not device:
        return None, M_("no speaker: [sound] device is empty (the web pages may play the sound)")
    if device == AUTO:
        why = can_play()
        if why is not None:
            return None, M_("no speaker: {why} (the web pages may play the sound)", why=why)
        return AplayOutput("default"), None
    return AplayOutput(device), None
