"""Golden Bidirectional Line Game records: each rule and each way to end, played out.

A record holds ``game``, ``options``, ``moves`` and either ``expect`` (what the
game looks like after the last move) or ``expect_error`` (the 1-based number of
the move that is refused and words of its reason). ``checkpoints`` maps a
number of moves played to what the game looks like then. Keys compared:
status, winner, reason, to_move, expects, task, scores (A and B segments),
segments (site -> colour), ends (the points of the A and B ends), legal (the
listed moves, sorted) and legal_count.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from record_support import check_record

from boardctl.engines.bidiline import BidiLine, State

RECORDS = sorted((Path(__file__).parent / "records" / "bidiline").glob("*.json"))


def _observed(engine: BidiLine, state: State, keys: set[str]) -> dict[str, Any]:
    outcome = engine.outcome(state)
    data = engine.state_to_json(state)
    seen: dict[str, Any] = {
        "status": outcome.status.value,
        "winner": outcome.winner,
        "reason": outcome.reason,
        "to_move": engine.to_move(state),
        "expects": engine.expects(state),
        "task": engine.task(state),
        "scores": list(engine.scores(state) or ()),
        "segments": data["segments"],
        "ends": data["ends"],
    }
    if keys & {"legal", "legal_count"}:
        legal = sorted(engine.format_action(a) for a in engine.legal_actions(state))
        seen["legal"] = legal
        seen["legal_count"] = len(legal)
    unknown = keys - set(seen)
    assert not unknown, f"the record asks for unknown keys {unknown}"
    return {k: seen[k] for k in keys}


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_record_replays_as_expected(path: Path) -> None:
    replayed = check_record(path, "bidiline", lambda e, s, want: _observed(e, s, set(want)))
    if replayed is not None:
        moves = json.loads(path.read_text())["moves"]
        assert replayed.moves_text() == moves, "records are written in canonical notation"


def test_every_rule_and_every_end_has_a_record() -> None:
    names = {p.stem for p in RECORDS}
    for prefix in (
        "first_move_",
        "second_move_",
        "extend_",
        "segment_never_drawn_twice",
        "line_passes_through_itself",
        "line_bounces_off_a_corner",
        "ends_meet_",
        "end_a_stuck",
        "end_b_stuck",
        "both_ends_stuck",
        "one_end_stuck_equal_counts_draw",
        "no_move_after_the_game_is_over",
        "notation_",
        "n2_",
        "n26_",
        "whole_game_",
    ):
        assert any(name.startswith(prefix) for name in names), prefix
    results = set()
    for path in RECORDS:
        expect = json.loads(path.read_text()).get("expect", {})
        if "status" in expect and expect["status"] != "playing":
            results.add((expect["status"], expect.get("winner")))
    assert results == {("won", 0), ("won", 1), ("draw", None)}
