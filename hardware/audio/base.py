"""What every audio backend shares: the clip, the output's interface, WAV bytes.

An :class:`AudioOutput` plays one :class:`Clip` at a time and returns when it
has been played (or raises :class:`AudioError` saying why not: no speaker, a
player that crashed); :meth:`AudioOutput.stop` cuts short the clip being
played, from another thread. The worker (:mod:`.worker`) is the only caller,
on a thread of its own: never the loop's.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Protocol

from boardctl.message import M_
from hardware.errors import HardwareError

#: a WAV header's size, before the samples (the canonical 44-byte header)
HEADER = 44


class AudioError(HardwareError):
    """A clip that could not be rendered or played: the message says why and
    what to do (plug in a speaker, install a package)."""


@dataclass(frozen=True, slots=True)
class Clip:
    """One sound to play: a ``cue`` by its name, or a ``voice`` saying ``text``
    in ``language``; ``wav`` holds its bytes (empty where no voice renders)."""

    kind: str
    text: str
    language: str = ""
    wav: bytes = field(default=b"", repr=False)

    @property
    def seconds(self) -> float:
        """How long it plays (0 for an empty clip)."""
        return wav_seconds(self.wav)


class AudioOutput(Protocol):
    """A speaker, a recording twin, or both."""

    def play(self, clip: Clip) -> None: ...

    def stop(self) -> None: ...

    def close(self) -> None: ...


def wav_seconds(data: bytes) -> float:
    """The length of a 16-bit PCM WAV file's sound, from its bytes."""
    fmt = _chunk(data, b"fmt ")
    samples = _chunk(data, b"data")
    if fmt is None or samples is None or len(fmt) < 16:
        return 0.0
    channels, rate, _, align = struct.unpack_from("<HIIH", fmt, 2)
    if not rate or not align:
        return 0.0
    return len(samples) / (rate * align) if channels else 0.0


def fixed(data: bytes) -> bytes:
    """A WAV file written to a pipe (whose header says "unknown length", as
    espeak-ng's ``--stdout`` does) with its lengths set to what it holds."""
    fmt = _chunk(data, b"fmt ")
    samples = _chunk(data, b"data")
    if fmt is None or samples is None:
        raise AudioError(M_("the voice gave no sound (no WAV data): reinstall espeak-ng"))
    fmt = fmt[:16]
    return (
        struct.pack("<4sI4s4sI", b"RIFF", 4 + 8 + len(fmt) + 8 + len(samples), b"WAVE", b"fmt ", 16)
        + fmt
        + struct.pack("<4sI", b"data", len(samples))
        + samples
    )


def _chunk(data: bytes, name: bytes) -> bytes | None:
    """A RIFF chunk's body (a ``data`` chunk of unknown length runs to the end)."""
    if data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        return None
    at = 12
    while at + 8 <= len(data):
        tag, size = struct.unpack_from("<4sI", data, at)
        body = data[at + 8 : at + 8 + size]
        if tag == name:
            return body
        at += 8 + size + (size & 1)
    return None
