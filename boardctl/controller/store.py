"""Games and their actions in SQLite, written before they show.

The database runs in WAL mode with ``synchronous=FULL``: when :meth:`Store.record`
returns, the action survives a crash or a power cut. After a restart
:meth:`Store.current` gives the game that was being played, to resume it;
finished games are kept and exported as game records
(``{"game", "options", "moves", "started", "ended", "result"}``). A date written
while the system clock did not tell the date (a Pi before its clock is
synchronised) is kept as unsure and neither listed nor exported.

Each game keeps the seed its chance outcomes are drawn from (so a resumed game
draws on as it would have), who played each seat (the computer's with their
levels and seeds), and each move its public text beside its full one: the
record of an unfinished game shows only what every player may see. A move
where a turn of the computer's began keeps the moves it suggested there before
(another move was asked for), so the computer's moves replay exactly; the
game keeps where another move was asked for since its last action
(``asked``), so a restart before that action shows the move asked for.
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from boardctl.errors import BoardctlError
from boardctl.seats import ALL_HANDS, Seats

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    started TEXT NOT NULL,
    ended TEXT,
    result TEXT,
    status TEXT NOT NULL DEFAULT 'playing',
    seed INTEGER,
    seats TEXT,
    asked TEXT
);
CREATE TABLE IF NOT EXISTS moves (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    move TEXT NOT NULL,
    at TEXT NOT NULL,
    public TEXT,
    excluded TEXT,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
"""
#: the moves kept in their key's order alone (no separate index to write):
#: each action recorded writes one page of the database, not two
_CLUSTERED_MOVES = _SCHEMA[_SCHEMA.index("CREATE TABLE IF NOT EXISTS moves") :].replace(
    "IF NOT EXISTS moves", "moves_clustered"
)


class StoreError(BoardctlError, OSError):
    """The game database cannot be opened or written."""


class NoSuchGame(BoardctlError, LookupError):
    """A game asked for by number (or the latest finished one) is not in the
    database: the asker's mistake, not the board's."""


#: what SQLite says of a file whose pages are damaged
_DAMAGE = re.compile(r"malformed|not a database|corrupt", re.IGNORECASE)
#: the first bytes of every SQLite database file
_HEADER = b"SQLite format 3\x00"


def _damaged(path: Path, detail: str) -> str:
    return (
        f"the game database {path} is damaged ({detail}); boardctl leaves it as it is. "
        f"Stop boardctl, keep a copy, and recover what it holds with "
        f"`sqlite3 {path} .recover | sqlite3 {path}.recovered` then put the recovered file "
        f"in its place; or move it away (`mv {path} {path}.damaged`) to begin an empty one"
    )


def _refuse_unusable(path: Path) -> None:
    """Refuse a file at ``path`` that is empty or no SQLite database: it may be
    what is left of the games after a crash, or something else altogether."""
    try:
        with path.open("rb") as f:
            header = f.read(len(_HEADER))
    except FileNotFoundError:
        return  # a new database
    if not header:
        raise StoreError(
            f"the game database {path} is empty (0 bytes): a crash or a full card may have "
            f"lost the games it held; boardctl leaves it as it is. Look for {path.name}-wal "
            f"beside it, keep both, and move the empty file away (`mv {path} {path}.empty`) "
            "to begin an empty database"
        )
    if header != _HEADER:
        raise StoreError(
            f"{path} is not a game database (it does not begin as an SQLite file does); "
            f"boardctl leaves it as it is: move it away (`mv {path} {path}.old`) or set "
            "storage.state_dir to another folder"
        )


def iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


