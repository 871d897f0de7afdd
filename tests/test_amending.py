"""The newest action read off the board is shown at once and stays amendable
for a moment: a hand that goes on (a marble slid to the next cell, a sleeve
passing) amends the record instead of leaving a wrong board or a takeback."""

from __future__ import annotations

import dataclasses
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from controller_support import Table, profile_for
from twin_support import daemon_at, wait_for

from boardctl.board import BoardProfile
from boardctl.controller.amending import Amendable
from boardctl.controller.control import request
from boardctl.controller.loop import Loop
from boardctl.controller.machine import Controller, Timing
from boardctl.controller.reconcile import InProgress, Played, Takeback, Verdict, Waiting, Wrong
from boardctl.controller.store import Store, StoreError
from boardctl.controller.view import Phase
from boardctl.daemon.runner import DATABASE
from boardctl.engines import Match, create
from boardctl.sensing import SensorChange, SensorSnapshot
from boardctl.sim.board import values_of
from boardctl.sim.hands import Change
from hardware.profiles import load_profile
from hardware.sim_sensing import ScriptedSource

TIMING = Timing(settle=0.06, amend=0.15, attract_after=0)
_OPTIONS = {"handicap_player": 0, "handicap_turns": 0, "players": 2, "variant": "express"}


class _Dark:
    def show(self, frame: object) -> None:
        pass


# -- the window, pure ---------------------------------------------------------


def _window() -> Amendable:
    # "W3" recorded at 1.06 from a board last changed at 1.0: amendable until 1.15
    return Amendable(("s0",), ("W3",), "s1", at=1.06, until=1.15)


def test_a_window_the_board_moved_in_keeps_everything_else() -> None:
    for resumed in (False, True):
        window = Amendable(("s0", "s1"), ("W3", "B4"), "s2", 1.06, 1.15, resumed=resumed)
        assert window.moved_on() == dataclasses.replace(window, moved=True)


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


# -- resumed after a power cut in the middle of an amendment -------------------------
#
# The power failed after W3 was recorded and before its amendment to W4 was:
# the record says W3 while the board shows W4 (see the power cut above).


def _board_showing(profile: BoardProfile, moves: list[str]) -> list[int]:
    """The sensors' readings of a board showing the Shiftago ``moves``."""
    match = Match.from_moves(create("shiftago", _OPTIONS), moves)
    return values_of(profile, match.engine.layout(match.state))


def test_the_daemon_resumes_a_game_cut_in_mid_amendment_with_the_action_the_board_shows(
    tmp_path: Path,
) -> None:
    """Resumed as the window would have left it: W4 in W3's place, marked
    as an amendment (not a takeback: no wrong board, no takeback offered)."""
    profile = load_profile("shiftago-colour")
    (tmp_path / "state").mkdir()
    with Store(tmp_path / "state" / DATABASE) as store:
        store.begin("shiftago", _OPTIONS)
        store.record("W3")
    source = ScriptedSource(profile.channel_count, _board_showing(profile, ["W4"]))
    got: dict[str, object] = {}

    def resumed() -> bool:
        got.update(request(sock, {"cmd": "status"}))
        return got["moves"] == ["W4"] and got["phase"] == "awaiting_move"

    with daemon_at(tmp_path, profile, source) as sock:
        try:
            wait_for(resumed, what="W4 read in W3's place")
        except AssertionError as exc:
            last = f"{got.get('phase')} {got.get('moves')}"
            raise AssertionError(f"{exc}; last status {last}") from None
    with Store(tmp_path / "state" / DATABASE) as store:
        game = store.games()[0]["id"]
        assert store.moves(game) == ["W4"]
        assert store.amended(game) == {0: ("W3",)}


def _resumed(store: Store | None, moves: list[str], board: list[str]) -> Table:
    """A controller resuming the Shiftago ``moves`` (as the daemon does) on a
    board that shows ``board`` from its first reading on."""
    engine = create("shiftago", _OPTIONS)
    profile = profile_for(engine)
    c = Controller(profile, timing=TIMING, recorder=store, resume=("shiftago", _OPTIONS, moves))
    table = Table(c, step=0.0)
    table.apply([Change(site, piece) for site, piece in _layout(board).items()])
    return table


def _layout(moves: list[str]) -> dict[str, str]:
    match = Match.from_moves(create("shiftago", _OPTIONS), moves)
    return dict(match.engine.layout(match.state))


def _phases(table: Table, seconds: float) -> set[Phase]:
    seen = set()
    for _ in range(round(seconds / 0.01)):
        table.wait(0.01)
        seen.add(table.controller.state)
    return seen


def test_a_resumed_board_showing_the_last_action_amended_is_read_so_at_once(
    tmp_path: Path,
) -> None:
    with Store(tmp_path / "g.db") as store:
        store.begin("shiftago", _OPTIONS)
        for move in ("W1", "E7", "W3"):
            store.record(move)
        table = _resumed(store, ["W1", "E7", "W3"], ["W1", "E7", "W4"])
        c = table.controller
        phases = _phases(table, 5.0)  # past the grace and the takeback's hold
        assert c.match.moves_text() == ["W1", "E7", "W4"]
        assert c.state is Phase.AWAITING_MOVE
        assert Phase.WRONG_BOARD not in phases and Phase.TAKEBACK_OFFERED not in phases
        assert c.view().last_move == {"W4", "a4"}
        game = store.games()[0]["id"]
        assert store.moves(game) == ["W1", "E7", "W4"]
        assert store.amended(game) == {2: ("W3",)}


def test_a_resumed_board_showing_the_position_before_the_last_action_is_one_to_restore() -> None:
    """Not a withdrawal: a board read before it has matched the resumed game
    never takes an action back by itself (a marble may have been knocked off
    while the power was off); what goes back is shown."""
    table = _resumed(None, ["W1", "E7", "W3"], ["W1", "E7"])
    c = table.controller
    _phases(table, 5.0)
    assert c.match.moves_text() == ["W1", "E7", "W3"]
    assert c.state is Phase.WRONG_BOARD
    assert c.status()["restore"] == {"a3": "p0"}


def test_a_resumed_board_further_off_than_one_action_is_not_amended() -> None:
    """Two actions from the record (W3 amended and red's move made): a board
    to put right, as before."""
    table = _resumed(None, ["W1", "E7", "W3"], ["W1", "E7", "W4", "E6"])
    c = table.controller
    _phases(table, 5.0)
    assert c.match.moves_text() == ["W1", "E7", "W3"]
    assert c.state is Phase.WRONG_BOARD


def test_a_resumed_board_showing_the_record_is_simply_played_on() -> None:
    table = _resumed(None, ["W1", "E7", "W3"], ["W1", "E7", "W3"])
    c = table.controller
    assert _phases(table, 1.0) == {Phase.AWAITING_MOVE}
    table.hands("insert E6", "p1")
    assert c.match.moves_text() == ["W1", "E7", "W3", "E6"]


def test_the_status_after_an_amendment_shows_the_action_in_place_of_the_one_amended(
    tmp_path: Path,
) -> None:
    with Store(tmp_path / "g.db") as store:
        table = _table(store)
        c = table.controller
        _shown_w3(table)
        before = c.view().status
        assert before["moves"] == ["W3"]
        _read(table, "a3", None, 1.11)  # slid on to a4: as many actions, another one
        _read(table, "a4", "p0", 1.13)
        table.wait(0.07)
        after = c.view().status
        assert after["moves"] == ["W4"]
        assert after["picture"] == c.engine.public_render(c.match.state) != before["picture"]
