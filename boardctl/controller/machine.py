"""The controller: the board, the rules and the LEDs kept in step.

:class:`Controller` is the model of the phase machine (:mod:`.phases`). It is
run by one loop, which hands it sensor events, operator commands and ticks,
each with the time it happened (the controller never reads the clock), and
asks it for a :class:`~.view.View` to draw. It tracks the board with a
:class:`~.tracking.BoardTracker`, asks the machine's pure conditions where the
game stands, and does the side effects in the transitions' callbacks
(recording an action, playing it, starting a game), so an action is in the
record before the LEDs that show it are computed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, Protocol

from boardctl.board import BoardProfile
from boardctl.controller import chance as chances
from boardctl.controller import idle
from boardctl.controller.choosing import Offer, offers, pick, steps_of
from boardctl.controller.opponent import (
    ComputerView,
    Opponent,
    OpponentEvent,
    RemoteFailed,
    RemoteMoved,
    Thinker,
    remote_unplayable,
    unplayable,
)
from boardctl.controller.phases import Conditions, Step, Timing, build_machine, can
from boardctl.controller.present import Scene, build_view
from boardctl.controller.reconcile import (
    Ambiguous,
    Played,
    Reconciler,
    Takeback,
    Verdict,
    Waiting,
    Wrong,
)
from boardctl.controller.tracking import BoardTracker
from boardctl.controller.view import PLAYING, Fault, Phase, View, phase_words, status_of
from boardctl.engines import Engine, Match, create
from boardctl.errors import BoardctlError
from boardctl.seats import ALL_HANDS, COMPUTER, SeatError, Seats
from boardctl.sensing import (
    ButtonPress,
    LinkDown,
    LinkUp,
    SensorChange,
    SensorEvent,
    SensorSnapshot,
)

__all__ = ["Controller", "ControllerError", "NullRecorder", "Recorder", "Timing"]

log = logging.getLogger(__name__)

#: phases in which the board is not followed
_ASLEEP = frozenset({Phase.STARTING, Phase.LINKING, Phase.FAULT})
#: the buttons that step through the options of a choice
_STEPPERS = ("mode", "choose")


class ControllerError(BoardctlError, ValueError):
    """A command the controller cannot carry out now (it says why)."""


class Recorder(Protocol):
    """Where games and actions are written before they show (see :mod:`.store`).
    ``seats`` names the computer's seats (with their levels and seeds), and
    ``excluded`` marks an action where a turn of the computer's began, with
    the moves it had suggested there before (another move was asked for):
    a record keeps both so that the computer's moves replay exactly."""

    def begin(
        self,
        game: str,
        options: Mapping[str, Any],
        seed: int | None = None,
        seats: Seats = ALL_HANDS,
    ) -> None: ...

    def record(
        self, move: str, public: str | None = None, excluded: tuple[str, ...] | None = None
    ) -> None: ...

    def undo(self, steps: int) -> None: ...

    def finish(self, result: Mapping[str, Any]) -> None: ...


class NullRecorder:
    """Records nothing (for a controller without storage)."""

    def begin(
        self,
        game: str,
        options: Mapping[str, Any],
        seed: int | None = None,
        seats: Seats = ALL_HANDS,
    ) -> None:
        pass

    def record(
        self, move: str, public: str | None = None, excluded: tuple[str, ...] | None = None
    ) -> None:
        pass

    def undo(self, steps: int) -> None:
        pass

    def finish(self, result: Mapping[str, Any]) -> None:
        pass


#: builds the engine of a game with its options (:func:`boardctl.engines.create`)
EngineFactory = Callable[[str, Mapping[str, Any]], Engine[Any, Any]]


