"""What a game gives the computer opponent: how well each seat stands, and
what a player may know.

:class:`Playing` is the part of the engine interface that the search
(:mod:`boardctl.computer`) reads besides the rules themselves. Every method
has a sound default, so a new game gets an opponent by writing its
:meth:`~Playing.evaluate` only; a game with secrets also writes
:meth:`~Playing.determinize`.

Pure like the rules: no I/O, no clock. Randomness comes in as an argument
(:class:`Rng`, which ``random.Random`` satisfies); the caller seeds it.
"""

from __future__ import annotations

import abc
import math
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Generic, Protocol, Self, TypeVar

S = TypeVar("S")
A = TypeVar("A")


class Rng(Protocol):
    """A source of random numbers handed to the search and to
    :meth:`Playing.determinize`: ``random.Random`` is one. The same source
    seeded alike gives the same numbers, so the same answer."""

    def random(self) -> float:
        """A number in [0, 1)."""

    def randrange(self, stop: int, /) -> int:
        """An integer in 0 .. ``stop`` - 1."""


class Result(Protocol):
    """What :meth:`Playing.evaluate` reads of an outcome (``base.Outcome``)."""

    @property
    def over(self) -> bool: ...

    @property
    def winner(self) -> int | None: ...


def terminal_values(players: int, winner: int | None) -> tuple[float, ...]:
    """The values of a finished game: 1 for the winner and 0 for the others,
    or ``1/players`` each after a draw (``winner`` None)."""
    if winner is None:
        return (1.0 / players,) * players
    return tuple(1.0 if seat == winner else 0.0 for seat in range(players))


def shares(strengths: Sequence[float], scale: float) -> tuple[float, ...]:
    """Values in [0, 1] that add up to 1, from how strong each seat stands
    (any unit): equal strengths give equal shares, and a seat ``scale``
    stronger than another holds e (2.7) times its share, up to a bound
    that keeps every share strictly between 0 and 1 (only a finished game is
    certain). The engines' evaluations end with it."""
    top = max(strengths)
    weights = [math.exp(max((s - top) / scale, -30.0)) for s in strengths]
    total = sum(weights)
    return tuple(w / total for w in weights)


def score_shares(scores: Iterable[int]) -> tuple[float, ...]:
    """Each seat's share of the points, counted from the lowest score plus
    one: equal scores give equal shares, and more points a bigger one."""
    points = list(scores)
    low = min(points)
    lifted = [p - low + 1 for p in points]
    total = sum(lifted)
    return tuple(p / total for p in lifted)


