"""The board's voice: espeak-ng (Debian's package), offline, one sentence at a time.

espeak-ng renders a sentence to WAV in a few milliseconds on a PC and well under
a second on a Raspberry Pi Zero 2 W, with no network and about 2 MB of voices.
The voice follows the board's language (:data:`VOICES`). It runs as a process
of its own for each sentence, with a time limit, so a voice that hangs costs
that sentence only.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Sequence

from boardctl.message import M_
from hardware.audio.base import AudioError, fixed

#: espeak-ng's voice for each of the board's languages
VOICES = {"en": "en", "de": "de", "fr": "fr-fr"}
#: the longest a sentence may take to render, in seconds
RENDER_SECONDS = 10.0
#: the longest sentence rendered, in characters
MAX_TEXT = 300
#: espeak-ng's speed, in words per minute (its own default is 175; slower is
#: clearer across a room)
SPEED = 150


def installed() -> str | None:
    """The path of ``espeak-ng``, or None where it is not installed."""
    return shutil.which("espeak-ng")


def voice_of(language: str) -> str:
    """espeak-ng's voice for a language code (``de``, ``fr_CH``, ``en-GB``)."""
    code = language.replace("_", "-").lower()
    return VOICES.get(code) or VOICES.get(code.split("-")[0]) or VOICES["en"]


class Espeak:
    """Renders sentences with ``command`` (``espeak-ng`` by default)."""

    def __init__(self, command: Sequence[str] | None = None, speed: int = SPEED) -> None:
        self.command = list(command) if command is not None else ["espeak-ng"]
        self.speed = speed

    def render(self, text: str, language: str, volume: int) -> bytes:
        """``text`` spoken in ``language`` at ``volume`` (0 to 100 %), as WAV bytes."""
        args = [
            *self.command,
            "-v",
            voice_of(language),
            "-s",
            str(self.speed),
            "-a",
            str(max(0, min(200, volume))),
            "--stdout",
        ]
        try:
            done = subprocess.run(
                args,
                input=text[:MAX_TEXT].encode("utf-8"),
                capture_output=True,
                timeout=RENDER_SECONDS,
                check=False,
            )
        except FileNotFoundError:
            raise AudioError(
                M_(
                    "{program} is not installed: install espeak-ng (sudo apt install"
                    " espeak-ng) for the voice, or turn the voice off",
                    program=self.command[0],
                )
            ) from None
        except subprocess.TimeoutExpired:
            raise AudioError(
                M_(
                    "{program} took over {seconds} s for one sentence",
                    program=self.command[0],
                    seconds=f"{RENDER_SECONDS:g}",
                )
            ) from None
        if done.returncode != 0:
            said = done.stderr.decode("utf-8", "replace").strip().splitlines()
            raise AudioError(
                M_(
                    "{program} failed ({why}): reinstall espeak-ng",
                    program=self.command[0],
                    why=f"exit status {done.returncode}" + (": " + said[-1][:200] if said else ""),
                )
            )
        return fixed(done.stdout)
