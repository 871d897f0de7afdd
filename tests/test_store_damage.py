"""A game database that is damaged or empty is refused with what to do, and
left exactly as it was: nothing that might be recovered is overwritten."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from boardctl.cli.main import main
from boardctl.controller.store import Store, StoreError


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _played(path: Path) -> None:
    with Store(path) as store:
        for n in range(40):
            store.begin("shiftago", {"players": 2, "note": "x" * 200})
            for move in ("W1", "E1", "W2"):
                store.record(move)
            if n % 2:
                store.finish({"winner": 0})


def _damage(path: Path) -> None:
    data = bytearray(path.read_bytes())
    assert len(data) > 3 * 4096, "the database spans several pages"
    data[2 * 4096 : 3 * 4096] = b"\xa5" * 4096  # one page of garbage
    path.write_bytes(bytes(data))


def _run(state: Path, tmp_path: Path) -> int:
    return main(
        [
            "run",
            "--set",
            f'storage.state_dir="{state}"',
            "--set",
            f'control.socket="{tmp_path / "c.sock"}"',
        ]
    )


def test_a_damaged_page_is_refused_naming_the_file_and_the_file_is_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "state" / "games.db"
    _played(db)
    _damage(db)
    before = _digest(db)
    with pytest.raises(StoreError) as refused:
        Store(db)
    message = str(refused.value)
    assert str(db) in message and "damaged" in message and ".recover" in message, message
    assert _digest(db) == before
    assert _run(db.parent, tmp_path) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "damaged" in err, err
    assert _digest(db) == before, "the damaged file is left as it was"


def test_an_empty_database_file_is_refused_not_started_afresh(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "state" / "games.db"
    db.parent.mkdir()
    db.write_bytes(b"")
    with pytest.raises(StoreError, match="empty"):
        Store(db)
    assert _run(db.parent, tmp_path) == 2
    assert "empty" in capsys.readouterr().err
    assert db.read_bytes() == b""
    assert not (tmp_path / "state" / "games.db-wal").exists()


def test_a_file_that_is_no_database_is_refused_and_kept(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    db.write_bytes(b"these are my notes, not a database\n" * 200)
    before = _digest(db)
    with pytest.raises(StoreError, match="not a game database"):
        Store(db)
    assert _digest(db) == before
