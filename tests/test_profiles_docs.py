"""Every complete profile shown in docs/boards.md loads as it stands."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from boardctl.board import Reports
from hardware.profiles import parse_profile

DOC = Path(__file__).resolve().parent.parent / "docs" / "boards.md"
EXAMPLES = [
    block
    for block in re.findall(r"```toml\n(.*?)```", DOC.read_text(), re.S)
    if 'name = "' in block and "demo" in block
]


def test_the_three_games_to_come_have_examples() -> None:
    assert len(EXAMPLES) == 3


@pytest.mark.parametrize("text", EXAMPLES, ids=lambda t: t.split('"')[1])
def test_doc_example_loads(text: str) -> None:
    board = parse_profile(text, "docs/boards.md")
    assert board.sites and all(s.reports is not Reports.NONE or s.leds for s in board.sites)


def test_bidirectional_example_reads_edges_and_lights_points() -> None:
    board = parse_profile(EXAMPLES[2], "docs/boards.md")
    assert board.sensed_layout((2, 0, 3)) == {"p1-p2": "red", "p1-p3": "blue"}
    assert [s.name for s in board.sites if s.leds] == ["p1", "p2", "p3"]
