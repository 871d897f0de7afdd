"""Options reach an engine only through a strict parser: a typo is an error."""

import dataclasses
from dataclasses import dataclass

import pytest

from boardctl.engines import GAMES, create
from boardctl.engines.base import options_from_mapping
from boardctl.errors import BadOptions, UnknownGame


@dataclass(frozen=True, slots=True)
class _Opts:
    players: int = 2
    variant: str = "express"


def test_options_take_known_keys() -> None:
    assert options_from_mapping(_Opts, "g", {"players": 3}) == _Opts(players=3)


def test_unknown_option_names_the_key_and_the_known_ones() -> None:
    with pytest.raises(BadOptions, match=r"g: unknown option 'playerz'.*players, variant"):
        options_from_mapping(_Opts, "g", {"playerz": 3})


@pytest.mark.parametrize("value", ["3", True, 2.5])
def test_option_of_wrong_type_is_refused(value: object) -> None:
    with pytest.raises(BadOptions, match="option 'players' must be int"):
        options_from_mapping(_Opts, "g", {"players": value})


def test_unknown_game_lists_the_games() -> None:
    expected = rf"unknown game 'chess'; the games are {', '.join(GAMES)}$"
    with pytest.raises(UnknownGame, match=expected):
        create("chess")
    with pytest.raises(LookupError):
        create("chess")


@pytest.mark.parametrize("game", ["shiftago", "duploline", "beeline", "bidiline", "linie1"])
def test_every_option_is_declared_for_people(game: str) -> None:
    from boardctl.engines import engine_class

    cls = engine_class(game)
    specs = cls.option_specs()
    assert [s.name for s in specs] == [f.name for f in dataclasses.fields(cls.Options)]
    for spec in specs:
        # a label and a line of help in words, never the option's name alone
        assert spec.label and "_" not in spec.label and spec.help, spec
        if spec.kind == "choice":
            assert spec.default in spec.choices, spec
            most = {s.name: max(s.choices) for s in specs if s.name == "players"}
            for choice in spec.choices:  # each choice is one the engine takes (a seat: with all)
                cls.from_options({**most, spec.name: choice})
        if spec.kind == "int":
            assert spec.minimum is not None and spec.maximum is not None
            assert spec.minimum <= spec.default <= spec.maximum


def test_boardctl_new_help_lists_each_games_options(capsys: pytest.CaptureFixture[str]) -> None:
    from boardctl.cli.main import main

    with pytest.raises(SystemExit):
        main(["new", "--help"])
    out = capsys.readouterr().out
    assert "players=2|3|4: how many play (default 2)" in out
    assert "handicap_player=0|1|2|3 (0: blue, 1: red, 2: yellow, 3: green)" in out
