"""Every complete profile shown in docs/boards.md loads as it stands."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from boardctl.board import Reports
from boardctl.engines import GAMES
from hardware.profiles import parse_profile
from hardware.profiles.games import PLANNED

DOC = Path(__file__).resolve().parent.parent / "docs" / "boards.md"
EXAMPLES = [
    block
    for block in re.findall(r"```toml\n(.*?)```", DOC.read_text(), re.S)
    if 'name = "' in block and "demo" in block
]


def test_each_game_still_to_come_has_an_example() -> None:
    games = {game for block in EXAMPLES for game in re.findall(r'game = "(\w+)"', block)}
    assert games == set(PLANNED) - set(GAMES)


@pytest.mark.parametrize("text", EXAMPLES, ids=lambda t: t.split('"')[1])
def test_doc_example_loads(text: str) -> None:
    board = parse_profile(text, "docs/boards.md")
    assert board.sites and all(s.reports is not Reports.NONE or s.leds for s in board.sites)
