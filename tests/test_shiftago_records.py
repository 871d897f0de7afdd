"""Golden Shiftago records: each file replays a game written from the rule texts.

A record holds ``game``, ``options``, ``moves`` and either ``expect`` (what the
game looks like after the last move) or ``expect_error`` (the 1-based number of
the move that is refused and words of the reason). ``checkpoints`` maps a number
of moves played to what the game looks like at that point. Keys compared:
status, winner, to_move, expects, scores, supply, board (rows north first,
``.`` empty, a digit a player's marble), legal (the listed actions, sorted) and
legal_count.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from boardctl.engines import Match, ReplayError, create
from boardctl.engines.shiftago import Shiftago, ShiftagoState

RECORDS = sorted((Path(__file__).parent / "records" / "shiftago").glob("*.json"))


def _observed(engine: Shiftago, state: ShiftagoState, keys: set[str]) -> dict[str, Any]:
    outcome = engine.outcome(state)
    scores = engine.scores(state)
    seen: dict[str, Any] = {
        "status": outcome.status.value,
        "winner": outcome.winner,
        "to_move": engine.to_move(state),
        "expects": engine.expects(state),
        "scores": list(scores) if scores is not None else None,
        "supply": list(engine.supply(state)),
        "board": engine.state_to_json(state)["board"],
    }
    if keys & {"legal", "legal_count"}:
        legal = sorted(engine.format_action(a) for a in engine.legal_actions(state))
        seen["legal"] = legal
        seen["legal_count"] = len(legal)
    return {k: seen[k] for k in keys}


def test_there_are_records() -> None:
    assert len(RECORDS) >= 20


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_record_replays_as_expected(path: Path) -> None:
    record = json.loads(path.read_text())
    assert record["game"] == "shiftago"
    engine = create("shiftago", record["options"])
    assert isinstance(engine, Shiftago)
    moves: list[str] = record["moves"]

    # replay move by move so that checkpoints can be compared on the way
    checkpoints: dict[str, dict[str, Any]] = record.get("checkpoints", {})
    match = Match(engine)
    for number in range(len(moves) + 1):
        want = checkpoints.get(str(number))
        if want is not None:
            assert _observed(engine, match.state, set(want)) == want, f"after {number} moves"
        if number == len(moves):
            break
        try:
            match.play_text(moves[number])
        except ValueError:
            break

    if "expect_error" in record:
        expected = record["expect_error"]
        with pytest.raises(ReplayError) as caught:
            Match.from_moves(engine, moves)
        assert caught.value.number == expected["move"]
        assert expected["reason"] in caught.value.reason
        # the match stops before the bad move
        assert len(caught.value.match.actions) == expected["move"] - 1
    else:
        replayed = Match.from_moves(engine, moves)
        want = record["expect"]
        assert _observed(engine, replayed.state, set(want)) == want
        assert replayed.moves_text() == [
            engine.format_action(engine.parse_action(m)) for m in moves
        ]
