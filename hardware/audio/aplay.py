"""The board's speaker, through ALSA's own player, ``aplay`` (Debian's alsa-utils).

Each clip is handed to a fresh ``aplay`` on its standard input. The player is
a process of its own: a sound card that hangs or a player that crashes costs
that clip, never the daemon, and :meth:`AplayOutput.stop` ends it at once. No
Python audio library is needed (their ALSA bindings compile against the
system's headers, or are not kept up): aplay is on every Raspberry Pi OS and
Debian with a sound card.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import threading
from collections.abc import Sequence
from pathlib import Path

from boardctl.message import M_
from hardware.audio.base import AudioError, Clip

log = logging.getLogger(__name__)

#: the longest a clip may play beyond its own length, in seconds
SLACK = 5.0
#: how much of the player's complaint an error quotes
MAX_COMPLAINT = 200
#: where the kernel lists the sound cards
CARDS = Path("/proc/asound/cards")


def player() -> str | None:
    """The path of ``aplay``, or None where alsa-utils is not installed."""
    return shutil.which("aplay")


def sound_cards(cards: Path = CARDS) -> list[str]:
    """The sound cards the kernel has, by name (none: no speaker can play)."""
    try:
        text = cards.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    names = []
    for line in text.splitlines():
        head, sep, rest = line.partition("]:")
        if sep and head.strip()[:1].isdigit():
            names.append(rest.strip())
    return names


class AplayOutput:
    """Plays clips on ALSA ``device`` ("default": the system's own) with
    ``command`` (``aplay``, or another player taking the same arguments)."""

    def __init__(self, device: str = "default", command: Sequence[str] | None = None) -> None:
        self.device = device
        self.command = list(command) if command is not None else ["aplay"]
        self._lock = threading.Lock()
        self._running: subprocess.Popen[bytes] | None = None
        self._stopped = False
        #: the clip playing was cut short on purpose (:meth:`stop`): not a fault
        self._cut = False

    def play(self, clip: Clip) -> None:
        if not clip.wav:
            return
        args = [*self.command, "-q", "-D", self.device, "-"]
        with self._lock:
            if self._stopped:
                return
            try:
                proc = subprocess.Popen(
                    args,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.PIPE,
                    close_fds=True,
                )
            except FileNotFoundError:
                raise AudioError(
                    M_(
                        "{program} is not installed: install alsa-utils"
                        ' (sudo apt install alsa-utils), or set [sound] device = "" for no speaker',
                        program=self.command[0],
                    )
                ) from None
            except OSError as exc:
                raise AudioError(
                    M_("{program} cannot start: {why}", program=self.command[0], why=str(exc))
                ) from None
            self._running = proc
            self._cut = False
        try:
            _, err = proc.communicate(clip.wav, timeout=clip.seconds + SLACK)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            raise AudioError(
                M_(
                    "{program} hung playing on {device}: check the speaker and"
                    " `aplay -l`; it is tried again with the next sound",
                    program=self.command[0],
                    device=repr(self.device),
                )
            ) from None
        finally:
            with self._lock:
                self._running = None
        if proc.returncode and not (self._stopped or self._cut):
            raise AudioError(self._complaint(proc.returncode, err))

    def _complaint(self, code: int, err: bytes) -> str:
        lines = [ln for ln in err.decode("utf-8", "replace").splitlines() if ln.strip()]
        said = lines[-1].strip() if lines else ""
        if len(said) > MAX_COMPLAINT:
            said = said[: MAX_COMPLAINT - 3] + "..."
        how = f"stopped by signal {-code}" if code < 0 else f"exit status {code}"
        if "audio open error" in said or "No such" in said or "Unknown PCM" in said:
            return M_(
                "no speaker on ALSA device {device} ({said}): plug in a speaker, check"
                " `aplay -l`, or set [sound] device",
                device=repr(self.device),
                said=said,
            )
        return M_(
            "{program} failed on {device} ({how})",
            program=self.command[0],
            device=repr(self.device),
            how=how + (": " + said if said else ""),
        )

    def stop(self) -> None:
        """End the clip being played (from any thread)."""
        with self._lock:
            proc = self._running
            self._cut = proc is not None
        if proc is not None and proc.poll() is None:
            proc.kill()

    def close(self) -> None:
        with self._lock:
            self._stopped = True
        self.stop()
