"""Configuration: defaults, then the file, then flags; mistakes are named precisely."""

from pathlib import Path

import pytest

from boardctl import config
from boardctl.cli.main import main
from boardctl.engines import GAMES
from boardctl.errors import ConfigError


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "boardctl.toml"
    path.write_text(text)
    return path


def test_file_overrides_defaults_and_flags_override_the_file(tmp_path: Path) -> None:
    path = _write(tmp_path, "[controller]\nsettle_ms = 300\ngrace_ms = 900\n")
    cfg = config.load(path, ["controller.grace_ms=2000", "board.profile=duploline"])
    assert cfg.controller.settle_ms == 300
    assert cfg.controller.grace_ms == 2000
    assert cfg.board.profile == "duploline"
    assert cfg.controller.attract_after_s == 600  # packaged default


def test_game_options_pass_through_for_the_engine(tmp_path: Path) -> None:
    path = _write(tmp_path, '[game]\nplayers = 3\nvariant = "expert"\n')
    assert dict(config.load(path).game_options) == {"players": 3, "variant": "expert"}


def test_unknown_key_names_file_line_and_the_known_keys(tmp_path: Path) -> None:
    path = _write(tmp_path, "# mine\n[controller]\nsettle_ms = 100\nsetle_ms = 200\n")
    with pytest.raises(ConfigError) as err:
        config.load(path)
    assert str(err.value).startswith(f"{path}:4: [controller] setle_ms: unknown key")
    assert "settle_ms" in str(err.value)


def test_unknown_section_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r":1: \[ledz\]: unknown section"):
        config.load(_write(tmp_path, "[ledz]\nbrightness = 1\n"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[controller]\nsettle_ms = 9000\n", r":2: \[controller\] settle_ms: 9000 is out of range"),
        ('[controller]\nsettle_ms = "fast"\n', "must be a whole number"),
        ("[leds]\nbrightness = 2\n", "out of range"),
        ('[logging]\nlevel = "loud"\n', "not one of debug, info, warning, error"),
        ('[controller]\nchance = "dice"\n', r"\[controller\] chance: 'dice' is not one of random"),
        ('[control]\nmode = "rw"\n', "not octal permission bits"),
        ("[board]\nprofile = 3\n", "must be text in quotes"),
    ],
)
def test_bad_values_say_what_to_write(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        config.load(_write(tmp_path, text))


def test_broken_toml_names_the_file(tmp_path: Path) -> None:
    path = _write(tmp_path, "[controller\n")
    with pytest.raises(ConfigError, match=f"{path}: not valid TOML"):
        config.load(path)


def test_a_missing_file_is_fine_unless_required(tmp_path: Path) -> None:
    assert config.load(tmp_path / "none.toml").board.profile == "shiftago-colour"
    with pytest.raises(ConfigError, match="cannot read"):
        config.load(tmp_path / "none.toml", required=True)


def test_bad_set_flag_shows_the_form() -> None:
    with pytest.raises(ConfigError, match=r"write section\.key=value"):
        config.load("/nonexistent", ["settle_ms=3"])


def test_config_show_prints_what_load_reads_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "[controller]\nsettle_ms = 250\n[game]\nplayers = 4\n")
    assert main(["config", "show", "--config", str(path), "--set", "logging.level=debug"]) == 0
    shown = capsys.readouterr().out
    assert "settle_ms = 250" in shown and 'level = "debug"' in shown
    again = _write(tmp_path, shown)
    assert config.load(again) == config.load(path, ["logging.level=debug"])


def test_a_palette_colour_is_checked_where_it_is_written(tmp_path: Path) -> None:
    path = _write(tmp_path, '[leds]\npalette = ["#e69f00", "#zzzzzz"]\n')
    with pytest.raises(ConfigError, match=r":2: \[leds\] palette: colour 2 '#zzzzzz' must be"):
        config.load(path)


def test_game_options_are_checked_by_the_engine_with_their_place(tmp_path: Path) -> None:
    path = _write(tmp_path, "[game]\nplayers = 3\nplayerz = 4\n")
    cfg = config.load(path)
    with pytest.raises(ConfigError, match=rf"{path}:3: \[game\] playerz: shiftago: unknown option"):
        cfg.check_game("shiftago")
    cfg = config.load(_write(tmp_path, "[game]\nplayers = 9\n"))
    with pytest.raises(ConfigError, match=r":2: \[game\] players: "):
        cfg.check_game("shiftago")
    config.load(_write(tmp_path, "[game]\nplayers = 4\n")).check_game("shiftago")


def test_a_missing_profile_names_the_config_file_line_and_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, '[board]\nprofile = "nonexistent-board"\n')
    assert main(["config", "show", "--config", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"boardctl: {path}:2: [board] profile: 'nonexistent-board': no such")
    assert "shiftago-colour" in err


def test_an_unknown_configured_game_names_the_config_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, '\n[board]\ngame = "chess"\n')
    assert main(["config", "show", "--config", str(path)]) == 2
    err = capsys.readouterr().err
    games = ", ".join(GAMES)
    assert f"{path}:3: [board] game: unknown game 'chess'; the games are {games}\n" in err


def test_a_key_outside_any_section_is_called_a_key_with_its_line(tmp_path: Path) -> None:
    path = _write(tmp_path, "# three players\nplayers = 3\n[board]\n")
    with pytest.raises(ConfigError) as e:
        config.load(path)
    assert str(e.value).startswith(f"{path}:2: players: a key outside any section;")
    assert "[game]" in str(e.value)
    assert "unknown section" not in str(e.value)
