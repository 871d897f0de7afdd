"""SD cards: the store writes one page per action."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from boardctl.controller.store import Store

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
        + "INSERT INTO moves SELECT * FROM new_moves; DROP TABLE new_moves;"
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
