"""The controller: the board, the rules and the LEDs kept in step.

:class:`Controller` is the model of the phase machine (:mod:`.phases`). It is
run by one loop, which hands it sensor events, operator commands and ticks,
each with the time it happened (the controller never reads the clock), and
asks it for a :class:`~.view.View` to draw. It tracks the board with a
:class:`~.tracking.BoardTracker`, asks the machine's pure conditions where the
game stands, and does the side effects in the transitions' callbacks
(recording an action, playing it, starting a game), so an action is in the
record before the LEDs that show it are computed.

Its other jobs live next to it, each in a module of its own: the operator's
commands (:mod:`.commands`), the buttons (:mod:`.buttons`), the choice on
offer and its cursor (:mod:`.cursor`), chance's outcomes drawn
(:class:`~.chance.Draws`), the view (:mod:`.present`) and the deadlines
(:mod:`.deadlines`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from boardctl.board import BoardProfile
from boardctl.controller import buttons, commands, idle
from boardctl.controller import chance as chances
from boardctl.controller.amending import Amendable
from boardctl.controller.choosing import Offer, steps_of
from boardctl.controller.commands import ControllerError, checked_seats
from boardctl.controller.confirming import Asking
from boardctl.controller.cursor import Choice
from boardctl.controller.deadlines import next_deadline
from boardctl.controller.opponent import (
    ComputerView,
    Opponent,
    OpponentEvent,
    RemoteFailed,
    RemoteMoved,
    Thinker,
)
from boardctl.controller.phases import Conditions, Step, Timing, build_machine, can, observes
from boardctl.controller.present import Scene, Status, build_view
from boardctl.controller.reconcile import (
    Ambiguous,
    Played,
    Reconciler,
    Takeback,
    Verdict,
    Wrong,
)
from boardctl.controller.recorder import NullRecorder, Recorder
from boardctl.controller.tracking import BoardTracker
from boardctl.controller.view import PLAYING, Fault, Phase, View, status_of
from boardctl.engines import Engine, Match, create
from boardctl.seats import ALL_HANDS, COMPUTER, Seats
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

#: builds the engine of a game with its options (:func:`boardctl.engines.create`)
EngineFactory = Callable[[str, Mapping[str, Any]], Engine[Any, Any]]


class Controller(Conditions):
    """The board of one profile, its current game, and what its LEDs show.

    ``profile`` is the board; ``game``/``options`` the game to play (the
    profile's own by default); ``recorder`` receives every game and action
    before it shows; ``resume`` is ``(game, options, moves)`` of a game to go
    on with, ``seed`` its stored seed. ``chance`` draws chance's outcomes
    (without one they come from an operator or the board), each one only
    once the choose button is pressed with ``chance_on_button``; with
    ``chance_by_operator`` an operator gives the outcomes the room may know
    (a die) and ``chance`` draws only the secret ones (a card dealt face
    down, :func:`.chance.secret`); ``engines`` builds
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
        chance_by_operator: bool = False,
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
        #: how chance's outcomes come (drawn at once, at a press, or given)
        self.draws = chances.Draws(chance, chance_on_button, chance_by_operator)
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
        #: the choice on offer: its options, the cursor, one the board left open
        self.choice = Choice()
        #: the new or mode button pressed once in a game under way: what a
        #: second press will do, until when (:mod:`.buttons`)
        self.asking: Asking | None = None
        #: told actions a takeback by the board undid, and the number of
        #: actions before the first of them: shown until the game is past it
        self._told_undone: tuple[int, tuple[str, ...]] | None = None
        #: the newest actions read off the board while they may be amended (:mod:`.amending`)
        self.amendable: Amendable | None = None
        #: the board (its last change) and position a wrong board was last
        #: read in the order its sites changed for
        self._asked_in_time_order: tuple[float, Any] | None = None
        #: the last view's status (the next view keeps it while it says the same)
        self._status: Status | None = None
        configured = engines(
            game or profile.game, profile.game_options if options is None else options
        ).seated(seats.computers)
        #: the game the next one is (the configured one, then the operator's choice)
        self.next_game: tuple[str, Mapping[str, Any]] = (
            configured.name,
            configured.options_json(),
        )
        self.seeds = seeds or (chance.new_seed if chance is not None else None)
        self.opponent = Opponent(thinker, retry=self.timing.retry_think, remote=remote, phone=phone)
        #: who plays each seat of the next game
        self.next_seats = checked_seats(self, seats, configured)
        if resume is not None:
            r_game, r_options, moves = resume
            self.engine = engines(r_game, r_options)
            self.match: Match[Any, Any] = Match.from_moves(self.engine, moves)
            self.seed = seed if seed is not None or chance is None else chance.new_seed()
            # the resumed game's seats with their seeds: its computer thinks on as it would have
            resumed = resume_seats or ALL_HANDS
            checked_seats(self, resumed, self.engine)
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
        #: the moves as the view shows them (a tuple kept while they stand)
        self._shown_moves: tuple[str, ...] | None = None
        self.reconciler = Reconciler(self.engine, profile)
        self.machine = build_machine(self)
        if resume is not None and self._amendable_on_resume():
            # a power cut inside the amend window kept the action shown first
            self.amendable = Amendable.on_resume(
                tuple(self.match.states), tuple(self.match.actions)
            )

    def _amendable_on_resume(self) -> bool:
        """Whether the resumed game's last action may be amended by the board
        (:meth:`.amending.Amendable.on_resume`): one the hands made, as the
        window is opened for, in a game not over and not shared with another
        board."""
        if not self.match.actions or self.match.outcome().over:
            return False
        before, action = self.match.states[-2], self.match.actions[-1]
        return not (
            self.opponent.seats.any_remote
            or chances.chance_acts(self.engine, before)
            or self.engine.told(before, action)
        )

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

    @property
    def chance(self) -> chances.ChanceSource | None:
        """What draws chance's outcomes here (None: an operator gives them)."""
        return self.draws.source

    @property
    def seats(self) -> Seats:
        """Who plays each seat of the game under way (with the computer's seeds)."""
        return self.opponent.seats

    # -- the machine's hooks -----------------------------------------------
    def fire(self, trigger: str, *args: Any) -> None:
        """Fire ``trigger``, which must be valid in the current phase."""
        getattr(self, trigger)(*args)

    def _try(self, trigger: str, *args: Any) -> bool:
        """Fire ``trigger`` if it is valid in the current phase."""
        if not can(trigger, self.state):
            return False
        self.fire(trigger, *args)
        return True

    def entered(self, *args: Any) -> None:
        self.since = self.now
        if self.state is not Phase.CHOOSING:
            self.choice.let_go()
        if log.isEnabledFor(logging.DEBUG):  # the phase's name read only when logged
            log.debug("controller: %s", self.state.value)

    # -- entry points for the loop -------------------------------------------
    def start(self, now: float) -> None:
        """Begin: wait for the sensors (again, a second call changes nothing)."""
        self.now = now
        if self.state is Phase.STARTING:
            self.since = self.board.activity_at = now
            self.fire("begin")

    def feed(self, event: SensorEvent, now: float) -> None:
        """One event from a sensor source, followed at once (:meth:`update`)."""
        if self.sense(event, now):
            self.update(now)

    def sense(self, event: SensorEvent, now: float) -> bool:
        """Take one event from a sensor source in: the board judged again, a
        link's fault noted, a button's press acted on. True when the board is
        to be followed (:meth:`update`) after it: the loop's turn takes every
        event queued first, then follows the board once, in its :meth:`tick`."""
        self.now = now
        if isinstance(event, SensorChange):
            if self.board.change(event, now):
                self.judge(deep=False)
        elif isinstance(event, SensorSnapshot):
            self.board.snapshot(event.values, now)
            self.judge(deep=False)
            if self.state in (Phase.LINKING, Phase.FAULT):
                self._clear_fault()
        elif isinstance(event, LinkUp):
            log.info("sensors answer: %s", event.description)
        elif isinstance(event, LinkDown):
            log.warning("sensors stopped answering: %s", event.reason)
            self.board.lost()
            self.fault, self.fault_kind, self.fault_at = event.reason, Fault.SENSORS, now
            self._try("link_down")
            return False
        elif isinstance(event, ButtonPress):
            self.board.activity_at = now
            self.button(event.button, now)
            return False
        return True

    def tick(self, now: float) -> None:
        """Time passed: settle, grace, attract, a choice confirmed; a game that
        could not be saved is tried again."""
        self.now = now
        buttons.lapse(self, now)
        if (
            self.state is Phase.FAULT
            and self.fault_kind is Fault.STORAGE
            and self.board.have_snapshot
            and now - self.fault_at >= self.timing.retry_save
        ):
            log.debug("trying again to save the game")
            self._clear_fault()  # what failed is done again: it fails again, or plays
        self.update(now)

    def _clear_fault(self) -> None:
        self.fault, self.fault_kind = None, None
        # the time in the fault was no one leaving the board: its idle times start again
        self.board.activity_at = max(self.board.activity_at, self.now)
        self.fire("link_up")

    def button(self, name: str, now: float) -> None:
        """A button: ``new``, ``undo``, ``mode``, ``choose`` (:mod:`.buttons`)."""
        buttons.press(self, name, now)

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

    # -- operators' commands (:mod:`.commands`) -------------------------------
    def new(
        self,
        game: str | None,
        options: Mapping[str, Any] | None,
        now: float,
        seats: Seats | None = None,
    ) -> None:
        """An operator starts a new game (:func:`.commands.new`)."""
        commands.new(self, game, options, now, seats)

    def next_variant(self, now: float) -> None:
        """A new game in the game's next variant (:func:`.commands.next_variant`)."""
        commands.next_variant(self, now)

    def undo(self, now: float) -> str:
        """An operator takes the last action back (:func:`.commands.undo`)."""
        return commands.undo(self, now)

    def choose(self, text: str, now: float) -> str:
        """An operator picks an option of the choice (:func:`.commands.choose`)."""
        return commands.choose(self, text, now)

    def roll(self, text: str, now: float) -> str:
        """An operator gives chance's outcome (:func:`.commands.roll`)."""
        return commands.roll(self, text, now)

    def play(self, text: str, now: float, ply: int | None = None) -> str:
        """A person tells a player's action (:func:`.commands.play`)."""
        return commands.play(self, text, now, ply)

    def another(self, now: float) -> str:
        """Another move of the computer's (:func:`.commands.another`)."""
        return commands.another(self, now)

    # -- the computer's and the other players' seats -------------------------
    def _seated(self, seats: Seats, keep: bool = False) -> Seats:
        """The seats of a game that begins: each computer seat with a seed of
        its own (``keep``: the seeds it has, a seat without one seeded)."""
        if not seats.any_apart or self.seeds is None:
            return seats
        return seats.seeded(self.seeds, keep=keep)

    def computer_view(self) -> ComputerView | None:
        """The seat played apart that is to act: thinking, its move shown, or failed."""
        if self.state not in PLAYING and self.state is not Phase.SETUP:
            return None
        return self.opponent.view(self.engine, self.match)

    def computer_shows_move(self) -> bool:
        shown = self.computer_view()
        return shown is not None and shown.doing == "ready" and shown.kind == COMPUTER

    def _follow_computer(self, now: float) -> None:
        """Ask for the computer's move when its seat is to act (and stop its
        thinking when the game has gone elsewhere, or the board sleeps or
        fails), then tell the reconciler what the board may show."""
        opponent = self.opponent
        if (
            opponent.plan is None
            and opponent.pending is None
            and not opponent.seats.any_apart
            and not self.reconciler.directing
        ):
            return  # every seat played here, nothing asked or shown, nothing directed
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
            self.fire("move_made", (Step(action, self.engine.apply(state, action)),))
            log.info("told for the computer: %s", self.engine.public_action(state, action))

    def _direct(self) -> None:
        only = self.opponent.directed(self.engine, self.match)
        if self.reconciler.direct(only, self.opponent.planned(self.engine, self.match)):
            self.judge(deep=self.settled_for() >= 0)

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
        self.update(now)

    # -- following the board --------------------------------------------------
    def judge(self, deep: bool) -> None:
        """Judge the board again against the game (``deep``: thoroughly)."""
        self.board.judge(self.reconciler, self.match.states, deep=deep)
        if self.opponent.seats.any_remote and isinstance(self.board.verdict, Takeback):
            # both boards keep one record: a move is never taken back at one alone
            self.board.verdict = self.board.to_restore(self.reconciler, self.match.state)

    def update(self, now: float) -> None:
        """Follow the board and the seats played apart after anything happened."""
        self._follow_board(now)
        self._follow_computer(now)

    def _follow_board(self, now: float) -> None:
        if self.state in _ASLEEP or not self.board.have_snapshot:
            return
        if self.board.forget_pulses(now, self.timing.pulse_memory):
            self.judge(deep=self.board.deep_done)
        if self._put_away(now):
            return
        if self.state is Phase.ATTRACT:
            if self.board.activity_at > self.since:
                self.fire("wake")
            else:
                return
        if self.settled_for() >= 0 and not self.board.deep_done:
            self.judge(deep=True)
        self.board.stalled(self.reconciler, self.match.state, now, self.timing.in_progress)
        verdict = self._amend(now, self._follow_open_choice())
        if self.settled_for() >= 0:
            verdict = self._play_settled(verdict, now)
        if (
            isinstance(verdict, Takeback)
            # offered first, on a turn of its own: a loop held up past the
            # hold still blinks what goes back before taking it back
            and self.state is Phase.TAKEBACK_OFFERED
            and self.settled_for() >= self.timing.takeback_hold
        ):
            self.fire("take_back", verdict.steps, False)
        if observes(self):
            self.fire("observe")
        verdict = self.board.verdict
        if self.state is Phase.CHOOSING and isinstance(verdict, Ambiguous) and not self.choice.open:
            self.choice.leave_open(self.match.state, verdict, self.offers())
        self._draw_chance()
        if self.state is Phase.CHOOSING and self.choice.confirmed(now, self.timing.choose_hold):
            options = self.offers()
            if self.choice.cursor is not None:  # still the same options
                self.take(options[self.choice.cursor])
        attract = self.timing.attract_after
        if attract > 0 and now - self.board.activity_at >= attract:
            self._try("doze")

    def _play_settled(self, verdict: Verdict, now: float) -> Verdict:
        """Play what a settled board shows, if the phase lets it (actions made
        together read in the order made); the verdict to follow then."""
        if isinstance(verdict, Wrong) and can("move_made", self.state):
            verdict = self._in_time_order(verdict, now)
        if isinstance(verdict, Played) and can("move_made", self.state):
            self._play_from_board(verdict, now)
        return verdict

    def _play_from_board(self, verdict: Played, now: float) -> None:
        """Play the actions the settled board shows; they stay amendable for
        a moment (:mod:`.amending`), unless they end the game or a seat is
        played at another board (both boards keep one record: an action sent
        there is never taken back here alone)."""
        before = tuple(self.match.states)
        completed_at = self.board.changed_at
        self.fire("move_made", steps_of(verdict.path))
        until = completed_at + self.timing.amend
        remote = self.opponent.seats.any_remote
        if self.state is not Phase.GAME_OVER and until > now and not remote:
            actions = tuple(o.action for o in verdict.path)
            self.amendable = Amendable(before, actions, self.match.state, now, until)

    def _in_time_order(self, verdict: Wrong, now: float) -> Verdict:
        """A settled board no action explains may show two players' actions
        made less than the settle time apart: play the first, in the order
        the sites changed (:meth:`.tracking.BoardTracker.first_in_time`),
        asked once per board and position. The verdict to follow then."""
        asked = (self.board.changed_at, self.match.state)
        if asked == self._asked_in_time_order:
            return verdict
        self._asked_in_time_order = asked
        first = self.board.first_in_time(self.reconciler, self.match.states)
        if first is None:
            return verdict
        log.info("the board shows actions made together: read in the order made")
        self._play_from_board(first, now)
        return self.board.verdict

    def _amend(self, now: float, verdict: Verdict) -> Verdict:
        """The board changed again right after its newest actions were played:
        take them back when it shows another action in their place (a disc
        slid on) or the position before them (a sleeve passed), at once and
        without a takeback offered, and play the action in their place: one
        write to the record (:meth:`.recorder.Recorder.amending`). The verdict
        to follow then."""
        window = self.amendable
        if window is None:
            return verdict
        board = self.board
        self.amendable, steps = window.follow(
            self.match.state,
            now,
            board.changed_at,
            self.settled_for() >= 0,
            verdict,
            lambda: self.reconciler.reconcile(
                window.before, board.sensed, board.pulses, deep=True, changed=board.site_changed
            ),
        )
        if steps and can("take_back", self.state):
            log.info(
                "%s: %s amended",
                "the resumed board shows another action" if window.resumed else "the hand went on",
                ", ".join(self.public_moves[-steps:]),
            )
            with self.recorder.amending():
                self.fire("take_back", steps, False, True)
                self._play_settled(self.board.verdict, now)
        return self.board.verdict

    def _awaited(self) -> bool:
        """A player away from the board (at another board, on a phone) is to act."""
        seat = self.opponent.seat_to_act(self.engine, self.match.state)
        return seat is not None and seat.person

    def _left_as(self) -> tuple[int, bool, bool]:
        """What putting the game away depends on (:func:`.idle.put_away_at`):
        the actions played, whether the game is over, whether a player away
        from the board is to act."""
        played = len(self.match.actions)
        return played, played > 0 and self.match.outcome().over, self._awaited()

    def _put_away(self, now: float) -> bool:
        """A game left alone long enough (:mod:`.idle`): the next game begins
        (the store keeps an unfinished one as abandoned) and the board waits
        in attract mode, lighting what to clear. True when it was put away."""
        if not idle.left_long_enough(self.board.activity_at, now, self.timing):
            return False
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
        self.fire("new_game", self._next_engine())
        self.fire("doze")
        return True

    def _draw_chance(self) -> None:
        """While the board is right and chance acts, play the outcomes drawn."""
        drew = False
        while self.state is Phase.AWAITING_MOVE:
            state = self.match.state
            action = self.draws.next(self.engine, state, self.seed, len(self.match.actions))
            if action is None:
                break
            drew = True
            self.fire("move_made", (Step(action, self.engine.apply(state, action)),))
            if observes(self):
                self.fire("observe")
        if drew:
            self.draws.drew(self.engine, self.match.state)

    # -- choosing (:mod:`.cursor`) ---------------------------------------------
    def offers(self) -> tuple[Offer, ...]:
        """The options open now (worked out once while the state and the verdict stand)."""
        return self.choice.offers(
            self.engine, self.reconciler, self.match.state, self.board.verdict
        )

    def _follow_open_choice(self) -> Verdict:
        """The verdict, once a board that left a choice open has gone on
        (:meth:`.cursor.Choice.follow`): the option it shows is played."""

        def judged(offer: Offer) -> Verdict:
            return self.reconciler.reconcile(
                [*self.match.states, *(step.after for step in offer.steps)],
                self.board.sensed,
                self.board.pulses,
                deep=self.board.deep_done,
            )

        verdict, shown = self.choice.follow(
            self.board.verdict, self.match.state, can("move_made", self.state), judged
        )
        if shown is not None:
            log.info("the board shows the choice: %s", shown.text)
            self.fire("move_made", shown.steps)
        else:
            self.board.verdict = verdict
        return self.board.verdict

    def take(self, offer: Offer) -> None:
        """Play the option chosen; a board that does not show it must follow,
        unless the board left the choice open and has gone on from this option
        (the next stick already laid)."""
        log.info("chose %s", offer.text)
        on_board = self.choice.on_board(self.match.state)
        self.fire("move_made", offer.steps)
        if on_board and not isinstance(self.board.verdict, Wrong | Takeback):
            return
        self.board.refuse(self.reconciler.expect(self.match.state).key, behind=True)
        self.judge(deep=self.settled_for() >= 0)

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
            self._shown_moves = None
            touched |= step.changed | self.engine.highlight(before, step.action)
            log.info("played %s", public)
        self.last_move = frozenset(touched)
        self.choice.closed()
        if self._told_undone is not None and len(self.match.actions) > self._told_undone[0]:
            self._told_undone = None  # the game is past where they were
        self.board.played()
        if self.match.outcome().over:
            self.recorder.finish(self.match.summary())
        self.judge(deep=self.settled_for() >= 0)

    def withdraw(self, steps: int, block: bool = False, amended: bool = False, *_: Any) -> None:
        """Take ``steps`` actions back. After an operator's undo the board
        still shows the undone action: ``block`` refuses that very board as a
        move until it has been put back. ``amended``: the hand went on from
        the newest actions before they were final (:mod:`.amending`)."""
        steps = min(steps, len(self.match.actions))
        self.recorder.undo(steps, amended=amended)
        texts: list[str] = []
        told: list[str] = []
        first_told = 0
        for _step in range(steps):
            before, action = self.match.states[-2], self.match.actions[-1]
            self.match.undo()
            text = self.public_moves.pop()
            self._shown_moves = None
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
        self.choice.closed()
        self.draws.forget()
        if block:
            self.board.refuse(self.reconciler.expect(self.match.state).key, tuple(texts))
        else:
            self.board.release()
        self.judge(deep=self.settled_for() >= 0)

    def start_game(self, engine: Engine[Any, Any], *_: Any) -> None:
        self.engine = engine
        self.match = Match(engine)
        self.public_moves = []
        self._shown_moves = None
        self.reconciler = Reconciler(engine, self.profile)
        self.last_move = frozenset()
        self.choice.open = None
        self._told_undone = None
        self.draws.forget()
        self.asking = None  # a new game from anywhere answers a button's question
        self.board.new_game()
        self.seed = self.draws.source.new_seed() if self.draws.source is not None else None
        self.opponent.begin(self._seated(self.next_seats))
        self.next_seats = self.next_seats.unseeded()  # a game's number is its own
        self.recorder.begin(engine.name, engine.options_json(), self.seed, self.opponent.seats)
        self._direct()
        self.judge(deep=self.settled_for() >= 0)

    def start_next_game(self, *_: Any) -> None:
        self.start_game(self._next_engine())

    def _next_engine(self) -> Engine[Any, Any]:
        """The engine of the next game: the one played, when the next game is
        the same game with the same options (an engine is pure: building
        another, tens of milliseconds for some, would hold up the loop)."""
        name, options = self.next_game
        engine = self.engine
        if engine.name == name and engine.options_json() == options:
            return engine
        return self.engines(name, options)

    # -- what to show (:mod:`.present`) and when to act (:mod:`.deadlines`) ---
    def view(self) -> View:
        """A snapshot of what the LEDs must show and the status says now."""
        phase = self.state
        open_offers: tuple[Offer, ...] = ()
        if phase is Phase.CHOOSING or isinstance(self.board.verdict, Ambiguous):
            open_offers = self.offers()
        scene = Scene(
            phase=phase,
            since=self.since,
            board_name=self.profile.name,
            last_move=self.last_move,
            offers=open_offers,
            cursor=self.choice.cursor,
            fault=self.fault,
            fault_kind=self.fault_kind,
            chance=self.draws.mode(self.engine, self.match.state),
            public_moves=self._moves_shown(),
            told_undone=self._told_undone[1] if self._told_undone else (),
            seats=self.opponent.seats,
            computer=self.computer_view(),
            asking=self.asking,
        )
        view = build_view(scene, self.engine, self.match, self.board, self.reconciler, self._status)
        assert isinstance(view.status, Status)
        self._status = view.status
        return view

    def _moves_shown(self) -> tuple[str, ...]:
        """:attr:`public_moves` as a tuple, built again only after a move or an undo."""
        shown = self._shown_moves
        if shown is None:
            shown = self._shown_moves = tuple(self.public_moves)
        return shown

    def status(self) -> dict[str, Any]:
        """What ``boardctl status`` prints."""
        return status_of(self.view())

    def next_deadline(self) -> float | None:
        """The next time at which the controller must act although nothing
        happened (:func:`.deadlines.next_deadline`)."""
        storage = self.state is Phase.FAULT and self.fault_kind is Fault.STORAGE
        return next_deadline(
            self.now,
            self.state,
            self.board,
            self.timing,
            game=self._left_as,
            option_taken_at=self.choice.deadline(self.timing.choose_hold),
            asked_until=self.asking.until if self.asking is not None else None,
            save_again_at=self.fault_at + self.timing.retry_save if storage else None,
            think_again_at=(
                self.opponent.failed_at + self.opponent.retry
                if self.opponent.failure is not None
                else None
            ),
        )
