"""The controller's phase machine: the transitions table and its pure conditions.

The machine is a ``transitions`` machine (``queued=True``,
``auto_transitions=False``, states the :class:`~.view.Phase` enum) whose model
is the :class:`~.machine.Controller`. An invalid trigger raises
(``ignore_invalid_triggers=False``): the controller fires a trigger only in a
phase that :func:`can` names for it. The conditions (:class:`Conditions`) only
ask questions; the side effects (recording and playing an action, starting a
game) are the controller's callbacks, named in the table.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from transitions import Machine

from boardctl.controller.reconcile import (
    Ambiguous,
    InProgress,
    Played,
    Reconciler,
    Takeback,
    Waiting,
    Wrong,
)
from boardctl.controller.tracking import BoardTracker
from boardctl.controller.view import PLAYING, Phase
from boardctl.engines import Engine, Match


@dataclass(frozen=True, slots=True)
class Timing:
    """How long the board must stay still before the controller acts, in seconds."""

    #: a changed board must stay unchanged this long before an action is
    #: accepted (and shown: it stays amendable for ``amend``)
    settle: float = 0.06
    #: ... this long when it shows an action whose light gate broke on the way
    #: (a marble pushed in: the gate is the hand's own evidence, a sleeve
    #: passing over a cell breaks none); never longer than ``settle``
    settle_gated: float = 0.06
    #: an action read off the board stays amendable while the board changes
    #: again within this long of the reading that completed it (a disc slid on,
    #: a sleeve passing; :mod:`.amending`); no longer than ``settle``: none
    amend: float = 0.15
    #: a wrong board shows red only after this much longer
    grace: float = 1.5
    #: a board held in an earlier position this long takes the moves back
    takeback_hold: float = 3.0
    #: an empty board held this long after a game ends starts the next game
    clear_hold: float = 2.0
    #: a board on its way to an action (a marble in transit, a piece lifted)
    #: that stays unchanged this long is a wrong board, with what to fix lit
    in_progress: float = 4.0
    #: a light-gate pulse is remembered this long if no action follows
    pulse_memory: float = 5.0
    #: no touch for this long starts the attract animation (0: never)
    attract_after: float = 600.0
    #: a game under way that nobody touches for this long is saved as
    #: abandoned, and the board waits in attract mode for the next visitor (0: never)
    abandon_after: float = 1200.0
    #: a finished game left standing this long is put away the same way (0: never)
    finished_after: float = 300.0
    #: an option picked with the buttons is taken when no button is pressed for this long
    choose_hold: float = 3.0
    #: a game that could not be saved is tried again this often (space may be freed)
    retry_save: float = 5.0
    #: the computer player that failed (its process stopped) is asked again this often
    retry_think: float = 5.0


@dataclass(frozen=True, slots=True)
class Step:
    """One action the controller plays: the state it leads to and the sites
    of this board it changed (empty for an action not read from the board)."""

    action: Any
    after: Any = field(repr=False, compare=False)
    changed: frozenset[str] = frozenset()


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
        "dest": Phase.CHOOSING,
        "conditions": "choice_open",
    },
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
    # from a playing phase at most one of these holds (a test checks it), so
    # they are listed the likeliest first: ``transitions`` tries them in order
    *[
        {"trigger": "observe", "source": src, "dest": dst, "conditions": cond}
        for dst, cond in (
            (Phase.MOVE_IN_PROGRESS, "board_busy"),
            (Phase.AWAITING_MOVE, "move_expected"),
            (Phase.WRONG_BOARD, "board_wrong"),
            (Phase.TAKEBACK_OFFERED, "takeback_offered"),
            (Phase.CHOOSING, "choice_open"),
        )
        for src in _ANY_PLAYING
        if src is not dst
    ],
    # actions to play: a legal action (or the steps of one turn) on the board,
    # settled; an option chosen; chance's outcome. Until the board has shown
    # the start layout, the board yields no action (a piece left over from the
    # last game is not the first move of this one)
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
            (Phase.CHOOSING, ["leads_to_choice"]),
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


def _sources() -> dict[str, frozenset[Phase]]:
    out: dict[str, set[Phase]] = {}
    for t in TRANSITIONS:
        src = t["source"]
        out.setdefault(t["trigger"], set()).update(src if isinstance(src, list) else [src])
    return {trigger: frozenset(phases) for trigger, phases in out.items()}


#: the phases in which each trigger is valid
SOURCES: dict[str, frozenset[Phase]] = _sources()


def can(trigger: str, phase: Phase) -> bool:
    """Whether ``trigger`` is valid in ``phase`` (any other fires an error)."""
    return phase in SOURCES[trigger]


def _observed() -> dict[Phase, tuple[tuple[str, ...], ...]]:
    out: dict[Phase, list[tuple[str, ...]]] = {}
    for t in TRANSITIONS:
        if t["trigger"] != "observe":
            continue
        assert "unless" not in t, "observes() reads only conditions"
        src = t["source"]
        conditions = t.get("conditions", ())
        named = (conditions,) if isinstance(conditions, str) else tuple(conditions)
        for phase in src if isinstance(src, list) else [src]:
            out.setdefault(phase, []).append(named)
    return {phase: tuple(ways) for phase, ways in out.items()}


#: the conditions of each ``observe`` transition, by the phase it leaves
_OBSERVED = _observed()


def observes(model: Any) -> bool:
    """Whether firing ``observe`` now moves the machine out of the model's
    phase: the conditions of one of its transitions from there all hold.
    The conditions are pure and ``observe`` is fired only at the top of the
    loop's turn (never from a callback), so firing it when this is False
    changes nothing: the controller asks this first, and most turns the
    machine is not asked at all (``transitions`` takes a few dozen calls to
    find that no transition is taken)."""
    ways = _OBSERVED.get(model.state)
    if ways is None:
        return True  # not valid in this phase: fired, the machine says so
    # any way whose conditions all hold (plain loops: asked twice every turn,
    # where any() and all() over generators took two dozen calls)
    for way in ways:
        for condition in way:
            if not getattr(model, condition)():
                break
        else:
            return True
    return False


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
        ignore_invalid_triggers=False,
        after_state_change="entered",
    )


class Conditions:
    """The machine's conditions: questions about the board and the game,
    answered without changing anything."""

    board: BoardTracker
    engine: Engine[Any, Any]
    match: Match[Any, Any]
    reconciler: Reconciler
    timing: Timing
    now: float

    def settled_for(self) -> float:
        """How long the board has been still beyond the settle time (negative:
        not settled yet)."""
        timing = self.timing
        return self.board.settled_for(self.now, timing.settle, timing.settle_gated)

    def needs_setup(self) -> bool:
        return not self.match.actions

    def game_is_over(self) -> bool:
        return self.match.outcome().over

    def board_matches(self) -> bool:
        return isinstance(self.board.verdict, Waiting)

    def board_cleared(self) -> bool:
        """The board shows the start of a game, or nothing at all (a game
        that starts with pieces then asks for them), and has for a while."""
        start = self.reconciler.expect(self.engine.initial()).layout
        sensed = self.board.sensed
        return (sensed == start or not sensed) and self.settled_for() >= self.timing.clear_hold

    def board_wrong(self) -> bool:
        return isinstance(self.board.verdict, Wrong) and self.settled_for() >= self.timing.grace

    def takeback_offered(self) -> bool:
        return isinstance(self.board.verdict, Takeback) and self.settled_for() >= 0

    def choice_open(self) -> bool:
        """The mover picks one of several options: the engine says so, or the
        settled board is explained by actions that lead to different games."""
        verdict = self.board.verdict
        if isinstance(verdict, Ambiguous):
            return self.settled_for() >= 0
        return isinstance(verdict, Waiting) and self.engine.choosing(self.match.state)

    def board_busy(self) -> bool:
        verdict = self.board.verdict
        if isinstance(verdict, InProgress | Played):
            return True
        if isinstance(verdict, Takeback | Ambiguous):
            return self.settled_for() < 0
        return isinstance(verdict, Wrong) and self.settled_for() < self.timing.grace

    def move_expected(self) -> bool:
        return self.board_matches() and not self.engine.choosing(self.match.state)

    def ends_game(self, steps: tuple[Step, ...], *_: Any) -> bool:
        return self.engine.outcome(steps[-1].after).over

    def leads_to_choice(self, steps: tuple[Step, ...], *_: Any) -> bool:
        return self.engine.choosing(steps[-1].after)

    def back_to_start(self, steps: int, *_: Any) -> bool:
        return steps >= len(self.match.actions)
