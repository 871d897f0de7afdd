"""Where the controller writes games and actions before they show.

A :class:`Recorder` receives every game begun and every action before the LEDs
that show it are computed (the daemon's is the SQLite store, :mod:`.store`);
:class:`NullRecorder` keeps nothing, for a controller without storage.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from boardctl.seats import ALL_HANDS, Seats


class Recorder(Protocol):
    """Where games and actions are written before they show (see :mod:`.store`).
    ``seats`` names the computer's seats (with their levels and seeds), and
    ``excluded`` marks an action where a turn of the computer's began, with
    the moves it had suggested there before (another move was asked for):
    a record keeps both so that the computer's moves replay exactly.
    ``asked`` tells where another move was asked for before the action is
    made, with the moves suggested there so far, so a restart keeps it."""

    def begin(
        self,
        game: str,
        options: Mapping[str, Any],
        seed: int | None = None,
        seats: Seats = ALL_HANDS,
    ) -> None: ...

    def record(
        self, move: str, public: str | None = None, excluded: tuple[str, ...] | None = None
    ) -> None: ...

    def asked(self, ply: int, tried: tuple[str, ...]) -> None: ...

    def undo(self, steps: int, amended: bool = False) -> None:
        """Take the last ``steps`` actions off the record; ``amended``: the
        hand went on from them before they were final (a disc slid on, a
        sleeve passed), and what it finished is recorded next, if anything."""
        ...

    def finish(self, result: Mapping[str, Any]) -> None: ...


class NullRecorder:
    """Records nothing (for a controller without storage)."""

    def begin(
        self,
        game: str,
        options: Mapping[str, Any],
        seed: int | None = None,
        seats: Seats = ALL_HANDS,
    ) -> None:
        pass

    def record(
        self, move: str, public: str | None = None, excluded: tuple[str, ...] | None = None
    ) -> None:
        pass

    def asked(self, ply: int, tried: tuple[str, ...]) -> None:
        pass

    def undo(self, steps: int, amended: bool = False) -> None:
        pass

    def finish(self, result: Mapping[str, Any]) -> None:
        pass
