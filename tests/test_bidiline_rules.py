"""The Bidirectional Line Game as a user meets it: options, notation errors, the
board it declares, the words it shows and the states it reads back."""

from __future__ import annotations

from typing import Any

import pytest

from boardctl.engines import Match, create
from boardctl.engines.bidiline import BidiLine
from boardctl.errors import BadNotation, BadOptions, RecordError


def _engine(n: int = 7) -> BidiLine:
    engine = create("bidiline", n=n)
    assert isinstance(engine, BidiLine)
    return engine


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"n": 1}, "option 'n' (points per side of the grid) must be 2 to 26, not 1"),
        ({"n": 27}, "must be 2 to 26, not 27"),
        ({"n": "7"}, "option 'n' must be int, not str '7'"),
        ({"size": 7}, "unknown option 'size'; known options are n"),
    ],
)
def test_bad_options_are_refused_naming_the_option_and_its_range(
    options: dict[str, Any], words: str
) -> None:
    with pytest.raises(BadOptions, match="bidiline") as caught:
        create("bidiline", options)
    assert words in str(caught.value)


def test_default_grid_is_7_by_7_and_the_options_are_recorded() -> None:
    engine = create("bidiline")
    assert engine.options_json() == {"n": 7}
    assert len(engine.sites()) == 84 + 49


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("c3-c4", "'c3-c4' needs the colour of the end it extends: write A:c3-c4 or B:c3-c4"),
        ("C:c3-c4", "is not a Bidirectional Line Game move; write the colour of the end"),
        ("A c3-c4", "A:c3-c4 or B:c3-c4"),
        ("A:c3-e3", "c3 and e3 are not next to each other; a segment goes one step up, down"),
        ("A:c3-d4", "c3 and d4 are not next to each other"),
        ("A:c3-c3", "a segment joins two different points"),
        ("A:g7-h7", "h7 is not a point of the 7 x 7 grid (columns a-g, rows 1-7)"),
        ("B:a0-a1", "a0 is not a point of the 7 x 7 grid"),
    ],
)
def test_bad_notation_says_what_to_write(text: str, words: str) -> None:
    with pytest.raises(BadNotation) as caught:
        _engine().parse_action(text)
    assert words in str(caught.value)


def test_notation_is_read_in_either_case_and_written_canonically() -> None:
    engine = _engine(12)
    assert engine.format_action(engine.parse_action(" a:C3-c4 ")) == "A:c3-c4"
    assert engine.format_action(engine.parse_action("B:k10-l10")) == "B:k10-l10"
    assert engine.format_action(engine.parse_action("B:l12-l11")) == "B:l12-l11"


def test_the_board_has_sensed_edges_and_lit_points_named_for_people() -> None:
    spec = _engine().board()
    edges = [s for s in spec.sites if s.kind == "edge"]
    points = [s for s in spec.sites if s.kind == "point"]
    assert len(edges) == 2 * 7 * 6 and len(points) == 49
    assert all(s.sensed for s in edges) and not any(s.sensed for s in points)
    assert spec.sensed_kinds == {"edge"}
    c3c4 = spec.site("c3-c4")
    assert c3c4.ends == ("c3", "c4") and (c3c4.x, c3c4.y) == (3.0, 3.5)
    c3d3 = spec.site("c3-d3")
    assert c3d3.ends == ("c3", "d3") and (c3d3.x, c3d3.y) == (3.5, 3.0)
    assert set(c3c4.neighbours) == {"c2-c3", "b3-c3", "c3-d3", "b4-c4", "c4-d4", "c4-c5"}
    a1 = spec.site("a1")
    assert (a1.x, a1.y) == (1.0, 1.0) and set(a1.neighbours) == {"a2", "b1"}
    assert not spec.has_site("c4-c3"), "the lower point comes first"
    assert spec.codes == {"A", "B"}
    assert all(p.owner is None for p in spec.pieces), "either player lays either stick"
    assert [p.name for p in spec.players] == ["amber", "blue"]
    assert spec.find_piece("amber stick") == spec.piece("A")


