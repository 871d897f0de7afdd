"""Board profiles load into BoardProfile, and every mistake is reported with its place and fix."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from mini_game import mini_game  # noqa: F401  (the fixture)

from boardctl.board import Reports
from boardctl.cli.main import main
from boardctl.engines import create
from boardctl.errors import ConfigError
from hardware.errors import ProfileError
from hardware.profiles import (
    PROFILE_DIR,
    builtin_profiles,
    check_profile,
    load_profile,
    parse_profile,
)
from hardware.profiles.games import known_games

pytestmark = pytest.mark.usefixtures("mini_game")

GOOD_HEAD = """\
[board]
name = "mini"
game = "mini"

[sensing]
kind = "gpio"
pins = [17, 27, 22]

[leds]
count = 3
"""


def _problems(text: str) -> list[str]:
    with pytest.raises(ProfileError) as info:
        parse_profile(text, "mini.toml")
    return info.value.problems


def test_the_reference_boards_load_and_cover_their_games() -> None:
    assert {"duploline", "shiftago-colour", "shiftago-presence"} <= set(builtin_profiles())
    colour = load_profile("shiftago-colour")
    assert {s.name for s in colour.sites} == set(create("shiftago").board().site_names)
    assert colour.leds.count == 77 and colour.channel_count == 49
    assert colour.sensed_layout((2,) + (0,) * 47 + (5,)) == {"a1": "p0", "g7": "p3"}
    assert all(s.leds for s in colour.sites if s.kind == "track")

    cheap = load_profile("shiftago-presence")
    tracks = [s for s in cheap.sites if s.kind == "track"]
    assert len(tracks) == 28 and {s.reports for s in tracks} == {Reports.PULSE}
    assert cheap.sensing == "shift-register" and cheap.sensing_settings["chips"] == 10
    assert dict(cheap.buttons) == {"new": 5, "undo": 6, "mode": 13}

    duplo = load_profile("duploline")
    assert len(duplo.sites) == 37 and duplo.sensed_piece("d4", 36) == "white-disc+black-ring"
    assert duplo.sensed_piece("d4", 8) == "black-disc"
    assert duplo.sensed_piece("d4", 12) == "?12"  # two discs cannot share a cell


def test_a_path_and_a_name_find_the_same_profile() -> None:
    by_name = load_profile("duploline")
    path = Path(by_name.source)
    assert load_profile(path).sites == by_name.sites
    with pytest.raises(ProfileError, match="the shipped ones are " + ", ".join(builtin_profiles())):
        load_profile("no-such-board")


def test_every_problem_is_listed_with_file_line_key_and_fix() -> None:
    text = GOOD_HEAD.replace('game = "mini"', 'game = "mini"\ncolour = "red"') + (
        "[sites]\n"
        'a1 = { kind = "cell", channel = 0, leds = [0] }\n'
        'a2 = { kind = "cell", channel = 0, leds = [3] }\n'
        'a3 = { kind = "cell", reports = "presence" }\n'
    )
    problems = _problems(text)
    assert len(problems) == 4
    assert problems[0].startswith("mini.toml:4: board.colour: unknown key; the keys here are")
    assert any(
        re.match(r"mini.toml:14: sites.a2: LED 3 is out of range; the chain has 3 LEDs", p)
        for p in problems
    )
    assert any(
        p.startswith("mini.toml:14: sites.a2: channel 0 is also a1's; give each site its own")
        for p in problems
    )
    assert any(
        'sites.a3: reports "presence" but has no channel; add channel' in p for p in problems
    )


def test_profile_errors_are_config_errors_and_value_errors() -> None:
    with pytest.raises(ConfigError):
        parse_profile("[board", "broken.toml")
    with pytest.raises(ValueError, match=r"broken\.toml: not valid TOML"):
        parse_profile("[board", "broken.toml")


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (('kind = "gpio"', 'kind = "wires"'), "sensing.kind: bad value 'wires'"),
        (("count = 3", "count = 0"), "leds.count: bad value 0"),
        (("count = 3", "count = 3\nbrightness = 1.5"), "leds.brightness: bad value 1.5"),
        (
            ("count = 3", 'count = 3\nbackend = "ws281x"\n[leds.settings]\npin = 4'),
            "leds.settings.pin",
        ),
        (
            ("pins = [17, 27, 22]", "pins = [17, 17, 22]"),
            "GPIO 17 is also used by sensing channel 0",
        ),
        (
            ("pins = [17, 27, 22]", "pins = [17]"),
            "channel 1 is not read: sensing.pins lists 1 pins",
        ),
    ],
)
def test_bad_values_are_named(change: tuple[str, str], expected: str) -> None:
    text = (
        GOOD_HEAD
        + "[sites]\n"
        + "\n".join(
            f'a{n} = {{ kind = "cell", channel = {n}, reports = "presence", leds = [{n}] }}'
            for n in range(3)
        )
    )
    problems = _problems(text.replace(*change))
    assert any(expected in p for p in problems), problems


def test_a_known_game_must_name_its_own_sites_and_pieces() -> None:
    text = Path(load_profile("duploline").source).read_text()
    text = text.replace('36 = "white-disc+black-ring"', '36 = "white-ring+black-ring"')
    text = text.replace("g7 = {", "h9 = {")
    problems = _problems(text)
    assert any("codes.36: 'white-ring+black-ring' is not a duploline piece" in p for p in problems)
    assert any("duploline needs 1 more sites: g7" in p for p in problems)
    assert any("sites.h9: duploline has no site 'h9'" in p for p in problems)


def test_profile_check_command_reports_and_fails_with_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["profile", "check", "shiftago-colour", "duploline"]) == 0
    assert "ok: shiftago-colour (shiftago), 77 sites" in capsys.readouterr().out
    bad = tmp_path / "bad.toml"
    bad.write_text(GOOD_HEAD + '[sites]\na1 = { kind = "cell", channel = 7 }\n')
    # bad input: 2, as run, test and calibrate exit for the same profile
    assert main(["profile", "check", str(bad), "duploline"]) == 2
    out = capsys.readouterr()
    assert f"{bad}:12: sites.a1: channel 7 is not read" in out.err
    assert "ok: duploline" in out.out
    assert check_profile("duploline") == []


def _with_palette(tmp_path: Path, palette: str) -> Path:
    from hardware.profiles import find_profile

    text = find_profile("shiftago-colour").read_text()
    text = text.replace('game = "shiftago"\n', f'game = "shiftago"\npalette = {palette}\n', 1)
    path = tmp_path / "board.toml"
    path.write_text(text)
    return path


def test_a_board_may_show_players_in_the_colours_of_its_pieces(tmp_path: Path) -> None:
    from boardctl.controller.scenes import Palette

    board = load_profile(_with_palette(tmp_path, '["#1f5fff", "#ff2a1a"]'))
    assert board.palette == ("#1f5fff", "#ff2a1a")
    assert Palette.choose((), board.palette).players[:2] == ((31, 95, 255), (255, 42, 26))
    configured = Palette.choose(("#e69f00",), board.palette).players
    assert configured[0] == (230, 159, 0)
    assert len(set(configured)) == len(configured) >= 4, "no two players share a colour"
    assert Palette.choose((), load_profile("duploline").palette) == Palette()


def test_a_palette_colour_must_be_written_rrggbb(tmp_path: Path) -> None:
    problems = check_profile(_with_palette(tmp_path, '["blue"]'))
    assert any("board.palette" in p and "player colours" in p for p in problems), problems


@pytest.mark.parametrize("name", ["shiftago-colour", "duploline"])
def test_every_piece_the_game_can_lay_is_readable_on_the_reference_board(name: str) -> None:
    import random

    from boardctl.engines import create

    board = load_profile(name)
    engine = create(board.game, {"players": 4} if board.game == "shiftago" else {})
    rng = random.Random(3)
    seen: set[str] = set()
    for _ in range(40):
        state = engine.initial()
        while not engine.outcome(state).over:
            seen.update(engine.layout(state).values())
            state = engine.apply(state, rng.choice(list(engine.legal_actions(state))))
    assert seen <= set(board.codes.values()), seen - set(board.codes.values())


def test_shift_registers_on_the_leds_spi_bus_are_refused_with_where_and_a_fix() -> None:
    from hardware.profiles import find_profile

    path = find_profile("shiftago-presence")
    shipped = path.read_text()
    # the pins the cheap board used to have: clock on SCLK, data on MISO of SPI bus 0
    old = shipped.replace("load = 17 ", "load = 22 ").replace("clock = 27 ", "clock = 11 ")
    old = old.replace("data = 22 ", "data = 9 ")
    assert "clock = 11" in old and "data = 9" in old
    with pytest.raises(ProfileError) as info:
        parse_profile(old, "old.toml")
    lines = old.splitlines()
    clock_line = next(n for n, line in enumerate(lines, 1) if line.startswith("clock = 11"))
    data_line = next(n for n, line in enumerate(lines, 1) if line.startswith("data = 9"))
    assert info.value.problems == [
        f"old.toml:{clock_line}: sensing.clock: GPIO 11 is also used by the LEDs' SPI bus 0 "
        "(SCLK); SPI bus 0 holds GPIO 7-11 when enabled: move sensing.clock to a free GPIO "
        "(4, 12, 16, 17)",
        f"old.toml:{data_line}: sensing.data: GPIO 9 is also used by the LEDs' SPI bus 0 "
        "(MISO); SPI bus 0 holds GPIO 7-11 when enabled: move sensing.data to a free GPIO "
        "(4, 12, 16, 17)",
    ]
    # the same pins beside LEDs on SPI bus 1 (GPIO 16-21) are fine; a button on them is not
    bus1 = old.replace("bus = 0 ", "bus = 1 ").replace("mode = 13", "mode = 20")
    problems = _problems(bus1)
    assert len(problems) == 1, problems
    assert "buttons.mode: GPIO 20 is also used by the LEDs' SPI bus 1 (MOSI)" in problems[0]


SITE_TABLES = (
    GOOD_HEAD.replace('game = "mini"', 'game = "mini"\noptions = { cells = "a0 a1 a2" }')
    + """
