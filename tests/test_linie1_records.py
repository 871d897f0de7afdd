"""Golden Linie 1 records: each rule played out, legal and illegal.

Every file in tests/records/linie1/ is a game record with the result it must
reach (``expect``) or the move that must be refused and words of the reason
(``expect_error``). ``checkpoints`` maps a number of moves played to what the
game looks like then. Keys compared: status, winner, reason (a part of it),
to_move, actor (a seat or "chance"), expects, task, choosing, sites (the piece
code on each listed site, null for none), stops (building -> cell), hands,
legal (the listed actions, sorted), legal_count and public (keys of the public
view).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from record_support import check_record

from boardctl.engines import CHANCE
from boardctl.engines.linie1 import Linie1, State

RECORDS = sorted((Path(__file__).parent / "records" / "linie1").glob("*.json"))


def _observed(engine: Linie1, state: State, want: dict[str, Any]) -> dict[str, Any]:
    outcome = engine.outcome(state)
    actor = engine.actor(state)
    layout = engine.layout(state)
    public = engine.public_view(state)
    seen: dict[str, Any] = {}
    for key, value in want.items():
        if key == "status":
            seen[key] = outcome.status.value
        elif key == "winner":
            seen[key] = outcome.winner
        elif key == "reason":
            seen[key] = value if value in outcome.reason else outcome.reason
        elif key == "to_move":
            seen[key] = engine.to_move(state)
        elif key == "actor":
            seen[key] = "chance" if actor is CHANCE else actor
        elif key == "expects":
            seen[key] = engine.expects(state)
        elif key == "task":
            seen[key] = engine.task(state)
        elif key == "choosing":
            seen[key] = engine.choosing(state)
        elif key == "sites":
            seen[key] = {site: layout.get(site) for site in value}
        elif key == "stops":
            seen[key] = public["stops"]
        elif key == "hands":
            seen[key] = public["hands"]
        elif key in ("legal", "legal_count"):
            legal = sorted(engine.format_action(a) for a in engine.legal_actions(state))
            seen[key] = legal if key == "legal" else len(legal)
        elif key == "public":
            seen[key] = {k: public[k] for k in value}
        else:
            raise AssertionError(f"unknown checkpoint key {key!r}")
    return seen


def test_there_are_records() -> None:
    assert len(RECORDS) >= 25


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_record_replays_as_expected(path: Path) -> None:
    assert json.loads(path.read_text()).get("note"), "every record says what it shows"
    check_record(path, "linie1", _observed)


def test_every_rule_has_a_record() -> None:
    names = {p.stem for p in RECORDS}
    for prefix in (
        "turn_",
        "draw_",
        "rule_a_",
        "rule_b_",
        "rule_c_",
        "rule_d_",
        "rule_e_",
        "exchange_",
        "stop_sign_",
        "start_",
        "trip_",
        "speed_",
        "dealt_",
        "pass_",
        "stuck_",
        "take_",
    ):
        assert any(name.startswith(prefix) for name in names), prefix