def test_what_the_leds_show_for_a_move_and_for_the_winner() -> None:
    engine = _engine(2)
    match = Match.from_moves(engine, ["A:a1-a2", "B:a1-b1"])
    state = match.state
    offers = {engine.format_action(a): engine.highlight(state, a) for a in match.legal_actions()}
    assert offers == {"A:a2-b2": {"a2-b2", "a2"}, "B:b1-b2": {"b1-b2", "b1"}}
    assert engine.touches(state, engine.parse_action("A:a2-b2")) == {"a2-b2"}
    match.play_text("A:a2-b2")
    match.play_text("A:b2-b1")
    assert match.outcome().winner == 0
    assert engine.winning_sites(match.state) == {"a1-a2", "a2-b2", "b1-b2"}


def test_the_task_says_what_to_draw_and_from_where() -> None:
    engine = _engine()
    match = Match(engine)
    assert engine.task(match.state) == "draw the first segment, in amber (A), from any point"
    match.play_text("A:d4-d5")
    assert engine.task(match.state) == "draw the second segment, in blue (B), from d4"
    match.play_text("B:d4-e4")
    assert engine.task(match.state) == "extend the amber (A) end at d5 or the blue (B) end at e4"
    assert match.summary()["task"] == engine.task(match.state)


def test_the_terminal_drawing_shows_segments_ends_and_whose_turn() -> None:
    engine = _engine(3)
    match = Match.from_moves(engine, ["A:b2-b3", "B:b2-c2", "B:c2-c1"])
    assert engine.render(match.state).splitlines() == [
        " 3  .   A   .",
        "        a",
        " 2  .   .-b-.",
        "            b",
        " 1  .   .   B",
        "    a   b   c",
        "blue to extend the amber (A) end at b3 or the blue (B) end at c1 · segments A 1, B 2",
        "key: -a- a = amber (A) segment, -b- b = blue (B), A/B an end, * both ends",
    ]


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"segments": {"c4-c3": "A"}, "ends": {"A": "c4", "B": "c3"}}, "lower (or left) one"),
        ({"segments": {"c3-c4": "C"}, "ends": {"A": "c4", "B": "c3"}}, "colour must be 'A'"),
        ({"segments": {"c3-c4": "B"}, "ends": {"A": "c4", "B": "c3"}}, "no segment of colour A"),
        ({"segments": {"c3-c4": "A"}, "ends": {"A": "c4", "B": "c5"}}, "B end is where it"),
        ({"segments": {}, "ends": {"A": "c3", "B": None}}, "both ends must be null"),
        ({"segments": {"c3-c4": "A"}, "ends": {"A": "c4", "B": "c3"}, "moves": 2}, "'moves'"),
        ({"segments": {"c3-c4": "A"}, "ends": {"A": "h4", "B": "c3"}}, "A end 'h4' is not a point"),
        (
            {
                "segments": {"c3-c4": "A", "c5-c6": "A", "c3-d3": "B"},
                "ends": {"A": "c6", "B": "d3"},
            },
            "do not make one line",
        ),
        (
            {"segments": {"c3-c4": "A", "d4-d5": "B"}, "ends": {"A": "c4", "B": "d5"}},
            "must start from the same point",
        ),
        ({"ends": {"A": None, "B": None}}, "'segments'"),
    ],
)
def test_a_state_that_no_game_can_reach_is_refused(data: dict[str, Any], words: str) -> None:
    with pytest.raises(RecordError, match="not a bidiline state") as caught:
        _engine().state_from_json(data)
    assert words in str(caught.value)


def test_a_position_written_by_hand_is_read_with_its_end() -> None:
    engine = _engine(2)
    state = engine.state_from_json(
        {
            "segments": {"a1-a2": "A", "a1-b1": "B", "a2-b2": "A", "b1-b2": "A"},
            "ends": {"A": "b1", "B": "b1"},
        }
    )
    assert engine.outcome(state).winner == 0
    assert state == Match.from_moves(engine, ["A:a1-a2", "B:a1-b1", "A:a2-b2", "A:b2-b1"]).state
