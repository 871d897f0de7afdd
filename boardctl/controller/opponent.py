"""The computer's seats: asking for its move, showing it, following it.

Where a seat is played by the computer (:mod:`boardctl.seats`), the controller
asks a :class:`Thinker` for its move when that seat is to act. The thinking
runs apart (the daemon backs the thinker with a child process): the answer
comes back later as an event on the loop's queue (:class:`ComputerMoved`, or
:class:`ComputerFailed`), tagged with the number of the request it answers, so
an answer to a position the game has left is dropped. The computer's whole
turn (a DuploLine disc action and ring action, a Shiftago insertion and its
score) comes as one :class:`Plan`; the board then may show only those actions
(the reconciler is told so), made by a visitor's hands at their own pace.

Each request carries the seat's seed, the number of actions played (its ply)
and the actions suggested before at this position, which it must not suggest
again (another move was asked for): the same request always gets the same
answer, so a game record that keeps them replays exactly. Pure: it never
reads the clock (it is given the time).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from boardctl.engines import Engine, Match
from boardctl.engines.playing import Playing
from boardctl.seats import Seat, Seats


def unplayable(engine: Engine[Any, Any]) -> str | None:
    """Why the computer cannot take a seat in ``engine``'s game, or None.

    A game gets an opponent by writing its evaluation of a position
    (``Playing.evaluate``), and, if it keeps secrets, how a player imagines
    them (``Playing.determinize``): without them the computer would play
    blind, or see every card."""
    kind = type(engine)
    if kind.evaluate is Playing.evaluate:
        return (
            f"the computer does not play {engine.name} yet: its engine gives no evaluation "
            "of a position (docs/computer.md)"
        )
    if engine.has_secrets and kind.determinize is Playing.determinize:
        return (
            f"the computer does not play {engine.name} with secrets yet: its engine cannot "
            "draw what a player does not know (docs/computer.md)"
        )
    return None


@dataclass(frozen=True, slots=True)
class Think:
    """A request for the computer's turn from ``state`` (after ``ply``
    actions), by the computer in ``seat`` at its level and seed. ``exclude``
    holds the actions suggested before at this position, in the order they
    were (another move was asked for: ``attempt`` of them)."""

    id: int
    engine: Engine[Any, Any] = field(repr=False)
    state: Any = field(repr=False)
    seat: int
    level: int
    seed: int
    ply: int
    attempt: int = 0
    exclude: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ComputerMoved:
    """The computer's turn, in notation, answering request ``id``."""

    id: int
    actions: tuple[str, ...]
    #: how long it thought, in seconds of the thinker's clock
    seconds: float = 0.0
    #: search iterations spent
    iterations: int = 0
    #: the search was cut short by the thinker's time limit (the answer is
    #: then the best found so far, and not repeatable)
    cut: bool = False


@dataclass(frozen=True, slots=True)
class ComputerFailed:
    """The computer could not answer request ``id`` (its process stopped,
    or took far too long)."""

    id: int
    reason: str


ComputerEvent = ComputerMoved | ComputerFailed


class Thinker(Protocol):
    """Runs the computer's thinking apart from the loop."""

    def ask(self, request: Think) -> None:
        """Start thinking; the answer is emitted later as a :data:`ComputerEvent`.
        A new request replaces the one under way."""
        ...

    def cancel(self) -> None:
        """Stop the thinking under way (its answer, if one still comes, is dropped)."""
        ...


@dataclass(frozen=True, slots=True)
class Plan:
    """The computer's turn: ``actions`` from the position after ``ply``
    actions, ``states[i]`` the state before ``actions[i]``."""

    seat: int
    ply: int
    #: the moves suggested before at this position (another move was asked for)
    excluded: tuple[str, ...]
    actions: tuple[Any, ...]
    states: tuple[Any, ...]
    texts: tuple[str, ...]

    def left(self, match: Match[Any, Any]) -> int | None:
        """How far the game is through this plan (actions of it played), or
        None when the game has left it."""
        played = len(match.actions) - self.ply
        if not 0 <= played <= len(self.actions):
            return None
        if self.ply >= len(match.states) or match.states[self.ply] != self.states[0]:
            return None
        if tuple(match.actions[self.ply :]) != self.actions[:played]:
            return None
        return played


