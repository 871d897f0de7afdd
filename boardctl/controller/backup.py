"""A copy of the game database, taken or put back.

:func:`backup` copies the database with SQLite's online backup API while the
daemon may be writing it: the copy is one consistent moment of it (every
action recorded before that moment, none half), written beside the target and
renamed into place, then checked. The database is opened read-only, so a
backup made by another user (root) leaves no file of its own in the state
folder. :func:`restore` puts such a copy back, only while no daemon holds
the state folder; the database it replaces is kept beside it first
(``games.db.before-restore``). Both keep the operator's kept settings too
(they live in the same database).
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from boardctl.controller.store import Store, StoreError

#: pages copied per step of the backup: the daemon may write between steps
STEP_PAGES = 256


def _check(db: sqlite3.Connection, what: str) -> None:
    """Refuse ``db`` unless it is a whole game database."""
    try:
        problems = [str(r[0]) for r in db.execute("PRAGMA quick_check")]
        tables = {str(r[0]) for r in db.execute("SELECT name FROM sqlite_master")}
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{what} is not a game database: {exc}") from None
    if problems != ["ok"]:
        raise StoreError(f"{what} is damaged: {'; '.join(problems)[:300]}")
    if not {"games", "moves"} <= tables:
        raise StoreError(f"{what} is an SQLite database but holds no games (no games table)")


def _read_only(path: Path) -> sqlite3.Connection:
    if not path.is_file():
        raise StoreError(f"{path} does not exist")
    try:
        return sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot read {path}: {exc}") from None


def backup(database: Path, target: Path) -> int:
    """Copy ``database`` to ``target`` (replaced if it exists); the number of games."""
    part = target.with_name(target.name + ".part")
    source = _read_only(database)
    try:
        part.unlink(missing_ok=True)
        copy = sqlite3.connect(part)
        try:
            source.backup(copy, pages=STEP_PAGES)
            copy.execute("PRAGMA journal_mode=DELETE")  # one file, nothing beside it
            _check(copy, f"the copy {part}")
            games = int(copy.execute("SELECT COUNT(*) FROM games").fetchone()[0])
        finally:
            copy.close()
        os.replace(part, target)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot copy {database} to {target}: {exc}") from None
    except OSError as exc:
        raise StoreError(f"cannot write {target}: {exc.strerror or exc}") from None
    finally:
        source.close()
        part.unlink(missing_ok=True)
    return games


def restore(copy: Path, database: Path) -> int:
    """Put the backup ``copy`` in place of ``database`` (no daemon may hold
    it: the caller holds the state folder's lock); the number of games."""
    source = _read_only(copy)
    try:
        _check(source, str(copy))
        kept = database.with_name(database.name + ".before-restore")
        if database.exists():
            backup(database, kept)
        owner = database.parent.stat()
        target = sqlite3.connect(database)
        try:
            source.backup(target, pages=STEP_PAGES)
            games = int(target.execute("SELECT COUNT(*) FROM games").fetchone()[0])
        finally:
            target.close()
    except sqlite3.Error as exc:
        raise StoreError(f"cannot restore {copy} to {database}: {exc}") from None
    finally:
        source.close()
    with Store(database):  # brought up to date as the daemon would, and checked
        pass
    if os.geteuid() == 0:  # the daemon's user must still own its folder's files
        for path in database.parent.iterdir():
            if path.is_file():
                os.chown(path, owner.st_uid, owner.st_gid)
    return games