[sites]
a0 = { kind = "cell", channel = 0, reports = "presence", leds = [0] }

[sites.a1]
kind = "cell"
channel = 1
reports = "presence"
leds = [1]

[sites."a2"]
kind = "cell"
channel = "two"
reports = "presence"
leds = [7]
"""
)


def test_sites_written_as_tables_of_their_own_are_found_at_their_header() -> None:
    lines = SITE_TABLES.splitlines()
    a2 = lines.index('[sites."a2"]') + 1
    channel = lines.index('channel = "two"') + 1
    assert _problems(SITE_TABLES) == [
        f"mini.toml:{a2}: sites.a2: LED 7 is out of range; the chain has 3 LEDs, 0..2; "
        "fix the index or leds.count",
        f"mini.toml:{channel}: sites.a2.channel: bad value 'two'; expected a sensor channel, 0 up",
    ]
    # a site with a wrong key in the one-line form is found at its line too
    inline = SITE_TABLES.replace('channel = "two"', "channel = 2").replace(
        'a0 = { kind = "cell", channel = 0,', 'a0 = { kind = "cell", channel = -1,'
    )
    a0 = lines.index(next(x for x in lines if x.startswith("a0 = "))) + 1
    problems = _problems(inline)
    assert problems[0].startswith(f"mini.toml:{a0}: sites.a0.channel: bad value -1")


@pytest.mark.parametrize("name", ["shiftago-colour", "shiftago-presence"])
def test_shiftago_track_leds_run_anticlockwise_as_the_profile_says(name: str) -> None:
    from hardware.profiles import find_profile

    board = load_profile(name)
    tracks = sorted((s for s in board.sites if s.kind == "track"), key=lambda s: s.leds[0])
    assert [s.name for s in tracks[:2]] == ["Sa", "Sb"] and tracks[-1].name == "W1"
    # the shoelace formula: positive area for points going round anticlockwise (y north)
    points = [(s.x, s.y) for s in tracks]
    area = sum(
        x0 * y1 - x1 * y0
        for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1], strict=True)
    )
    assert area > 0
    text = find_profile(name).read_text()
    assert "anticlockwise from Sa (Sa..Sg, E1..E7, Ng..Na, W7..W1)" in text
    assert " clockwise" not in text


def test_a_chain_without_poll_hz_is_read_200_times_a_second_as_documented() -> None:
    text = Path(load_profile("shiftago-presence").source).read_text()
    assert "poll_hz = 200" in text
    board = parse_profile(text.replace("poll_hz = 200\n", ""), "cheap.toml")
    assert board.sensing_settings["poll_hz"] == 200


def test_profile_check_refuses_an_unknown_game_naming_file_line_and_the_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from hardware.profiles import find_profile

    text = find_profile("shiftago-colour").read_text()
    line = text.splitlines().index('game = "shiftago"') + 1
    bad = tmp_path / "typo.toml"
    bad.write_text(text.replace('game = "shiftago"', 'game = "shiftagoo"', 1))
    assert main(["profile", "check", str(bad)]) == 2
    err = capsys.readouterr().err
    assert (
        f"{bad}:{line}: board.game: unknown game 'shiftagoo'; the games are "
        + ", ".join(known_games())
    ) in err


def test_options_the_engine_refuses_are_named_with_their_line_and_key(tmp_path: Path) -> None:
    text = (PROFILE_DIR / "duploline.toml").read_text(encoding="utf-8")
    text = text.replace('game = "duploline"', 'game = "duploline"\noptions = { colour = "red" }')
    problems = _problems(text)
    assert len(problems) == 1
    assert re.match(
        r"mini.toml:17: board.options.colour: duploline: unknown option 'colour'", problems[0]
    )
    assert "; fix or remove the option" in problems[0]


def test_a_games_reference_board_is_found_among_the_shipped_profiles() -> None:
    from hardware.profiles import reference_profile

    assert reference_profile("duploline") == "duploline"  # named like the game
    assert reference_profile("shiftago") == "shiftago-colour"  # else the first by name
    assert reference_profile("no-such-game") is None


def test_a_board_may_name_the_pieces_of_every_seat_the_game_allows() -> None:
    # the colour board's codes name four marbles; a two-player game uses two
    assert set(load_profile("shiftago-colour").codes.values()) == {"p0", "p1", "p2", "p3"}
    text = (PROFILE_DIR / "shiftago-colour.toml").read_text(encoding="utf-8")
    problems = _problems(text.replace('5 = "p3"', '5 = "p3"\n6 = "p4"'))
    assert any(
        "codes.6: 'p4' is not a shiftago piece; the pieces are p0, p1, p2, p3" in p
        for p in problems
    )


def test_a_board_may_leave_out_the_die_but_a_die_it_has_shows_with_leds_and_senses_nothing(
    caplog: pytest.LogCaptureFixture,
) -> None:
    text = (PROFILE_DIR / "linie1.toml").read_text(encoding="utf-8")
    pips = [line for line in text.splitlines() if line.startswith("die-")]
    assert len(pips) == 7
    without = text
    for line in pips:
        without = without.replace(line + "\n", "")
    with caplog.at_level("INFO", logger="hardware.profiles.games"):
        board = parse_profile(without, "no-die.toml")
    assert not any(s.kind == "display" for s in board.sites)
    assert "die-tl, die-tr, die-ml, die-c, die-mr, die-bl, die-br" in caplog.text
    unlit = text.replace("leds = [159], ", "")
    assert any("sites.die-c: is a display but has no LED" in p for p in _problems(unlit))
    sensed = text.replace(
        'die-c = { kind = "display", leds', 'die-c = { kind = "display", channel = 156, leds'
    )
    problems = _problems(sensed)
    assert any("sites.die-c: is a display (LEDs only) but has a sensor" in p for p in problems)