@dataclass(frozen=True, slots=True)
class Directions:
    """What the LEDs show of the computer's move still to make: the sites to
    take a piece from, and the sites where the move goes (a cell to put a
    piece on, a track to push a marble into, a segment to lay)."""

    take: frozenset[str] = frozenset()
    to: frozenset[str] = frozenset()


def directions(
    engine: Engine[Any, Any], states: Iterable[Any], actions: Iterable[Any]
) -> Directions:
    """The sites to show for ``actions``, each played in its state of ``states``.

    A site a piece leaves and none comes to is one to take from; where the
    engine lights an action as it does not change (a track, a line's end), it
    shows where to act, but for a piece that stays where it is (the end
    marbles of a scored line); elsewhere the sites that get a piece show
    where it goes."""
    take: set[str] = set()
    to: set[str] = set()
    for state, action in zip(states, actions, strict=False):
        touched = engine.touches(state, action)
        lit = engine.highlight(state, action)
        before = engine.layout(state)
        after = engine.layout(engine.apply_unchecked(state, action))
        gone = {s for s in touched if before.get(s) is not None and after.get(s) is None}
        if lit == touched:
            goes = {
                s for s in touched if after.get(s) is not None and after.get(s) != before.get(s)
            }
        else:
            goes = {s for s in lit - gone if before.get(s) is None or before.get(s) != after.get(s)}
        take = (take - goes) | gone
        to = (to - gone) | goes
    return Directions(frozenset(take), frozenset(to))


@dataclass(frozen=True, slots=True)
class ComputerView:
    """The computer's seat as the LEDs and the status show it."""

    seat: int
    level: int
    #: "thinking", "ready" (its move is shown) or "failed"
    doing: str
    #: its move still to make, in public notation
    texts: tuple[str, ...] = ()
    directions: Directions = Directions()
    #: why it failed, while it does
    error: str | None = None


