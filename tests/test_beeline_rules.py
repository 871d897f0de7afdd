"""Beeline: notation, options, the board declaration and the derived state the LEDs show."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boardctl.engines import Match, create
from boardctl.engines.beeline import Beeline, Kind, Mark, Node, Replace, State
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
        ({"rut_checked": "later"}, "'rut_checked' must be one of after_send_back, as_placed"),
        ({"winning_piece_excused": "yes"}, "'winning_piece_excused' must be bool"),
        ({"replaced_at_own_start": 0}, "'replaced_at_own_start' must be bool"),
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


def _sample_then(*moves: str) -> Match[State, Mark | Node | Replace]:
    return Match.from_moves(ENGINE, [*SAMPLE[:39], *moves])


#: the sample game to Red's play 10, then Black plays a sharp towards Red's start
#: (m9, leaving east: his RUT is m10, next to l10) and a NODE aside, Red two
#: pieces; Black then replaces Red's sharp on h11 with a NODE red up and plays it
#: on Red's end (c7) pointing into Red's own straight on d8: Red's RUT is not free
OWED = ("Hm9e", "NBb2", "Sd8w", "Hd7se", "NRxh11/Hc7ne")


def test_a_node_that_wins_at_once_is_listed_while_the_opponents_rut_is_owed() -> None:
    state = _sample_then(*OWED).state
    assert state.owe
    assert ENGINE.task(state) == "play a piece that frees red's RUT"
    win = ENGINE.parse_action("NBm10")
    assert ENGINE.why_illegal(state, win) is None
    assert win in list(ENGINE.legal_actions(state))
    assert ENGINE.outcome(ENGINE.apply(state, win)).winner == 0
    # a NODE that neither wins nor frees Red's RUT stays refused
    assert ENGINE.parse_action("NBb6") not in list(ENGINE.legal_actions(state))
    assert "must leave red's RUT free" in (ENGINE.why_illegal(state, Node(0, "b6")) or "")


def test_a_first_piece_is_allowed_when_only_a_winning_node_puts_it_right() -> None:
    """Black replaces Red's sharp on i9 with a NODE red up and plays it on
    Red's end (g8), pointing into Red's own angle on h9: Red's RUT is not free.
    No second piece of Black's frees it, but his NODE on k9 (his RUT, next to
    Red's start l10) wins at once: the replacement is allowed, as it is when
    the winning second piece is a MARK (replace_closing_rut_then_win)."""
    moves = ["Sc4nw", "Sk10se", "NBi7", "NBd4", "Se5ne", "Aj10sw", "Ai9se", "Sf6ne", "Ag7nw"]
    moves += ["Sh9se", "NRxj10/Ag9sw", "NBxf6/Sh7nw", "NBxh7/Sj8ne", "NRf8", "NBj6"]
    state = Match.from_moves(ENGINE, moves).state
    first = ENGINE.parse_action("NRxi9/Ag8ne")
    assert ENGINE.why_illegal(state, first) is None
    assert first in list(ENGINE.legal_actions(state))
    owed = ENGINE.apply(state, first)
    assert owed.owe
    assert [ENGINE.format_action(a) for a in ENGINE.legal_actions(owed)] == ["NBk9"]
    assert ENGINE.outcome(ENGINE.apply(owed, Node(0, "k9"))).winner == 0


def test_the_board_drawn_as_text_is_in_the_readers_language() -> None:
    from boardctl.i18n import language, translate

    drawn = ENGINE.render(ENGINE.initial())
    assert "black to act: play a piece" in drawn
    with language("de"):
        german = translate(drawn)
    assert "Schwarz: offene Gruppe S/A/H 0/0/0, Gruppen 4, NODES 5; RUT a3" in german
    assert "Schwarz ist dran: " in german and "Legende: S/A/H Gerade/Winkel/Spitze" in german
    with language("fr"):
        french = translate(drawn)
    assert "à noir de jouer : " in french and "groupe ouvert S/A/H" in french
    # the cells drawn are the same in every language
    assert german.splitlines()[:13] == drawn.splitlines()[:13]
