"""Bad files and settings: each is refused with exit 2, naming the file and the
key, in a short message without a traceback; `boardctl config show` and
`boardctl run` refuse the same configurations with the same words."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from boardctl.board import unfit
from boardctl.cli.main import main
from boardctl.controller.loop import Loop, _Request
from boardctl.controller.machine import Controller
from boardctl.daemon.runner import fitting
from boardctl.engines import create
from boardctl.engines.linie1.data import DEFAULT
from boardctl.errors import BadOptions
from boardctl.sensing import LinkUp, SensorSnapshot
from boardctl.web.auth import hash_password
from hardware.profiles import PROFILE_DIR, load_profile

#: the longest refusal any of these may give
SHORT = 600

SMALL_BOARD = json.loads(
    json.loads(
        (Path(__file__).parent / "records/linie1/speed_rule_too_far_refused.json").read_text()
    )["options"]["board_data"]
)


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = main(argv)
    err = capsys.readouterr().err
    assert "Traceback" not in err, err
    return status, err


def _config(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "boardctl.toml"
    path.write_text(text)
    return path


_HASH = hash_password("a good password")


@pytest.mark.parametrize(
    ("text", "key", "words"),
    [
        ('[web]\nlisten = "8080"\n', "[web] listen", '"host:port"'),
        ('[web]\nlisten = "127.0.0.1"\n', "[web] listen", '"host:port"'),
        ('[web]\nlisten = "127.0.0.1:"\n', "[web] listen", "the port must be"),
        ('[web]\nlisten = "127.0.0.1:70000"\n', "[web] listen", "the port must be"),
        ('[web]\nlisten = "http://127.0.0.1:8080"\n', "[web] listen", "not a URL"),
        ('[web]\nlisten = "127.0.0.1:8080"\npassword_hash = "hunter22"\n', "[web] password_hash",
         "not a hashed password"),
        ('[web]\nlisten = "127.0.0.1:8080"\npassword_hash = "pbkdf2-sha256$x$ab$cd"\n',
         "[web] password_hash", "rounds are not a whole number"),
        (f'[web]\nlisten = "127.0.0.1:8080"\npassword_hash = "{_HASH[:-2]}"\n',
         "[web] password_hash", "SHA-256"),
        (f'[web]\nlisten = "127.0.0.1:8080"\npassword_hash = "{_HASH.replace("$", "$zz", 1)}"\n',
         "[web] password_hash", "rounds"),
        ('[web]\nlisten = "127.0.0.1:8080"\ntoken = "short"\n', "[web] token", "at least 16"),
        ('[web]\nlisten = "0.0.0.0:8080"\n', "[web] listen", "opens the pages to the network"),
        ('[control]\nmode = "0666"\n', "[control] mode", "any user of this machine"),
        ('[control]\nmode = "0602"\n', "[control] mode", "any user of this machine"),
        ('[control]\nmode = "0400"\n', "[control] mode", "read and write"),
        ('[control]\nmode = "4600"\n', "[control] mode", "not octal permission bits"),
        ('[control]\nsocket = ""\n', "[control] socket", "empty"),
        (f'[control]\nsocket = "/run/{"x" * 120}.sock"\n', "[control] socket", "longer than"),
        ('[leds]\npalette = ["#000001", "#000002", "#000003", "#000004", "#000005"]\n',
         "[leds] palette", "seats at most 4"),
    ],
)  # fmt: skip
def test_config_show_and_run_refuse_alike_naming_file_and_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, key: str, words: str
) -> None:
    path = _config(tmp_path, text)
    status, shown = _run(["config", "show", "--config", str(path)], capsys)
    assert status == 2, shown
    assert f"{path}:" in shown and key in shown and words in shown, shown
    assert len(shown) < SHORT, shown
    status, ran = _run(["run", "--config", str(path)], capsys)
    assert status == 2 and ran == shown


def test_what_config_show_accepts_the_web_server_takes(tmp_path: Path) -> None:
    from boardctl.config import load
    from boardctl.web.start import start_web

    config = load(
        _config(tmp_path, f'[web]\nlisten = "127.0.0.1:0"\npassword_hash = "{_HASH}"\n'),
        required=True,
    )
    loop: Any = type("L", (), {"watchers": [], "submit": None})()
    web = start_web(config, load_profile("shiftago-colour"), loop)
    web.close()


@pytest.mark.parametrize(
    ("board_data", "words"),
    [
        ([1], "must be a JSON object"),
        ({**DEFAULT, "lines": [1, 2]}, "lines[1]: must be an object"),
        ({**DEFAULT, "tiles": 7}, "tiles: must be a list"),
        ({**DEFAULT, "start_hand": {"x": 3}}, "start_hand.x: maps a tile number"),
        ({**DEFAULT, "start_hand": {"1": "3"}}, "start_hand.1: must be a count"),
        ({**DEFAULT, "route_cards": {"B": 5}}, "route_cards.B: must be a list"),
        ({**DEFAULT, "route_set": {"two": "B"}}, "route_set.two: maps a number of players"),
        ({**DEFAULT, "buildings": {"A": "north"}}, "buildings.A: a cell is [row, column]"),
        ({**DEFAULT, "start_hand": {"1": 4}}, "5 players start with 4 each of tile 1"),
        ("[" * 100_000, "nested more than 32 deep"),
        ('"' + "[" * 5000 + '"', "must be a JSON object"),
        ("9" * 5000, "is not JSON"),
    ],
)
def test_linie1_board_data_of_the_wrong_shape_is_refused_where_it_is_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], board_data: Any, words: str
) -> None:
    text = board_data if isinstance(board_data, str) else json.dumps(board_data)
    options = {"board_data": text, "players": 5}
    # in a record
    record = tmp_path / "game.json"
    record.write_text(json.dumps({"game": "linie1", "options": options, "moves": []}))
    status, err = _run(["rules", "replay", str(record)], capsys)
    assert status == 2 and str(record) in err and words in err and len(err) < SHORT, err
    # in a profile's options
    profile = tmp_path / "board.toml"
    original = (PROFILE_DIR / "linie1.toml").read_text()
    profile.write_text(
        original.replace('game = "linie1"', f'game = "linie1"\noptions = {_toml(options)}', 1)
    )
    status, err = _run(["profile", "check", str(profile)], capsys)
    out = capsys.readouterr().out
    assert status == 2 and words in err + out, err + out
    # in [game]
    config = _config(
        tmp_path, f'[board]\nprofile = "linie1"\n[game]\nplayers = 5\nboard_data = {_toml(text)}\n'
    )
    status, err = _run(["config", "show", "--config", str(config)], capsys)
    assert status == 2 and f"{config}:5: [game] board_data" in err and words in err, err
    assert len(err) < SHORT, err


def _toml(value: Any) -> str:
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }"
    return json.dumps(value)


def test_options_the_board_cannot_play_are_refused_in_the_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = _config(tmp_path, '[board]\nprofile = "bidiline"\n[game]\nn = 5\n')
    status, err = _run(["config", "show", "--config", str(config)], capsys)
    assert status == 2 and f"{config}:4: [game] n: bidiline with the options n=5" in err, err
    assert "this board (bidiline) has 68 sites that game does not" in err and len(err) < SHORT
    small = json.dumps(SMALL_BOARD)
    config = _config(
        tmp_path, f'[board]\nprofile = "linie1"\n[game]\nboard_data = {_toml(small)}\n'
    )
    status, err = _run(["config", "show", "--config", str(config)], capsys)
    assert status == 2 and "[game] board_data: linie1 with the options" in err, err
    assert "this board (linie1) has" in err and len(err) < SHORT, err


def test_options_the_board_cannot_play_are_refused_by_new() -> None:
    profile = load_profile("bidiline")
    assert unfit(profile, create("bidiline", {"n": 7}).board().site_kinds) is None
    with pytest.raises(BadOptions, match="bidiline with the options n=5 cannot be played here"):
        fitting(profile)("bidiline", {"n": 5})

    class Dark:
        def show(self, frame: Any) -> None:
            pass

    loop = Loop(Controller(profile, engines=fitting(profile)), Dark())
    loop.start()
    loop.handle(LinkUp("test"), 0.0)
    loop.handle(SensorSnapshot((0,) * profile.channel_count), 0.0)
    import threading

    asked = _Request({"cmd": "new", "options": {"n": 5}}, threading.Event())
    loop.handle(asked, 1.0)
    assert asked.reply is not None and not asked.reply["ok"]
    assert "has 68 sites that game does not" in asked.reply["error"]
    assert loop.controller.engine.options_json()["n"] == 7


def test_a_profile_palette_with_more_colours_than_seats_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    profile = tmp_path / "board.toml"
    original = (PROFILE_DIR / "beeline.toml").read_text()
    profile.write_text(
        original.replace(
            'palette = ["#8ca0ff", "#ff2a1a"]', 'palette = ["#8ca0ff", "#ff2a1a", "#00ff00"]'
        )
    )
    status, err = _run(["profile", "check", str(profile)], capsys)
    out = capsys.readouterr().out
    assert status == 2 and "3 colours, and beeline seats at most 2 players" in err + out


def test_a_records_start_time_must_be_a_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "game.json"
    record.write_text(json.dumps({"game": "shiftago", "moves": [], "started": "yesterday"}))
    status, err = _run(["rules", "replay", str(record)], capsys)
    assert status == 2 and f'{record}: "started" must be an ISO 8601 time' in err, err
    record.write_text(json.dumps({"game": "shiftago", "moves": [], "ended": "2024-05-01T14:03Z"}))
    assert main(["rules", "replay", str(record)]) == 0


def test_refusals_quote_a_short_excerpt_of_huge_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "game.json"
    record.write_text(json.dumps({"game": "shiftago", "moves": ["W" * 900_000]}))
    status, err = _run(["rules", "replay", str(record)], capsys)
    assert status == 2 and "900000 characters" in err and len(err) < SHORT, err
    record.write_text(json.dumps({"game": "x" * 900_000, "moves": []}))
    status, err = _run(["rules", "replay", str(record)], capsys)
    assert status == 2 and "unknown game" in err and len(err) < SHORT, err
    profile = tmp_path / "board.toml"
    original = (PROFILE_DIR / "linie1.toml").read_text()
    assert "\n[codes]\n" in original
    profile.write_text(original.replace("\n[codes]\n", '\n[codes]\n999999 = "9Q+car7"\n', 1))
    status, err = _run(["profile", "check", str(profile)], capsys)
    out = capsys.readouterr().out
    assert status == 2 and "'9Q+car7' is not a linie1 piece" in err + out
    assert len(err + out) < 2000 and "more" in err + out
