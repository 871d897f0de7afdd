"""DuploLine as a user meets it: notation, options, board, layout and ends
that no game record can reach from the empty board."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boardctl.engines import Match, Status, create
from boardctl.engines.duploline import Add, DuploLine, Kind, Move, Options
from boardctl.errors import BadNotation, BadOptions, IllegalMove, RecordError
from boardctl.i18n import language, translate

ENGINE = DuploLine()
RECORDS = Path(__file__).parent / "records" / "duploline"


def _replay(name: str, options: dict[str, object] | None = None) -> Match[object, object]:
    record = json.loads((RECORDS / f"{name}.json").read_text())
    return Match.from_moves(create("duploline", options or {}), record["moves"])  # type: ignore[return-value]


def test_registry_builds_the_engine_with_options() -> None:
    engine = create("duploline", forced_add="own")
    assert isinstance(engine, DuploLine)
    assert engine.options_json() == {
        "locked_pieces_count": True,
        "both_lines": "mover",
        "forced_add": "own",
        "no_option": "draw",
    }


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"forced_add": "sometimes"}, "'forced_add' must be one of either, own, opponent, off"),
        ({"both_lines": "white"}, "'both_lines' must be one of mover, opponent, draw"),
        ({"no_option": "pass"}, "'no_option' must be one of draw, loss"),
        ({"locked_pieces_count": 1}, "'locked_pieces_count' must be bool"),
        ({"pieces": 12}, "unknown option 'pieces'"),
    ],
)
def test_bad_options_are_refused_by_name(options: dict[str, object], fragment: str) -> None:
    with pytest.raises(BadOptions, match=fragment):
        create("duploline", options)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("D+d4", Add(Kind.DISC, "d4")),
        ("R+g7", Add(Kind.RING, "g7")),
        ("Dd4-e4", Move(Kind.DISC, "d4", "e4")),
        ("Ra1-b2", Move(Kind.RING, "a1", "b2")),
    ],
)
def test_notation_reads_and_writes(text: str, action: Add | Move) -> None:
    assert ENGINE.parse_action(text) == action
    assert ENGINE.format_action(action) == text
    assert eval(repr(action)) == action


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("X+d4", "not a DuploLine action"),
        ("D+a5", "a5 is not a cell"),
        ("D+g1", "g1 is not a cell"),
        ("Dd4-d4", "two different cells"),
        ("d+d4", "not a DuploLine action"),
        ("", "not a DuploLine action"),
    ],
)
def test_bad_notation_says_why(text: str, fragment: str) -> None:
    with pytest.raises(BadNotation, match=fragment):
        ENGINE.parse_action(text)


def test_sites_are_the_37_cells_row_by_row() -> None:
    sites = ENGINE.sites()
    assert len(sites) == len(set(sites)) == 37
    assert sites[:4] == ("a1", "a2", "a3", "a4")
    assert "d1" in sites and "d7" in sites and "e1" not in sites and "g3" not in sites
    assert sites[-1] == "g7"


def test_layout_names_each_piece_disc_first() -> None:
    match = _replay("move_disc_into_ring")
    assert match.engine.layout(match.state) == {
        "d5": "white-disc+black-ring",
        "e5": "black-disc",
        "e6": "white-ring",
    }


def test_render_draws_rows_cells_and_whose_turn() -> None:
    match = _replay("move_disc_into_ring")
    text = match.engine.render(match.state)
    rows = text.splitlines()
    assert rows[0].startswith("g ") and rows[0].rstrip().endswith("g4-g7")
    assert rows[6].startswith("a ") and rows[6].rstrip().endswith("a1-a4")
    d_row = rows[3].split()
    assert d_row[1:8] == ["..", "..", "..", "..", "Wb", "..", ".."]
    assert "black to act: play a disc or a ring action" in text
    with language("de"):
        german = translate(text)
    assert "Schwarz ist dran: " in german and "auf der Hand: Weiß: Scheiben " in german


def test_illegal_move_raises_with_the_reason_and_keeps_the_state() -> None:
    match = _replay("turn_half_done")
    before = match.state
    with pytest.raises(IllegalMove, match="D\\+a1: a1 is not next to an opponent piece"):
        match.play_text("D+a1")
    assert match.state == before


def test_forced_add_is_listed_only_when_nothing_else_is() -> None:
    match = _replay("forced_add_into_lone_ring")
    match.undo()
    assert [str(a) for a in match.legal_actions()] == ["D+a2"]
    assert match.engine.is_legal(match.state, Add(Kind.DISC, "a2"))
    own = create("duploline", forced_add="own")
    assert [str(a) for a in own.legal_actions(match.state)] == ["D+a2"]
    other = create("duploline", forced_add="opponent")
    reason = other.why_illegal(match.state, Add(Kind.DISC, "a2"))
    assert reason == "a2 is not empty, and the forced add goes only into an opponent ring"


def test_no_option_end_names_the_stuck_player() -> None:
    match = _replay("no_option_draw_without_forced_add", {"forced_add": "off"})
    outcome = match.outcome()
    assert outcome.status is Status.DRAW
    assert outcome.reason == "white has no legal action left"


def _both_lines_position(option: str) -> tuple[DuploLine, object]:
    """White to finish a line of discs while Black already shows a line of
    rings: set up by hand, since legal play never leaves an opponent's line."""
    engine = DuploLine(Options(both_lines=option))
    cells = {"d1": "white-disc", "d2": "white-disc", "d3": "white-disc"}
    cells.update({f"e{n}": "black-ring" for n in (2, 3, 4, 5)})
    cells["c1"] = "black-disc"
    state = engine.state_from_json({"cells": cells, "player": 0, "phase": "either"})
    return engine, engine.apply(state, Add(Kind.DISC, "d4"))


@pytest.mark.parametrize(
    ("option", "status", "winner"),
    [("mover", Status.WON, 0), ("opponent", Status.WON, 1), ("draw", Status.DRAW, None)],
)
def test_both_lines_option_decides_when_both_players_have_a_line(
    option: str, status: Status, winner: int | None
) -> None:
    engine, state = _both_lines_position(option)
    outcome = engine.outcome(state)  # type: ignore[arg-type]
    assert (outcome.status, outcome.winner) == (status, winner)


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        ({"cells": {"h1": "white-disc"}, "player": 0}, "'h1' is not a cell"),
        ({"cells": {"d4": "white-disc+black-disc"}, "player": 0}, "not disc, ring or disc\\+ring"),
        ({"cells": {"d4": "red-disc"}, "player": 0}, "unknown piece"),
        ({"cells": {}, "player": 2}, "player must be 0 or 1"),
        ({"cells": {}}, "player"),
        ({"cells": {}, "player": 0, "phase": "later"}, "phase must be one of opening, either"),
        (
            {
                "cells": {},
                "player": 0,
                "in_hand": {
                    "white": {"discs": 17, "rings": 18},
                    "black": {"discs": 18, "rings": 18},
                },
            },
            "must make 18",
        ),
    ],
)
def test_bad_state_json_is_refused(data: dict[str, object], fragment: str) -> None:
    with pytest.raises(RecordError, match=fragment):
        ENGINE.state_from_json(data)


def test_full_board_record_really_fills_the_board() -> None:
    match = _replay("full_board_draw")
    assert len(match.engine.layout(match.state)) == 37
    assert match.outcome().reason == "the board is full"
