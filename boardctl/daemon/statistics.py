"""The board's statistics from its game database, counted by the pure
:mod:`boardctl.stats` (and drawn by :mod:`boardctl.plots`).

:class:`Statistics` reads the latest :data:`LIMIT` finished games through a
read-only connection of its own, opened for each question, on the thread that
asks (the web server's helper, the broker's): never the loop's, which it
would hold up some 30 ms here for 2,000 games, 5-10 times that on a Pi Zero
(``bench/stats.py``).
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, date, datetime, tzinfo
from functools import lru_cache
from pathlib import Path
from typing import Any

from boardctl.controller import store
from boardctl.stats import Finished, csv_text, summary

#: the latest finished games counted
LIMIT = 2000


@lru_cache(maxsize=64)
def _players(game: str, options: str) -> tuple[tuple[str, str], ...]:
    """The names and colours of a game's seats (none for a game no longer played)."""
    from boardctl.engines import create

    try:
        return tuple((p.name, p.colour) for p in create(game, json.loads(options)).board().players)
    except Exception:
        return ()


def finished_games(rows: list[dict[str, Any]]) -> list[Finished]:
    """The store's rows of finished games as the statistics count them."""
    out = []
    for row in rows:
        try:
            result = json.loads(row["result"] or "{}")
        except ValueError:
            result = {}
        winner = result.get("winner")
        scores = result.get("scores")
        out.append(
            Finished(
                int(row["id"]),
                str(row["game"]),
                str(row["started"]),
                str(row["ended"] or ""),
                int(row["moves"] or 0),
                winner if isinstance(winner, int) else None,
                tuple(name for name, _ in _players(row["game"], row["options"])),
                tuple(scores) if isinstance(scores, list) else None,
            )
        )
    return out


def _zone() -> tzinfo:
    return datetime.now().astimezone().tzinfo or UTC


class Statistics:
    """The statistics of the game database at ``path``, read apart from the loop."""

    def __init__(self, path: str | Path, limit: int = LIMIT) -> None:
        self.path = Path(path)
        self.limit = limit

    def games(self) -> list[Finished]:
        db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, timeout=5.0)
        try:
            return finished_games(store.finished_games(db, self.limit))
        finally:
            db.close()

    def summary(self) -> dict[str, Any]:
        return summary(self.games(), date.today(), _zone())

    def csv(self) -> str:
        return csv_text(self.games(), _zone())
