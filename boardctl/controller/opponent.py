"""The seats played apart: asking for their move, showing it, following it.

Where a seat is played by the computer (:mod:`boardctl.seats`), the controller
asks a :class:`Thinker` for its move when that seat is to act. A seat played
at another board (``remote:<board>``) is followed the same way: its
:class:`Thinker` is the link to that board (``boardctl.fleet.remote``), whose
answer is the other player's turn as made there (:class:`RemoteMoved`), shown
and checked on this board exactly as the computer's. The thinking
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

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from boardctl.engines import Engine, Match
from boardctl.engines.playing import Playing
from boardctl.seats import COMPUTER, PHONE, REMOTE, Seat, Seats


def unplayable(engine: Engine[Any, Any]) -> str | None:
    """Why the computer cannot take a seat in ``engine``'s game, or None.

    A game gets an opponent by writing its evaluation of a position
    (``Playing.evaluate``), and, if it keeps secrets, how a player imagines
    them (``Playing.determinize``): without them the computer would play
    blind, or see every card."""
    kind = type(engine)
    if engine.computer_refused is not None:
        return f"the computer does not play {engine.name} so: {engine.computer_refused}"
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


def person_unplayable(engine: Engine[Any, Any], *, phone: bool = False) -> str | None:
    """Why another board (or, with ``phone``, a phone) cannot take a seat in
    ``engine``'s game, or None.

    The two boards keep one record: a game that keeps secrets would send one
    player's secret to the other board, and chance's outcomes would have to
    be drawn at one board for both. A phone plays the same games as another
    board."""
    from boardctl.engines.rules import Rules

    if phone:
        if engine.has_secrets:
            why = f"{engine.name} keeps secrets"
        elif type(engine).chance_outcomes is not Rules.chance_outcomes:
            why = f"chance acts in {engine.name}"
        else:
            return None
        return (
            f"{why}: it is not played from a phone yet (a phone plays a game without "
            "secrets or chance: docs/fleet.md)"
        )
    if engine.has_secrets:
        return (
            f"{engine.name} keeps secrets, and a secret stays with its owner's board: it is "
            "not played with another board"
        )
    if type(engine).chance_outcomes is not Rules.chance_outcomes:
        return f"chance acts in {engine.name}: it is not played with another board yet"
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
    #: who is asked: the computer, or the other board (``remote``) named ``board``
    kind: str = COMPUTER
    board: str = ""


@dataclass(frozen=True, slots=True)
class ComputerMoved:
    """The computer's turn, in notation, answering request ``id``."""

    id: int
    actions: tuple[str, ...]
    #: how long it thought, in seconds of the thinker's clock
    seconds: float = 0.0
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


@dataclass(frozen=True, slots=True)
class RemoteMoved:
    """The other board's turn, in notation, answering request ``id``: the
    actions its record holds from the request's place on."""

    id: int
    actions: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RemoteFailed:
    """The other board's record cannot answer request ``id`` (it differs
    from this board's)."""

    id: int
    reason: str


#: every answer a seat played apart gives
OpponentEvent = ComputerMoved | ComputerFailed | RemoteMoved | RemoteFailed


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
    """The computer's turn: ``actions`` (in the order it thought them) from
    ``start``, the position after ``ply`` actions. The visitor may make them
    in any order the rules allow (a DuploLine ring before the disc)."""

    seat: int
    ply: int
    #: the moves suggested before at this position (another move was asked for)
    excluded: tuple[str, ...]
    start: Any
    actions: tuple[Any, ...]

    def remaining(self, match: Match[Any, Any]) -> tuple[Any, ...] | None:
        """The actions of the plan not made yet, in the plan's order; None
        when the game has left the plan (an action made since its position
        that is not one of its own)."""
        if self.ply >= len(match.states) or match.states[self.ply] != self.start:
            return None
        left = list(self.actions)
        for action in match.actions[self.ply :]:
            if action not in left:
                return None
            left.remove(action)
        return tuple(left)