class Store:
    """The game database at ``path`` (created if missing). ``clock`` gives wall
    time in seconds for the records' dates. A context manager."""

    def __init__(
        self,
        path: str | Path,
        clock: Callable[[], float] = time.time,
        records_dir: str | Path | None = None,
        synchronised: Callable[[], bool] = lambda: True,
    ) -> None:
        self.path = Path(path)
        self._clock = clock
        #: whether ``clock`` tells the date (a Pi's does not until it is
        #: synchronised): dates written before are kept as unsure and not shown
        self._synchronised = synchronised
        #: where each finished game is also written as a game record (JSON)
        self.records_dir = Path(records_dir) if records_dir is not None else None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            _refuse_unusable(self.path)
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot open the game database {self.path}: {exc}") from exc
        try:
            # check before writing anything: a damaged file is kept as it is
            problems = [str(r[0]) for r in self._db.execute("PRAGMA quick_check(3)")]
            if problems != ["ok"]:
                raise sqlite3.DatabaseError("malformed: " + "; ".join(problems)[:300])
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(_SCHEMA)
            self._add_columns()
            self._cluster_moves()
            self._game_id: int | None = self._playing_id()
        except sqlite3.Error as exc:
            self._db.close()
            text = str(exc)
            if isinstance(exc, sqlite3.DatabaseError) and _DAMAGE.search(text):
                raise StoreError(_damaged(self.path, text)) from None
            raise StoreError(f"cannot open the game database {self.path}: {text}") from None

    def _add_columns(self) -> None:
        """Bring a database written before games kept seeds and public texts up to date."""
        for table, column, kind in (
            ("games", "seed", "INTEGER"),
            ("games", "seats", "TEXT"),
            ("moves", "public", "TEXT"),
            ("moves", "excluded", "TEXT"),
            ("games", "started_unsure", "INTEGER"),
            ("games", "ended_unsure", "INTEGER"),
            ("games", "asked", "TEXT"),
        ):
            names = {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}
            if column not in names:
                self._db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")

    def _cluster_moves(self) -> None:
        """Bring a database whose moves have a separate index (written before
        they were kept in their key's order) to one page written per action."""
        row = self._db.execute("SELECT sql FROM sqlite_master WHERE name = 'moves'").fetchone()
        if row is None or "WITHOUT ROWID" in str(row[0]).upper():
            return
        self._db.execute("BEGIN IMMEDIATE")
        try:
            self._db.execute(_CLUSTERED_MOVES)
            self._db.execute(
                "INSERT INTO moves_clustered (game_id, seq, move, at, public, excluded) "
                "SELECT game_id, seq, move, at, public, excluded FROM moves"
            )
            self._db.execute("DROP TABLE moves")
            self._db.execute("ALTER TABLE moves_clustered RENAME TO moves")
            self._db.execute("COMMIT")
        except sqlite3.Error:
            self._db.execute("ROLLBACK")
            raise

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._db.close()

    def _now(self) -> str:
        return iso(self._clock())

    def _unsure(self) -> int | None:
        """1 when the clock does not tell the date yet (NULL: it does)."""
        return None if self._synchronised() else 1

    def _write(self, sql: str, args: tuple[Any, ...]) -> int:
        try:
            self._db.execute("BEGIN IMMEDIATE")
            cur = self._db.execute(sql, args)
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise StoreError(f"cannot write to {self.path}: {exc}") from exc
        return cur.lastrowid or 0

    def _playing_id(self) -> int | None:
        row = self._db.execute(
            "SELECT id FROM games WHERE status = 'playing' ORDER BY id DESC LIMIT 1"
        ).fetchone()
        return None if row is None else int(row[0])

    # -- the recorder the controller writes to ---------------------------------
    def begin(
        self,
        game: str,
        options: Mapping[str, Any],
        seed: int | None = None,
        seats: Seats = ALL_HANDS,
    ) -> None:
        """A new game (``seed``: what its chance outcomes are drawn from;
        ``seats``: who plays each seat); one left unfinished is kept as
        abandoned."""
        now, unsure = self._now(), self._unsure()
        self._write(
            "UPDATE games SET status = 'abandoned', ended = ?, ended_unsure = ? "
            "WHERE status = 'playing'",
            (now, unsure),
        )
        self._game_id = self._write(
            "INSERT INTO games (game, options, started, seed, seats, started_unsure) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (
                game,
                json.dumps(dict(options), sort_keys=True),
                now,
                seed,
                json.dumps(seats.to_json()) if seats.any_apart else None,
                unsure,
            ),
        )

    def record(
        self, move: str, public: str | None = None, excluded: tuple[str, ...] | None = None
    ) -> None:
        """One action: its notation, and what every player may read of it
        (``public``; the notation itself when it holds no secret); where a
        turn of the computer's began with it, the moves it had suggested
        there before (``excluded``)."""
        game_id = self._require()
        self._write(
            "INSERT INTO moves (game_id, seq, move, at, public, excluded) VALUES "
            "(?, (SELECT COUNT(*) FROM moves WHERE game_id = ?), ?, ?, ?, ?)",
            (
                game_id,
                game_id,
                move,
                self._now(),
                public,
                None if excluded is None else json.dumps(list(excluded)),
            ),
        )

    def asked(self, ply: int, tried: tuple[str, ...]) -> None:
        """Another move of the computer's was asked for at ``ply`` (0-based,
        the next action): the moves it suggested there so far. It counts
        until that action is recorded (which keeps them itself) or an undo,
        so a restart before it shows the move asked for, not the one given
        up (:meth:`resume_plans`)."""
        game_id = self._require()
        self._write(
            "UPDATE games SET asked = ? WHERE id = ?",
            (json.dumps({"ply": ply, "tried": list(tried)}), game_id),
        )

    def resume_plans(self) -> dict[int, tuple[str, ...]]:
        """:meth:`plans` of the current game, with where another move was
        asked for since its last action: what a resumed game's computer
        asks from."""
        plans = self.plans()
        if self._game_id is None:
            return plans
        row = self._db.execute(
            "SELECT asked, (SELECT COUNT(*) FROM moves WHERE game_id = ?) FROM games WHERE id = ?",
            (self._game_id, self._game_id),
        ).fetchone()
        if row is None or row[0] is None:
            return plans
        try:
            asked = json.loads(row[0])
            ply, tried = int(asked["ply"]), tuple(str(t) for t in asked["tried"])
        except (ValueError, TypeError, KeyError):
            return plans  # unreadable: the computer shows its first choice again
        # asked where the game stands; an action since keeps its own
        return {**plans, ply: tried} if ply == row[1] else plans

    def undo(self, steps: int, amended: bool = False) -> None:
        """Take the last ``steps`` actions off the record (``amended``: the
        hand went on from them; the actions it finished are recorded next, so
        the record is a legal game at every moment)."""
        game_id = self._require()
        self._write(
            "DELETE FROM moves WHERE game_id = ? AND seq >= "
            "(SELECT COUNT(*) FROM moves WHERE game_id = ?) - ?",
            (game_id, game_id, steps),
        )
        self._write(
            "UPDATE games SET status = 'playing', ended = NULL, result = NULL, asked = NULL "
            "WHERE id = ?",
            (game_id,),
        )

    def finish(self, result: Mapping[str, Any]) -> None:
        game_id = self._require()
        self._write(
            "UPDATE games SET status = 'finished', ended = ?, result = ?, ended_unsure = ? "
            "WHERE id = ?",
            (self._now(), json.dumps(dict(result), sort_keys=True), self._unsure(), game_id),
        )
        if self.records_dir is not None:
            self.write_record(game_id, self.records_dir)

    def write_record(self, game_id: int, directory: Path) -> Path:
        """Write one game's record as ``NNNNN-GAME.json`` in ``directory``
        (atomically) and return its path."""
        from boardctl.records import GameRecord, dump

        record = self.record_of(game_id)
        path = directory / f"{game_id:05d}-{record['game']}.json"
        try:
            directory.mkdir(parents=True, exist_ok=True)
            dump(GameRecord.from_json(record, where=str(path)), path)
        except OSError as exc:
            raise StoreError(f"cannot write the game record {path}: {exc.strerror}") from exc
        return path

    def _require(self) -> int:
        if self._game_id is None:
            raise StoreError("no game has begun: call begin() first")
        return self._game_id

    # -- reading --------------------------------------------------------------
    def current(self) -> tuple[str, dict[str, Any], list[str]] | None:
        """The game being played when the daemon stopped: game, options, moves;
        or the last game if it finished (its board may still stand)."""
        row = self._db.execute(
            "SELECT id, game, options FROM games ORDER BY id DESC LIMIT 1"
        ).fetchone()
        if row is None:
            return None
        self._game_id = int(row[0])
        return str(row[1]), json.loads(row[2]), self.moves(int(row[0]))

    def seats(self) -> Seats:
        """Who plays each seat of the current game (the one :meth:`current` gave)."""
        if self._game_id is None:
            return ALL_HANDS
        return self._seats(self._game_id)

    def _seats(self, game_id: int) -> Seats:
        row = self._db.execute("SELECT seats FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None or row[0] is None:
            return Seats()
        return Seats.from_json(json.loads(row[0]), f"{self.path}: game {game_id}: seats")

    def plans(self, game_id: int | None = None) -> dict[int, tuple[str, ...]]:
        """The plies where a turn of the computer's began in a game (the
        current one by default), each with the moves it had suggested there
        before."""
        if game_id is None:
            if self._game_id is None:
                return {}
            game_id = self._game_id
        rows = self._db.execute(
            "SELECT seq, excluded FROM moves WHERE game_id = ? AND excluded IS NOT NULL "
            "ORDER BY seq",
            (game_id,),
        ).fetchall()
        return {int(seq): tuple(json.loads(excluded)) for seq, excluded in rows}

    def seed(self) -> int | None:
        """The seed of the current game (the one :meth:`current` gave), if it has one."""
        if self._game_id is None:
            return None
        row = self._db.execute("SELECT seed FROM games WHERE id = ?", (self._game_id,)).fetchone()
        return None if row is None or row[0] is None else int(row[0])

    def moves(self, game_id: int, *, public: bool = False) -> list[str]:
        """A game's moves in notation; ``public``: as every player may read them."""
        column = "COALESCE(public, move)" if public else "move"
        rows = self._db.execute(
            f"SELECT {column} FROM moves WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
        return [str(r[0]) for r in rows]

    def games(self, limit: int = 50) -> list[dict[str, Any]]:
        """The latest games, newest first: id, game, status, dates (None where
        the clock could not tell them), moves played, and of a finished game
        its ``winner`` (a 0-based seat; None: a draw, or not finished) and the
        ``reason`` it ended."""
        rows = self._db.execute(
            "SELECT g.id, g.game, g.status, "
            "CASE WHEN g.started_unsure THEN NULL ELSE g.started END, "
            "CASE WHEN g.ended_unsure THEN NULL ELSE g.ended END, "
            "(SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id), g.result "
            "FROM games g ORDER BY g.id DESC LIMIT ?",
            (limit,),
        ).fetchall()
        keys = ("id", "game", "status", "started", "ended", "moves")
        listed = []
        for row in rows:
            game = dict(zip(keys, row[:-1], strict=True))
            game["winner"], game["reason"] = _ending(row[-1])
            listed.append(game)
        return listed

    def finished(self, limit: int = 2000) -> list[dict[str, Any]]:
        """The latest finished games, newest first (:func:`finished_games`)."""
        return finished_games(self._db, limit)

    def record_of(self, game_id: int | None = None) -> dict[str, Any]:
        """The game record of one game (the latest finished one by default).
        The moves of a game not finished are their public texts: its secrets
        are still in play."""
        if game_id is None:
            row = self._db.execute(
                "SELECT id FROM games WHERE status = 'finished' ORDER BY id DESC LIMIT 1"
            ).fetchone()
            if row is None:
                raise NoSuchGame("no game has finished yet; `boardctl games` lists the games")
            game_id = int(row[0])
        row = self._db.execute(
            "SELECT game, options, CASE WHEN started_unsure THEN NULL ELSE started END, "
            "CASE WHEN ended_unsure THEN NULL ELSE ended END, result, status "
            "FROM games WHERE id = ?",
            (game_id,),
        ).fetchone()
        if row is None:
            raise NoSuchGame(f"no game number {game_id}; `boardctl games` lists them")
        record: dict[str, Any] = {
            "game": row[0],
            "options": json.loads(row[1]),
            "moves": self.moves(game_id, public=row[5] != "finished"),
        }
        if row[2] is not None:  # a date the clock could not tell is left out
            record["started"] = row[2]
        if row[3] is not None:
            record["ended"] = row[3]
        if row[4] is not None:
            record["result"] = json.loads(row[4])
        seats = self._seats(game_id)
        if seats.any_apart:
            record["seats"] = seats.to_json()
        if seats.any_computer:
            record["plans"] = {
                str(ply + 1): list(tried) for ply, tried in self.plans(game_id).items()
            }
        return record


def _ending(result: str | None) -> tuple[int | None, str | None]:
    """The winner's seat and the reason of a stored result (None, None where
    there is none or it cannot be read: a listing never fails on one game)."""
    try:
        data = json.loads(result) if result is not None else {}
    except ValueError:
        return None, None
    if not isinstance(data, dict):
        return None, None
    winner, reason = data.get("winner"), data.get("reason")
    return (
        winner if isinstance(winner, int) and not isinstance(winner, bool) else None,
        reason if isinstance(reason, str) else None,
    )


def finished_games(db: sqlite3.Connection, limit: int) -> list[dict[str, Any]]:
    """The latest finished games of the database ``db``, newest first, for the
    statistics: id, game, options, dates, result and moves played. Also read
    through a read-only connection of its own, apart from the loop's."""
    rows = db.execute(
        "SELECT g.id, g.game, g.options, g.started, g.ended, g.result, "
        "(SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) "
        "FROM games g WHERE g.status = 'finished' ORDER BY g.id DESC LIMIT ?",
        (limit,),
    ).fetchall()
    keys = ("id", "game", "options", "started", "ended", "result", "moves")
    return [dict(zip(keys, row, strict=True)) for row in rows]
