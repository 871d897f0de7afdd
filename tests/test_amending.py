"""The newest action read off the board is shown at once and stays amendable
for a moment: a hand that goes on (a marble slid to the next cell, a sleeve
passing) amends the record instead of leaving a wrong board or a takeback."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from controller_support import Table, profile_for

from boardctl.controller.amending import Amendable
from boardctl.controller.loop import Loop
from boardctl.controller.machine import Controller, Timing
from boardctl.controller.reconcile import InProgress, Played, Takeback, Verdict, Waiting, Wrong
from boardctl.controller.store import Store, StoreError
from boardctl.controller.view import Phase
from boardctl.engines import create
from boardctl.sensing import SensorChange, SensorSnapshot

TIMING = Timing(settle=0.06, amend=0.15, attract_after=0)
_OPTIONS = {"handicap_player": 0, "handicap_turns": 0, "players": 2, "variant": "express"}


class _Dark:
    def show(self, frame: object) -> None:
        pass


# -- the window, pure ---------------------------------------------------------


def _window() -> Amendable:
    # "W3" recorded at 1.06 from a board last changed at 1.0: amendable until 1.15
    return Amendable(("s0",), ("W3",), "s1", at=1.06, until=1.15)


def _never() -> Verdict:
    raise AssertionError("the earlier position was judged although nothing was to amend")


def test_the_window_closes_when_the_board_stays_still_through_it() -> None:
    window = _window()
    assert window.follow("s1", 1.1, 1.0, True, Waiting(), _never) == (window, 0)
    assert window.follow("s1", 1.16, 1.0, True, Waiting(), _never) == (None, 0)


def test_a_change_after_the_window_is_no_amendment() -> None:
    wrong = Wrong(frozenset({"a3"}), {})
    assert _window().follow("s1", 1.4, 1.2, True, wrong, _never) == (None, 0)


def test_a_change_in_the_window_waits_for_the_board_to_settle() -> None:
    wrong = Wrong(frozenset({"a3"}), {})
    window, steps = _window().follow("s1", 1.12, 1.11, False, wrong, _never)
    assert window is not None and window.moved and steps == 0
    # settled only after the window: still the change made in it
    assert window.follow("s1", 1.3, 1.11, True, Takeback(1), Waiting) == (None, 1)


def test_the_board_back_where_it_was_withdraws_the_action() -> None:
    assert _window().follow("s1", 1.2, 1.11, True, Takeback(1), Waiting) == (None, 1)


def test_another_action_in_place_of_the_one_recorded_amends_it() -> None:
    class Option:
        action = "W4"

    other = Played((Option(),))  # type: ignore[arg-type]
    assert _window().follow("s1", 1.2, 1.11, True, Wrong(frozenset(), {}), lambda: other) == (
        None,
        1,
    )


def test_a_board_the_game_after_the_action_explains_is_not_amended() -> None:
    played = Played(())
    assert _window().follow("s1", 1.2, 1.11, True, played, _never) == (None, 0)
    assert _window().follow("s1", 1.2, 1.11, True, Waiting(), _never) == (None, 0)


def test_a_board_on_its_way_to_the_next_action_is_not_amended() -> None:
    """A piece lifted for the turn's next action right after the first was
    shown: the hand goes on with the game (the earlier position is not asked:
    a move from the lifted cell to the first one would also explain it)."""
    on_its_way = InProgress((), frozenset({"a4"}), frozenset())
    assert _window().follow("s1", 1.2, 1.11, True, on_its_way, _never) == (None, 0)


def test_the_window_closes_once_the_game_moved_on() -> None:
    assert _window().follow("s2", 1.1, 1.0, True, Waiting(), _never) == (None, 0)


# -- at the board ----------------------------------------------------------------


def _table(store: Store | None = None, timing: Timing = TIMING) -> Table:
    engine = create("shiftago")
    return Table(Controller(profile_for(engine), timing=timing, recorder=store), step=0.0)


def _read(table: Table, site: str, piece: str | None, at: float) -> None:
    """The sensor of ``site`` reads ``piece`` at ``at`` seconds (time passing until then)."""
    table.wait(at - table.now)
    channel = table.profile.site(site).channel
    assert channel is not None
    table.controller.feed(SensorChange(channel, table._value(site, piece)), table.now)
    table.layout = (
        {**table.layout, site: piece}
        if piece
        else {s: p for s, p in table.layout.items() if s != site}
    )


def _shown_w3(table: Table) -> None:
    """A marble pushed in by W3 (read on a3 at 1.0 s) and the board still for
    the settle time after it: W3 is shown."""
    table.wait(1.0)
    _read(table, "a3", "p0", 1.0)
    table.wait(0.07)


def test_a_marble_slid_on_right_after_it_was_shown_is_recorded_where_it_ended(
    tmp_path: Path,
) -> None:
    with Store(tmp_path / "g.db") as store:
        table = _table(store)
        c = table.controller
        _shown_w3(table)
        assert c.match.moves_text() == ["W3"]
        assert c.view().last_move == {"W3", "a3"}
        assert store.moves(store.games()[0]["id"]) == ["W3"]
        _read(table, "a3", None, 1.11)  # the hand had not let go: slid on to a4
        _read(table, "a4", "p0", 1.13)
        table.wait(0.07)
        assert c.match.moves_text() == ["W4"]
        assert c.state is Phase.AWAITING_MOVE
        assert c.view().last_move == {"W4", "a4"}
        assert store.moves(store.games()[0]["id"]) == ["W4"]


def test_a_sleeve_read_as_a_marble_for_a_moment_is_withdrawn_with_no_takeback_offered(
    tmp_path: Path,
) -> None:
    with Store(tmp_path / "g.db") as store:
        table = _table(store)
        c = table.controller
        _shown_w3(table)
        assert c.match.moves_text() == ["W3"]
        _read(table, "a3", None, 1.11)
        phases = set()
        for _ in range(10):
            table.wait(0.01)
            phases.add(c.state)
        assert c.match.moves_text() == []
        assert Phase.TAKEBACK_OFFERED not in phases and c.state is Phase.AWAITING_MOVE
        assert c.view().last_move == frozenset()
        assert store.moves(store.games()[0]["id"]) == []


def test_a_piece_lifted_after_the_window_is_a_takeback_offered_as_before() -> None:
    table = _table()
    c = table.controller
    table.wait(1.0)
    _read(table, "a3", "p0", 1.0)
    _read(table, "a3", None, 1.3)
    table.wait(0.1)
    assert c.match.moves_text() == ["W3"]
    assert c.state is Phase.TAKEBACK_OFFERED


def test_a_move_sent_to_another_board_is_never_withdrawn_here_alone() -> None:
    from boardctl.controller.opponent import Think
    from boardctl.seats import Seats

    class OtherBoard:
        def __init__(self) -> None:
            self.asked: list[Think] = []

        def ask(self, request: Think) -> None:
            self.asked.append(request)

        def cancel(self) -> None:
            pass

    other = OtherBoard()
    c = Controller(
        profile_for(create("shiftago")),
        seats=Seats.from_str("hands,remote:table-b"),
        remote=other,
        seeds=lambda: 500,
        timing=TIMING,
    )
    table = Table(c, step=0.0)
    _shown_w3(table)
    assert c.match.moves_text() == ["W3"] and len(other.asked) == 1
    _read(table, "a3", None, 1.09)  # within the window: a sleeve would be withdrawn
    table.wait(0.2)
    assert c.match.moves_text() == ["W3"]
    assert c.state is not Phase.AWAITING_MOVE


def test_without_a_window_the_board_is_read_only_once_still_as_before() -> None:
    table = _table(timing=Timing(settle=0.06, amend=0.0, attract_after=0))
    c = table.controller
    _shown_w3(table)
    _read(table, "a3", None, 1.11)
    _read(table, "a4", "p0", 1.13)
    table.wait(0.07)
    assert c.match.moves_text() == ["W3"]
    assert c.state is not Phase.AWAITING_MOVE


# -- an amendment is one write: a power cut never loses the action -----------------

_AMENDER = textwrap.dedent(
    """
    import os, signal, sys
    sys.path.insert(0, {tests!r})
    from test_amending import _read, _table
    from boardctl.controller.store import Store, StoreError

    class PowerCut(Store):
        # the power fails {when} the action the hand finished is recorded
        def record(self, move, public=None, excluded=None):
            if move == "W4" and {when!r} == "before":
                os.kill(os.getpid(), signal.SIGKILL)
            super().record(move, public, excluded)
            if move == "W4":
                os.kill(os.getpid(), signal.SIGKILL)

    table = _table(PowerCut({db!r}))
    table.wait(1.0)
    _read(table, "a3", "p0", 1.0)
    table.wait(0.07)
    print("shown", flush=True)
    _read(table, "a3", None, 1.11)  # the hand had not let go: slid on to a4
    _read(table, "a4", "p0", 1.13)
    table.wait(0.07)
    print("not cut", flush=True)
    """
)


@pytest.mark.parametrize(("when", "kept"), [("before", ["W3"]), ("after", ["W4"])])
def test_a_power_cut_during_an_amendment_keeps_one_of_the_two_actions(
    tmp_path: Path, when: str, kept: list[str]
) -> None:
    db = tmp_path / "g.db"
    script = _AMENDER.format(tests=str(Path(__file__).parent), db=str(db), when=when)
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    assert proc.stdout.split("\n")[0] == "shown"
    with Store(db) as store:
        game, _options, moves = store.current() or ("", {}, [])
        assert game == "shiftago" and moves == kept
        # the record is a legal game that resumes
        Controller(profile_for(create("shiftago")), recorder=store, resume=store.current())


def test_an_amendment_that_cannot_be_saved_keeps_the_action_and_is_saved_on_retry(
    tmp_path: Path,
) -> None:
    class FullCard(Store):
        full = False

        def record(
            self, move: str, public: str | None = None, excluded: tuple[str, ...] | None = None
        ) -> None:
            if self.full:
                raise StoreError("cannot write to g.db: database or disk is full")
            super().record(move, public, excluded)

    with FullCard(tmp_path / "g.db") as store:
        table = _table(store)
        c = table.controller
        loop = Loop(c, _Dark(), clock=lambda: table.now)
        _shown_w3(table)
        store.full = True
        _read(table, "a3", None, 1.11)
        _read(table, "a4", "p0", 1.13)
        table.now += 0.07
        loop._guarded(c.tick, table.now)  # the loop's own step when time passes
        assert c.state is Phase.FAULT
        with Store(tmp_path / "g.db") as reopened:
            assert reopened.current() == ("shiftago", _OPTIONS, ["W3"])
        store.full = False
        c.feed(SensorSnapshot(tuple(c.values)), table.now)  # the audit
        table.wait(0.2)
        assert c.state is Phase.AWAITING_MOVE and c.match.moves_text() == ["W4"]
        assert store.moves(store.games()[0]["id"]) == ["W4"]


def test_the_record_keeps_what_the_board_showed_before_an_amendment(tmp_path: Path) -> None:
    with Store(tmp_path / "g.db") as store:
        table = _table(store)
        _shown_w3(table)
        _read(table, "a3", None, 1.11)
        _read(table, "a4", "p0", 1.13)
        table.wait(0.5)
        _read(table, "g7", "p1", 2.0)  # the next player's marble, not amended
        table.wait(0.5)
        game = store.games()[0]["id"]
        assert store.moves(game) == ["W4", "E7"]
        assert store.amended(game) == {0: ("W3",)}
