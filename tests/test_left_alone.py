"""A board left alone: a game nobody touches is kept and put away, the board
waits in attract mode lighting what to clear, and the next visitor starts a
fresh game. Times pass on a clock the tests move, never by waiting."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from controller_support import Table, profile_for, readings
from hypothesis import given
from hypothesis import strategies as st
from twin_support import TIMING, do_move, rig, wait_for

from boardctl.config import load
from boardctl.controller import idle
from boardctl.controller.machine import Controller, Timing
from boardctl.controller.scenes import RGB, Palette, render
from boardctl.controller.store import Store
from boardctl.controller.view import PLAYING, Phase
from boardctl.daemon.runner import timing_of
from boardctl.engines import Match, create
from boardctl.sensing import SensorSnapshot
from hardware.profiles import load_profile

MINUTE = 60.0
ERROR = Palette().error


def _table(store: Store, timing: Timing | None = None) -> Table:
    engine = create("shiftago")
    return Table(Controller(profile_for(engine), recorder=store, timing=timing or Timing()))


def _vermilion(colour: RGB, error: RGB = ERROR) -> bool:
    """Whether ``colour`` is the error colour at some brightness (>= 30%)."""
    factor = colour[0] / error[0]
    return factor >= 0.29 and all(
        abs(round(e * factor) - c) <= 1 for e, c in zip(error, colour, strict=True)
    )


def _statuses(store: Store) -> list[tuple[str, int]]:
    return [(g["status"], g["moves"]) for g in store.games()]


def test_a_game_left_alone_for_20_minutes_is_kept_and_the_next_visitor_starts_afresh(
    tmp_path: Path,
) -> None:
    with Store(tmp_path / "g.db") as store:
        table = _table(store)
        c = table.controller
        table.hands("insert W1", "p0")
        table.hands("insert E7", "p1")
        touched = c.board.activity_at  # the marble's last reading
        table.wait(19 * MINUTE)
        # dozing after 10 minutes, the game still kept for whoever comes back
        assert c.state is Phase.ATTRACT and c.match.moves_text() == ["W1", "E7"]
        assert c.view().offending == frozenset()
        # the loop sleeps until then: nothing else has to happen
        assert c.next_deadline() == pytest.approx(touched + 20 * MINUTE)
        table.wait(1 * MINUTE)
        assert c.state is Phase.ATTRACT
        assert c.match.moves_text() == []
        assert _statuses(store) == [("playing", 0), ("abandoned", 2)]
        abandoned = store.games()[1]["id"]
        assert store.record_of(abandoned)["moves"] == ["W1", "E7"]
        # what to clear breathes vermilion over the attract waves
        view = c.view()
        assert view.offending == {"a1", "g7"}
        frame = render(view, c.profile, Palette(), table.now)
        for site in ("a1", "g7"):
            assert _vermilion(frame[c.profile.site(site).leds[0]])
        assert not _vermilion(frame[c.profile.site("d4").leds[0]])
        # the next visitor clears the board and plays a new game
        table.hands("lift a1")
        assert c.state is Phase.SETUP
        table.hands("lift g7")
        assert c.state is Phase.AWAITING_MOVE and c.match.moves_text() == []
        table.hands("insert W3", "p0")
        assert c.match.moves_text() == ["W3"]
        assert _statuses(store) == [("playing", 1), ("abandoned", 2)]


def test_a_touch_keeps_the_game_for_another_20_minutes(tmp_path: Path) -> None:
    with Store(tmp_path / "g.db") as store:
        table = _table(store)
        c = table.controller
        table.hands("insert W1", "p0")
        table.wait(15 * MINUTE)
        table.hands("lift a1")  # someone comes back and looks
        table.hands("place a1 p0")
        assert c.state is Phase.AWAITING_MOVE
        table.wait(19 * MINUTE)
        assert c.match.moves_text() == ["W1"]
        assert _statuses(store) == [("playing", 1)]
        table.wait(1 * MINUTE)
        assert _statuses(store) == [("playing", 0), ("abandoned", 1)]


def test_a_finished_game_is_put_away_after_five_minutes_and_stays_finished(
    tmp_path: Path,
) -> None:
    from twin_support import plan_game

    moves = plan_game("shiftago", {}, seed=3)
    engine = create("shiftago")
    profile = profile_for(engine)
    with Store(tmp_path / "g.db") as store:
        store.begin("shiftago", {})
        for move in moves:
            store.record(move)
        store.finish(Match.from_moves(engine, moves).summary())
        c = Controller(profile, recorder=store, resume=("shiftago", {}, moves))
        table = Table(c)
        final = c.reconciler.expect(c.match.state).layout
        c.feed(SensorSnapshot(readings(profile, final)), table.now)
        table.layout = dict(final)
        table.settle()
        assert c.state is Phase.GAME_OVER
        table.wait(4.9 * MINUTE)
        assert c.state is Phase.GAME_OVER
        table.wait(0.2 * MINUTE)
        assert c.state is Phase.ATTRACT and c.match.moves_text() == []
        assert _statuses(store) == [("playing", 0), ("finished", len(moves))]
        assert c.view().offending == frozenset(final)  # every marble is to clear
        for site in sorted(final):
            table.hands(f"lift {site}")
        assert c.state is Phase.AWAITING_MOVE and c.match.moves_text() == []


def test_putting_away_can_be_turned_off(tmp_path: Path) -> None:
    with Store(tmp_path / "g.db") as store:
        table = _table(store, Timing(abandon_after=0, finished_after=0))
        c = table.controller
        table.hands("insert W1", "p0")
        table.wait(24 * 60 * MINUTE)
        assert c.state is Phase.ATTRACT and c.match.moves_text() == ["W1"]
        assert _statuses(store) == [("playing", 1)]


def test_the_times_are_settings() -> None:
    timing = timing_of(load(None, ["controller.abandon_after_s=90"]))
    assert (timing.abandon_after, timing.finished_after) == (90.0, 300.0)
    default = timing_of(load(None))
    assert (default.abandon_after, default.finished_after) == (1200.0, 300.0)


class Clock:
    """The loop's monotonic clock, which a test moves on."""

    def __init__(self) -> None:
        self.offset = 0.0
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            return time.monotonic() + self.offset

    def advance(self, seconds: float) -> None:
        with self._lock:
            self.offset += seconds


