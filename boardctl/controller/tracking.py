"""Tracking the board: what its sensors read, what that says about the game,
and how far to trust it.

A :class:`BoardTracker` keeps the raw readings, the layout they sense, when
the board last changed (so that the controller acts only on a settled board),
the light-gate pulses seen since the last action, and the verdict of
reconciliation. It also remembers what makes a board untrustworthy for a
while: a board not yet set up for a new game, a board not yet matched after a
restart, a board that still shows actions an operator undid. Pure: every
method is given the time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from boardctl.board import BoardProfile, Reports
from boardctl.controller.reconcile import (
    InProgress,
    Key,
    Played,
    Reconciler,
    Takeback,
    Verdict,
    Waiting,
    Wrong,
    diff_sites,
    layout_key,
)
from boardctl.sensing import SensorChange

#: seconds within which a deadline counts as reached (float rounding, no more)
SLACK = 1e-6
#: the most times a settled wrong board is split at to be read in time order
SPLITS = 8


class BoardTracker:
    """The board of ``profile`` as its sensors report it. ``set_up``: the
    board has already shown the start layout of this game (a resumed game
    with actions has)."""

    def __init__(self, profile: BoardProfile, *, set_up: bool = False) -> None:
        self.profile = profile
        self.values: list[int] = [0] * profile.channel_count
        self._pulse_channels = {
            s.channel: s.name
            for s in profile.sites
            if s.reports is Reports.PULSE and s.channel is not None
        }
        #: channel -> the cells it reads (a change is read there alone)
        self._cells_of: dict[int, list[str]] = {}
        for site in profile.sites:
            if site.channel is not None and site.reports not in (Reports.PULSE, Reports.NONE):
                self._cells_of.setdefault(site.channel, []).append(site.name)
        self.sensed: dict[str, str] = {}
        #: pulse site -> when it fired, since the last action
        self.pulses: dict[str, float] = {}
        self.changed_at = 0.0
        #: site -> when its reading last changed
        self.site_changed: dict[str, float] = {}
        self.activity_at = 0.0
        self.have_snapshot = False
        #: whether the verdict is the thorough one of a settled board
        self.deep_done = False
        self.verdict: Verdict = Waiting()
        #: a board refused as a move until it changes (it shows an undone action)
        self.blocked: Key | None = None
        #: the actions an operator undid while the board still showed them, in
        #: the order undone (the last played first), until the board is put right
        self.undone: tuple[str, ...] = ()
        #: False after a resume or a resync until the board has matched the game
        #: once: until then an earlier position is a board to restore, not a takeback
        self.trusted = False
        #: whether the board has shown the start layout since this game began:
        #: until then no action is accepted and the board is one to set up
        self.set_up = set_up
        #: the game moved without the board (an operator chose an option the
        #: board does not show yet): until the board matches, it is one to put right
        self.behind = False

    # -- readings ------------------------------------------------------------
    def snapshot(self, values: Sequence[int], now: float) -> None:
        """All readings at once (the link came up, or an audit)."""
        got = list(values[: len(self.values)])
        self.values = got + [0] * (len(self.values) - len(got))
        self.have_snapshot = True
        self._sense(now)

    def change(self, event: SensorChange, now: float) -> bool:
        """One reading changed; True when what the board says may have changed."""
        if not 0 <= event.channel < len(self.values):
            return False
        self.activity_at = now
        pulse = self._pulse_channels.get(event.channel)
        if pulse is not None:
            if event.value:
                self.pulses[pulse] = now
                return True
            return False
        if self.values[event.channel] == event.value:
            return False
        self.values[event.channel] = event.value
        # only the cells this channel reads can have changed
        sensed: dict[str, str] | None = None
        for site in self._cells_of.get(event.channel, ()):
            piece = self.profile.sensed_piece(site, event.value)
            if piece != self.sensed.get(site):
                if sensed is None:
                    sensed = dict(self.sensed)
                if piece is None:
                    del sensed[site]
                else:
                    sensed[site] = piece
                self.site_changed[site] = now
        if sensed is not None:
            self._sensed(sensed, now)
        return True

    def _sense(self, now: float) -> None:
        sensed = self.profile.sensed_layout(tuple(self.values))
        if sensed != self.sensed:
            for site in sensed.keys() | self.sensed.keys():
                if sensed.get(site) != self.sensed.get(site):
                    self.site_changed[site] = now
            self._sensed(sensed, now)

    def _sensed(self, sensed: dict[str, str], now: float) -> None:
        """The board now shows ``sensed`` (the sites that changed noted)."""
        self.sensed = sensed
        self.changed_at = now
        self.activity_at = now
        if self.blocked is not None and layout_key(sensed) != self.blocked:
            self.blocked = None

    def lost(self) -> None:
        """The sensors stopped answering: the next snapshot is a resync."""
        self.have_snapshot = False
        self.trusted = False

    def forget_pulses(self, now: float, memory: float) -> bool:
        """Forget pulses older than ``memory`` seconds; True if any was."""
        if not self.pulses:
            return False
        stale = [p for p, t in self.pulses.items() if now - t >= memory]
        for p in stale:
            del self.pulses[p]
        return bool(stale)

    def settle_time(self, settle: float, gated: float) -> float:
        """How long the board must stay still before its verdict is acted on:
        ``gated`` when it shows actions each of which broke a
        light gate on its way since the last action (marbles pushed in: the
        gate is the hand's evidence, so nothing is left to wait for but the
        marbles' bounce), ``settle`` for everything else (a piece set
        down may yet be slid on; a sleeve over an empty entry cell breaks no
        gate)."""
        verdict, pulses = self.verdict, self.pulses
        if (
            pulses
            and isinstance(verdict, Played)
            and all(option.touched & pulses.keys() for option in verdict.path)
        ):
            return min(gated, settle)
        return settle

    def settled_for(self, now: float, settle: float, gated: float) -> float:
        """How long the board has been still beyond its settle time
        (:meth:`settle_time` of ``settle`` and ``gated``; negative: not yet).
        A time within :data:`SLACK` of a deadline counts as reached: the
        loop wakes at deadlines computed as sums (:meth:`Controller.next_deadline`),
        which float rounding may land a hair before the difference computed here."""
        if self.pulses:  # without a pulse the settle time is ``settle``
            settle = self.settle_time(settle, gated)
        return now - self.changed_at - settle + SLACK

    # -- what it says ------------------------------------------------------------
    def judge(self, reconciler: Reconciler, states: Sequence[Any], *, deep: bool) -> None:
        """Reconcile the sensed board with the game whose states are ``states``."""
        self.deep_done = deep
        if self.blocked is not None:
            self.verdict = self.to_restore(reconciler, states[-1])
            return
        verdict = reconciler.reconcile(
            states, self.sensed, self.pulses, deep=deep, changed=self.site_changed
        )
        if isinstance(verdict, Waiting):
            self.trusted = True
            self.set_up = True
            self.behind = False
            self.undone = ()
        elif not self.set_up or self.behind or (isinstance(verdict, Takeback) and not self.trusted):
            verdict = self.to_restore(reconciler, states[-1])
        elif isinstance(verdict, Wrong) and self.undone:
            verdict = replace(verdict, undone=self.undone)
        self.verdict = verdict

    def first_in_time(self, reconciler: Reconciler, states: Sequence[Any]) -> Played | None:
        """A settled board that no action or chain explains may still be
        actions made less than the settle time apart by two players (two
        sticks laid together, one at each end of the line): the sites that
        changed first, the others as they were, show one action, and the
        whole board shows the next one after it. That first action (the
        rest is then judged after it), or None. Never on a board refused as
        a move (it shows actions an operator undid), not yet set up, or
        behind the game."""
        if self.blocked is not None or not self.set_up or self.behind:
            return None
        expected = reconciler.expect(states[-1]).layout
        diff = diff_sites(self.sensed, expected)
        when = self.site_changed
        times = sorted({when.get(s, 0.0) for s in diff})
        for cut in times[:-1][:SPLITS]:
            early = dict(self.sensed)
            for site in diff:
                if when.get(site, 0.0) > cut:
                    if site in expected:
                        early[site] = expected[site]
                    else:
                        early.pop(site, None)
            found = reconciler.reconcile(states, early, self.pulses, deep=True, changed=when)
            if not isinstance(found, Played):
                continue
            after = [*states, *(o.state for o in found.path)]
            rest = reconciler.reconcile(after, self.sensed, self.pulses, deep=True, changed=when)
            if isinstance(rest, Played):
                return found
        return None

    def to_restore(self, reconciler: Reconciler, state: Any) -> Wrong:
        """The board as one to put right: what it holds that ``state`` does
        not, what it must get back, and the actions an operator undid that it
        still shows."""
        expected = reconciler.expect(state).layout
        diff = diff_sites(self.sensed, expected)
        return Wrong(
            frozenset(s for s in diff if reconciler.extra(self.sensed.get(s), expected.get(s))),
            {s: expected[s] for s in sorted(diff) if s in expected},
            self.undone,
        )

    def restore_hints(self, reconciler: Reconciler, state: Any) -> frozenset[str]:
        """The sites where the board differs from ``state``."""
        return frozenset(diff_sites(self.sensed, reconciler.expect(state).layout))

    # -- after the game moved ------------------------------------------------------
    def played(self) -> None:
        """Actions were played: the pulses that led to them and the undone
        actions are spent. A gate breaks before the cells behind it change, so
        a pulse that fired after the board's last change is no part of what was
        played: it belongs to the next move (a quick player's push breaking its
        gate before the last one was committed), and is kept."""
        self.pulses = {p: t for p, t in self.pulses.items() if t > self.changed_at}
        self.undone = ()

    def stalled(self, reconciler: Reconciler, state: Any, now: float, limit: float) -> bool:
        """A board on its way to an action that has not changed for ``limit``
        seconds is not on its way: a marble in transit stops, a piece carried
        is put down. It is one to put right (a marble knocked along a track, a
        wrong colour pushed in behind the same colour look like a move under
        way for as long as they stay); a piece half built by a legal action
        is not to be taken away but finished (a tile whose stop sign is still
        looked for). True when it was judged so."""
        if not isinstance(self.verdict, InProgress) or now - self.changed_at < limit:
            return False
        wrong = replace(reconciler.wrong(state, self.sensed), undone=self.undone)
        if not (wrong.offending or wrong.restore):
            return False  # only a gate broke: the pulse is forgotten in its time
        self.verdict = wrong
        return True

    def refuse(self, expected: Key, undone: tuple[str, ...] = (), *, behind: bool = False) -> None:
        """The game moved without the board (an operator's undo or choice):
        refuse the board as it stands as a move until it changes, unless it
        already shows ``expected``. ``undone`` are the texts of the actions
        undone, which the board still shows; ``behind``: accept no move at all
        until the board has shown ``expected``."""
        self.pulses.clear()
        key = layout_key(self.sensed)
        self.behind = behind and key != expected
        if key != expected:
            # undone again on the same board: it shows those actions too
            earlier = self.undone if self.blocked == key else ()
            self.blocked = key
            self.undone = (*earlier, *undone)
        else:
            self.blocked = None
            self.undone = ()

    def release(self) -> None:
        """Actions were taken back by the board itself: it is refused no more."""
        self.pulses.clear()
        self.blocked = None
        self.behind = False
        self.undone = ()

    def new_game(self) -> None:
        """A new game begins: nothing is trusted until the board is set up."""
        self.pulses.clear()
        self.blocked = None
        self.undone = ()
        self.trusted = False
        self.set_up = False
        self.behind = False