class Playing(abc.ABC, Generic[S, A]):
    """What the computer opponent asks of a game, every answer with a default.

    :class:`~boardctl.engines.base.Engine` inherits it; an engine overrides
    what it can answer better (docs/computer.md, "A new game").
    """

    #: What a level's search budget is multiplied by in this game (1 for
    #: most). A game whose positions cost much more to expand and evaluate
    #: than two-player Shiftago's sets it below 1 (as a class attribute, or
    #: in ``__init__`` when it depends on the options), so that a level
    #: thinks about as long in every game: the search counts positions,
    #: never time.
    search_scale: float = 1.0
    #: Whether the strongest levels search this game by alpha-beta rather
    #: than by the tree search (``boardctl.computer.alphabeta``): a game of
    #: two players with nothing hidden and no chance, whose results turn on
    #: exact sequences of actions (a race to a dead end, a line completed two
    #: actions later), sets it.
    suits_alphabeta: bool = False
    #: How many actions ahead each level (1 to 5, in order) reads this game,
    #: where a level's budget of positions does not tell the levels apart:
    #: a number makes that level search by alpha-beta exactly so many
    #: actions deep and judge what lies beyond by :meth:`glance`; None
    #: leaves the level as it is. A game that sets it (it must also set
    #: ``suits_alphabeta``) is one whose evaluation reads the decisive
    #: sequences so well that every level given it plays alike (bidiline's
    #: race of the ends); the default None leaves every level as it is.
    reading_depths: tuple[int | None, ...] | None = None
    #: Why the computer cannot take a seat in this game as its options stand
    #: (in words for an operator), or None: it can. Set in ``__init__``
    #: (Linie 1 with its cards on the table: the computer would not know
    #: its own route).
    computer_refused: str | None = None
    #: Whether the tree search, in this game with secrets, compares the
    #: actions to choose from under the same draws of what the chooser cannot
    #: see (:meth:`determinize`) instead of a draw of their own each: it
    #: draws the secrets once and evaluates every action under that draw,
    #: then, the likeliest first, looks each one action further (the best
    #: the chooser can make of its next action, where it acts again) under
    #: the same draw while the budget lasts, and chooses the best of those
    #: looked at further. For a game whose actions' values differ far less
    #: than one draw of the secrets moves them (Linie 1: a few hundredths
    #: between two tiles), where the action whose own draw came out best
    #: would be chosen. False (the default): the usual tree.
    compares_in_common: bool = False

    if TYPE_CHECKING:
        # what the defaults read of the rules, which the engine answers
        players: int

        @abc.abstractmethod
        def outcome(self, state: S) -> Result: ...

        @abc.abstractmethod
        def scores(self, state: S) -> tuple[int, ...] | None: ...

    def evaluate(self, state: S) -> tuple[float, ...]:
        """Per seat, how well that seat stands in ``state``: a value in
        [0, 1], higher is better. A finished game gives 1 to the winner and
        0 to the others, 1/n each after a draw.

        The search calls it at every position it reaches (the hot path), so
        it must be fast and pure; it need not be exact, only a fair guess
        that rises as a seat's chances do. The default knows only what the
        rules say: the outcome once the game is over; else each seat's share
        of the points if the game keeps score; else equal shares."""
        outcome = self.outcome(state)
        if outcome.over:
            return terminal_values(self.players, outcome.winner)
        scores = self.scores(state)
        if scores is not None:
            return score_shares(scores)
        return (1.0 / self.players,) * self.players

    def glance(self, state: S) -> tuple[float, ...]:
        """Per seat, how well that seat stands as a beginner sees it: the
        weakest level (Puppy) judges positions by it. The default is
        :meth:`evaluate`; a game whose evaluation reads the position so well
        that one look ahead already plays a strong game overrides it with a
        cruder view, in the game's own terms (a seat's own lines only, blind
        to the other's threats; the sticks counted, not the race). Values as
        :meth:`evaluate`'s, the outcome exact once the game is over."""
        return self.evaluate(state)

    def judged_at(self, number: int) -> Callable[[S], tuple[float, ...]] | None:
        """How the computer's level ``number`` (1 to 5) judges this game's
        positions, where the game gives its levels views of their own
        because one search budget or another does not tell them apart
        (Linie 1, whose turns offer a hundred lays: every level below 4
        looks one tile ahead, so its levels differ by what they see);
        None (the default): the level's sight, :meth:`glance` or
        :meth:`evaluate`. Values as :meth:`glance`'s."""
        return None

    def considered(self, state: S) -> Sequence[A] | None:
        """The actions the search weighs in ``state``, where the player to
        act has a great many of which most are pointless (a Beeline NODE put
        down far from both lines); None (the default): every legal action.

        A game that narrows them must keep every action that wins at once
        and every one a good player might make; the search never proves a
        position lost from the actions it was given alone (one it was not
        given might save it), and the computer plays only these, unless
        every one of them was suggested before ("another move")."""
        return None

    def seated(self, computers: frozenset[int]) -> Self:
        """This game's engine for a game in which the computer plays the
        seats ``computers`` (numbers from 0): the same engine (the default),
        or, in a game whose secrets people keep off the board (Linie 1's
        cards on the table), one where the game deals the computer's own
        privately. The controller asks it before a game begins; what it
        changes is an option, so the record replays the same."""
        return self

    def determinize(self, state: S, player: int, rng: Rng) -> S:
        """A state ``player`` cannot tell from ``state``: every secret hidden
        from ``player`` (an opponent's card, the order of a shuffled stack)
        drawn again with ``rng`` from what it could be, given what
        ``player`` sees.

        The answer must depend only on what ``player`` may know and on
        ``rng``, never on the secrets themselves: the search thinks about a
        fresh draw each iteration and so cannot cheat. A game without
        secrets returns ``state`` itself (the default)."""
        return state
