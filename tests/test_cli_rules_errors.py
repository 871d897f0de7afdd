"""A bad record file gets a clear message and exit status 2, never a traceback."""

import json
import re
from pathlib import Path

import pytest

from boardctl.cli.main import main


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"game": "shiftago", "moves": ["W1",]}', r":1:\d+: not valid JSON"),
        ("[1, 2]", "a game record is a JSON object"),
        ('{"game": 3}', '"game" must name the game'),
        ('{"game": "shiftago", "moves": "W1 W2"}', '"moves" must be a list'),
        ('{"game": "shiftago", "moves": ["W1", 7]}', "move 2 must be text"),
        ('{"game": "shiftago", "movez": []}', "unknown key 'movez'"),
        ('{"game": "chess", "moves": []}', "unknown game 'chess'"),
        ('{"game": "shiftago", "options": [], "moves": []}', '"options" must be an object'),
    ],
)
def test_malformed_record_is_refused_with_the_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, message: str
) -> None:
    path = tmp_path / "game.json"
    path.write_text(content)
    assert main(["rules", "replay", str(path), "--json"]) == 2
    out, err = capsys.readouterr()
    assert str(path) in err
    assert "Traceback" not in err
    error = json.loads(out)["error"]
    assert error["file"] == str(path)
    assert re.search(message, error["reason"])


def test_missing_file_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.json"
    assert main(["rules", "show", str(missing)]) == 2
    assert f"{missing}: cannot read the record" in capsys.readouterr().err


def test_binary_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(b"\xff\xfe\x00garbage")
    assert main(["rules", "moves", str(path)]) == 2
    assert "not UTF-8 text" in capsys.readouterr().err


def test_deeply_nested_file_is_refused_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    assert main(["rules", "replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}: nested too deeply to read" in err
    assert "Traceback" not in err and "RecursionError" not in err


@pytest.mark.parametrize("command", ["replay", "show", "moves"])
def test_an_illegal_move_names_the_file_in_every_rules_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    path = tmp_path / "illegal.json"
    path.write_text('{"game": "shiftago", "moves": ["W1", "x:a1-e1"]}')
    assert main(["rules", command, str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"boardctl: {path}: move 2 ('x:a1-e1'): "), err
