"""Shiftago rules one at a time: options, pushes, scoring, notation, the board."""

from __future__ import annotations

from typing import Any

import pytest

from boardctl.engines import Match, create
from boardctl.engines.shiftago import Insert, Score, Shiftago, ShiftagoState
from boardctl.errors import BadNotation, BadOptions, IllegalMove, RecordError

EMPTY = "......."


def _engine(**options: Any) -> Shiftago:
    engine = create("shiftago", options)
    assert isinstance(engine, Shiftago)
    return engine


def _state(engine: Shiftago, rows: list[str], phase: str = "insert", **extra: Any) -> ShiftagoState:
    """A position from its drawing (north row first), marbles in hand making 22."""
    n = engine.players
    on_board = [sum(row.count(str(p)) for row in rows) for p in range(n)]
    data = {
        "board": rows,
        "supply": [22 - k for k in on_board],
        "scores": [0] * n,
        "mover": 0,
        "phase": phase,
    }
    data.update(extra)
    return engine.state_from_json(data)


def _rows(engine: Shiftago, state: ShiftagoState) -> list[str]:
    rows: list[str] = engine.state_to_json(state)["board"]
    return rows


# -- options ---------------------------------------------------------------------


def test_defaults_are_two_player_express() -> None:
    engine = _engine()
    assert engine.options_json() == {
        "players": 2,
        "variant": "express",
        "handicap_turns": 0,
        "handicap_player": 0,
    }
    assert engine.scores(engine.initial()) is None
    assert _engine(variant="expert").scores(_engine(variant="expert").initial()) == (0, 0)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": 5}, "'players' must be 2, 3 or 4, not 5"),
        ({"variant": "extreme"}, "'extreme' is not supported"),
        ({"variant": "Expert"}, "must be 'express' or 'expert'"),
        ({"handicap_turns": 7}, "'handicap_turns' must be 0 to 6"),
        ({"handicap_player": 2}, "'handicap_player' must be a seat 0 to 1"),
        ({"handicap": 2}, "unknown option 'handicap'"),
    ],
)
def test_bad_options_are_refused_with_the_reason(options: dict[str, Any], message: str) -> None:
    with pytest.raises(BadOptions, match=message):
        create("shiftago", options)


# -- insertion -------------------------------------------------------------------


def test_insertion_pushes_only_the_run_at_the_edge() -> None:
    engine = _engine()
    rows = [EMPTY] * 6 + ["01.1..."]
    after = engine.apply(_state(engine, rows), Insert.from_str("W1"))
    assert _rows(engine, after)[6] == "0011..."
    after = engine.apply(_state(engine, rows), Insert.from_str("E1"))
    assert _rows(engine, after)[6] == "01.1..0"


def test_insertion_from_the_north_pushes_south() -> None:
    engine = _engine()
    rows = ["1......", "0......", EMPTY, "1......", EMPTY, EMPTY, EMPTY]
    after = engine.apply(_state(engine, rows), Insert.from_str("Na"))
    assert [r[0] for r in _rows(engine, after)] == list("0101...")


def test_full_column_refuses_both_its_tracks_and_nothing_else() -> None:
    engine = _engine()
    rows = ["0......", "1......", "0......", "1......", "0......", "1......", "0......"]
    state = _state(engine, rows)
    legal = {engine.format_action(a) for a in engine.legal_actions(state)}
    assert "Sa" not in legal and "Na" not in legal and len(legal) == 26
    assert engine.why_illegal(state, Insert.from_str("Na")) == "track Na is full"


# -- winning and scoring -----------------------------------------------------------


def test_express_win_needs_the_movers_own_colour() -> None:
    engine = _engine()
    # player 0's push lines up five of player 1's: no win for anyone yet
    rows = [EMPTY] * 5 + [".1111..", "1......"]
    after = engine.apply(_state(engine, rows), Insert.from_str("Sa"))
    assert not engine.outcome(after).over and engine.to_move(after) == 1


def test_expert_must_score_a_line_made_by_the_push() -> None:
    engine = _engine(variant="expert")
    rows = [EMPTY] * 5 + [".0000..", "0......"]
    after = engine.apply(_state(engine, rows), Insert.from_str("Sa"))
    assert engine.expects(after) == "score"
    assert engine.scoring_lines(after) == (("a2", "e2"),)


