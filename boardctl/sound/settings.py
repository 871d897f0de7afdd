"""The sound's settings: cues and voice on or off, the volume, the quiet hours.

The configuration's ``[sound]`` gives them; an operator changes them while the
board runs (``{"cmd": "sound", "voice": true}``; :meth:`SoundSettings.changed`
checks each value and says what to give instead). Quiet hours are written as
opening hours are (:mod:`boardctl.controller.hours`): during them the board
neither plays a cue nor speaks. Pure: the caller gives the day and the time.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from boardctl.controller.hours import HoursError, OpeningHours
from boardctl.errors import BoardctlError

#: no quiet hours
NEVER = OpeningHours()
#: what an operator may change, and nothing else
KEYS = ("cues", "voice", "volume", "quiet")


class SoundError(BoardctlError, ValueError):
    """A sound setting that cannot be taken (the message says what to give)."""


@dataclass(frozen=True, slots=True)
class SoundSettings:
    """What the board plays: ``cues`` (short sounds), ``voice`` (sentences),
    at ``volume`` (0 to 100 %), except during the ``quiet`` hours."""

    cues: bool = True
    voice: bool = False
    volume: int = 70
    quiet: OpeningHours = NEVER

    def silent_at(self, day: int, minute: int) -> bool:
        """Whether the quiet hours hold on ``day`` (0 Monday) at ``minute`` after midnight."""
        return not self.quiet.always and self.quiet.open_at(day, minute)

    def changed(self, body: Mapping[str, Any], configured: SoundSettings) -> SoundSettings:
        """These settings with ``body``'s values; a value of None is the
        configuration's (``configured``) again."""
        unknown = sorted(set(body) - set(KEYS))
        if unknown:
            raise SoundError(f"the sound's settings are {', '.join(KEYS)}, not {unknown[0]!r}")
        out = self
        for key in KEYS:
            if key not in body:
                continue
            value = body[key]
            if value is None:
                out = replace(out, **{key: getattr(configured, key)})
            else:
                out = replace(out, **{key: check(key, value)})
        return out

    def json(self) -> dict[str, Any]:
        return {
            "cues": self.cues,
            "voice": self.voice,
            "volume": self.volume,
            "quiet": str(self.quiet),
        }


def check(key: str, value: Any) -> Any:
    """One setting's value, checked (:class:`SoundError` says what to give)."""
    if key in ("cues", "voice"):
        if not isinstance(value, bool):
            raise SoundError(f"{key} must be true or false, not {_shown(value)}")
        return value
    if key == "volume":
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 100:
            raise SoundError(
                f"volume must be a whole number from 0 to 100 (%), not {_shown(value)}"
            )
        return value
    if key == "quiet":
        if not isinstance(value, str):
            raise SoundError('quiet must be text like "22:00-08:00", or "" for never quiet')
        try:
            return OpeningHours.parse(value)
        except HoursError as exc:
            raise SoundError(f"quiet hours: {exc}") from None
    raise SoundError(f"the sound's settings are {', '.join(KEYS)}, not {key!r}")


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
