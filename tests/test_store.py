"""Games survive a crash: every action is in the database before it shows."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from controller_support import Table, profile_for

from boardctl.controller.machine import Controller
from boardctl.controller.store import Store
from boardctl.controller.view import Phase
from boardctl.engines import create
from boardctl.records import GameRecord

_PLAYER = textwrap.dedent(
    """
    import sys
    sys.path.insert(0, {tests!r})
    from controller_support import Table, profile_for
    from boardctl.controller.machine import Controller
    from boardctl.controller.store import Store
    from boardctl.engines import create

    store = Store({db!r})
    table = Table(Controller(profile_for(create("shiftago")), recorder=store))
    table.settle()
    for n, (track, piece) in enumerate([("W1", "p0"), ("E7", "p1"), ("Sd", "p0")], 1):
        table.hands("insert " + track, piece)
        print("moved", n, flush=True)
    sys.stdin.read()
    """
)


def test_a_game_killed_mid_play_resumes_with_every_action(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    script = _PLAYER.format(tests=str(Path(__file__).parent), db=str(db))
    proc = subprocess.Popen(
        [sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    for n in (1, 2, 3):
        assert proc.stdout.readline().split() == ["moved", str(n)]
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL

    with Store(db) as store:
        resume = store.current()
        assert resume == (
            "shiftago",
            {"handicap_player": 0, "handicap_turns": 0, "players": 2, "variant": "express"},
            ["W1", "E7", "Sd"],
        )
        controller = Controller(profile_for(create("shiftago")), recorder=store, resume=resume)
        table = Table(controller)  # the board was cleared meanwhile
        table.wait(controller.timing.grace + 0.5)
        assert controller.state is Phase.WRONG_BOARD
        assert controller.view().restore == {"a1", "g7", "d1"}
        table.hands("place a1 p0")
        table.hands("place g7 p1")
        table.hands("place d1 p0")
        assert controller.state is Phase.AWAITING_MOVE
        assert controller.view().to_move == 1
        table.hands("insert W2", "p1")
        assert store.moves(store.games()[0]["id"]) == ["W1", "E7", "Sd", "W2"]


def test_finished_games_export_as_game_records(tmp_path: Path) -> None:
    times = iter(range(1_700_000_000, 1_700_001_000))
    with Store(tmp_path / "g.db", clock=lambda: float(next(times))) as store:
        engine = create("shiftago")
        table = Table(Controller(profile_for(engine), recorder=store))
        table.settle()
        moves = ["W1", "W7", "W1", "W7", "W1", "W7", "W1", "W7", "W1"]
        for i, track in enumerate(moves):
            table.hands(f"insert {track}", f"p{i % 2}")
        assert table.controller.state is Phase.GAME_OVER
        record = store.record_of()
        assert record["moves"] == moves
        assert record["result"]["winner"] == 0
        assert record["started"].endswith("Z") and record["ended"] > record["started"]
        assert GameRecord.from_json(json.loads(json.dumps(record))).replay().outcome().winner == 0
        assert [g["status"] for g in store.games()] == ["finished"]
        table.controller.new(None, {"players": 3}, table.now)
        assert [g["status"] for g in store.games()] == ["playing", "finished"]


def test_another_move_asked_for_counts_until_the_next_action_or_an_undo(tmp_path: Path) -> None:
    with Store(tmp_path / "g.db") as store:
        store.begin("duploline", {})
        store.record("D+d4")
        store.asked(1, ("R+d5",))
        assert store.resume_plans() == {1: ("R+d5",)}
    with Store(tmp_path / "g.db") as store:
        assert store.resume_plans() == {1: ("R+d5",)}, "kept across a restart"
        store.record("R+c3", excluded=("R+d5",))
        store.record("D+e5")
        assert store.resume_plans() == store.plans() == {1: ("R+d5",)}
        store.asked(3, ("D+a1",))
        store.undo(1)
        assert store.resume_plans() == {1: ("R+d5",)}, "an undo drops it"
        store.asked(2, ("D+e6",))
        store.record("D+f5")
        assert 2 not in store.resume_plans(), "the action made since keeps its own"
