"""A button that would end a game under way asks first.

One press of ``new`` or ``mode`` while a game is under way (an action played,
the game not over) ends nothing: it asks, and a second press of the same
button within :data:`CONFIRM_SECONDS` does it. Meanwhile the LEDs count the
time down (every site lit white, going out one by one) and the status says
what a second press will do (``confirm``), so the pages and the terminal say
it too. Another button, or the time running out, lets the question go. Pure:
the time is the loop's clock, handed in.
"""

from __future__ import annotations

from dataclasses import dataclass

from boardctl.message import M_, Message

#: how long a second press of the same button is waited for, in seconds
CONFIRM_SECONDS = 5.0

#: what a second press of each button does, in words (``{next}``: the game it starts)
_WORDS = {
    "new": M_("Press new game again within 5 seconds to end this game and start a new one."),
    "mode": M_("Press mode again within 5 seconds to end this game and start {next}."),
}


@dataclass(frozen=True, slots=True)
class Asking:
    """A press waiting for its second: the ``button``, the loop's time it
    lapses ``until``, and what a second press will do (``words``)."""

    button: str
    until: float
    words: str

    def lapsed(self, now: float) -> bool:
        return now >= self.until

    def left(self, now: float) -> float:
        """The share of the time still left, 1 at the press, 0 once lapsed."""
        return max(0.0, min(1.0, (self.until - now) / CONFIRM_SECONDS))


def ask(button: str, now: float, next_game: str = "") -> Asking:
    """The question a first press of ``button`` (``new`` or ``mode``) asks;
    ``next_game`` names the game the mode button would start
    (``Shiftago Express``)."""
    said = _WORDS[button]
    return Asking(button, now + CONFIRM_SECONDS, Message(said.msgid, {"next": next_game}))


def confirms(asking: Asking | None, button: str, now: float) -> bool:
    """Whether a press of ``button`` at ``now`` answers the question asked."""
    return asking is not None and asking.button == button and not asking.lapsed(now)
