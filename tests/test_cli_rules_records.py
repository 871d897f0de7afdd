"""``boardctl rules`` on every golden record: the summary a user reads is right."""

import json
from pathlib import Path

import pytest

from boardctl.cli.main import main

RECORDS = sorted((Path(__file__).parent / "records").glob("*/*.json"))
#: one legal record of each game
PLAYABLE = {
    p.parent.name: p for p in reversed(RECORDS) if "expect_error" not in json.loads(p.read_text())
}


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_replay_json_reports_the_expected_end(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = json.loads(path.read_text())
    status = main(["rules", "replay", str(path), "--json"])
    summary = json.loads(capsys.readouterr().out)
    assert summary["game"] == record["game"]
    if "expect_error" in record:
        expected = record["expect_error"]
        assert status == 2
        assert summary["error"]["move_number"] == expected["move"]
        assert summary["error"]["move"] == record["moves"][expected["move"] - 1]
        assert expected["reason"] in summary["error"]["reason"]
        assert summary["moves_applied"] == expected["move"] - 1
    else:
        assert status == 0
        assert summary["moves_applied"] == len(record["moves"])
        for key, value in record.get("expect", {}).items():
            if key in summary:
                assert summary[key] == value, key


def test_every_game_has_golden_records() -> None:
    from boardctl.engines import GAMES

    assert {p.parent.name for p in RECORDS} >= set(GAMES)


@pytest.mark.parametrize("path", PLAYABLE.values(), ids=lambda p: p.stem)
def test_show_draws_the_board_and_moves_lists_actions(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["rules", "show", str(path), "--at", "0"]) == 0
    assert "0 moves applied" in capsys.readouterr().out
    assert main(["rules", "moves", str(path)]) == 0
    out, err = capsys.readouterr()
    summary = json.loads(path.read_text()).get("expect", {})
    if summary.get("status", "playing") == "playing":
        assert out.split(), "a game in progress has legal actions"
    else:
        assert not out and "no legal action: the game is" in err


def test_show_at_out_of_range_says_how_many_moves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "g.json"
    path.write_text('{"game": "duploline", "moves": ["D+d4"]}')
    assert main(["rules", "show", str(path), "--at", "5"]) == 2
    assert "--at 5 is out of range: the record has 1 move" in capsys.readouterr().err
