"""The controller's state machine: the board, the rules and the LEDs kept in step.

:class:`Controller` is the model of a ``transitions`` machine (``queued=True``,
``auto_transitions=False``, states the :class:`~.view.Phase` enum). It is run
by one loop, which hands it sensor events, operator commands and ticks, each
with the time it happened (the controller never reads the clock), and asks it
for a :class:`~.view.View` to draw. Conditions are pure methods of the model;
side effects (recording an action, playing it, starting a game) live in the
transitions' callbacks, so an action is in the record before the LEDs that
show it are computed.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from transitions import Machine

from boardctl.board import BoardProfile, Reports
from boardctl.controller.reconcile import (
    Ambiguous,
    InProgress,
    Path,
    Played,
    Reconciler,
    Takeback,
    Verdict,
    Waiting,
    Wrong,
    diff_sites,
    layout_key,
)
from boardctl.controller.view import PLAYING, Phase, View
from boardctl.engines import Engine, Match, create
from boardctl.errors import BoardctlError
from boardctl.sensing import (
    ButtonPress,
    LinkDown,
    LinkUp,
    SensorChange,
    SensorEvent,
    SensorSnapshot,
)

log = logging.getLogger(__name__)


class ControllerError(BoardctlError, ValueError):
    """A command the controller cannot carry out now (it says why)."""


@dataclass(frozen=True, slots=True)
class Timing:
    """How long the board must stay still before the controller acts, in seconds."""

    #: a changed board must stay unchanged this long before an action is accepted
    settle: float = 0.15
    #: a wrong board shows red only after this much longer
    grace: float = 1.5
    #: a board held in an earlier position this long takes the moves back
    takeback_hold: float = 3.0
    #: an empty board held this long after a game ends starts the next game
    clear_hold: float = 2.0
    #: a light-gate pulse is remembered this long if no action follows
    pulse_memory: float = 5.0
    #: no touch for this long starts the attract animation (0: never)
    attract_after: float = 600.0


class Recorder(Protocol):
    """Where games and actions are written before they show (see :mod:`.store`)."""

    def begin(self, game: str, options: Mapping[str, Any]) -> None: ...

    def record(self, move: str) -> None: ...

    def undo(self, steps: int) -> None: ...

    def finish(self, result: Mapping[str, Any]) -> None: ...


class NullRecorder:
    """Records nothing (for a controller without storage)."""

    def begin(self, game: str, options: Mapping[str, Any]) -> None:
        pass

    def record(self, move: str) -> None:
        pass

    def undo(self, steps: int) -> None:
        pass

    def finish(self, result: Mapping[str, Any]) -> None:
        pass


_ANY_PLAYING = sorted(PLAYING, key=lambda p: p.value)
_AWAKE = [Phase.SETUP, *_ANY_PLAYING, Phase.GAME_OVER]

#: every transition of the machine: trigger, sources, destination, conditions
TRANSITIONS: list[dict[str, Any]] = [
    {"trigger": "begin", "source": Phase.STARTING, "dest": Phase.LINKING},
    # the sensors answer (again)
    {
        "trigger": "link_up",
        "source": [Phase.LINKING, Phase.FAULT],
        "dest": Phase.SETUP,
        "conditions": "needs_setup",
    },
    {
        "trigger": "link_up",
        "source": [Phase.LINKING, Phase.FAULT],
        "dest": Phase.GAME_OVER,
        "conditions": "game_is_over",
    },
    {"trigger": "link_up", "source": [Phase.LINKING, Phase.FAULT], "dest": Phase.AWAITING_MOVE},
    {
        "trigger": "link_down",
        "source": [*_AWAKE, Phase.ATTRACT, Phase.LINKING],
        "dest": Phase.FAULT,
    },
    # the game cannot be saved: stop accepting moves until the next snapshot retries
    {"trigger": "cannot_save", "source": [*_AWAKE, Phase.ATTRACT], "dest": Phase.FAULT},
    # the board changed or settled: follow what it says
    {
        "trigger": "observe",
        "source": Phase.SETUP,
        "dest": Phase.AWAITING_MOVE,
        "conditions": "board_matches",
    },
    {
        "trigger": "observe",
        "source": Phase.GAME_OVER,
        "dest": Phase.SETUP,
        "conditions": "board_cleared",
        "before": "start_next_game",
    },
    *[
        {"trigger": "observe", "source": src, "dest": dst, "conditions": cond}
        for dst, cond in (
            (Phase.WRONG_BOARD, "board_wrong"),
            (Phase.TAKEBACK_OFFERED, "takeback_offered"),
            (Phase.MOVE_IN_PROGRESS, "board_busy"),
            (Phase.CHOOSING_SCORE, "score_expected"),
            (Phase.AWAITING_MOVE, "move_expected"),
        )
        for src in _ANY_PLAYING
        if src is not dst
    ],
    # a legal action (or the steps of one turn) on the board, settled; until the
    # board has shown the start layout, _reconcile finds no move on it (a piece
    # left over from the last game is not the first move of this one)
    *[
        {
            "trigger": "move_made",
            "source": [*_ANY_PLAYING, Phase.SETUP],
            "dest": dest,
            "conditions": cond,
            "before": "commit",
        }
        for dest, cond in (
            (Phase.GAME_OVER, ["ends_game"]),
            (Phase.CHOOSING_SCORE, ["leads_to_score"]),
            (Phase.AWAITING_MOVE, []),
        )
    ],
    # actions taken back: by the board held in an earlier position, or an operator
    {
        "trigger": "take_back",
        "source": [*_ANY_PLAYING, Phase.GAME_OVER],
        "dest": Phase.SETUP,
        "conditions": "back_to_start",
        "before": "withdraw",
    },
    {
        "trigger": "take_back",
        "source": [*_ANY_PLAYING, Phase.GAME_OVER],
        "dest": Phase.AWAITING_MOVE,
        "before": "withdraw",
    },
    {
        "trigger": "new_game",
        "source": [*_AWAKE, Phase.ATTRACT],
        "dest": Phase.SETUP,
        "before": "start_game",
    },
    # idle
    {
        "trigger": "doze",
        "source": [Phase.SETUP, Phase.AWAITING_MOVE, Phase.GAME_OVER],
        "dest": Phase.ATTRACT,
    },
    {"trigger": "wake", "source": Phase.ATTRACT, "dest": Phase.SETUP, "conditions": "needs_setup"},
    {
        "trigger": "wake",
        "source": Phase.ATTRACT,
        "dest": Phase.GAME_OVER,
        "conditions": "game_is_over",
    },
    {"trigger": "wake", "source": Phase.ATTRACT, "dest": Phase.AWAITING_MOVE},
]


def _quiet_transitions() -> None:
    """``transitions`` logs every trigger and state change at INFO, which
    floods the journal and sim.log; the controller logs what matters itself
    ("played W3"). Keep that library to its warnings unless debug logging was
    asked for (the root logger at DEBUG) or it was given a level of its own."""
    library = logging.getLogger("transitions")
    if library.level == logging.NOTSET and logging.getLogger().getEffectiveLevel() > logging.DEBUG:
        library.setLevel(logging.WARNING)


def build_machine(model: Any, initial: Phase = Phase.STARTING) -> Machine:
    _quiet_transitions()
    return Machine(
        model=model,
        states=Phase,
        transitions=TRANSITIONS,
        initial=initial,
        queued=True,
        auto_transitions=False,
        ignore_invalid_triggers=True,
        after_state_change="entered",
    )


class Controller:
    """The board of one profile, its current game, and what its LEDs show.

    ``profile`` is the board; ``game``/``options`` the game to play (the
    profile's own by default); ``recorder`` receives every game and action
    before it shows; ``resume`` is ``(game, options, moves)`` of a game to go
    on with. Every method takes ``now``, the loop's monotonic time in seconds.
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
    ) -> None:
        self.profile = profile
        self.timing = timing or Timing()
        self.recorder: Recorder = recorder or NullRecorder()
        self.values: list[int] = [0] * profile.channel_count
        self._pulse_channels = {
            s.channel: s.name
            for s in profile.sites
            if s.reports is Reports.PULSE and s.channel is not None
        }
        self.sensed: dict[str, str] = {}
        self.pulses: dict[str, float] = {}
        self.changed_at = 0.0
        self.activity_at = 0.0
        self.since = 0.0
        self.now = 0.0
        self.deep_done = False
        self.verdict: Verdict = Waiting()
        self.last_path: Path = ()
        self.blocked: frozenset[tuple[str, str]] | None = None
        #: the actions an operator undid while the board still showed them, in
        #: the order undone (the last played first), until the board is put right
        self.undone: tuple[str, ...] = ()
        self.have_snapshot = False
        #: False after a resume or a resync until the board has matched the game
        #: once: until then an earlier position is a board to restore, not a takeback
        self.trusted = False
        #: whether the board has shown the start layout since this game began
        #: (a resumed game with actions has): until then no action is accepted
        #: and the board is one to set up, with what to remove and to put back
        self.set_up = resume is not None and bool(resume[2])
        #: why the controller is in FAULT when the sensors are fine
        self.fault: str | None = None
        configured = create(
            game or profile.game, profile.game_options if options is None else options
        )
        #: the game the next one is (the configured one, then the operator's choice)
        self.next_game: tuple[str, Mapping[str, Any]] = (
            configured.name,
            configured.options_json(),
        )
        if resume is not None:
            r_game, r_options, moves = resume
            self.engine = create(r_game, r_options)
            self.match: Match[Any, Any] = Match.from_moves(self.engine, moves)
        else:
            self.engine = configured
            self.match = Match(self.engine)
            self.recorder.begin(self.engine.name, self.engine.options_json())
        self.reconciler = Reconciler(self.engine, profile)
        self.machine = build_machine(self)

    # -- the machine's hooks -----------------------------------------------
    def _fire(self, trigger: str, *args: Any) -> None:
        getattr(self, trigger)(*args)

    def entered(self, *args: Any) -> None:
        self.since = self.now
        log.debug("controller: %s", self.state.value)

    # -- entry points for the loop -------------------------------------------
    def start(self, now: float) -> None:
        """Begin: wait for the sensors."""
        self.now = self.since = self.activity_at = now
        self._fire("begin")

    def feed(self, event: SensorEvent, now: float) -> None:
        """One event from a sensor source."""
        self.now = now
        if isinstance(event, SensorChange):
            self._on_change(event, now)
        elif isinstance(event, SensorSnapshot):
            values = list(event.values[: len(self.values)])
            values += [0] * (len(self.values) - len(values))
            self.values = values
            self.have_snapshot = True
            self._sensed_changed(now)
            if self.state in (Phase.LINKING, Phase.FAULT):
                self.fault = None
                self._fire("link_up")
        elif isinstance(event, LinkUp):
            log.info("sensors answer: %s", event.description)
        elif isinstance(event, LinkDown):
            log.warning("sensors stopped answering: %s", event.reason)
            self.have_snapshot = False
            self.trusted = False
            self._fire("link_down")
            return
        elif isinstance(event, ButtonPress):
            self.activity_at = now
            self.button(event.button, now)
            return
        self._update(now)

    def tick(self, now: float) -> None:
        """Time passed: settle, grace, attract."""
        self.now = now
        self._update(now)

    def button(self, name: str, now: float) -> None:
        self.now = now
        if self.state is Phase.ATTRACT:
            self._fire("wake")
        try:
            if name == "new":
                self.new(None, None, now)
            elif name == "undo":
                self.undo(now)
            elif name == "mode":
                self.next_variant(now)
            else:
                log.warning("button %r does nothing: the buttons are new, undo and mode", name)
        except ControllerError as exc:
            log.warning("button %s: %s", name, exc)
        self._update(now)

    def fail(self, reason: str, now: float) -> None:
        """Something outside the board went wrong (the game cannot be saved):
        show a fault and accept no move; the next snapshot of the sensors tries
        again."""
        self.now = now
        self.fault = reason
        log.error("fault: %s", reason)
        self._fire("cannot_save")

    def new(self, game: str | None, options: Mapping[str, Any] | None, now: float) -> None:
        """An operator starts a new game (the profile's game, other options allowed)."""
        self.now = now
        game = game or self.engine.name
        if game != self.profile.game:
            raise ControllerError(
                f"this board ({self.profile.name}) plays {self.profile.game}, not {game}"
            )
        if self.state in (Phase.STARTING, Phase.LINKING, Phase.FAULT):
            raise ControllerError(
                f"cannot start a game while {self.state.value}: wait for the sensors"
            )
        engine = create(game, options if options is not None else self.engine.options_json())
        self.next_game = (engine.name, engine.options_json())
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
        """An operator takes the last action back; the board must follow."""
        self.now = now
        if not self.match.actions:
            raise ControllerError("nothing to undo: no action has been played")
        if self.state not in PLAYING and self.state is not Phase.GAME_OVER:
            raise ControllerError(f"cannot undo while {self.state.value}")
        text = self.engine.format_action(self.match.actions[-1])
        self._fire("take_back", 1, True)
        self._update(now)
        return text

    # -- sensing ----------------------------------------------------------
    def _on_change(self, event: SensorChange, now: float) -> None:
        if not 0 <= event.channel < len(self.values):
            return
        self.activity_at = now
        pulse = self._pulse_channels.get(event.channel)
        if pulse is not None:
            if event.value:
                self.pulses[pulse] = now
                self._reconcile(deep=False)
            return
        if self.values[event.channel] == event.value:
            return
        self.values[event.channel] = event.value
        self._sensed_changed(now)

    def _sensed_changed(self, now: float) -> None:
        sensed = self.profile.sensed_layout(tuple(self.values))
        if sensed != self.sensed:
            self.sensed = sensed
            self.changed_at = now
            self.activity_at = now
            if self.blocked is not None and layout_key(sensed) != self.blocked:
                self.blocked = None
        self._reconcile(deep=False)

    def _reconcile(self, deep: bool) -> None:
        self.deep_done = deep
        if self.blocked is not None:
            self.verdict = self._to_restore()
            return
        verdict = self.reconciler.reconcile(self.match.states, self.sensed, self.pulses, deep=deep)
        if isinstance(verdict, Waiting):
            self.trusted = True
            self.set_up = True
            self.undone = ()
        elif not self.set_up or (isinstance(verdict, Takeback) and not self.trusted):
            verdict = self._to_restore()
        elif isinstance(verdict, Wrong) and self.undone:
            verdict = Wrong(verdict.offending, verdict.restore, self.undone)
        self.verdict = verdict

    def _to_restore(self) -> Wrong:
        """The board as one to put right: what it holds that the current
        position does not, what it must get back, and the actions an operator
        undid that it still shows."""
        expected = self.reconciler.expect(self.match.state).layout
        diff = diff_sites(self.sensed, expected)
        return Wrong(
            frozenset(s for s in diff if s in self.sensed),
            {s: expected[s] for s in sorted(diff) if s in expected},
            self.undone,
        )

    def _update(self, now: float) -> None:
        if self.state in (Phase.STARTING, Phase.LINKING, Phase.FAULT) or not self.have_snapshot:
            return
        stale = [p for p, t in self.pulses.items() if now - t >= self.timing.pulse_memory]
        for p in stale:
            del self.pulses[p]
        if stale:
            self._reconcile(deep=self.deep_done)
        if self.state is Phase.ATTRACT:
            if self.activity_at > self.since:
                self._fire("wake")
            else:
                return
        if self.settled_for() >= 0 and not self.deep_done:
            self._reconcile(deep=True)
        verdict = self.verdict
        if self.state is not Phase.GAME_OVER and isinstance(verdict, Played):
            if self.settled_for() >= 0:
                self._fire("move_made", verdict.path)
        elif (
            isinstance(verdict, Takeback)
            and self.state not in (Phase.SETUP, Phase.GAME_OVER)
            and self.settled_for() >= self.timing.takeback_hold
        ):
            self._fire("take_back", verdict.steps, False)
        self._fire("observe")
        attract = self.timing.attract_after
        if attract > 0 and now - self.activity_at >= attract:
            self._fire("doze")

    # -- pure conditions ----------------------------------------------------
    def settled_for(self) -> float:
        """How long the board has been still beyond the settle time (negative:
        not settled yet)."""
        return self.now - self.changed_at - self.timing.settle

    def needs_setup(self) -> bool:
        return not self.match.actions

    def game_is_over(self) -> bool:
        return self.match.outcome().over

    def board_matches(self) -> bool:
        return isinstance(self.verdict, Waiting)

    def board_cleared(self) -> bool:
        start = self.reconciler.expect(self.engine.initial()).layout
        return self.sensed == start and self.settled_for() >= self.timing.clear_hold

    def board_wrong(self) -> bool:
        return isinstance(self.verdict, Wrong) and self.settled_for() >= self.timing.grace

    def takeback_offered(self) -> bool:
        return isinstance(self.verdict, Takeback) and self.settled_for() >= 0

    def board_busy(self) -> bool:
        verdict = self.verdict
        if isinstance(verdict, InProgress | Ambiguous | Played):
            return True
        if isinstance(verdict, Takeback):
            return self.settled_for() < 0
        return isinstance(verdict, Wrong) and self.settled_for() < self.timing.grace

    def score_expected(self) -> bool:
        return self.board_matches() and self.match.expects() == "score"

    def move_expected(self) -> bool:
        return self.board_matches() and self.match.expects() != "score"

    def ends_game(self, path: Path, *_: Any) -> bool:
        return self.engine.outcome(path[-1].state).over

    def leads_to_score(self, path: Path, *_: Any) -> bool:
        return self.engine.expects(path[-1].state) == "score"

    def back_to_start(self, steps: int, *_: Any) -> bool:
        return steps >= len(self.match.actions)

    # -- side effects (transition callbacks) --------------------------------
    def commit(self, path: Path, *_: Any) -> None:
        """Record and play the actions of a settled board, in order."""
        for option in path:
            self.recorder.record(option.text)
            self.match.play(option.action)
            log.info("played %s", option.text)
        self.last_path = path
        self.pulses.clear()
        self.undone = ()
        outcome = self.match.outcome()
        if outcome.over:
            self.recorder.finish(self.match.summary())
        self._reconcile(deep=self.settled_for() >= 0)

    def withdraw(self, steps: int, block: bool = False, *_: Any) -> None:
        """Take ``steps`` actions back. After an operator's undo the board
        still shows the undone action: ``block`` refuses that very board as a
        move until it has been put back."""
        steps = min(steps, len(self.match.actions))
        self.recorder.undo(steps)
        texts: list[str] = []
        for _step in range(steps):
            texts.append(self.engine.format_action(self.match.undo()))
            log.info("took back %s", texts[-1])
        self.last_path = ()
        self.pulses.clear()
        expected = self.reconciler.expect(self.match.state).key
        key = layout_key(self.sensed)
        if block and key != expected:
            # undone again on the same board: it shows those actions too
            earlier = self.undone if self.blocked == key else ()
            self.blocked = key
            self.undone = (*earlier, *texts)
        else:
            self.blocked = None
            self.undone = ()
        self._reconcile(deep=self.settled_for() >= 0)

    def start_game(self, engine: Engine[Any, Any], *_: Any) -> None:
        self.engine = engine
        self.match = Match(engine)
        self.reconciler = Reconciler(engine, self.profile)
        self.last_path = ()
        self.pulses.clear()
        self.blocked = None
        self.undone = ()
        self.trusted = False
        self.set_up = False
        self.recorder.begin(engine.name, engine.options_json())
        self._reconcile(deep=self.settled_for() >= 0)

    def start_next_game(self, *_: Any) -> None:
        self.start_game(create(*self.next_game))

    # -- what to show -------------------------------------------------------
    def view(self) -> View:
        """A snapshot of what the LEDs must show now."""
        state = self.state
        verdict = self.verdict
        exp = self.reconciler.expect(self.match.state)
        to_move = self.match.to_move()
        legal: frozenset[str] = frozenset()
        if state in PLAYING:
            legal = frozenset(s for o in exp.options for s in o.marks)
        last = frozenset(s for o in self.last_path for s in o.changed | o.named)
        destinations: frozenset[str] = frozenset()
        lifted: frozenset[str] = frozenset()
        ambiguous = False
        offending: frozenset[str] = frozenset()
        restore: frozenset[str] = frozenset()
        takeback: frozenset[str] = frozenset()
        if isinstance(verdict, InProgress):
            destinations, lifted = verdict.destinations, verdict.lifted
        elif isinstance(verdict, Ambiguous):
            destinations, ambiguous = verdict.sites, True
        elif isinstance(verdict, Played):
            destinations = frozenset(s for o in verdict.path for s in o.changed)
        elif isinstance(verdict, Wrong):
            offending, restore = verdict.offending, frozenset(verdict.restore)
        elif isinstance(verdict, Takeback):
            takeback = frozenset(diff_sites(self.sensed, exp.layout))
        outcome = self.match.outcome()
        winning: frozenset[str] = frozenset()
        if outcome.over:
            lines = getattr(self.engine, "winning_sites", None)
            winning = frozenset(lines(self.match.state)) if lines is not None else last
        return View(
            phase=state,
            players=self.engine.players,
            to_move=to_move,
            legal=legal,
            last_move=last,
            destinations=destinations,
            lifted=lifted,
            ambiguous=ambiguous,
            offending=offending,
            restore=restore,
            takeback=takeback,
            winner=outcome.winner,
            winning=winning,
            since=self.since,
        )

    def next_deadline(self) -> float | None:
        """The next time at which the controller must act although nothing
        happened (settle, grace, takeback, attract, forgetting a pulse)."""
        times: list[float] = []
        base = self.changed_at + self.timing.settle
        for extra in (0.0, self.timing.grace, self.timing.takeback_hold, self.timing.clear_hold):
            t = base + extra
            if t > self.now:
                times.append(t)
        if self.timing.attract_after > 0 and self.state is not Phase.ATTRACT:
            times.append(self.activity_at + self.timing.attract_after)
        times.extend(t + self.timing.pulse_memory for t in self.pulses.values())
        future = [t for t in times if t > self.now]
        return min(future) if future else None

    def status(self) -> dict[str, Any]:
        """What ``boardctl status`` prints."""
        summary = self.match.summary()
        verdict = self.verdict
        summary.update(
            {
                "phase": self.state.value,
                "board": self.profile.name,
                "moves": self.match.moves_text(),
                "verdict": type(verdict).__name__.lower(),
            }
        )
        if self.fault is not None:
            summary["fault"] = self.fault
        if isinstance(verdict, Ambiguous):
            summary["candidates"] = [[o.text for o in p] for p in verdict.candidates]
        if isinstance(verdict, Wrong):
            summary["offending"] = sorted(verdict.offending)
            summary["restore"] = dict(verdict.restore)
            if verdict.undone:
                summary["undone_on_board"] = list(verdict.undone)
        return summary