def test_an_abandoned_game_through_the_twin(tmp_path: Path) -> None:
    profile = load_profile("shiftago-colour")
    engine = create("shiftago")
    clock = Clock()
    timing = Timing(
        settle=TIMING.settle, grace=TIMING.grace, clear_hold=TIMING.clear_hold, attract_after=0
    )
    with (
        Store(tmp_path / "g.db") as store,
        rig(profile, store, {}, timing=timing, clock=clock) as r,
    ):
        match = Match(engine)
        for move in ("W1", "E7"):
            do_move(r.hands, engine, match.state, move)
            match.play(engine.parse_action(move))
            r.wait_phase("awaiting_move", moves=len(match.actions))
        clock.advance(20 * MINUTE)
        status = r.wait_phase("attract", moves=0)  # a status request turns the loop
        assert sorted(status["offending"]) == ["a1", "g7"]
        assert _statuses(store) == [("playing", 0), ("abandoned", 2)]
        start = r.frames.count()
        frame = r.wait_frame(
            lambda f: all(_vermilion(r.colour(f, s)) for s in ("a1", "g7")),
            "what to clear lit",
            start,
        )
        assert not _vermilion(r.colour(frame, "d4"))
        r.hands.lift("a1")
        r.hands.lift("g7")
        r.wait_phase("awaiting_move", moves=0)
        do_move(r.hands, engine, engine.initial(), "W3")
        r.wait_phase("awaiting_move", moves=1)
        wait_for(lambda: _statuses(store) == [("playing", 1), ("abandoned", 2)])


def test_a_game_is_not_put_away_the_moment_its_sensors_come_back(tmp_path: Path) -> None:
    from boardctl.sensing import LinkDown, LinkUp

    with Store(tmp_path / "g.db") as store:
        table = _table(store)
        c = table.controller
        table.hands("insert W1", "p0")
        c.feed(LinkDown("cable pulled"), table.now)
        table.wait(30 * MINUTE)  # the players wait for the cable to be fixed
        assert c.state is Phase.FAULT and c.match.moves_text() == ["W1"]
        c.feed(LinkUp("back"), table.now)
        c.feed(SensorSnapshot(readings(c.profile, table.layout)), table.now)
        table.settle()
        assert c.state is Phase.AWAITING_MOVE and c.match.moves_text() == ["W1"]
        table.wait(19 * MINUTE)
        assert _statuses(store) == [("playing", 1)]
        table.wait(1 * MINUTE)
        assert _statuses(store) == [("playing", 0), ("abandoned", 1)]


def test_the_next_game_of_the_same_kind_begins_without_building_its_rules_again(
    tmp_path: Path,
) -> None:
    """Putting a game away starts the next one on the loop's thread: the
    rules engine of the same game and options is the one played (Beeline's
    takes tens of milliseconds to build, a pause in the LEDs)."""
    built: list[str] = []

    def engines(name: str, options: object) -> object:
        built.append(name)
        return create(name, options)  # type: ignore[arg-type]

    with Store(tmp_path / "g.db") as store:
        engine = create("shiftago")
        c = Controller(profile_for(engine), recorder=store, engines=engines)  # type: ignore[arg-type]
        table = Table(c)
        table.hands("insert W1", "p0")
        played = c.engine
        table.wait(21 * MINUTE)
        assert c.state is Phase.ATTRACT and c.match.actions == []
        assert _statuses(store)[1] == ("abandoned", 1)
        assert c.engine is played and built == ["shiftago"]
        c.new(None, {"variant": "expert"}, table.now)  # other options: rules of their own
        assert c.engine is not played and built == ["shiftago", "shiftago"]


_TIMES = st.one_of(st.just(0.0), st.floats(-10.0, 3000.0, allow_nan=False))


@given(
    phase=st.sampled_from([*PLAYING, Phase.SETUP, Phase.ATTRACT, Phase.GAME_OVER, Phase.FAULT]),
    activity_at=st.floats(0.0, 1e6, allow_nan=False),
    left=st.floats(0.0, 4000.0, allow_nan=False),
    played=st.integers(0, 3),
    over=st.booleans(),
    awaited=st.booleans(),
    abandon=_TIMES,
    finished=_TIMES,
)
def test_a_game_is_put_away_only_on_a_board_left_long_enough(
    phase: Phase,
    activity_at: float,
    left: float,
    played: int,
    over: bool,
    awaited: bool,
    abandon: float,
    finished: float,
) -> None:
    """The controller asks what the game is (over, a player away to act) only
    of a board left alone long enough: a game due to be put away always is."""
    timing = Timing(abandon_after=abandon, finished_after=finished)
    now = activity_at + left
    why = idle.due(
        phase, activity_at, now, played=played, over=over, timing=timing, awaited=awaited
    )
    assert why is None or idle.left_long_enough(activity_at, now, timing)