def orders(
    engine: Engine[Any, Any], state: Any, seat: int, actions: tuple[Any, ...]
) -> tuple[dict[Any, frozenset[Any]], list[tuple[Any, ...]], list[Any]]:
    """The ways to make ``actions`` from ``state``, each one legal in turn
    and each by ``seat``: per state on the way, the actions that may be made
    there; the orders that make them all (the plan's own first, when legal);
    and the states they end in."""
    steps: dict[Any, set[Any]] = {}
    paths: list[tuple[Any, ...]] = []
    ends: list[Any] = []

    def walk(state: Any, left: tuple[Any, ...], made: tuple[Any, ...]) -> None:
        if not left:
            paths.append(made)
            if state not in ends:
                ends.append(state)
            return
        if engine.actor(state) != seat:
            return
        for i, action in enumerate(left):
            if action in left[:i] or engine.why_illegal(state, action) is not None:
                continue
            steps.setdefault(state, set()).add(action)
            walk(engine.apply_unchecked(state, action), left[:i] + left[i + 1 :], (*made, action))

    walk(state, actions, ())
    return {s: frozenset(a) for s, a in steps.items()}, paths, ends


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
    #: "thinking" (the computer), "waiting" (the other board's player to
    #: act there), "ready" (its move is shown) or "failed"
    doing: str
    #: its move still to make, in public notation
    texts: tuple[str, ...] = ()
    directions: Directions = Directions()
    #: why it failed, while it does
    error: str | None = None
    #: the computer's seat, or another board's (``remote``) named ``board``
    kind: str = COMPUTER
    board: str = ""


