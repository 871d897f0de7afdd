"""Settings an operator changes while the board runs, kept across restarts.

The LED brightness and the opening hours set from the operator page or the
control socket are written to the game database's ``settings`` table (one
row per setting, its value as JSON), not to the configuration file: the file
stays as the operator wrote it, and a value kept here wins over it until it
is set back to the file's (``null``). A backup of the database keeps them too.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from boardctl.controller.store import StoreError

_SCHEMA = "CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)"


class KeptSettings:
    """The ``settings`` table of the database at ``path``. A context manager."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute(_SCHEMA)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot keep settings in {self.path}: {exc}") from exc

    def __enter__(self) -> KeptSettings:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._db.close()

    def load(self) -> dict[str, Any]:
        """Every kept setting; one whose value cannot be read is left out."""
        out: dict[str, Any] = {}
        for key, value in self._db.execute("SELECT key, value FROM settings"):
            try:
                out[str(key)] = json.loads(value)
            except ValueError:
                continue
        return out

    def save(self, key: str, value: Any) -> None:
        """Keep ``value`` for ``key``; None forgets it (the file's value again)."""
        try:
            if value is None:
                self._db.execute("DELETE FROM settings WHERE key = ?", (key,))
            else:
                self._db.execute(
                    "INSERT INTO settings (key, value) VALUES (?, ?) "
                    "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                    (key, json.dumps(value)),
                )
        except sqlite3.Error as exc:
            raise StoreError(f"cannot keep the setting {key} in {self.path}: {exc}") from exc
