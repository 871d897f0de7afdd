"""Beeline: notation, options, the board declaration and the derived state the LEDs show."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boardctl.engines import Match, create
from boardctl.engines.beeline import Beeline, Kind, Mark, Node, Replace
from boardctl.engines.beeline.board import parse_layout
from boardctl.errors import BadNotation, BadOptions, RecordError

SAMPLE = json.loads(
    (Path(__file__).parent / "records" / "beeline" / "sample_game.json").read_text()
)["moves"]
ENGINE = Beeline()


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("Sf6ne", Mark(Kind.STRAIGHT, "f6", 1)),
        ("Hg12w", Mark(Kind.SHARP, "g12", 3)),
        ("NBm9", Node(0, "m9")),
        ("NRxh9/Hi9se", Replace(1, "h9", Kind.SHARP, "i9", 5)),
    ],
)
def test_notation_round_trips(text: str, action: Mark | Node | Replace) -> None:
    assert ENGINE.parse_action(text) == action
    assert ENGINE.format_action(action) == text


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Xf6ne", "is not a Beeline action; write Sf6ne"),
        ("Sf6n", "is not a Beeline action"),
        ("Sz9ne", "z9 is not a cell of this Beeline board"),
        ("NBxf6/Hq1e", "q1 is not a cell"),
    ],
)
def test_bad_notation_says_what_to_write(text: str, words: str) -> None:
    with pytest.raises(BadNotation, match=words):
        ENGINE.parse_action(text)


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"layout": "round"}, "unknown layout 'round'; the layouts are standard"),
        ({"blocked": "wins"}, "'blocked' must be one of pass, loses"),
        ({"returned_pieces": "bag"}, "'returned_pieces' must be one of open_group, apart"),
        ({"dead_ends": 1}, "'dead_ends' must be bool"),
        ({"colour": "red"}, "unknown option 'colour'"),
    ],
)
def test_bad_options_are_refused(options: dict[str, object], words: str) -> None:
    with pytest.raises(BadOptions, match=words):
        create("beeline", options)


def test_a_layout_picture_with_a_misplaced_cell_is_refused() -> None:
    with pytest.raises(BadOptions, match="line 2, column 2: cells of a row stand two characters"):
        parse_layout("bad", " B . .\n . R .\n")
    with pytest.raises(BadOptions, match="one starting cell for Red"):
        parse_layout("bad", " B . .\n. . .\n")


def test_the_board_declares_cells_neighbours_and_piece_codes() -> None:
    spec = ENGINE.board()
    assert len(spec.sites) == 125  # 127 cells, the two out of bounds left out
    assert {s.kind for s in spec.sites} == {"cell"}
    assert not spec.has_site("g1") and not spec.has_site("g13")
    assert set(spec.site("g7").neighbours) == {"g8", "h8", "h7", "g6", "f6", "f7"}
    assert set(spec.site("a1").neighbours) == {"a2", "b2", "b1"}
    assert len(spec.codes) == 2 + 2 * 3 * 6
    assert spec.piece("red-sharp-ne") is not None
    assert spec.piece("red-sharp-ne").owner == 1  # type: ignore[union-attr]
    assert spec.piece("node-black") is not None
    start = ENGINE.initial()
    assert dict(ENGINE.layout(start)) == {"b4": "node-black", "l10": "node-red"}
    assert set(ENGINE.layout(start).values()) <= spec.codes
    assert [p.name for p in spec.players] == ["black", "red"]


def test_rut_follows_marks_and_nodes() -> None:
    match = Match.from_moves(ENGINE, SAMPLE[:1])
    assert ENGINE.rut(match.state, 0) == {"c4"}  # the sharp on c5 leaves west
    assert ENGINE.rut(match.state, 1) == {"m10", "m11", "l11", "l9", "k9", "k10"}


def test_the_leds_show_each_ruts_empty_cells_and_each_line() -> None:
    match = Match.from_moves(ENGINE, SAMPLE[:3])  # Hc5w | Hl11sw Hk10e
    black, red = ENGINE.player_sites(match.state)
    assert black.ahead == {"c4"} and black.built == {"b4", "c5"}
    assert red.ahead == {"k11"} and red.built == {"l10", "l11", "k10"}
    # Red's NODE in play 4 ends his line: every empty cell around it is his RUT
    match = Match.from_moves(ENGINE, SAMPLE[:15])
    red = ENGINE.player_sites(match.state)[1]
    assert "i10" in red.built and red.ahead == {"i9", "j10"}  # h10 h9 i11 j11: his own line


def test_a_replacement_touches_the_replaced_cell_and_the_line_end() -> None:
    match = Match.from_moves(ENGINE, SAMPLE[:17])
    action = ENGINE.parse_action("NBxg5/He6nw")
    assert ENGINE.touches(match.state, action) == {"g5", "e6"}
    assert ENGINE.highlight(match.state, action) == {"g5", "e6"}


def test_a_send_back_touches_the_pieces_it_takes_off() -> None:
    match = Match.from_moves(ENGINE, SAMPLE[:22])
    action = ENGINE.parse_action("Sg9se")
    assert ENGINE.touches(match.state, action) == {"g9", "g7", "h8", "g8"}


def test_the_winner_line_is_lit() -> None:
    match = Match.from_moves(ENGINE, SAMPLE)
    sites = ENGINE.winning_sites(match.state)
    assert {"b4", "m10", "l10", "f6"} <= sites
    assert "k10" not in sites  # Red's
    assert ENGINE.choosing(match.state) is False
    assert "black's line reaches red's starting point l10" in ENGINE.render(match.state)


def test_a_state_that_does_not_add_up_is_refused() -> None:
    data = ENGINE.state_to_json(Match.from_moves(ENGINE, SAMPLE[:5]).state)
    data["hands"]["black"]["nodes"] = 6
    with pytest.raises(RecordError, match="NODES on the board and in hand must make 12"):
        ENGINE.state_from_json(data)
    data = ENGINE.state_to_json(Match.from_moves(ENGINE, SAMPLE[:5]).state)
    data["cells"]["c4"] = "black-angle-e"
    with pytest.raises(RecordError, match=r"c4: an angle cannot leave by e|leaves the MARK on c4"):
        ENGINE.state_from_json(data)