class Opponent:
    """The computer's side of the controller: the seats of the game under
    way, the request it waits for, the plan it shows.

    ``thinker`` runs the thinking (None: a computer seat is refused);
    ``remote`` answers for the seats played at another board, ``phone`` for
    those played on a phone's private page (None: such a seat is refused);
    ``retry`` is how long to wait after a failure before asking again."""

    def __init__(
        self,
        thinker: Thinker | None,
        *,
        retry: float = 5.0,
        remote: Thinker | None = None,
        phone: Thinker | None = None,
    ) -> None:
        self.thinker = thinker
        self.remote = remote
        self.phone = phone
        self.retry = retry
        self.seats = Seats()
        #: the request under way, or None
        self.pending: Think | None = None
        #: the computer's turn being shown and followed
        self.plan: Plan | None = None
        #: the plies where a turn of the computer's began, with the moves it
        #: had suggested there before: a turn is always asked for from its
        #: beginning, so after a restart it is the turn that was shown
        self.began: dict[int, tuple[str, ...]] = {}
        #: per ply, the position another move was asked for at and the
        #: moves suggested there before, in order
        self._tried: dict[int, tuple[Any, tuple[str, ...]]] = {}
        self.failure: str | None = None
        self.failed_at = 0.0
        #: the position the failure was at (a new position asks at once)
        self._failed_for: tuple[int, Any] | None = None
        self._next_id = 0
        #: the last answer of :meth:`seat_to_act`: its engine, state and
        #: seats (all immutable, kept by identity) and the seat (a turn asks
        #: it several times of one position)
        self._to_act: tuple[Any, Any, Seats, Seat | None] | None = None

    # -- the game ------------------------------------------------------------
    def begin(
        self,
        seats: Seats,
        match: Match[Any, Any] | None = None,
        began: Mapping[int, tuple[str, ...]] | None = None,
    ) -> None:
        """A game (new, or ``match`` resumed with the plies its computer's
        turns ``began`` at) with these seats; what was under way is dropped."""
        self.stop()
        self.seats = seats
        self.began = dict(began or {})
        self._tried = {}
        if match is not None:
            for ply, tried in self.began.items():
                if tried and ply < len(match.states):
                    self._tried[ply] = (match.states[ply], tried)
        self.failure = None

    def thinker_for(self, kind: str) -> Thinker | None:
        """Who answers for a seat of ``kind``: the computer's thinker, the other
        board, or the player's phone."""
        return {REMOTE: self.remote, PHONE: self.phone}.get(kind, self.thinker)

    def _cancel(self) -> None:
        pending = self.pending
        if pending is not None:
            thinker = self.thinker_for(pending.kind)
            if thinker is not None:
                thinker.cancel()
        self.pending = None

    def stop(self) -> None:
        """Drop the request under way and the plan shown."""
        self._cancel()
        self.plan = None

    def withdrawn(self, played: int) -> None:
        """Actions were taken back: ``played`` remain."""
        self.began = {p: t for p, t in self.began.items() if p < played}
        self._tried = {p: t for p, t in self._tried.items() if p <= played}

    def seat_to_act(self, engine: Engine[Any, Any], state: Any) -> Seat | None:
        """The seat to act when the computer or another board plays it, else None."""
        last = self._to_act
        if last is not None and last[0] is engine and last[1] is state and last[2] is self.seats:
            return last[3]
        actor = engine.actor(state)
        seat = self.seats.apart(actor) if isinstance(actor, int) else None
        self._to_act = (engine, state, self.seats, seat)
        return seat

    def tried_at(self, ply: int, state: Any) -> tuple[str, ...]:
        """The moves suggested at ``ply`` (in ``state``) before another was
        asked for, in order."""
        got = self._tried.get(ply)
        return got[1] if got is not None and got[0] == state else ()

    def _anchor(self, engine: Engine[Any, Any], match: Match[Any, Any], seat: int) -> int:
        """The ply to ask from: where the computer's turn under way began (the
        latest ply of this turn a plan of its began at, or another move was
        asked for at), or now."""
        now = len(match.actions)
        start = now
        while start > 0 and engine.actor(match.states[start - 1]) == seat:
            start -= 1
        # where a plan began, or another move was asked for (the turn goes on from there)
        began = [p for p in (*self.began, *self._tried) if start <= p <= now]
        return max(began) if began else now

    # -- following the game ------------------------------------------------------
    def follow(
        self, engine: Engine[Any, Any], match: Match[Any, Any], awake: bool, now: float
    ) -> None:
        """Ask for the computer's turn when its seat is to act and nothing is
        under way; drop what no longer fits the game."""
        state = match.state
        seat = self.seat_to_act(engine, state) if awake else None
        if self.plan is not None and not self.plan.remaining(match):
            self.plan = None
        if seat is None:
            self._cancel()
            return
        if self.plan is not None:
            return
        actor = engine.actor(state)
        assert isinstance(actor, int) and seat.seed is not None
        ply = self._anchor(engine, match, actor)
        start = match.states[ply]
        pending = self.pending
        if pending is not None and pending.ply == ply and pending.state == start:
            return
        failed_here = self.failure is not None and self._failed_for == (ply, start)
        if failed_here and now - self.failed_at < self.retry:
            return
        thinker = self.thinker_for(seat.kind)
        assert thinker is not None  # a seat played apart is refused without one
        if pending is not None and pending.kind != seat.kind:
            self._cancel()
        tried = self.tried_at(ply, start)
        self._next_id += 1
        request = Think(
            self._next_id,
            engine,
            start,
            actor,
            seat.level,
            seat.seed,
            ply,
            len(tried),
            tried,
            seat.kind,
            seat.board,
        )
        self.pending = request
        thinker.ask(request)

    def answer(
        self,
        event: OpponentEvent,
        engine: Engine[Any, Any],
        match: Match[Any, Any],
        now: float,
    ) -> Plan | None:
        """The thinker's (or the other board's) answer: the plan to show, or
        None (an answer to an earlier request, or a failure)."""
        pending = self.pending
        if pending is None or event.id != pending.id:
            return None
        self.pending = None
        try:
            if isinstance(event, ComputerFailed | RemoteFailed):
                raise ValueError(event.reason)
            plan = _plan_of(engine, pending, event.actions)
            if not plan.remaining(match):
                raise ValueError(
                    f"it answered {list(event.actions)}, which does not go on from the moves made"
                )
        except ValueError as exc:
            self.failure, self.failed_at = str(exc), now
            self._failed_for = (pending.ply, pending.state)
            return None
        self.failure = None
        self.plan = plan
        return plan

    def another(self, engine: Engine[Any, Any], match: Match[Any, Any]) -> str:
        """Forget the move shown and ask for another at this position (the
        moves of the turn made so far stay); returns the move given up.
        ``ValueError`` when the computer shows none."""
        shown = self.shown(engine, match)
        if shown is None:
            raise ValueError("the computer shows no move now: another is asked for once it does")
        ply, state = len(match.actions), match.state
        tried = self.tried_at(ply, state)
        text = engine.format_action(shown[0][0])
        if text not in tried:
            tried = (*tried, text)
        self._tried[ply] = (state, tried)
        self.plan = None
        return text

    def committed(self, ply: int, action: Any) -> tuple[str, ...] | None:
        """``action`` is played at ``ply``: where a turn of the computer's
        begins with it, the moves it suggested there before (for the record),
        else None."""
        plan = self.plan
        if plan is not None and plan.ply == ply and action in plan.actions:
            self.began[ply] = plan.excluded
            return plan.excluded
        return None

    # -- what the board may show ----------------------------------------------------
    def shown(
        self, engine: Engine[Any, Any], match: Match[Any, Any]
    ) -> tuple[tuple[Any, ...], tuple[Any, ...]] | None:
        """The computer's move still to make, in an order the rules allow
        from here: the actions and the states they are made in; None when it
        shows none."""
        plan = self.plan
        left = plan.remaining(match) if plan is not None else None
        if plan is None or not left:
            return None
        _, paths, _ = orders(engine, match.state, plan.seat, left)
        if not paths:
            return None
        states = [match.state]
        for action in paths[0][:-1]:
            states.append(engine.apply_unchecked(states[-1], action))
        return paths[0], tuple(states)

    def told_next(self, engine: Engine[Any, Any], match: Match[Any, Any]) -> Any | None:
        """The next action of the move shown when no board can show it
        (``Engine.told``: a Linie 1 pass), which the controller plays at once
        as it plays chance's outcomes; None otherwise."""
        shown = self.shown(engine, match)
        if shown is None:
            return None
        actions, states = shown
        return actions[0] if engine.told(states[0], actions[0]) else None

    def directed(
        self, engine: Engine[Any, Any], match: Match[Any, Any]
    ) -> dict[Any, frozenset[Any]]:
        """The states where the computer acts, each with the actions the board
        may show there: those of its move, in any order the rules allow; none
        while it thinks, nor where another computer seat acts after it."""
        state = match.state
        plan = self.plan
        left = plan.remaining(match) if plan is not None else None
        if plan is not None and left:
            steps, _, ends = orders(engine, state, plan.seat, left)
            only = dict(steps)
            for end in ends:
                if self.seat_to_act(engine, end) is not None:
                    only[end] = frozenset()  # the next computer's move is its own to show
            return only
        if self.seat_to_act(engine, state) is not None:
            return {state: frozenset()}
        return {}

    def planned(self, engine: Engine[Any, Any], match: Match[Any, Any]) -> frozenset[Any]:
        """The state the computer's move still to make leads to, made in the
        order it chose (when that order is legal from here): of its actions
        made at once, the order the board reads where the orders leave
        different games (a Beeline MARK and the NODE it points at)."""
        plan = self.plan
        left = plan.remaining(match) if plan is not None else None
        if plan is None or not left:
            return frozenset()
        _, paths, ends = orders(engine, match.state, plan.seat, left)
        if not paths or paths[0] != left:
            return frozenset()
        return frozenset(ends[:1])

    def view(self, engine: Engine[Any, Any], match: Match[Any, Any]) -> ComputerView | None:
        """The computer's seat to act, as the LEDs and the status show it."""
        state = match.state
        seat = self.seat_to_act(engine, state)
        if seat is None:  # most turns: the engine is not asked who acts
            return None
        actor = engine.actor(state)
        if not isinstance(actor, int):
            return None
        shown = self.shown(engine, match)
        if shown is not None:
            actions, states = shown
            texts = tuple(engine.public_action(s, a) for s, a in zip(states, actions, strict=True))
            return ComputerView(
                actor,
                seat.level,
                "ready",
                texts,
                directions(engine, states, actions),
                kind=seat.kind,
                board=seat.board,
            )
        if self.failure is not None and self.pending is None:
            return ComputerView(
                actor, seat.level, "failed", error=self.failure, kind=seat.kind, board=seat.board
            )
        doing = "waiting" if seat.person else "thinking"
        return ComputerView(actor, seat.level, doing, kind=seat.kind, board=seat.board)


def _plan_of(engine: Engine[Any, Any], request: Think, texts: tuple[str, ...]) -> Plan:
    """The plan of the answer ``texts`` to ``request``: every action legal in
    turn, all of the requesting seat. ``ValueError`` naming the fault else."""
    if not texts:
        raise ValueError("it answered without a move")
    state = request.state
    actions: list[Any] = []
    for text in texts:
        if engine.actor(state) != request.seat:
            raise ValueError(f"it answered {text!r}, which is not its to play")
        action = engine.parse_action(text)
        why = engine.why_illegal(state, action)
        if why is not None:
            raise ValueError(f"it answered {text!r}, which is illegal: {why}")
        actions.append(action)
        state = engine.apply_unchecked(state, action)
    return Plan(request.seat, request.ply, request.exclude, request.state, tuple(actions))
