"""Game records: the JSON file the project writes for every game played.

A record is ``{"game": "shiftago", "options": {...}, "moves": ["W1", ...]}``
with, optionally, ``"started"`` and ``"ended"`` (ISO 8601 times),
``"result"`` (the replay summary when the game ended), and where the computer
played a seat ``"seats"`` (per seat ``{"player": "hands"}`` or ``{"player":
"computer", "level": 3, "seed": ...}``) and ``"plans"`` (the 1-based numbers
of the moves where a turn of the computer's began, each with the moves it had
suggested there before, when another move was asked for): with them the
computer's moves replay exactly (``boardctl rules think --check``). Golden records in the
test suite add ``"note"`` (what the record shows), and ``"expect"`` (the
replay's summary, in part) or ``"expect_error"`` (``{"move": N, "reason": ...}``
for a record whose move N is illegal) and ``"checkpoints"`` (expected
summaries after some moves); replay ignores them. Reading is strict: a
record that cannot be used raises :class:`~boardctl.errors.RecordError` naming
the file, the place and what to do.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from types import MappingProxyType
from typing import Any

from boardctl.engines import Engine, Match, create
from boardctl.errors import RecordError, excerpt
from boardctl.message import M_
from boardctl.seats import ALL_HANDS, SeatError, Seats
from boardctl.textfiles import MAX_RECORD, UnreadableFile, parse_json, read_bytes

_KEYS = {"game", "options", "moves", "started", "ended", "result", "seats", "plans"}
#: more moves than any game of the engines has (a record beyond is refused)
MAX_MOVES = 10_000
#: keys of golden test records: a comment and the expected replay, kept but not played
_ANNOTATIONS = {"note", "expect", "expect_error", "checkpoints"}


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game: which game, with which options, and the moves in notation."""

    game: str
    options: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    moves: tuple[str, ...] = ()
    started: str | None = None
    ended: str | None = None
    result: Mapping[str, Any] | None = None
    #: ``note``, ``expect``, ``expect_error`` and ``checkpoints`` of golden test records
    annotations: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    #: who played each seat (the computer's with level and seed)
    seats: Seats = ALL_HANDS
    #: 0-based ply where a turn of the computer's began -> the moves it had
    #: suggested there before (another move was asked for)
    plans: Mapping[int, tuple[str, ...]] = field(default_factory=lambda: MappingProxyType({}))

    def engine(self) -> Engine[Any, Any]:
        """The engine this record is played with (errors name the record's options)."""
        return create(self.game, dict(self.options))

    def replay(self) -> Match[Any, Any]:
        """Play every move; :class:`~boardctl.engines.ReplayError` at the first bad one."""
        return Match.from_moves(self.engine(), self.moves)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": self.game,
            "options": dict(self.options),
            "moves": list(self.moves),
        }
        if self.started is not None:
            data["started"] = self.started
        if self.ended is not None:
            data["ended"] = self.ended
        if self.result is not None:
            data["result"] = dict(self.result)
        if self.seats.any_apart:
            data["seats"] = self.seats.to_json()
        if self.seats.any_computer:
            data["plans"] = {str(ply + 1): list(t) for ply, t in sorted(self.plans.items())}
        data.update(self.annotations)
        return data

    @classmethod
    def from_json(cls, data: object, where: str = "record") -> GameRecord:
        """Check and convert parsed JSON; errors start with ``where``."""
        if not isinstance(data, dict):
            kind = "null" if data is None else type(data).__name__
            raise RecordError(
                f'{where}: a game record is a JSON object like {{"game": "shiftago", '
                f'"options": {{}}, "moves": []}}, not {kind}'
            )
        unknown = sorted(set(data) - _KEYS - _ANNOTATIONS)
        if unknown:
            raise RecordError(
                f"{where}: unknown key {unknown[0]!r}; a record has {', '.join(sorted(_KEYS))}"
            )
        game = data.get("game")
        if not isinstance(game, str):
            raise RecordError(f'{where}: "game" must name the game, e.g. "shiftago"')
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise RecordError(f'{where}: "options" must be an object, e.g. {{"players": 2}}')
        moves = data.get("moves", [])
        if not isinstance(moves, list):
            raise RecordError(f'{where}: "moves" must be a list of moves in notation')
        if len(moves) > MAX_MOVES:
            raise RecordError(
                f"{where}: {len(moves)} moves, more than any game has ({MAX_MOVES} at most)"
            )
        for number, move in enumerate(moves, start=1):
            if not isinstance(move, str):
                raise RecordError(f"{where}: move {number} must be text in notation, not {move!r}")
        for key in ("started", "ended"):
            if key in data and not _is_time(data[key]):
                raise RecordError(
                    f'{where}: "{key}" must be an ISO 8601 time as text, like '
                    f'"2024-05-01T14:03:00", not {excerpt(data[key])}'
                )
        result = data.get("result")
        if result is not None and not isinstance(result, dict):
            raise RecordError(f'{where}: "result" must be an object')
        try:
            seats = Seats.from_json(data.get("seats", []), f'{where}: "seats"')
        except SeatError as exc:
            raise RecordError(str(exc)) from None
        plans = _plans(data.get("plans", {}), len(moves), where)
        return cls(
            game=game,
            options=MappingProxyType(dict(options)),
            moves=tuple(moves),
            started=data.get("started"),
            ended=data.get("ended"),
            result=MappingProxyType(dict(result)) if result is not None else None,
            annotations=MappingProxyType({k: data[k] for k in _ANNOTATIONS if k in data}),
            seats=seats,
            plans=MappingProxyType(plans),
        )


