"""Golden Beeline records: every rule of the seed played out, legal and illegal.

Each file in tests/records/beeline/ holds ``game``, ``options``, ``moves``, a
``note`` saying which rule it shows, and either ``expect`` (what the game looks
like after the last move) or ``expect_error`` (the 1-based number of the move
that is refused and words of the reason). ``checkpoints`` maps a number of moves
played to what the game looks like then. Keys compared: status, winner,
to_move, expects, task, lines (each player's line, cells from the start), rut
(each player's RUT, sorted), hands (each player's pieces off the board), cells
(the piece on each named cell, null for none) and legal_count.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from record_support import check_record

from boardctl.engines.beeline import Beeline, State

RECORDS = sorted((Path(__file__).parent / "records" / "beeline").glob("*.json"))
COLOURS = ("black", "red")


def _observed(engine: Beeline, state: State, want: dict[str, Any]) -> dict[str, Any]:
    outcome = engine.outcome(state)
    layout = engine.layout(state)
    seen: dict[str, Any] = {
        "status": outcome.status.value,
        "winner": outcome.winner,
        "to_move": engine.to_move(state),
        "expects": engine.expects(state),
        "task": engine.task(state),
        "lines": {c: list(engine.line(state, p)) for p, c in enumerate(COLOURS)},
        "rut": {c: sorted(engine.rut(state, p)) for p, c in enumerate(COLOURS)},
        "hands": {c: engine.hand(state, p) for p, c in enumerate(COLOURS)},
        "cells": {cell: layout.get(cell) for cell in want.get("cells", {})},
    }
    if "legal_count" in want:
        seen["legal_count"] = sum(1 for _ in engine.legal_actions(state))
    return {k: seen[k] for k in want}


def test_there_are_records() -> None:
    assert len(RECORDS) >= 25


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_record_replays_as_expected(path: Path) -> None:
    assert json.loads(path.read_text()).get("note"), "every record says which rule it shows"
    check_record(path, "beeline", _observed)


def test_every_rule_has_a_record() -> None:
    names = {p.stem for p in RECORDS}
    for prefix in (
        "sample_game",
        "first_turn",
        "mark_",
        "group_",
        "node_free",
        "node_not_in_opponent_rut",
        "node_three_adjacent",
        "node_continuation",
        "replace_",
        "play_into_node",
        "line_passes_mark_once",
        "send_back",
        "dark_area",
        "out_of_bounds",
        "win_",
        "tie_",
        "runs_out",
        "blocked_",
        "dead_end",
        "returned_pieces",
    ):
        assert any(name.startswith(prefix) for name in names), prefix
