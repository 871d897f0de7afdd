"""Replaying a golden record and comparing what it says the game looks like.

A record holds ``game``, ``options``, ``moves`` and either ``expect`` (what the
game looks like after the last move) or ``expect_error`` (the 1-based number of
the move that is refused and words of its reason); ``checkpoints`` maps a
number of moves played to what the game looks like then. What "looks like"
means is each game's own: its test passes ``observed(engine, state, want)``,
which answers the keys of ``want`` for that state.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from boardctl.engines import Engine, Match, ReplayError, create

Observed = Callable[[Any, Any, dict[str, Any]], dict[str, Any]]


def records(game: str) -> list[Path]:
    return sorted((Path(__file__).parent / "records" / game).glob("*.json"))


def check_record(path: Path, game: str, observed: Observed) -> Match[Any, Any] | None:
    """Replay the record at ``path`` move by move, comparing every checkpoint,
    then its expected result or error. The replayed match, or None after an
    expected error."""
    record = json.loads(path.read_text())
    assert record["game"] == game
    engine: Engine[Any, Any] = create(game, record["options"])
    moves: list[str] = record["moves"]
    checkpoints: dict[str, dict[str, Any]] = record.get("checkpoints", {})
    match: Match[Any, Any] = Match(engine)
    for number in range(len(moves) + 1):
        want = checkpoints.get(str(number))
        if want is not None:
            assert observed(engine, match.state, want) == want, f"after {number} moves"
        if number == len(moves):
            break
        try:
            match.play_text(moves[number])
        except ValueError:
            assert all(int(n) <= number for n in checkpoints), "a checkpoint after the error"
            break
    if "expect_error" in record:
        expected = record["expect_error"]
        with pytest.raises(ReplayError) as caught:
            Match.from_moves(engine, moves)
        assert caught.value.number == expected["move"]
        assert expected["reason"] in caught.value.reason
        # the match stops before the bad move
        assert len(caught.value.match.actions) == expected["move"] - 1
        return None
    replayed = Match.from_moves(engine, moves)
    want = record["expect"]
    assert observed(engine, replayed.state, want) == want
    return replayed