class Opponent:
    """The computer's side of the controller: the seats of the game under
    way, the request it waits for, the plan it shows.

    ``thinker`` runs the thinking (None: a computer seat is refused);
    ``retry`` is how long to wait after a failure before asking again."""

    def __init__(self, thinker: Thinker | None, *, retry: float = 5.0) -> None:
        self.thinker = thinker
        self.retry = retry
        self.seats = Seats()
        #: the request under way, or None
        self.pending: Think | None = None
        #: the computer's turn being shown and followed
        self.plan: Plan | None = None
        #: the position other moves were asked for at (its ply and state),
        #: and the first actions suggested there, in order
        self._tried: tuple[int, Any, tuple[str, ...]] | None = None
        self.failure: str | None = None
        self.failed_at = 0.0
        self._next_id = 0

    # -- the game ------------------------------------------------------------
    def begin(self, seats: Seats) -> None:
        """A game (new or resumed) with these seats; what was under way is dropped."""
        self.stop()
        self.seats = seats
        self._tried = None
        self.failure = None

    def stop(self) -> None:
        """Drop the request under way and the plan shown."""
        if self.pending is not None and self.thinker is not None:
            self.thinker.cancel()
        self.pending = None
        self.plan = None

    def withdrawn(self, played: int) -> None:
        """Actions were taken back: ``played`` remain."""
        if self._tried is not None and self._tried[0] > played:
            self._tried = None

    def seat_to_act(self, engine: Engine[Any, Any], state: Any) -> Seat | None:
        actor = engine.actor(state)
        return self.seats.computer(actor) if isinstance(actor, int) else None

    # -- following the game ------------------------------------------------------
    def follow(
        self, engine: Engine[Any, Any], match: Match[Any, Any], awake: bool, now: float
    ) -> None:
        """Ask for the computer's turn when its seat is to act and nothing is
        under way; drop what no longer fits the game."""
        state = match.state
        seat = self.seat_to_act(engine, state) if awake else None
        if self.plan is not None and self.plan.left(match) in (None, len(self.plan.actions)):
            self.plan = None
        if seat is None:
            if self.pending is not None and self.thinker is not None:
                self.thinker.cancel()
            self.pending = None
            return
        if self.plan is not None:
            return
        ply = len(match.actions)
        pending = self.pending
        if pending is not None and pending.ply == ply and pending.state == state:
            return
        if self.failure is not None and now - self.failed_at < self.retry:
            return
        assert self.thinker is not None  # a computer seat is refused without one
        tried = self._tried[2] if self._tried and self._tried[:2] == (ply, state) else ()
        actor = engine.actor(state)
        assert isinstance(actor, int) and seat.seed is not None
        self._next_id += 1
        request = Think(
            self._next_id, engine, state, actor, seat.level, seat.seed, ply, len(tried), tried
        )
        self.pending = request
        self.thinker.ask(request)

    def answer(
        self, event: ComputerMoved | ComputerFailed, engine: Engine[Any, Any], now: float
    ) -> Plan | None:
        """The thinker's answer: the plan to show, or None (an answer to an
        earlier request, or a failure)."""
        pending = self.pending
        if pending is None or event.id != pending.id:
            return None
        self.pending = None
        if isinstance(event, ComputerFailed):
            self.failure, self.failed_at = event.reason, now
            return None
        try:
            plan = _plan_of(engine, pending, event.actions)
        except ValueError as exc:
            self.failure, self.failed_at = f"it answered {list(event.actions)}: {exc}", now
            return None
        self.failure = None
        self.plan = plan
        self._tried = (pending.ply, pending.state, (*pending.exclude, plan.texts[0]))
        return plan

    def another(self, engine: Engine[Any, Any], match: Match[Any, Any]) -> str:
        """Forget the move shown and ask for another at this position;
        returns the move given up. ``ValueError`` when the computer shows none."""
        plan = self.plan
        played = plan.left(match) if plan is not None else None
        if plan is None or played is None or played == len(plan.actions):
            raise ValueError("the computer shows no move now: another is asked for once it does")
        ply, state = len(match.actions), match.state
        tried = self._tried[2] if self._tried and self._tried[:2] == (ply, state) else ()
        text = plan.texts[played]
        if text not in tried:
            tried = (*tried, text)
        self._tried = (ply, state, tried)
        self.plan = None
        return text

    def committed(self, ply: int, action: Any) -> tuple[str, ...] | None:
        """``action`` is played at ``ply``: where a turn of the computer's
        begins with it, the moves it suggested there before (for the record),
        else None."""
        plan = self.plan
        if plan is not None and plan.ply == ply and plan.actions[0] == action:
            return plan.excluded
        return None

    # -- what the board may show ----------------------------------------------------
    def directed(self, engine: Engine[Any, Any], match: Match[Any, Any]) -> dict[Any, Any]:
        """The states where the computer acts, each with the one action the
        board may show there (None while it thinks)."""
        state = match.state
        plan = self.plan
        played = plan.left(match) if plan is not None else None
        if plan is not None and played is not None:
            return dict(zip(plan.states[played:], plan.actions[played:], strict=True))
        if self.seat_to_act(engine, state) is not None:
            return {state: None}
        return {}

    def view(self, engine: Engine[Any, Any], match: Match[Any, Any]) -> ComputerView | None:
        """The computer's seat to act, as the LEDs and the status show it."""
        state = match.state
        seat = self.seat_to_act(engine, state)
        actor = engine.actor(state)
        if seat is None or not isinstance(actor, int):
            return None
        plan = self.plan
        played = plan.left(match) if plan is not None else None
        if plan is not None and played is not None and played < len(plan.actions):
            states, actions = plan.states[played:], plan.actions[played:]
            texts = tuple(engine.public_action(s, a) for s, a in zip(states, actions, strict=True))
            return ComputerView(
                actor, seat.level, "ready", texts, directions(engine, states, actions)
            )
        if self.failure is not None and self.pending is None:
            return ComputerView(actor, seat.level, "failed", error=self.failure)
        return ComputerView(actor, seat.level, "thinking")


def _plan_of(engine: Engine[Any, Any], request: Think, texts: tuple[str, ...]) -> Plan:
    """The plan of the answer ``texts`` to ``request``: every action legal in
    turn, all of the requesting seat. ``ValueError`` naming the fault else."""
    if not texts:
        raise ValueError("no action")
    state = request.state
    actions: list[Any] = []
    states: list[Any] = []
    for text in texts:
        if engine.actor(state) != request.seat:
            raise ValueError(f"{text!r} is not the computer's to play")
        action = engine.parse_action(text)
        why = engine.why_illegal(state, action)
        if why is not None:
            raise ValueError(f"{text!r} is illegal: {why}")
        states.append(state)
        actions.append(action)
        state = engine.apply_unchecked(state, action)
    return Plan(
        request.seat,
        request.ply,
        request.exclude,
        tuple(actions),
        tuple(states),
        tuple(engine.format_action(a) for a in actions),
    )
