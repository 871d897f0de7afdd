"""Every file a user hands boardctl (configuration, board profile, game
record) is read within bounds and refused with a message naming the file and
the problem: exit status 2, never a traceback, never gigabytes of memory."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from boardctl.cli.main import main
from boardctl.textfiles import MAX_RECORD, MAX_TOML

PROFILES = Path(__file__).resolve().parent.parent / "hardware" / "profiles"
SHIFTAGO = (PROFILES / "shiftago-colour.toml").read_text(encoding="utf-8")

#: name -> (bytes of a bad TOML file, words its message must hold)
BAD_TOML: dict[str, tuple[bytes, str]] = {
    "not UTF-8": (b'[board]\nname = "\xff\xfe"\n', "line 2: not UTF-8 text"),
    "deep nesting": (
        b"a = " + b"[" * 5000 + b"]" * 5000 + b"\n",
        "nested too deeply",
    ),
    "deep inline tables": (b"a = " + b"{b = " * 3000 + b"1" + b"}" * 3000 + b"\n", "nested"),
    "BOM": (codecs.BOM_UTF8 + b"[board]\n", "byte-order mark"),
    "too large": (b"# " + b"x" * (MAX_TOML + 10) + b"\n", "larger than"),
}

PROFILE_COMMANDS = [
    ["profile", "check"],
    ["test", "leds"],
    ["test", "sensors"],
    ["calibrate"],
]
CONFIG_COMMANDS = [["config", "show"], ["run"], ["sim"]]


def _status_and_err(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = main(argv)
    return status, capsys.readouterr().err


@pytest.mark.parametrize("bad", sorted(BAD_TOML))
@pytest.mark.parametrize("command", PROFILE_COMMANDS, ids=" ".join)
def test_a_bad_profile_file_is_refused_by_every_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str], bad: str
) -> None:
    data, words = BAD_TOML[bad]
    path = tmp_path / "board.toml"
    path.write_bytes(data)
    status, err = _status_and_err([*command, str(path)], capsys)
    assert status == 2, err
    assert "Traceback" not in err and str(path) in err and words in err, err


@pytest.mark.parametrize("bad", sorted(BAD_TOML))
@pytest.mark.parametrize("command", CONFIG_COMMANDS, ids=" ".join)
def test_a_bad_configuration_file_is_refused_by_every_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str], bad: str
) -> None:
    data, words = BAD_TOML[bad]
    path = tmp_path / "boardctl.toml"
    path.write_bytes(data)
    state = tmp_path / "state"
    argv = [*command, "--config", str(path), "--set", f'storage.state_dir="{state}"']
    if command == ["sim"]:
        argv = ["sim", "--config", str(path)]
    status, err = _status_and_err(argv, capsys)
    assert status == 2, err
    assert "Traceback" not in err and str(path) in err and words in err, err


def test_a_profile_named_by_the_configuration_is_read_the_same_way(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    profile = tmp_path / "board.toml"
    profile.write_bytes(BAD_TOML["not UTF-8"][0])
    conf = tmp_path / "boardctl.toml"
    conf.write_text(f'[board]\nprofile = "{profile}"\n')
    status, err = _status_and_err(["config", "show", "--config", str(conf)], capsys)
    assert status == 2 and "not UTF-8" in err and "Traceback" not in err, err


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (("b1 = {", "a1 = {"), "a1 is written twice"),
        (('kind = "serial"', 'kind = "carrier-pigeon"'), "sensing.kind: bad value"),
        (('backend = "serial"', 'backend = "neon"'), "leds.backend: bad value"),
        (('name = "shiftago-colour"', 'name = ""'), "board.name"),
    ],
    ids=["duplicate site", "unknown sensing kind", "unknown LED backend", "empty name"],
)
def test_a_profile_mistake_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: tuple[str, str], words: str
) -> None:
    path = tmp_path / "board.toml"
    assert change[0] in SHIFTAGO
    path.write_text(SHIFTAGO.replace(change[0], change[1], 1), encoding="utf-8")
    status, err = _status_and_err(["profile", "check", str(path)], capsys)
    assert status == 2 and words in err and "Traceback" not in err, err


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"null", "not null"),
        (codecs.BOM_UTF8 + b'{"game": "shiftago"}', "byte-order mark"),
        (b'{"game": "shiftago", "moves": ["\xff"]}', "not UTF-8"),
        (b'{"game": "shiftago", "options": {"players": ' + b"9" * 5000 + b"}}", "too many digits"),
        (b"[" * 100_000, "nested"),
        (b'{"game": "shiftago", "moves": ' + b'["W1",' * 0 + b"[]}", "ok"),
    ],
    ids=["null", "BOM", "not UTF-8", "huge number", "deep", "fine"],
)
def test_a_bad_record_is_refused_with_its_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: bytes, words: str
) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(data)
    status, err = _status_and_err(["rules", "replay", str(path)], capsys)
    if words == "ok":
        assert status == 0, err
        return
    assert status == 2 and words in err and "Traceback" not in err, err


def test_an_endless_record_is_refused_after_a_bounded_read(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import resource

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    status, err = _status_and_err(["rules", "replay", "/dev/zero"], capsys)
    grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert status == 2 and "larger than" in err, err
    assert grown_kib < 4 * MAX_RECORD // 1024, f"grew by {grown_kib} KiB"


def test_a_record_with_more_moves_than_any_game_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "long.json"
    path.write_text('{"game": "shiftago", "moves": [' + ", ".join(['"W1"'] * 20_000) + "]}")
    status, err = _status_and_err(["rules", "replay", str(path)], capsys)
    assert status == 2 and "moves" in err and "Traceback" not in err, err
