"""SD cards: the store writes one page per action (a Shiftago game under 200
KiB), and the games are copied while the board plays and put back while it is
stopped."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from boardctl.cli.main import main
from boardctl.controller.store import Store
from boardctl.sim.session import Simulation

OLD_MOVES = """
CREATE TABLE moves (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    move TEXT NOT NULL,
    at TEXT NOT NULL,
    public TEXT,
    excluded TEXT,
    PRIMARY KEY (game_id, seq)
);
"""


def _moves_of(db: Path) -> list[str]:
    with Store(db) as store:
        current = store.current()
        assert current is not None
        return current[2]


def test_a_database_written_before_moves_were_clustered_keeps_its_moves(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    with Store(db) as store:
        store.begin("shiftago", {})
        for move in ("W1", "E7", "S2"):
            store.record(move)
    raw = sqlite3.connect(db)  # the moves table as it was written before
    raw.executescript(
        "ALTER TABLE moves RENAME TO new_moves;"
        + OLD_MOVES
        + "INSERT INTO moves SELECT game_id, seq, move, at, public, excluded FROM new_moves;"
        + "DROP TABLE new_moves;"
    )
    raw.close()
    assert _moves_of(db) == ["W1", "E7", "S2"]
    raw = sqlite3.connect(db)
    (sql,) = raw.execute("SELECT sql FROM sqlite_master WHERE name = 'moves'").fetchone()
    raw.close()
    assert "WITHOUT ROWID" in sql
    with Store(db) as store:
        store.record("N4")
        assert store.moves(1) == ["W1", "E7", "S2", "N4"]


def test_games_are_copied_while_the_board_plays_and_put_back_while_it_is_stopped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state"
    copy = tmp_path / "copy.db"
    overrides = ["controller.settle_ms=40"]
    with Simulation("shiftago", overrides=overrides, state_dir=state) as sim:
        for n, hand in enumerate(("insert W1", "insert E7"), start=1):
            sim.hands(hand)
            sim.wait_status(lambda st, n=n: len(st["moves"]) == n, 5.0)
        assert sim.request({"cmd": "settings", "brightness": 0.2})["ok"]
        assert main(["games", "backup", str(copy), "--state-dir", str(state)]) == 0
        assert "1 game copied" in capsys.readouterr().out
        sim.hands("insert W2")  # the board plays on after the copy
        sim.wait_status(lambda st: len(st["moves"]) == 3, 5.0)
        # putting a copy back under a running board is refused, saying what to do
        assert main(["games", "restore", str(copy), "--state-dir", str(state)]) != 0
        assert "stop that one first" in capsys.readouterr().err
        assert len(sim.status()["moves"]) == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["copy.db", "state"]
    assert _moves_of(copy) == ["W1", "E7"]
    assert main(["games", "restore", str(copy), "--state-dir", str(state)]) == 0
    assert "before-restore" in capsys.readouterr().out
    assert _moves_of(state / "games.db.before-restore") == ["W1", "E7", "W2"]
    with Simulation("shiftago", overrides=overrides, state_dir=state) as sim:
        assert sim.status()["moves"] == ["W1", "E7"]  # the restored game goes on
        assert sim.request({"cmd": "settings"})["settings"]["brightness"] == 0.2


def test_a_file_that_holds_no_games_is_not_restored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state"
    with Store(state / "games.db") as store:
        store.begin("shiftago", {})
        store.record("W1")
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.commit()
    text = tmp_path / "notes.txt"
    text.write_text("not a database\n")
    for bad, says in ((other, "holds no games"), (text, "not a game database")):
        assert main(["games", "restore", str(bad), "--state-dir", str(state)]) != 0
        assert says in capsys.readouterr().err
    assert _moves_of(state / "games.db") == ["W1"]
    assert main(["games", "backup", "--state-dir", str(state)]) != 0
    assert "name the file" in capsys.readouterr().err


def test_a_restore_as_root_leaves_the_files_to_the_folders_owner(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import os

    if os.geteuid() != 0:
        pytest.skip("needs root: a restore as root into a folder another user owns")
    copy = tmp_path / "copy.db"
    with Store(copy) as store:
        store.begin("shiftago", {})
    state = tmp_path / "state"
    state.mkdir()
    os.chown(state, 4321, 4321)  # the service's user
    assert main(["games", "restore", str(copy), "--state-dir", str(state)]) == 0
    owners = {p.name: (p.stat().st_uid, p.stat().st_gid) for p in state.iterdir()}
    assert "games.db" in owners and "boardctl.lock" in owners
    assert set(owners.values()) == {(4321, 4321)}, owners


def _written() -> int:
    """The bytes this thread has handed to the kernel to write (its own count,
    so that no other thread's output is counted)."""
    for line in Path("/proc/thread-self/io").read_text().splitlines():
        if line.startswith("wchar:"):
            return int(line.split()[1])
    raise AssertionError("/proc/thread-self/io has no wchar line")


@pytest.mark.skipif(not Path("/proc/thread-self/io").exists(), reason="needs Linux's /proc")
def test_a_shiftago_game_writes_under_200_kib(tmp_path: Path) -> None:
    """The figure of docs/benchmarks.md (bench/store_writes.py: about 150 KiB
    for a Shiftago game of 32 actions, one synchronous commit each) held: a
    change that writes a second page per action, or the whole database, fails."""
    import random

    from boardctl.engines import Match, create

    engine = create("shiftago", {})
    match: Match = Match(engine)
    rng = random.Random(7)
    while not match.outcome().over:
        match.play(rng.choice(list(engine.legal_actions(match.state))))
    assert 24 <= len(match.actions) <= 60
    with Store(tmp_path / "games.db", records_dir=tmp_path / "records") as store:
        before = _written()
        store.begin(engine.name, engine.options_json(), seed=1)
        for state, action in zip(match.states, match.actions, strict=False):
            store.record(engine.format_action(action), engine.public_action(state, action))
        store.finish(match.summary())
        written = _written() - before
    per_action = written / len(match.actions)
    assert written < 200 * 1024, (
        f"{written / 1024:.0f} KiB written for {len(match.actions)} actions"
    )
    assert per_action < 6 * 1024, f"{per_action / 1024:.1f} KiB written per action"
