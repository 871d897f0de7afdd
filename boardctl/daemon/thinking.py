"""The computer's thinking as the daemon, its process and ``boardctl rules think``
all do it: seeded the same way, so the same position, level, seed, ply and
attempt always give the same turn, and a game record that keeps them replays
exactly (:func:`rethink`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from boardctl.engines import Engine, Match
from boardctl.errors import RecordError
from boardctl.records import GameRecord


def hidden(
    engine: Engine[Any, Any], state: Any, seat: int, seed: int, ply: int, attempt: int
) -> Any:
    """``state`` as ``seat`` may know it: every secret hidden from that seat
    drawn again (the same draw for the same seed, ply and attempt). The
    daemon sends only this to the thinking process."""
    rng = random.Random(f"{seed}/{ply}/{attempt}/deal")
    return engine.determinize(state, seat, rng)


def decide(
    engine: Engine[Any, Any],
    state: Any,
    *,
    level: int,
    seed: int,
    ply: int,
    attempt: int = 0,
    exclude: Sequence[str] = (),
    stop: Callable[[], bool] | None = None,
) -> tuple[Any, ...]:
    """The computer's turn in ``state`` (already as its seat may know it:
    see :func:`hidden`) at ``level``, from ``seed``; ``exclude`` holds the
    actions suggested before here (another move was asked for ``attempt``
    times). The same arguments give the same turn, unless ``stop`` cuts the
    thinking short."""
    # imported here: the daemon, which imports this module for hidden(), never searches
    from boardctl.computer import level as level_of
    from boardctl.computer import plan_turn

    rng = random.Random(f"{seed}/{ply}/{attempt}")
    excluded = [engine.parse_action(text) for text in exclude]
    return plan_turn(engine, state, level_of(level), rng, exclude=excluded, stop=stop)


@dataclass(frozen=True, slots=True)
class Rethought:
    """One turn of the computer's in a record, and what it thinks there again.
    ``recorded`` are the moves made from it (in the order the hands made
    them), up to the next turn of the computer's that began before it ended
    (another move was asked for halfway)."""

    ply: int
    seat: int
    recorded: tuple[str, ...]
    thought: tuple[str, ...]
    #: another move was asked for halfway: only a part of it was made
    cut: bool = False

    @property
    def same(self) -> bool:
        """Whether the moves made are the turn thought, in any order (a part
        of it when it was cut short)."""
        left = list(self.thought)
        for move in self.recorded:
            if move not in left:
                return False
            left.remove(move)
        return self.cut or not left


def turn_at(
    engine: Engine[Any, Any],
    state: Any,
    *,
    level: int,
    seed: int,
    ply: int,
    exclude: Sequence[str] = (),
    stop: Callable[[], bool] | None = None,
) -> tuple[str, ...]:
    """The computer's turn in ``state`` (after ``ply`` actions) as the daemon
    gets it: the position as the seat may know it, ``exclude`` the moves it
    suggested there before (another move was asked for). In notation."""
    seat = engine.actor(state)
    if not isinstance(seat, int):
        raise ValueError(f"no player is to act after {ply} moves: the computer has no move")
    attempt = len(exclude)
    actions = decide(
        engine,
        hidden(engine, state, seat, seed, ply, attempt),
        level=level,
        seed=seed,
        ply=ply,
        attempt=attempt,
        exclude=exclude,
        stop=stop,
    )
    return tuple(engine.format_action(a) for a in actions)


def rethink(record: GameRecord) -> list[Rethought]:
    """Every turn of the computer's in ``record`` (its ``plans``), thought again."""
    engine = record.engine()
    match = Match.from_moves(engine, record.moves)
    out: list[Rethought] = []
    starts = sorted(record.plans)
    for n, (ply, tried) in enumerate(sorted(record.plans.items())):
        state = match.states[ply]
        seat = engine.actor(state)
        chosen = record.seats.computer(seat if isinstance(seat, int) else None)
        if not isinstance(seat, int) or chosen is None or chosen.seed is None:
            raise RecordError(
                f"move {ply + 1}: the record names no computer seat, with its seed, to act there"
            )
        thought = turn_at(
            engine, state, level=chosen.level, seed=chosen.seed, ply=ply, exclude=tried
        )
        end = ply + len(thought)
        cut = n + 1 < len(starts) and starts[n + 1] < end
        recorded = tuple(record.moves[ply : starts[n + 1] if cut else end])
        out.append(Rethought(ply, seat, recorded, thought, cut))
    return out
