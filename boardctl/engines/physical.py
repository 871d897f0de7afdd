"""The game on a physical board: its sites and pieces, what lies where, what an
action touches, and how each action reaches the controller.

The profile checks (``hardware/profiles/games.py``) hold a board profile
against :meth:`PhysicalBoard.board`; the simulator's hands and the web pages
draw and move its pieces; the reconciler compares the sensed board with
:meth:`PhysicalBoard.layout`, goes from the sites that differ to the actions
that touch them and reads what each leaves on the sites it touches
(:meth:`PhysicalBoard.layout_after`); the controller's phases ask whether the
actor now picks among options lit side by side (:meth:`PhysicalBoard.choosing`)
rather than making a move the sensors read, and the reconciler leaves out the
actions a person must tell (:meth:`PhysicalBoard.told`).

Terms:

* **site**: a named place on the board that a sensor can watch (``"d4"``, a
  track ``"W3"``, an edge). ``sites()`` lists them all.
* **layout**: what lies on each occupied site, as piece codes (strings) chosen
  by the engine and declared in its :class:`~.describe.BoardSpec`. The
  controller compares layouts with what the sensors report.
"""

from __future__ import annotations

import abc
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Generic, TypeVar

from boardctl.engines.describe import BoardSpec

S = TypeVar("S")
A = TypeVar("A")


class PhysicalBoard(abc.ABC, Generic[S, A]):
    """The board a game is played on, and how its actions show on it."""

    @abc.abstractmethod
    def board(self) -> BoardSpec:
        """The board, pieces and players of this game with these options
        (built once: engines cache it)."""

    def piece_codes(self) -> frozenset[str]:
        """The codes of every piece of :meth:`board`: what the profile checks
        ask of every seat count. The default reads them off the board; an
        engine with thousands of pieces may name them without building each
        one's description, with the same answer."""
        return self.board().codes

    def sites(self) -> tuple[str, ...]:
        """Every site of the board, in a fixed order."""
        return self.board().site_names

    @abc.abstractmethod
    def layout(self, state: S) -> Mapping[str, str]:
        """The piece code on each occupied site."""

    def layout_on(self, state: S, sites: Iterable[str]) -> Mapping[str, str]:
        """:meth:`layout` on ``sites`` alone: the piece code on each of them
        that is occupied.

        The reconciler asks this after each action it tries, for the few
        sites the action touches. The default reads them off the whole
        layout; an engine whose layout is costly to build (hundreds of sites)
        overrides it, with the same answer."""
        layout = self.layout(state)
        return {s: layout[s] for s in sites if s in layout}

    def layout_after(self, state: S, action: A, sites: Iterable[str]) -> Mapping[str, str]:
        """:meth:`layout_on` ``sites`` once ``action`` is played in ``state``.

        The reconciler asks this of every action it tries on a changed
        board, for the sites the action touches; it needs the whole next
        state only for the action it reads as played. The default applies
        the action; an engine that can tell what lies on a few sites after
        an action without building the state it leaves (who acts next, the
        hands, the engine's indexes) overrides it, with the same answer."""
        return self.layout_on(self.apply_unchecked(state, action), sites)

    def touches(self, state: S, action: A) -> frozenset[str]:
        """The sites ``action`` (played in ``state``) touches: those whose
        content it changes, and any it is done through (a Shiftago track).

        The default compares the layouts before and after; an engine whose
        actions work through sites that hold no piece overrides it."""
        before = self.layout(state)
        after = self.layout(self.apply_unchecked(state, action))
        return frozenset(s for s in before.keys() | after.keys() if before.get(s) != after.get(s))

    def actions_touching(self, state: S, sites: frozenset[str]) -> Iterator[A]:
        """The legal actions that touch any of ``sites`` (see :meth:`touches`),
        in the order :meth:`legal_actions` lists them.

        The reconciler asks this for the sites where the board differs from
        the game, so a game with thousands of legal actions need not list them
        all. The default filters :meth:`legal_actions` by :meth:`touches`; an
        engine that can go from a site straight to its actions overrides it,
        with the same answer."""
        return (a for a in self.legal_actions(state) if self.touches(state, a) & sites)

    def highlight(self, state: S, action: A) -> frozenset[str]:
        """The sites to light when ``action`` is offered to the player (a
        track to push into, a cell to place on, a line to score): by default
        what it touches."""
        return self.touches(state, action)

    def highlighted(self, state: S) -> frozenset[str]:
        """The sites to light for every legal action (the legal moves shown
        while a player thinks): the union of each one's :meth:`highlight`.

        The default asks :meth:`highlight` of every legal action; an engine
        that keeps an index of its actions by site answers from it, with the
        same answer."""
        sites: set[str] = set()
        for action in self.legal_actions(state):
            sites |= self.highlight(state, action)
        return frozenset(sites)

    def choosing(self, state: S) -> bool:
        """Whether the actor now picks one of several options the LEDs show
        side by side (a scoring line), rather than making a move: the
        controller then lights every option's :meth:`highlight`."""
        return False

    def told(self, state: S, action: A) -> bool:
        """Whether ``action`` must be told to the controller by a person
        (``boardctl play``) because a board cannot show it whole: it changes
        nothing a sensor sees (a pass), or it carries something no sensor
        reads (the route card a player shows). The controller never reads a
        told action off the board, even where its pieces match; by default
        no action is told."""
        return False

    def why_wrong(self, state: S, changed: Mapping[str, str | None]) -> str | None:
        """Why the board, changed from :meth:`layout` as ``changed`` says
        (site -> what lies there now, None: emptied), is no legal action, in
        the rules' words, where they can tell (a stick of the wrong colour, a
        disc not beside an opponent's piece, a tile not in the hand); None
        when they cannot. Asked only while the room may see the hints
        (``hints_public``), so it never tells a secret."""
        return None

    @property
    def tells(self) -> bool:
        """Whether any action of this game may be told (:meth:`told` is the
        engine's own)."""
        return type(self).told is not PhysicalBoard.told

    if TYPE_CHECKING:
        # of another concern, used by the defaults above (see boardctl.engines.base)
        @abc.abstractmethod
        def legal_actions(self, state: S) -> Iterator[A]: ...

        @abc.abstractmethod
        def apply_unchecked(self, state: S, action: A) -> S: ...
