"""The choice on offer: its options, the one picked with the buttons, and a
choice the board left open.

While the mover chooses (:mod:`.choosing` says what the options are), the
``mode`` or ``choose`` button steps a cursor through them and the option it
rests on for :attr:`~.phases.Timing.choose_hold` seconds is taken. A settled
board that several actions explain leaves the choice open: a further change
that only one of them explains (the next stick laid from where the first one
started) makes the choice. :class:`Choice` keeps both, and answers what the
controller then plays; the controller fires the machine. Pure.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from boardctl.controller.choosing import Offer, offers
from boardctl.controller.reconcile import (
    Ambiguous,
    Reconciler,
    Takeback,
    Verdict,
    Waiting,
    Wrong,
)
from boardctl.engines import Engine


class Choice:
    """The options of the choice open now, the cursor on them and the choice
    the board left open."""

    def __init__(self) -> None:
        #: the option the buttons picked while choosing, and when
        self.cursor: int | None = None
        self.cursor_at = 0.0
        self._offers: tuple[Any, Any, tuple[Offer, ...]] | None = None
        #: the options of a choice the board left open (several actions leave
        #: the same board), with the state they were offered in: a further
        #: change on the board that only one of them explains makes the choice
        self.open: tuple[Any, Ambiguous, tuple[Offer, ...]] | None = None

    def offers(
        self, engine: Engine[Any, Any], reconciler: Reconciler, state: Any, verdict: Verdict
    ) -> tuple[Offer, ...]:
        """The options open in ``state`` with the board judged ``verdict``
        (worked out once while the state and the verdict stand); other
        options than before let go of the one picked."""
        cached = self._offers
        if cached is None or cached[0] is not state or cached[1] is not verdict:
            found = offers(engine, reconciler, state, verdict)
            if cached is None or [o.text for o in found] != [o.text for o in cached[2]]:
                self.cursor = None  # other options: the one picked is gone
            cached = (state, verdict, found)
            self._offers = cached
        return cached[2]

    def step(self, options: tuple[Offer, ...], now: float) -> Offer | None:
        """The cursor on the next option of ``options`` (the first at first);
        None when there is nothing to choose."""
        if not options:
            return None
        self.cursor = 0 if self.cursor is None else (self.cursor + 1) % len(options)
        self.cursor_at = now
        return options[self.cursor]

    def let_go(self) -> None:
        """No option picked (the undo button while choosing, a new phase)."""
        self.cursor = None

    def closed(self) -> None:
        """The game moved (an action played or taken back): nothing is picked or open."""
        self.cursor = None
        self.open = None

    def confirmed(self, now: float, hold: float) -> bool:
        """An option picked and left alone for ``hold`` seconds: take it."""
        return self.cursor is not None and now - self.cursor_at >= hold

    def deadline(self, hold: float) -> float | None:
        """When the option picked is taken, if one is."""
        return None if self.cursor is None else self.cursor_at + hold

    def leave_open(self, state: Any, verdict: Ambiguous, options: tuple[Offer, ...]) -> None:
        """The settled board left a choice open in ``state``; kept until the
        game or the board goes on."""
        self.open = (state, verdict, options)

    def on_board(self, state: Any) -> bool:
        """Whether the board left the choice open in ``state``."""
        return self.open is not None and self.open[0] is state

    def follow(
        self,
        verdict: Verdict,
        state: Any,
        playable: bool,
        judge: Callable[[Offer], Verdict],
    ) -> tuple[Verdict, Offer | None]:
        """The verdict once a board that left a choice open in ``state`` has
        gone on, and the option the board shows, if just one (to play).

        A further change that one option explains plays it (``playable``:
        the machine may play an action now); one that several explain leaves
        the choice open with those; one that none explains is wrong by itself,
        the options' board being right (``judge`` judges the board after an
        option). The board shown back as before the choice closes it."""
        open_choice = self.open
        if open_choice is None:
            return verdict, None
        opened_in, ambiguous, options = open_choice
        if isinstance(verdict, Waiting) or opened_in is not state:
            self.open = None
            return verdict, None
        if not isinstance(verdict, Wrong) or not playable:
            return verdict, None
        judged = [judge(offer) for offer in options]
        explains = [n for n, v in enumerate(judged) if not isinstance(v, Wrong | Takeback)]
        if len(explains) == 1:
            return verdict, options[explains[0]]
        if explains:
            return Ambiguous(tuple(ambiguous.candidates[n] for n in explains)), None
        if isinstance(judged[0], Wrong):
            return replace(judged[0], undone=verdict.undone), None
        return verdict, None
