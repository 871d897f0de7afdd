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
from record_support import check_record

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
    replayed = check_record(path, "shiftago", lambda e, s, want: _observed(e, s, set(want)))
    if replayed is not None:
        engine = replayed.engine
        moves = json.loads(path.read_text())["moves"]
        assert replayed.moves_text() == [
            engine.format_action(engine.parse_action(m)) for m in moves
        ]
