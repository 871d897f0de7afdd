"""Options reach an engine only through a strict parser: a typo is an error."""

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
