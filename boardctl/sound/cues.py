"""The board's sound cues, drawn as tones.

Each cue is a few notes of sine tones with soft overtones, a quick attack and
a gentle decay, so that none clicks or shrills: a tick for an action accepted,
two falling low notes for a wrong board, two rising ones for a player's turn,
a questioning three for a choice, a bell for the computer's move, a rising
arpeggio for the end of a game. Rendered as 16-bit mono WAV at
:data:`RATE` by :func:`wav_of`; the web pages play the same notes
(:func:`notes_json`) with the browser's audio. Pure.
"""

from __future__ import annotations

import enum
import math
import struct
import sys
from array import array
from collections.abc import Sequence
from dataclasses import dataclass

#: samples per second of the cues (enough for their notes; small to keep)
RATE = 22050


class Cue(enum.Enum):
    """What a player must notice without looking."""

    #: the board's change was taken as an action
    ACCEPTED = "accepted"
    #: the board differs from the game: a piece is where it must not be
    WRONG = "wrong"
    #: a player at this board is to act
    YOUR_TURN = "your_turn"
    #: several actions fit the board: the players must choose
    CHOOSE = "choose"
    #: the computer's (or the other board's) move is ready to be made
    COMPUTER = "computer"
    #: the game is over
    WIN = "win"


@dataclass(frozen=True, slots=True)
class Note:
    """One tone: ``hz`` for ``seconds``, starting ``at`` seconds into the cue,
    at ``level`` (0 to 1) of the cue's loudness; ``overtones`` are the levels
    of the 2nd, 3rd... harmonics relative to the tone; ``ring`` is how long it
    takes to fade to a third (a bell rings longer than a tick)."""

    hz: float
    at: float
    seconds: float
    level: float = 1.0
    overtones: tuple[float, ...] = (0.25, 0.08)
    ring: float = 0.12


def _notes(*notes: Note) -> tuple[Note, ...]:
    return notes


C5, D5, E5, G5, A5 = 523.25, 587.33, 659.25, 783.99, 880.0
C6, E6 = 1046.5, 1318.5
G3, E3 = 196.0, 164.81

NOTES: dict[Cue, tuple[Note, ...]] = {
    Cue.ACCEPTED: _notes(Note(A5, 0.0, 0.09, 0.7, (0.15,), 0.05)),
    Cue.WRONG: _notes(
        Note(G3, 0.0, 0.16, 1.0, (0.5, 0.3, 0.15), 0.2),
        Note(E3, 0.17, 0.24, 1.0, (0.5, 0.3, 0.15), 0.2),
    ),
    Cue.YOUR_TURN: _notes(Note(C5, 0.0, 0.12, 0.8), Note(G5, 0.13, 0.2, 0.8)),
    Cue.CHOOSE: _notes(
        Note(E5, 0.0, 0.1, 0.7), Note(A5, 0.11, 0.1, 0.7), Note(E5, 0.22, 0.16, 0.7)
    ),
    Cue.COMPUTER: _notes(
        Note(A5, 0.0, 0.45, 0.7, (0.3, 0.1, 0.05), 0.25),
        Note(E6, 0.0, 0.45, 0.35, (0.2,), 0.2),
    ),
    Cue.WIN: _notes(
        Note(C5, 0.0, 0.12, 0.7),
        Note(E5, 0.12, 0.12, 0.7),
        Note(G5, 0.24, 0.12, 0.7),
        Note(C6, 0.36, 0.45, 0.8, (0.25, 0.08), 0.3),
    ),
}

#: the loudest a cue's samples get at full volume, of the 16-bit range
#: (headroom for overtones adding up)
PEAK = 0.5
#: the attack of every note, in seconds (no click)
ATTACK = 0.006


def duration(cue: Cue) -> float:
    """How long ``cue`` lasts, in seconds."""
    return max(n.at + n.seconds for n in NOTES[cue])


def samples(notes: Sequence[Note], volume: float, rate: int = RATE) -> array[int]:
    """The notes mixed as signed 16-bit samples at ``volume`` (0 to 1)."""
    length = round(max(n.at + n.seconds for n in notes) * rate) + 1
    mix = [0.0] * length
    for note in notes:
        start = int(note.at * rate)
        count = int(note.seconds * rate)
        partials = ((1, 1.0), *((k + 2, lv) for k, lv in enumerate(note.overtones)))
        norm = sum(lv for _, lv in partials)
        steps = [2 * math.pi * note.hz * k / rate for k, _ in partials]
        release = min(0.02, note.seconds / 3)
        for i in range(count):
            t = i / rate
            envelope = min(1.0, t / ATTACK) * math.exp(-t / note.ring)
            left = note.seconds - t
            if left < release:
                envelope *= left / release
            value = sum(lv * math.sin(st * i) for (_, lv), st in zip(partials, steps, strict=True))
            mix[start + i] += note.level * envelope * value / norm
    scale = 32767 * PEAK * max(0.0, min(1.0, volume))
    out = array("h", (max(-32768, min(32767, int(v * scale))) for v in mix))
    return out


def wav(pcm: array[int], rate: int = RATE) -> bytes:
    """Signed 16-bit mono samples as a WAV file's bytes."""
    if sys.byteorder == "big":
        pcm = array("h", pcm)
        pcm.byteswap()
    data = pcm.tobytes()
    header = struct.pack(
        "<4sI4s4sIHHIIHH4sI",
        b"RIFF",
        36 + len(data),
        b"WAVE",
        b"fmt ",
        16,
        1,  # PCM
        1,  # mono
        rate,
        rate * 2,
        2,
        16,
        b"data",
        len(data),
    )
    return header + data


def wav_of(cue: Cue, volume: float) -> bytes:
    """``cue`` as a WAV file's bytes at ``volume`` (0 to 1)."""
    return wav(samples(NOTES[cue], volume))


def notes_json() -> dict[str, list[dict[str, float]]]:
    """Every cue's notes, for the web pages to play with the browser's audio."""
    return {
        cue.value: [
            {
                "hz": n.hz,
                "at": n.at,
                "seconds": n.seconds,
                "level": n.level,
                "ring": n.ring,
            }
            for n in notes
        ]
        for cue, notes in NOTES.items()
    }