class Controller(Conditions):
    """The board of one profile, its current game, and what its LEDs show.

    ``profile`` is the board; ``game``/``options`` the game to play (the
    profile's own by default); ``recorder`` receives every game and action
    before it shows; ``resume`` is ``(game, options, moves)`` of a game to go
    on with, ``seed`` its stored seed. ``chance`` draws chance's outcomes
    (without one they come from an operator or the board), each one only
    once the choose button is pressed with ``chance_on_button``; ``engines`` builds
    an engine by name. ``seats`` says who plays each seat of the games
    started here (hands by default; ``resume_seats`` those of the game resumed,
    ``resume_plans`` the plies its computer's turns began at, with the moves
    suggested there before),
    ``thinker`` runs the computer's thinking and ``seeds`` gives each
    computer seat of a new game its seed. Every method takes ``now``, the
    loop's monotonic time in seconds.
    """

    state: Phase  # set by the machine

    def __init__(
        self,
        profile: BoardProfile,
        *,
        game: str | None = None,
        options: Mapping[str, Any] | None = None,
        timing: Timing | None = None,
        recorder: Recorder | None = None,
        resume: tuple[str, Mapping[str, Any], list[str]] | None = None,
        chance: chances.ChanceSource | None = None,
        chance_on_button: bool = False,
        seed: int | None = None,
        engines: EngineFactory = create,
        seats: Seats = ALL_HANDS,
        resume_seats: Seats | None = None,
        resume_plans: Mapping[int, tuple[str, ...]] | None = None,
        thinker: Thinker | None = None,
        seeds: Callable[[], int] | None = None,
        remote: Thinker | None = None,
        phone: Thinker | None = None,
    ) -> None:
        self.profile = profile
        self.timing = timing or Timing()
        self.recorder: Recorder = recorder or NullRecorder()
        self.chance = chance
        self.chance_on_button = chance_on_button
        #: the choose button pressed while chance acts: draw one outcome
        self.chance_asked = False
        self.engines = engines
        self.board = BoardTracker(profile, set_up=resume is not None and bool(resume[2]))
        self.since = 0.0
        self.now = 0.0
        self.last_move: frozenset[str] = frozenset()
        #: why the controller is in FAULT (the source's or the store's words),
        #: which kind of fault that is, and since when
        self.fault: str | None = None
        self.fault_kind: Fault | None = None
        self.fault_at = 0.0
        #: the option the buttons picked while choosing, and when
        self.cursor: int | None = None
        self.cursor_at = 0.0
        self._offers: tuple[Any, Any, tuple[Offer, ...]] | None = None
        #: the options of a choice the board left open (several actions leave
        #: the same board), with the state they were offered in: a further
        #: change on the board that only one of them explains makes the choice
        self._open_choice: tuple[Any, Ambiguous, tuple[Offer, ...]] | None = None
        #: told actions a takeback by the board undid, and the number of
        #: actions before the first of them: shown until the game is past it
        self._told_undone: tuple[int, tuple[str, ...]] | None = None
        configured = engines(
            game or profile.game, profile.game_options if options is None else options
        )
        #: the game the next one is (the configured one, then the operator's choice)
        self.next_game: tuple[str, Mapping[str, Any]] = (
            configured.name,
            configured.options_json(),
        )
        self.seeds = seeds or (chance.new_seed if chance is not None else None)
        self.opponent = Opponent(thinker, retry=self.timing.retry_think, remote=remote, phone=phone)
        #: who plays each seat of the next game
        self.next_seats = self._checked_seats(seats, configured)
        if resume is not None:
            r_game, r_options, moves = resume
            self.engine = engines(r_game, r_options)
            self.match: Match[Any, Any] = Match.from_moves(self.engine, moves)
            self.seed = seed if seed is not None or chance is None else chance.new_seed()
            # the resumed game's seats with their seeds: its computer thinks on as it would have
            resumed = resume_seats or ALL_HANDS
            self._checked_seats(resumed, self.engine)
            self.opponent.begin(self._seated(resumed, keep=True), self.match, resume_plans)
        else:
            self.engine = configured
            self.match = Match(self.engine)
            self.seed = chance.new_seed() if chance is not None else None
            self.opponent.begin(self._seated(self.next_seats))
            self.next_seats = self.next_seats.unseeded()  # a game's number is its own
            self.recorder.begin(
                self.engine.name, self.engine.options_json(), self.seed, self.opponent.seats
            )
        self.public_moves: list[str] = [
            self.engine.public_action(s, a)
            for s, a in zip(self.match.states, self.match.actions, strict=False)
        ]
        self.reconciler = Reconciler(self.engine, profile)
        self.machine = build_machine(self)

    # -- what the tracker knows, by its old names ------------------------------
    @property
    def values(self) -> list[int]:
        return self.board.values

    @property
    def verdict(self) -> Verdict:
        return self.board.verdict

    @property
    def have_snapshot(self) -> bool:
        return self.board.have_snapshot

    @property
    def activity_at(self) -> float:
        """When the board was last touched (a reading, a pulse, a button)."""
        return self.board.activity_at

    # -- the machine's hooks -----------------------------------------------
    def _fire(self, trigger: str, *args: Any) -> None:
        """Fire ``trigger``, which must be valid in the current phase."""
        getattr(self, trigger)(*args)

    def _try(self, trigger: str, *args: Any) -> bool:
        """Fire ``trigger`` if it is valid in the current phase."""
        if not can(trigger, self.state):
            return False
        self._fire(trigger, *args)
        return True

    def entered(self, *args: Any) -> None:
        self.since = self.now
        if self.state is not Phase.CHOOSING:
            self.cursor = None
        log.debug("controller: %s", self.state.value)

    # -- entry points for the loop -------------------------------------------
    def start(self, now: float) -> None:
        """Begin: wait for the sensors (again, a second call changes nothing)."""
        self.now = now
        if self.state is Phase.STARTING:
            self.since = self.board.activity_at = now
            self._fire("begin")

    def feed(self, event: SensorEvent, now: float) -> None:
        """One event from a sensor source."""
        self.now = now
        if isinstance(event, SensorChange):
            if self.board.change(event, now):
                self._judge(deep=False)
        elif isinstance(event, SensorSnapshot):
            self.board.snapshot(event.values, now)
            self._judge(deep=False)
            if self.state in (Phase.LINKING, Phase.FAULT):
                self._clear_fault()
        elif isinstance(event, LinkUp):
            log.info("sensors answer: %s", event.description)
        elif isinstance(event, LinkDown):
            log.warning("sensors stopped answering: %s", event.reason)
            self.board.lost()
            self.fault, self.fault_kind, self.fault_at = event.reason, Fault.SENSORS, now
            self._try("link_down")
            return
        elif isinstance(event, ButtonPress):
            self.board.activity_at = now
            self.button(event.button, now)
            return
        self._update(now)

    def tick(self, now: float) -> None:
        """Time passed: settle, grace, attract, a choice confirmed; a game that
        could not be saved is tried again."""
        self.now = now
        if (
            self.state is Phase.FAULT
            and self.fault_kind is Fault.STORAGE
            and self.board.have_snapshot
            and now - self.fault_at >= self.timing.retry_save
        ):
            log.debug("trying again to save the game")
            self._clear_fault()  # what failed is done again: it fails again, or plays
        self._update(now)

    def _clear_fault(self) -> None:
        self.fault, self.fault_kind = None, None
        # the time in the fault was no one leaving the board: its idle times start again
        self.board.activity_at = max(self.board.activity_at, self.now)
        self._fire("link_up")

    def button(self, name: str, now: float) -> None:
        """A button: ``new``, ``undo``, ``mode``; while choosing, ``mode`` (or
        ``choose``) steps through the options and ``undo`` lets go of the one
        picked."""
        self.now = now
        if self.state is Phase.ATTRACT:
            self._fire("wake")
        try:
            if name == "choose" and self._computer_shows_move():
                self.another(now)
            elif self.state is Phase.CHOOSING and name in _STEPPERS:
                self._step_cursor(now)
            elif self.state is Phase.CHOOSING and name == "undo" and self.cursor is not None:
                self.cursor = None
            elif name == "new":
                self.new(None, None, now)
            elif name == "undo":
                self.undo(now)
            elif name == "mode":
                self.next_variant(now)
            elif name == "choose" and self.chance_on_button:
                # chance's next outcomes, drawn once chance acts and the board is right
                self.chance_asked = True
            elif name == "choose":
                raise ControllerError("there is nothing to choose now")
            else:
                log.warning(
                    "button %r does nothing: the buttons are new, undo, mode and choose", name
                )
        except ControllerError as exc:
            log.warning("button %s: %s", name, exc)
        self._update(now)

    def rest(self, now: float) -> None:
        """The opening hours are over and the board left alone: it dozes (the game
        kept, a touch wakes it)."""
        self.now = now
        self._try("doze")

    def fail(self, reason: str, now: float) -> None:
        """The game cannot be saved (the card full or read-only): show that
        fault and accept no move; every :attr:`Timing.retry_save` seconds, and at
        the next snapshot of the sensors, the controller tries again."""
        self.now = now
        again = self.fault_kind is Fault.STORAGE and self.fault == reason
        self.fault, self.fault_kind, self.fault_at = reason, Fault.STORAGE, now
        # said once: the tries every few seconds while the card stays full are not news
        log.log(logging.DEBUG if again else logging.ERROR, "fault: %s", reason)
        self._try("cannot_save")

    def new(
        self,
        game: str | None,
        options: Mapping[str, Any] | None,
        now: float,
        seats: Seats | None = None,
    ) -> None:
        """An operator starts a new game (the profile's game, other options
        allowed; ``seats``: who plays each seat, else as the last game)."""
        self.now = now
        game = game or self.engine.name
        if game != self.profile.game:
            raise ControllerError(
                f"this board ({self.profile.name}) plays {self.profile.game}, not {game}"
            )
        if not can("new_game", self.state):
            raise ControllerError(
                f"cannot start a game while {phase_words(self.state.value)}: wait for the sensors"
            )
        engine = self.engines(game, options if options is not None else self.engine.options_json())
        chosen = self._checked_seats(self.next_seats if seats is None else seats, engine)
        self.next_game = (engine.name, engine.options_json())
        self.next_seats = chosen
        self._fire("new_game", engine)
        self._update(now)

    def next_variant(self, now: float) -> None:
        """The mode button: a new game in the game's next variant (Shiftago:
        Express, then Expert), other options kept. A game without variants
        has nothing to switch."""
        variants = self.engine.variants
        if not variants:
            raise ControllerError(f"{self.engine.name} has no variants to switch between")
        options = dict(self.engine.options_json())
        current = options.get("variant", variants[0])
        index = variants.index(current) if current in variants else -1
        options["variant"] = variants[(index + 1) % len(variants)]
        log.info("mode: a new game of %s %s", self.engine.name, options["variant"])
        self.new(self.engine.name, options, now)

    def undo(self, now: float) -> str:
        """An operator takes the last action back (with the outcomes the
        controller drew after it); the board must follow. Returns the public
        text of the last action taken back."""
        self.now = now
        if not self.match.actions:
            raise ControllerError("nothing to undo: no action has been played")
        if not can("take_back", self.state):
            raise ControllerError(f"cannot undo while {phase_words(self.state.value)}")
        if self.opponent.seats.any_remote:
            raise ControllerError(
                "a game with another board is not undone: both boards keep the same record"
            )
        depth = chances.undo_depth(self.engine, self.match.states, drawn=self.chance is not None)
        if depth and self.opponent.seats.any_computer:
            depth = self._undo_past_computer(depth)
        if depth == 0:
            raise ControllerError(
                "nothing to undo: only the computer and chance have acted"
                if self.opponent.seats.any_computer
                else "nothing to undo: only chance has acted"
            )
        text = self.public_moves[-depth]
        self._fire("take_back", depth, True)
        self._update(now)
        return text

    def choose(self, text: str, now: float) -> str:
        """An operator picks an option of the choice on offer, by its text
        (as ``status`` lists it under ``choices``) or its number (1 first)."""
        self.now = now
        if self.state is not Phase.CHOOSING:
            raise ControllerError(
                f"there is nothing to choose while {phase_words(self.state.value)}"
            )
        try:
            offer = pick(self._current_offers(), text)
        except ValueError as exc:
            raise ControllerError(str(exc)) from None
        self._take(offer)
        self._update(now)
        return offer.text

    def roll(self, text: str, now: float) -> str:
        """An operator gives chance's outcome (a die thrown by hand), in the
        game's notation."""
        self.now = now
        state = self.match.state
        if not chances.chance_acts(self.engine, state):
            raise ControllerError("chance does not act now: it is a player's turn")
        if self.state is not Phase.AWAITING_MOVE:
            raise ControllerError(
                f"cannot take chance's outcome while {phase_words(self.state.value)}: "
                "put the board right first"
            )
        try:
            action = self.engine.parse_action(text)
        except ValueError as exc:
            raise ControllerError(str(exc)) from None
        outcomes = [a for a, _ in self.engine.chance_outcomes(state)]
        if action not in outcomes:
            # public texts: the outcomes left may tell what was dealt in secret
            listed = ", ".join(sorted({self.engine.public_action(state, a) for a in outcomes}))
            raise ControllerError(f"{text!r} is not an outcome now; the outcomes are {listed}")
        public = self.engine.public_action(state, action)
        self._fire("move_made", (Step(action, self.engine.apply(state, action)),))
        self._update(now)
        return public

    def play(self, text: str, now: float, ply: int | None = None) -> str:
        """A person tells a player's action, in the game's notation: one the
        board cannot show (``Engine.told``: a pass, a route card shown), or
        any legal action, which the board must then follow. Played at once
        whatever the board shows; the board is then judged against the game
        after it (the pieces the action puts or takes away are lit as what to
        put right). ``ply``, when given, is the number of actions the teller
        saw played: a tell sent twice, or after the game moved on, is refused.
        Returns the action's public text."""
        self.now = now
        played = len(self.match.actions)
        if ply is not None and ply != played:
            raise ControllerError(
                f"{text!r} was told after {ply} actions, and {played} are played now: "
                "the game has moved on (told twice?); tell it again if it still holds"
            )
        if self.state is Phase.ATTRACT:  # a person telling an action is no idle room
            self.board.activity_at = now
            self._update(now)
        state = self.match.state
        if self.state not in PLAYING:
            raise ControllerError(f"cannot play an action while {phase_words(self.state.value)}")
        if chances.chance_acts(self.engine, state):
            raise ControllerError(
                "chance acts now, not a player: give its outcome with `boardctl roll`"
            )
        computer = self.opponent.seat_to_act(self.engine, state)
        if computer is not None and computer.person:
            raise ControllerError(
                f"{computer.who} plays this turn: their move is shown once they choose it"
            )
        if computer is not None:
            raise ControllerError(
                f"the computer plays this turn (level {computer.level}): make the move "
                "it shows, or ask for another (`boardctl another`)"
            )
        try:
            action = self.engine.parse_action(text)
        except ValueError as exc:
            raise ControllerError(str(exc)) from None
        why = self.engine.why_illegal(state, action)
        if why is not None:
            if self.engine.has_secrets:  # the reason may name a secret ("your line 2")
                raise ControllerError(f"{text!r} is not a legal action now")
            raise ControllerError(f"{text!r} cannot be played now: {why}")
        public = self.engine.public_action(state, action)
        before = self.reconciler.expect(state).key
        self._fire("move_made", (Step(action, self.engine.apply(state, action)),))
        log.info("told %s", public)
        expected = self.reconciler.expect(self.match.state).key
        if expected != before:
            # the board must follow: nothing it shows counts until it has
            self.board.refuse(expected, behind=True)
            self._judge(deep=self.settled_for() >= 0)
        self._update(now)
        return public

    # -- the computer's seats ---------------------------------------------------
    def _checked_seats(self, seats: Seats, engine: Engine[Any, Any]) -> Seats:
        """``seats`` for a game of ``engine``, without seeds (each game draws
        its own); refused when they do not fit it or when this controller has
        no computer to seat."""
        try:
            seats.check(engine.players, engine.name)
        except SeatError as exc:
            raise ControllerError(str(exc)) from None
        if seats.any_computer and (self.opponent.thinker is None or self.seeds is None):
            raise ControllerError(
                f"seats {str(seats)!r}: this controller has no computer player; "
                "every seat is played by hands"
            )
        if seats.any_remote and (self.opponent.remote is None or self.seeds is None):
            raise ControllerError(
                f"seats {str(seats)!r}: this board is on no broker, so no other board plays "
                "here: set [mqtt] broker (docs/fleet.md)"
            )
        why = unplayable(engine) if seats.any_computer else None
        if seats.any_phone and self.opponent.phone is None:
            raise ControllerError(
                f"seats {str(seats)!r}: this board has no web pages, so no phone plays here: "
                "set [web] listen (docs/web.md)"
            )
        if why is None and seats.any_person:
            why = remote_unplayable(engine)
        if why is not None:
            raise ControllerError(f"seats {str(seats)!r}: {why}")
        # a remote seat keeps the number of the game it accepts; a computer's
        # seed is drawn when the game begins
        return seats.unseeded(keep_remote=True)

    def _seated(self, seats: Seats, keep: bool = False) -> Seats:
        """The seats of a game that begins: each computer seat with a seed of
        its own (``keep``: the seeds it has, a seat without one seeded)."""
        if not seats.any_apart or self.seeds is None:
            return seats
        return seats.seeded(self.seeds, keep=keep)

    @property
    def seats(self) -> Seats:
        """Who plays each seat of the game under way (with the computer's seeds)."""
        return self.opponent.seats

    def _computer_view(self) -> ComputerView | None:
        if self.state not in PLAYING and self.state is not Phase.SETUP:
            return None
        return self.opponent.view(self.engine, self.match)

    def _computer_shows_move(self) -> bool:
        shown = self._computer_view()
        return shown is not None and shown.doing == "ready" and shown.kind == COMPUTER

    def _follow_computer(self, now: float) -> None:
        """Ask for the computer's move when its seat is to act (and stop its
        thinking when the game has gone elsewhere, or the board sleeps or
        fails), then tell the reconciler what the board may show."""
        awake = self.state in PLAYING or self.state is Phase.SETUP
        if self.state is Phase.ATTRACT and self.opponent.seats.any_person:
            awake = True  # the player at the other board may act while this room is quiet
        self.opponent.follow(self.engine, self.match, awake, now)
        self._play_told_move()
        self._direct()

    def _play_told_move(self) -> None:
        """The next actions of the computer's (or another board's) move shown
        while the board cannot show them (a Linie 1 pass, a trip's start that
        is caught): played at once, once the actions before them are made on
        the board; the status tells them."""
        while self.state is Phase.AWAITING_MOVE and can("move_made", self.state):
            action = self.opponent.told_next(self.engine, self.match)
            if action is None:
                return
            state = self.match.state
            self._fire("move_made", (Step(action, self.engine.apply(state, action)),))
            log.info("told for the computer: %s", self.engine.public_action(state, action))

    def _direct(self) -> None:
        only = self.opponent.directed(self.engine, self.match)
        if self.reconciler.direct(only, self.opponent.planned(self.engine, self.match)):
            self._judge(deep=self.settled_for() >= 0)

    def computer_answered(self, event: OpponentEvent, now: float) -> None:
        """The computer's thinking ended (or the other board's player made
        their turn there): its move is shown, or its failure."""
        self.now = now
        remote = isinstance(event, RemoteMoved | RemoteFailed)
        plan = self.opponent.answer(event, self.engine, self.match, now)
        shown = self.opponent.shown(self.engine, self.match) if plan is not None else None
        if plan is not None and shown is not None:
            texts = ", ".join(self.engine.public_action(s, a) for a, s in zip(*shown, strict=True))
            who = self.opponent.seats[plan.seat].who
            label = self.engine.board().player_label(plan.seat)
            log.info("%s (%s) plays %s", who, label, texts)
            if remote:  # their move counts as the board touched; dozing, the board wakes
                self.board.activity_at = now
        elif remote and self.opponent.failure is not None and self.opponent.failed_at == now:
            log.error("the other board's moves do not fit: %s", self.opponent.failure)
        elif self.opponent.failure is not None and self.opponent.failed_at == now:
            log.error(
                "the computer player failed: %s; asking again in %.0f s",
                self.opponent.failure,
                self.opponent.retry,
            )
        self._update(now)

    def another(self, now: float) -> str:
        """Ask the computer for another move than the one it shows; returns
        the move given up, in public notation."""
        self.now = now
        shown = self._computer_view()
        if shown is not None and shown.kind != COMPUTER:
            seat = self.opponent.seats[shown.seat]
            raise ControllerError(f"{seat.who} chose this move: make it on the board as it is lit")
        if shown is None or shown.doing != "ready":
            raise ControllerError(
                "the computer shows no move now: another is asked for once it shows one"
            )
        try:
            self.opponent.another(self.engine, self.match)
        except ValueError as exc:
            raise ControllerError(str(exc)) from None
        log.info("another move asked for, instead of %s", shown.texts[0])
        self._update(now)
        return shown.texts[0]

    def _undo_past_computer(self, depth: int) -> int:
        """How far an undo goes with the computer in the game: back to the
        start of the latest turn of a seat played by hands, the computer's
        moves after it (and chance's outcomes) taken back with it. 0 when
        no hands have acted."""
        engine, states = self.engine, self.match.states
        first = len(self.match.actions) - depth

        def by_hands(i: int) -> bool:
            actor = engine.actor(states[i])
            return isinstance(actor, int) and self.opponent.seats.computer(actor) is None

        while first >= 0 and not by_hands(first):
            first -= 1
        if first < 0:
            return 0
        seat = engine.actor(states[first])
        while first > 0 and engine.actor(states[first - 1]) == seat:
            first -= 1
        return len(self.match.actions) - first

    # -- following the board --------------------------------------------------
    def _judge(self, deep: bool) -> None:
        self.board.judge(self.reconciler, self.match.states, deep=deep)
        if self.opponent.seats.any_remote and isinstance(self.board.verdict, Takeback):
            # both boards keep one record: a move is never taken back at one alone
            self.board.verdict = self.board.to_restore(self.reconciler, self.match.state)

    def _update(self, now: float) -> None:
        self._follow_board(now)
        self._follow_computer(now)

    def _follow_board(self, now: float) -> None:
        if self.state in _ASLEEP or not self.board.have_snapshot:
            return
        if self.board.forget_pulses(now, self.timing.pulse_memory):
            self._judge(deep=self.board.deep_done)
        if self._put_away(now):
            return
        if self.state is Phase.ATTRACT:
            if self.board.activity_at > self.since:
                self._fire("wake")
            else:
                return
        if self.settled_for() >= 0 and not self.board.deep_done:
            self._judge(deep=True)
        self.board.stalled(self.reconciler, self.match.state, now, self.timing.in_progress)
        verdict = self._follow_open_choice()
        if isinstance(verdict, Played):
            if self.settled_for() >= 0 and can("move_made", self.state):
                self._fire("move_made", steps_of(verdict.path))
        elif (
            isinstance(verdict, Takeback)
            and self.state in PLAYING
            and self.settled_for() >= self.timing.takeback_hold
        ):
            self._fire("take_back", verdict.steps, False)
        self._fire("observe")
        verdict = self.board.verdict
        if (
            self.state is Phase.CHOOSING
            and isinstance(verdict, Ambiguous)
            and not self._open_choice
        ):
            self._open_choice = (self.match.state, verdict, self._current_offers())
        self._draw_chance()
        if (
            self.state is Phase.CHOOSING
            and self.cursor is not None
            and now - self.cursor_at >= self.timing.choose_hold
        ):
            self._take(self._current_offers()[self.cursor])
        attract = self.timing.attract_after
        if attract > 0 and now - self.board.activity_at >= attract:
            self._try("doze")

    def _awaited(self) -> bool:
        """A player away from the board (at another board, on a phone) is to act."""
        seat = self.opponent.seat_to_act(self.engine, self.match.state)
        return seat is not None and seat.person

    def _put_away(self, now: float) -> bool:
        """A game left alone long enough (:mod:`.idle`): the next game begins
        (the store keeps an unfinished one as abandoned) and the board waits
        in attract mode, lighting what to clear. True when it was put away."""
        why = idle.due(
            self.state,
            self.board.activity_at,
            now,
            played=len(self.match.actions),
            over=bool(self.match.actions) and self.match.outcome().over,
            timing=self.timing,
            awaited=self._awaited(),
        )
        if why is None:
            return False
        log.info(
            "the %s game of %s was left alone for %.0f min (kept as %s); "
            "a new game waits for the board to be cleared",
            "unfinished" if why is idle.PutAway.ABANDONED else "finished",
            self.engine.name,
            (now - self.board.activity_at) / 60,
            why.value,
        )
        self._fire("new_game", self.engines(*self.next_game))
        self._fire("doze")
        return True

    def _draw_chance(self) -> None:
        """While the board is right and chance acts, play the outcomes drawn."""
        source, seed = self.chance, self.seed
        if source is None or seed is None:
            return
        drew = False
        while self.state is Phase.AWAITING_MOVE and chances.chance_acts(
            self.engine, self.match.state
        ):
            if self.chance_on_button and not self.chance_asked:
                return
            drew = True
            state = self.match.state
            action = chances.outcome_action(
                self.engine, state, source, seed, len(self.match.actions)
            )
            self._fire("move_made", (Step(action, self.engine.apply(state, action)),))
            self._fire("observe")
        if drew and not chances.chance_acts(self.engine, self.match.state):
            self.chance_asked = False  # one press: the outcomes up to the next player's action

    # -- choosing -------------------------------------------------------------
    def _current_offers(self) -> tuple[Offer, ...]:
        """The options open now (cached while the state and the verdict stand)."""
        state, verdict = self.match.state, self.board.verdict
        cached = self._offers
        if cached is None or cached[0] is not state or cached[1] is not verdict:
            found = offers(self.engine, self.reconciler, state, verdict)
            if cached is None or [o.text for o in found] != [o.text for o in cached[2]]:
                self.cursor = None  # other options: the one picked is gone
            cached = (state, verdict, found)
            self._offers = cached
        return cached[2]

    def _follow_open_choice(self) -> Verdict:
        """The verdict, once a board that left a choice open has gone on.

        A further change that only one option explains (the next stick laid
        from the point where the first one started) plays that option; one
        that several explain leaves the choice open and waits for it; one that
        none explains is wrong by itself, the options' board being right. The
        board shown back as it was before the choice closes it."""
        verdict = self.board.verdict
        open_choice = self._open_choice
        if open_choice is None:
            return verdict
        state, ambiguous, options = open_choice
        if isinstance(verdict, Waiting) or state is not self.match.state:
            self._open_choice = None
            return verdict
        if not isinstance(verdict, Wrong) or not can("move_made", self.state):
            return verdict
        judged = [
            self.reconciler.reconcile(
                [*self.match.states, *(step.after for step in offer.steps)],
                self.board.sensed,
                self.board.pulses,
                deep=self.board.deep_done,
            )
            for offer in options
        ]
        explains = [n for n, v in enumerate(judged) if not isinstance(v, Wrong | Takeback)]
        if len(explains) == 1:
            log.info("the board shows the choice: %s", options[explains[0]].text)
            self._fire("move_made", options[explains[0]].steps)
        elif explains:
            self.board.verdict = Ambiguous(tuple(ambiguous.candidates[n] for n in explains))
        elif isinstance(judged[0], Wrong):
            self.board.verdict = replace(judged[0], undone=verdict.undone)
        return self.board.verdict

    def _step_cursor(self, now: float) -> None:
        options = self._current_offers()
        if not options:
            raise ControllerError("there is nothing to choose now")
        self.cursor = 0 if self.cursor is None else (self.cursor + 1) % len(options)
        self.cursor_at = now
        log.info("option %d of %d: %s", self.cursor + 1, len(options), options[self.cursor].text)

    def _take(self, offer: Offer) -> None:
        """Play the option chosen; a board that does not show it must follow,
        unless the board left the choice open and has gone on from this option
        (the next stick already laid)."""
        log.info("chose %s", offer.text)
        open_choice = self._open_choice
        on_board = open_choice is not None and open_choice[0] is self.match.state
        self._fire("move_made", offer.steps)
        if on_board and not isinstance(self.board.verdict, Wrong | Takeback):
            return
        self.board.refuse(self.reconciler.expect(self.match.state).key, behind=True)
        self._judge(deep=self.settled_for() >= 0)

    # -- side effects (transition callbacks) --------------------------------
    def commit(self, steps: tuple[Step, ...], *_: Any) -> None:
        """Record and play the actions of a settled board (or of a choice, or
        chance's outcome), in order."""
        touched: set[str] = set()
        for step in steps:
            before = self.match.state
            public = self.engine.public_action(before, step.action)
            excluded = self.opponent.committed(len(self.match.actions), step.action)
            self.recorder.record(self.engine.format_action(step.action), public, excluded)
            self.match.play(step.action)
            self.public_moves.append(public)
            touched |= step.changed | self.engine.highlight(before, step.action)
            log.info("played %s", public)
        self.last_move = frozenset(touched)
        self.cursor = None
        self._open_choice = None
        if self._told_undone is not None and len(self.match.actions) > self._told_undone[0]:
            self._told_undone = None  # the game is past where they were
        self.board.played()
        if self.match.outcome().over:
            self.recorder.finish(self.match.summary())
        self._judge(deep=self.settled_for() >= 0)

    def withdraw(self, steps: int, block: bool = False, *_: Any) -> None:
        """Take ``steps`` actions back. After an operator's undo the board
        still shows the undone action: ``block`` refuses that very board as a
        move until it has been put back."""
        steps = min(steps, len(self.match.actions))
        self.recorder.undo(steps)
        texts: list[str] = []
        told: list[str] = []
        first_told = 0
        for _step in range(steps):
            before, action = self.match.states[-2], self.match.actions[-1]
            self.match.undo()
            text = self.public_moves.pop()
            if not chances.chance_acts(self.engine, before):
                texts.append(text)
                if not block and self.engine.told(before, action):
                    told.insert(0, text)
                    first_told = len(self.match.actions)
            log.info("took back %s", text)
        self.opponent.withdrawn(len(self.match.actions))
        # the board cannot show a told action: it must be told again
        self._told_undone = (first_told, tuple(told)) if told else None
        self.last_move = frozenset()
        self.cursor = None
        self._open_choice = None
        self.chance_asked = False
        if block:
            self.board.refuse(self.reconciler.expect(self.match.state).key, tuple(texts))
        else:
            self.board.release()
        self._judge(deep=self.settled_for() >= 0)

    def start_game(self, engine: Engine[Any, Any], *_: Any) -> None:
        self.engine = engine
        self.match = Match(engine)
        self.public_moves = []
        self.reconciler = Reconciler(engine, self.profile)
        self.last_move = frozenset()
        self._open_choice = None
        self._told_undone = None
        self.chance_asked = False
        self.board.new_game()
        self.seed = self.chance.new_seed() if self.chance is not None else None
        self.opponent.begin(self._seated(self.next_seats))
        self.next_seats = self.next_seats.unseeded()  # a game's number is its own
        self.recorder.begin(engine.name, engine.options_json(), self.seed, self.opponent.seats)
        self._direct()
        self._judge(deep=self.settled_for() >= 0)

    def start_next_game(self, *_: Any) -> None:
        self.start_game(self.engines(*self.next_game))

    # -- what to show -------------------------------------------------------
    def _legal_sites(self) -> frozenset[str]:
        """The sites to light for every legal action in the current state (each
        one's highlight), as reconciliation works them out once per state."""
        return self.reconciler.expect(self.match.state).highlights

    def view(self) -> View:
        """A snapshot of what the LEDs must show and the status says now."""
        phase = self.state
        verdict = self.board.verdict
        open_offers: tuple[Offer, ...] = ()
        if phase is Phase.CHOOSING or isinstance(verdict, Ambiguous):
            open_offers = self._current_offers()
        computer = self._computer_view()
        playing = (
            phase in PLAYING
            and computer is None
            and not chances.chance_acts(self.engine, self.match.state)
        )
        scene = Scene(
            phase=phase,
            since=self.since,
            board_name=self.profile.name,
            last_move=self.last_move,
            legal=self._legal_sites() if playing else frozenset(),
            offers=open_offers,
            cursor=self.cursor,
            fault=self.fault if phase is Phase.FAULT else None,
            fault_kind=(self.fault_kind or Fault.SENSORS) if phase is Phase.FAULT else None,
            chance=(
                "operator"
                if self.chance is None
                else "button"
                if self.chance_on_button
                else "random"
            ),
            public_moves=tuple(self.public_moves),
            told_undone=self._told_undone[1] if self._told_undone else (),
            seats=self.opponent.seats,
            computer=computer,
        )
        return build_view(scene, self.engine, self.match, self.board, self.reconciler)

    def status(self) -> dict[str, Any]:
        """What ``boardctl status`` prints."""
        return status_of(self.view())

    def next_deadline(self) -> float | None:
        """The next time at which the controller must act although nothing
        happened (settle, grace, takeback, attract, putting a game away, forgetting a pulse,
        confirming an option picked with the buttons, asking a failed
        computer player again)."""
        times: list[float] = []
        base = self.board.changed_at + self.board.settle_time(
            self.timing.settle, self.timing.settle_gated
        )
        for extra in (0.0, self.timing.grace, self.timing.takeback_hold, self.timing.clear_hold):
            times.append(base + extra)
        times.append(self.board.changed_at + self.timing.in_progress)
        if self.timing.attract_after > 0 and self.state is not Phase.ATTRACT:
            times.append(self.board.activity_at + self.timing.attract_after)
        times.extend(t + self.timing.pulse_memory for t in self.board.pulses.values())
        put_away = idle.put_away_at(
            self.state,
            self.board.activity_at,
            played=len(self.match.actions),
            over=bool(self.match.actions) and self.match.outcome().over,
            timing=self.timing,
            awaited=self._awaited(),
        )
        if put_away is not None:
            times.append(put_away[0])
        if self.cursor is not None:
            times.append(self.cursor_at + self.timing.choose_hold)
        if self.state is Phase.FAULT and self.fault_kind is Fault.STORAGE:
            times.append(self.fault_at + self.timing.retry_save)
        if self.opponent.failure is not None:
            times.append(self.opponent.failed_at + self.opponent.retry)
        future = [t for t in times if t > self.now]
        return min(future) if future else None
