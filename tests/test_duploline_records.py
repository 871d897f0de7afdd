"""Golden DuploLine records: each rule played out, legal and illegal.

Every file in tests/records/duploline/ is a game record with the result it
must reach (``expect``) or the move that must be refused and why
(``expect_error``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from boardctl.engines import Match, ReplayError, create

RECORDS = sorted((Path(__file__).parent / "records" / "duploline").glob("*.json"))


def _load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_record_replays_to_its_expected_result(path: Path) -> None:
    record = _load(path)
    assert record["game"] == "duploline"
    engine = create("duploline", record["options"])
    if "expect_error" in record:
        want = record["expect_error"]
        with pytest.raises(ReplayError) as caught:
            Match.from_moves(engine, record["moves"])
        assert caught.value.number == want["move"]
        assert want["reason"] in caught.value.reason
        assert caught.value.move == record["moves"][want["move"] - 1]
        return
    match = Match.from_moves(engine, record["moves"])
    summary = match.summary()
    got = {key: summary[key] for key in record["expect"]}
    assert got == record["expect"]
    assert summary["moves_applied"] == len(record["moves"])


def test_every_rule_has_a_record() -> None:
    names = {p.stem for p in RECORDS}
    for prefix in (
        "opening_",
        "turn_",
        "add_",
        "move_disc",
        "move_ring",
        "connection_rule",
        "locked_pair",
        "forced_add",
        "win_by_discs",
        "win_by_rings",
        "full_board",
        "no_option",
        "seed_example",
    ):
        assert any(name.startswith(prefix) for name in names), prefix