def _is_time(value: object) -> bool:
    """Whether ``value`` is an ISO 8601 date and time as text."""
    if not isinstance(value, str) or len(value) > 40:
        return False
    try:
        datetime.fromisoformat(value)
    except ValueError:
        return False
    return True


def _plans(data: object, moves: int, where: str) -> dict[int, tuple[str, ...]]:
    """A record's ``plans``: move number (1 first, as text) -> the moves
    suggested there before."""
    example = '{"4": [], "9": ["W3"]}'
    if not isinstance(data, dict):
        raise RecordError(f'{where}: "plans" must be an object like {example}')
    plans: dict[int, tuple[str, ...]] = {}
    for key, tried in data.items():
        if not (isinstance(key, str) and key.isdigit() and 1 <= int(key) <= moves):
            raise RecordError(
                f'{where}: "plans": {key!r} must be the number of a move, 1 to {moves}'
            )
        if (
            not isinstance(tried, list)
            or len(tried) > MAX_MOVES
            or not all(isinstance(t, str) for t in tried)
        ):
            raise RecordError(
                f'{where}: "plans": move {key}: give the moves suggested there before as a '
                f'list of text, e.g. ["W3"] (or [] for none)'
            )
        plans[int(key) - 1] = tuple(tried)
    return plans


def load(path: str | os.PathLike[str]) -> GameRecord:
    """Read a record file (at most :data:`~boardctl.textfiles.MAX_RECORD`
    bytes); :class:`RecordError` naming the file and line if it is bad."""
    p = Path(path)
    try:
        data = parse_json(read_bytes(p, MAX_RECORD, M_("the record")))
    except UnreadableFile as exc:
        raise RecordError(M_("{fault}; is it a game record?", fault=exc.of(p))) from None
    return GameRecord.from_json(data, where=str(p))


def dump(record: GameRecord, path: str | os.PathLike[str]) -> None:
    """Write a record atomically: a crash leaves the old file or the new one."""
    p = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=p.name + ".", suffix=".tmp", dir=p.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(record.to_json(), f, indent=2)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, p)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def record_of(match: Match[Any, Any], **times: str) -> GameRecord:
    """The record of a match so far."""
    moves: Sequence[str] = match.moves_text()
    result = match.summary() if match.outcome().over else None
    return GameRecord(
        game=match.engine.name,
        options=MappingProxyType(match.engine.options_json()),
        moves=tuple(moves),
        started=times.get("started"),
        ended=times.get("ended"),
        result=MappingProxyType(result) if result is not None else None,
    )
