"""The newest action read off the board, amendable for a moment.

An action is recorded and shown once the board has been still for the short
settle time (:attr:`~.phases.Timing.settle`), so the LEDs answer the hand at
once. A hand is not always done when it is still for that long: a disc set
down may yet be slid on to the next cell, and a sleeve passing over an empty
entry cell reads as a marble for a moment. So the newest action stays
amendable while the board changes again within
:attr:`~.phases.Timing.amend` seconds of the reading that completed it:

* if the board then settles as the position before that action with another
  action made (the disc slid on), the action is amended: taken back and the
  action the hand finished played in its place;
* if it settles as the position before that action (the sleeve has passed),
  the action is withdrawn at once, with no takeback offered;
* if it settles as anything the game after the action explains (the next
  action of the turn, the next player's move, or one on its way: a piece
  lifted to be moved on), nothing is amended.

Once the window has passed with the board unchanged, or the board went on,
the action is final as any other.

A power cut may fall inside the window: the record then keeps the action
shown first while the board shows the one the hand finished. A game resumed
with actions reads its first settled board once as the window would have
(:meth:`Amendable.on_resume`): another action in place of the record's last
one amends it. The position before that action is not a withdrawal then: a
board read before it matched the resumed game never takes an action back by
itself (a piece may have been knocked off while the power was off), it is a
board to put right.

Pure: given the times, the states and the verdicts, :meth:`Amendable.follow`
answers how many actions to take back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from boardctl.controller.reconcile import InProgress, Played, Verdict, Waiting


@dataclass(frozen=True, slots=True)
class Amendable:
    """The newest actions read off the board, while they may be amended."""

    #: the game's states up to the first of them (its position before)
    before: tuple[Any, ...]
    #: the actions recorded, in order
    actions: tuple[Any, ...]
    #: the state they led to (the window closes once the game leaves it)
    after: Any
    #: when they were recorded
    at: float
    #: the board's changes until then amend them (the last reading that
    #: completed them + :attr:`~.phases.Timing.amend`)
    until: float
    #: the board changed again within the window: amendable until it settles
    moved: bool = False
    #: opened on a resumed game's record: an amendment only, never a withdrawal
    resumed: bool = False

    @classmethod
    def on_resume(cls, states: tuple[Any, ...], actions: tuple[Any, ...]) -> Amendable:
        """The last of a resumed game's ``actions`` (``states`` its states, the
        first before any action), amendable until the board first settles."""
        return cls(states[:-1], actions[-1:], states[-1], 0.0, 0.0, moved=True, resumed=True)

    def moved_on(self) -> Amendable:
        """This window once the board changed again within it (made directly:
        ``dataclasses.replace`` costs ten calls, on the first change of every
        move)."""
        return Amendable(
            self.before, self.actions, self.after, self.at, self.until, True, self.resumed
        )

    def follow(
        self,
        state: Any,
        now: float,
        changed_at: float,
        settled: bool,
        verdict: Verdict,
        earlier: Callable[[], Verdict],
    ) -> tuple[Amendable | None, int]:
        """The window after this turn of the loop (None: closed), and how
        many actions to take back now (0: none). ``state`` is the game's
        state now, ``changed_at`` when the board last changed, ``settled``
        whether it has been still for the settle time since, ``verdict`` what
        it says of ``state``; ``earlier()`` judges it against :attr:`before`
        (asked only when needed)."""
        if state is not self.after:
            return None, 0  # the game moved on (an undo, a choice, the computer)
        window: Amendable = self
        if not self.moved:
            if changed_at <= self.at:
                return (None if now > self.until else self), 0
            if changed_at > self.until:
                return None, 0
            window = self.moved_on()
        if not settled:
            return window, 0
        if isinstance(verdict, Waiting | Played | InProgress):
            return None, 0  # the game after the action explains the board, or goes on
        found = earlier()
        if isinstance(found, Waiting):
            return None, 0 if self.resumed else len(self.actions)
        if isinstance(found, Played) and tuple(o.action for o in found.path) != self.actions:
            return None, len(self.actions)
        return None, 0