@pytest.mark.parametrize(
    ("players", "length", "points"),
    [(2, 5, 2), (2, 6, 5), (2, 7, 10), (3, 4, 2), (3, 5, 5), (4, 6, 8), (4, 7, 10)],
)
def test_scoring_table(players: int, length: int, points: int) -> None:
    engine = _engine(variant="expert", players=players)
    rows = [EMPTY] * 6 + ["0" * length + "." * (7 - length)]
    state = _state(engine, rows, phase="score")
    last = "abcdefg"[length - 1] + "1"
    action = engine.parse_action(f"x:a1-{last}" + ("" if players == 2 else f"/{last}"))
    after = engine.apply(state, action)
    assert engine.scores(after) == (points,) + (0,) * (players - 1)
    kept = "0" + "." * (length - 2) + "0" if players == 2 else "." * (length - 1) + "0"
    assert _rows(engine, after)[6] == kept + "." * (7 - length)


def test_reaching_ten_over_several_lines_wins() -> None:
    engine = _engine(variant="expert", players=3)
    rows = [EMPTY] * 6 + ["0000..."]
    state = _state(engine, rows, phase="score", scores=[8, 9, 0])
    after = engine.apply(state, engine.parse_action("x:a1-d1/a1"))
    outcome = engine.outcome(after)
    assert outcome.winner == 0 and outcome.reason == "blue reached 10 points"
    with pytest.raises(IllegalMove, match="the game is over: blue reached 10 points"):
        engine.apply(after, Insert.from_str("Sd"))


def test_a_short_line_beside_a_scoring_one_does_not_score() -> None:
    engine = _engine(variant="expert")
    rows = [EMPTY] * 4 + ["0000...", EMPTY, "00000.."]
    state = _state(engine, rows, phase="score")
    assert engine.why_illegal(state, engine.parse_action("x:a3-d3")) == (
        "a line of 4 does not score with 2 players: it takes 5 or more"
    )
    assert engine.why_illegal(state, engine.parse_action("x:a1-c2")) == (
        "a1 and c2 are not on one row, column or diagonal"
    )


# -- notation ------------------------------------------------------------------------


def test_every_track_name_round_trips() -> None:
    engine = _engine()
    names = engine.sites()[49:]
    assert names[:3] == ("W1", "W2", "W3") and names[-1] == "Ng" and len(names) == 28
    for name in names:
        assert engine.format_action(engine.parse_action(name)) == name


def test_scoring_text_puts_the_southern_or_western_end_first() -> None:
    assert str(Score.from_str("x:e1-a1")) == "x:a1-e1"
    assert str(Score.from_str("x:a5-e1/a5")) == "x:e1-a5/a5"
    assert Score.from_str("x:g7-c3") == Score.from_str("x:c3-g7")
    assert eval(repr(Score.from_str("x:a1-d1/d1"))) == Score.from_str("x:a1-d1/d1")


@pytest.mark.parametrize("text", ["", "W8", "Sh", "w1", "x:a1-a1", "x:a1-e1/", "x:a0-e1", "Z9"])
def test_bad_notation_is_refused(text: str) -> None:
    with pytest.raises(BadNotation):
        _engine().parse_action(text)
    with pytest.raises(ValueError):
        _engine().parse_action(text)


# -- the board, the drawing and the JSON -------------------------------------------------


def test_sites_and_layout_use_cell_names_and_player_codes() -> None:
    engine = _engine(players=3)
    sites = engine.sites()
    assert sites[0] == "a1" and sites[6] == "g1" and sites[48] == "g7" and len(sites) == 77
    match = Match.from_moves(engine, ["Sd", "W4", "Nd"])
    assert engine.layout(match.state) == {"d1": "p0", "a4": "p1", "d7": "p2"}


def test_render_draws_the_board_with_coordinates() -> None:
    engine = _engine(variant="expert")
    match = Match.from_moves(engine, ["Sd", "W7"])
    text = engine.render(match.state)
    lines = text.splitlines()
    assert lines[0] == lines[8] == "   a b c d e f g"
    # each marble by its colour's initial: blue's on d1, red's on a7
    assert lines[1] == "7  R . . . . . .  7"
    assert lines[7] == "1  . . . B . . .  1"
    assert lines[9] == "blue to insert · marbles left: blue 21, red 21 · points: blue 0, red 0"


def test_state_json_refuses_a_broken_board() -> None:
    engine = _engine()
    data = engine.state_to_json(engine.initial())
    data["board"] = ["..3...."] + [EMPTY] * 6
    with pytest.raises(RecordError, match="cell c7 holds '3'"):
        engine.state_from_json(data)


def test_state_json_refuses_marbles_that_do_not_add_up() -> None:
    engine = _engine()
    data = engine.state_to_json(engine.initial())
    data["board"] = ["0......"] + [EMPTY] * 6
    with pytest.raises(RecordError, match="player 0 has 1 marbles on the board and 22 in hand"):
        engine.state_from_json(data)
