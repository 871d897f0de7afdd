"""The controller's state machine, fed sensor events as hands make them."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from controller_support import Table, profile_for
from hypothesis import given, settings
from hypothesis import strategies as st

from boardctl.controller.machine import Controller, Timing
from boardctl.controller.phases import (
    SOURCES,
    TRANSITIONS,
    Conditions,
    build_machine,
    observes,
)
from boardctl.controller.reconcile import Ambiguous, InProgress, Played, Takeback, Waiting, Wrong
from boardctl.controller.view import PLAYING, Phase
from boardctl.engines import create
from boardctl.sensing import ButtonPress, LinkDown, LinkUp, SensorSnapshot
from boardctl.sim import hands


def _table(game: str = "shiftago", presence: bool = False, **options: object) -> Table:
    engine = create(game, options)
    profile = profile_for(engine, presence=presence, options=options)
    return Table(Controller(profile, timing=Timing(attract_after=60.0)))


def test_a_new_board_waits_for_the_sensors_then_plays() -> None:
    engine = create("shiftago")
    controller = Controller(profile_for(engine))
    assert controller.state is Phase.STARTING
    controller.start(0.0)
    assert controller.state is Phase.LINKING
    table = Table(controller)
    table.settle()
    assert controller.state is Phase.AWAITING_MOVE
    view = controller.view()
    assert view.to_move == 0
    assert view.legal == {f"{e}{i}" for e in "WE" for i in range(1, 8)} | {
        f"{e}{c}" for e in "SN" for c in "abcdefg"
    }


def test_an_insertion_is_played_once_the_board_settles() -> None:
    table = _table()
    c = table.controller
    table.apply(hands.insert(c.match.engine.board(), {}, "W3", "p0"))
    assert c.state is Phase.MOVE_IN_PROGRESS
    assert c.match.moves_text() == []
    table.settle()
    assert c.match.moves_text() == ["W3"]
    assert c.state is Phase.AWAITING_MOVE
    assert c.view().last_move == {"W3", "a3"}


def test_a_wrong_marble_blinks_only_after_the_grace_time_and_is_never_played() -> None:
    table = _table()
    c = table.controller
    table.hands("place d4 p1")
    assert c.state is Phase.MOVE_IN_PROGRESS
    table.wait(c.timing.grace)
    assert c.state is Phase.WRONG_BOARD
    assert c.view().offending == {"d4"}
    table.hands("lift d4")
    assert c.state is Phase.AWAITING_MOVE
    assert c.match.moves_text() == []


def test_a_lifted_duploline_disc_shows_where_it_may_go() -> None:
    table = _table("duploline")
    c = table.controller
    table.settle()
    for command in ("place d4 white-disc", "place d5 black-ring", "place e5 black-disc"):
        table.hands(command)
    assert c.match.moves_text() == ["D+d4", "R+d5", "D+e5"]
    table.hands("lift d4")
    view = c.view()
    assert c.state is Phase.MOVE_IN_PROGRESS
    assert "d5" in view.destinations and "d4" in view.lifted
    table.hands("place d5 white-disc")
    assert c.match.moves_text()[-1] == "Dd4-d5"


def test_operator_undo_waits_for_the_board_to_follow() -> None:
    table = _table()
    c = table.controller
    table.hands("insert W1", "p0")
    table.hands("insert E7", "p1")
    assert c.undo(table.now) == "E7"
    table.wait(c.timing.grace + 0.1)
    assert c.match.moves_text() == ["W1"]
    assert c.state is Phase.WRONG_BOARD
    assert c.view().offending == {"g7"}
    table.hands("lift g7")
    assert c.state is Phase.AWAITING_MOVE and c.view().to_move == 1


def test_a_board_held_in_an_earlier_position_takes_the_move_back() -> None:
    table = _table("duploline")
    c = table.controller
    table.hands("place d4 white-disc")
    table.hands("place d5 black-ring")
    table.hands("lift d5")
    assert c.state is Phase.TAKEBACK_OFFERED
    table.wait(c.timing.takeback_hold)
    assert c.match.moves_text() == ["D+d4"]
    assert c.state is Phase.AWAITING_MOVE


def test_a_takeback_is_offered_before_it_is_taken_even_when_the_loop_was_held_up() -> None:
    """The loop, busy elsewhere, first looks at the board held back after the
    whole hold has passed: the sites that would go back still blink (a turn
    shows the offer) before the move is taken back."""
    table = _table("duploline")
    c = table.controller
    table.hands("place d4 white-disc")
    table.hands("place d5 black-ring")
    table.apply(hands.lift(c.match.engine.board(), table.layout, "d5"))
    late = table.now + c.timing.settle + c.timing.takeback_hold + 0.5
    c.tick(late)
    assert c.state is Phase.TAKEBACK_OFFERED
    assert c.view().takeback == {"d5"}
    assert c.match.moves_text() == ["D+d4", "R+d5"]
    c.tick(late + 0.02)
    assert c.match.moves_text() == ["D+d4"]
    assert c.state is Phase.AWAITING_MOVE


def test_link_down_is_a_fault_and_play_resumes_after_resync() -> None:
    table = _table()
    c = table.controller
    table.hands("insert W1", "p0")
    c.feed(LinkDown("cable pulled"), table.now)
    assert c.state is Phase.FAULT
    c.feed(LinkUp("back"), table.now)
    c.feed(SensorSnapshot(tuple(c.values)), table.now)
    table.settle()
    assert c.state is Phase.AWAITING_MOVE
    assert c.match.moves_text() == ["W1"]


def test_idle_board_dozes_and_a_touch_wakes_it() -> None:
    table = _table()
    c = table.controller
    table.wait(61.0)
    assert c.state is Phase.ATTRACT
    c.feed(ButtonPress("mode"), table.now)
    assert c.state is Phase.AWAITING_MOVE


def test_the_state_diagram_in_docs_is_up_to_date() -> None:
    from boardctl.controller.diagram import mermaid

    doc = Path(__file__).parent.parent / "docs" / "controller-states.md"
    assert mermaid() in doc.read_text(), "run: python -m boardctl.controller.diagram --write"


def test_a_piece_left_over_from_the_last_game_is_never_the_first_move_of_a_new_one() -> None:
    table = _table()
    c = table.controller
    table.hands("insert W3", "p0")
    assert c.match.moves_text() == ["W3"]
    c.new(None, None, table.now)
    table.wait(c.timing.takeback_hold + c.timing.grace + 1.0)
    assert c.match.moves_text() == []
    assert c.state is Phase.SETUP
    view = c.view()
    assert view.offending == {"a3"} and view.legal == frozenset()
    table.hands("lift a3")
    assert c.state is Phase.AWAITING_MOVE
    table.hands("insert W3", "p0")
    assert c.match.moves_text() == ["W3"]


def test_a_leftover_duploline_piece_is_not_whites_opening() -> None:
    table = _table("duploline")
    c = table.controller
    table.hands("place d4 white-disc")
    assert c.match.moves_text() == ["D+d4"]
    c.new(None, None, table.now)
    table.wait(c.timing.takeback_hold + c.timing.grace + 1.0)
    assert c.match.moves_text() == [] and c.state is Phase.SETUP
    assert c.status()["offending"] == ["d4"]
    table.hands("lift d4")
    table.hands("place e5 white-disc")
    assert c.match.moves_text() == ["D+e5"]


def test_a_resumed_game_reads_the_move_made_while_it_was_down() -> None:
    from boardctl.sim.hands import Change

    engine = create("shiftago")
    c = Controller(profile_for(engine), resume=("shiftago", {}, ["W1"]))
    table = Table(c)
    table.apply([Change("a1", "p0")])
    table.hands("insert E7", "p1")
    assert c.match.moves_text() == ["W1", "E7"]
    assert c.state is Phase.AWAITING_MOVE


def test_on_a_board_without_gates_the_last_move_lights_the_track_pushed() -> None:
    from boardctl.sim.hands import PULSE, insert

    table = _table()
    c = table.controller
    table.apply([ch for ch in insert(c.match.engine.board(), {}, "W1", "p0") if ch.piece != PULSE])
    table.settle()
    assert c.match.moves_text() == ["W1"]
    assert c.view().last_move == {"W1", "a1"}


class _Answers:
    """A model whose conditions answer as told, for the bare phase machine."""

    def __init__(self, phase: Phase, answers: dict[str, bool]) -> None:
        self.answers = answers
        self.moved_to: Phase | None = None
        build_machine(self, phase)

    def __getattr__(self, name: str) -> Any:
        if name in _CONDITIONS:
            return lambda *_: self.answers[name]
        if name in ("entered", "start_next_game"):
            return lambda *_: setattr(self, "moved_to", self.state)
        raise AttributeError(name)


#: the conditions of the phase machine's ``observe`` transitions
_CONDITIONS = sorted(
    {
        c
        for t in TRANSITIONS
        if t["trigger"] == "observe"
        for c in ([t["conditions"]] if isinstance(t["conditions"], str) else t["conditions"])
    }
)


@settings(max_examples=300, deadline=None)
@given(
    phase=st.sampled_from(sorted(SOURCES["observe"], key=lambda p: p.value)),
    answers=st.fixed_dictionaries({c: st.booleans() for c in _CONDITIONS}),
)
def test_observe_is_skipped_exactly_when_the_machine_would_stay_in_its_phase(
    phase: Phase, answers: dict[str, bool]
) -> None:
    model = _Answers(phase, answers)
    skipped = not observes(model)
    model.trigger("observe")
    assert skipped == (model.moved_to is None)


class _Judged(Conditions):
    """The machine's real conditions over a board judged as told."""

    def __init__(self, verdict: Any, settled: float, choosing: bool) -> None:
        self.board = SimpleNamespace(verdict=verdict)  # type: ignore[assignment]
        self.engine = SimpleNamespace(choosing=lambda _state: choosing)  # type: ignore[assignment]
        self.match = SimpleNamespace(state=None)  # type: ignore[assignment]
        self.timing = Timing()
        self._settled = settled

    def settled_for(self) -> float:
        return self._settled


_VERDICTS = (
    Waiting(),
    Played(()),
    Ambiguous(()),
    InProgress((), frozenset(), frozenset()),
    Takeback(1),
    Wrong(frozenset({"a1"}), {}),
)


@settings(max_examples=300, deadline=None)
@given(
    phase=st.sampled_from(sorted(PLAYING, key=lambda p: p.value)),
    verdict=st.sampled_from(_VERDICTS),
    settled=st.one_of(
        st.sampled_from([-0.01, 0.0, Timing().grace, Timing().grace - 1e-9]),
        st.floats(-10.0, 10.0),
    ),
    choosing=st.booleans(),
)
def test_from_a_playing_phase_at_most_one_observe_transition_is_open(
    phase: Phase, verdict: Any, settled: float, choosing: bool
) -> None:
    # the machine tries them in the table's order, the likeliest first: that
    # order may change only what is tried, never where the board goes
    model = _Judged(verdict, settled, choosing)
    open_ = [
        t["dest"]
        for t in TRANSITIONS
        if t["trigger"] == "observe"
        and phase in (t["source"] if isinstance(t["source"], list) else [t["source"]])
        and getattr(model, t["conditions"])()
    ]
    assert len(open_) <= 1, (phase, verdict, settled, choosing, open_)
