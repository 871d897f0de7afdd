"""Linie 1: notation, options, board declaration, chance, secrets and JSON."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from boardctl.engines import CHANCE, Match, create
from boardctl.engines.linie1 import Draw, Lay, Linie1, Roll, Start, State
from boardctl.engines.linie1.data import DEFAULT
from boardctl.errors import BadNotation, BadOptions, RecordError

RECORDS = Path(__file__).parent / "records" / "linie1"


def _record(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((RECORDS / f"{name}.json").read_text())
    return data


def _engine(**options: Any) -> Linie1:
    engine = create("linie1", options)
    assert isinstance(engine, Linie1)
    return engine


def _small() -> str:
    """The 4 x 4 test board of the trip records."""
    return str(_record("trip_die_number_drives_that_many_cells")["options"]["board_data"])


@pytest.mark.parametrize(
    "text",
    [
        "e5:3E",
        "c5:4N+d5:3N",
        "pass",
        "draw:12",
        "take:3",
        "deal:L3",
        "deal:B2",
        "start:t2a/B3",
        "start:t6b",
        "roll:4",
        "roll:H",
        ">d5-d6-e6",
        ">l2-t1b",
    ],
)
def test_canonical_notation_round_trips(text: str) -> None:
    engine = _engine()
    assert engine.format_action(engine.parse_action(text)) == text


def test_tile_turns_with_the_same_rails_are_written_one_way() -> None:
    engine = _engine()
    assert engine.format_action(engine.parse_action("e5:1S")) == "e5:1N"
    assert engine.format_action(engine.parse_action("e5:10W")) == "e5:10N"
    assert engine.format_action(engine.parse_action("d5:3N+c5:4N")) == "c5:4N+d5:3N"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("z5:1N", "z5 is not a cell"),
        ("e5-1N", "not a Linie 1 action"),
        ("m5:1N", "m5 is not a cell"),
        ("e13:1N", "e13 is not a cell"),
        ("e5:13N", "tile kind is a number 1 to 12"),
        ("e5:1X", "not a Linie 1 action"),
        ("e5:1N+e5:2N", "need two cells"),
        ("draw:0", "tile kind is a number 1 to 12"),
        ("deal:Q1", "deal a line card"),
        ("roll:0", "die face"),
        ("start:t9a", "'t9a' is not a terminal"),
        ("start:t1a/", "name the route card"),
        (">e5-zz", "'zz' is neither a cell nor a terminal"),
    ],
)
def test_bad_notation_says_what_is_wrong(text: str, words: str) -> None:
    with pytest.raises(BadNotation, match=words):
        _engine().parse_action(text)


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"players": 6}, "'players' must be 2 to 5"),
        ({"secrets": "open"}, "'secrets' must be 'cards' or 'dealt'"),
        ({"movement": "walk"}, "'movement' must be 'die' or 'speed'"),
        ({"die": "12X"}, "'die' lists the faces"),
        ({"board_data": "{"}, "board_data : is not JSON"),
        ({"board_data": "{}"}, "misses the key 'size'"),
        ({"colour": "red"}, "unknown option 'colour'"),
        ({"dealt_to": "3"}, "'dealt_to' lists seats from 1 to 2"),
        ({"dealt_to": "two"}, "like '2' or '2,3'"),
        ({"dealt_clash": "swap"}, "'redeal' or 'refuse'"),
    ],
)
def test_bad_options_are_refused_with_the_fix(options: dict[str, Any], words: str) -> None:
    with pytest.raises(BadOptions, match=words):
        create("linie1", options)


def test_board_data_is_checked_where_it_is_wrong() -> None:
    bad = json.loads(json.dumps(DEFAULT))
    bad["buildings"]["A"] = [0, 5]
    with pytest.raises(BadOptions, match=r"buildings.A: a building stands on a track cell"):
        create("linie1", {"board_data": json.dumps(bad)})
    bad = json.loads(json.dumps(DEFAULT))
    bad["lines"][0]["terminals"][0] = [[6, 0], [8, 0]]
    with pytest.raises(BadOptions, match=r"must be neighbours"):
        create("linie1", {"board_data": json.dumps(bad)})


def test_the_default_board_as_data_gives_the_same_engine() -> None:
    engine = _engine(board_data=json.dumps(DEFAULT))
    assert engine.board() == _engine().board()


def test_board_declares_cells_terminals_and_composite_pieces() -> None:
    spec = _engine(players=3).board()
    kinds = spec.site_kinds
    assert sum(1 for k in kinds.values() if k == "cell") == 144
    assert sum(1 for k in kinds.values() if k == "terminal") == 12
    assert not spec.site("l8").sensed  # building A
    assert spec.site("t1a").ends == ("a6", "a7")
    piece = spec.piece("3E+stop+car2")
    assert piece is not None and piece.parts == ("3E", "stop", "car2")
    assert spec.piece("1N") is not None and spec.piece("1S") is None  # one code per look
    assert spec.piece("car1+car2+car3") is not None
    assert spec.piece("car1+car2+car3+car4") is None  # three players, three streetcars
    assert len(spec.players) == 3


def test_draws_are_weighted_by_the_tiles_left_in_the_stacks() -> None:
    engine = _engine()
    match: Match[State, Any] = Match.from_moves(engine, ["c3:1N", "e3:1N"])
    assert engine.actor(match.state) is CHANCE
    weights = dict(engine.chance_outcomes(match.state))
    assert weights[Draw(1)] == 21 and weights[Draw(2)] == 20 and weights[Draw(11)] == 2
    assert sum(weights.values()) == 101
    after = engine.apply(match.state, Draw(11))
    assert dict(engine.chance_outcomes(after))[Draw(11)] == 1


def test_die_faces_are_weighted_by_how_often_they_are_printed() -> None:
    engine = _engine(board_data=_small())
    match: Match[State, Any] = Match.from_moves(
        engine,
        _record("trip_die_number_drives_that_many_cells")["moves"][:17],
    )
    assert dict(engine.chance_outcomes(match.state)) == {
        Roll("1"): 1,
        Roll("2"): 1,
        Roll("3"): 1,
        Roll("4"): 1,
        Roll("H"): 2,
    }


def _dealt(lines: tuple[str, str], cards: tuple[str, str]) -> tuple[Linie1, State]:
    engine = _engine(secrets="dealt", board_data=_small())
    moves = [f"deal:{lines[0]}", f"deal:{lines[1]}", f"deal:{cards[0]}", f"deal:{cards[1]}"]
    match: Match[State, Any] = Match.from_moves(engine, [*moves, "a1:1E", "b1:1E"])
    return engine, match.state


def test_states_differing_only_in_secrets_look_the_same_to_everyone() -> None:
    engine, one = _dealt(("L1", "L2"), ("X1", "X2"))
    _, other = _dealt(("L2", "L1"), ("X2", "X1"))
    assert one != other
    assert engine.public_view(one) == engine.public_view(other)
    assert engine.public_render(one) == engine.public_render(other)
    assert engine.layout(one) == engine.layout(other)
    assert engine.task(one) == engine.task(other)
    for action, _ in engine.chance_outcomes(one):
        assert engine.public_action(one, action) == engine.public_action(other, action)
    assert engine.private_view(one, 0)["line"] == 1
    assert engine.private_view(other, 0)["line"] == 2
    assert engine.private_view(one, 1) == {
        "line": 2,
        "terminals": ["t2a", "t2b"],
        "route_card": "X2",
        "stops": "A",
    }


def test_a_deal_is_public_without_its_card() -> None:
    engine = _engine(secrets="dealt")
    state = engine.initial()
    texts = {engine.public_action(state, a) for a, _ in engine.chance_outcomes(state)}
    assert texts == {"deal:L?"}
    assert "L1" not in engine.public_render(state)


def test_state_json_round_trips_and_bad_json_is_refused() -> None:
    record = _record("trip_wrong_turn_starts_the_trip_again")
    engine = create("linie1", record["options"])
    match = Match.from_moves(engine, record["moves"])
    for state in match.states:
        data = json.loads(json.dumps(engine.state_to_json(state)))
        assert engine.state_from_json(data) == state
    with pytest.raises(RecordError, match="not a linie1 state"):
        engine.state_from_json({"cells": {"zz": "1N"}})


def test_the_winner_s_route_is_lit() -> None:
    record = _record("trip_die_number_drives_that_many_cells")
    engine = create("linie1", record["options"])
    match = Match.from_moves(engine, record["moves"])
    assert engine.winning_sites(match.state) == {"t1a", "a1", "b1", "c1", "d1", "t1b"}


def test_a_drive_touches_the_cells_it_passes() -> None:
    record = _record("trip_die_number_drives_that_many_cells")
    engine = create("linie1", record["options"])
    match = Match.from_moves(engine, record["moves"][:18])
    drive = engine.parse_action(">a1-b1-c1-d1")
    assert engine.touches(match.state, drive) == {"t1a", "a1", "b1", "c1", "d1"}
    board = _engine()
    lay = board.parse_action("c5:4N+d5:3N")
    assert board.touches(board.initial(), lay) == {"c5", "d5"}


def test_options_are_recorded() -> None:
    engine = _engine(players=4, movement="speed")
    assert engine.options_json()["players"] == 4
    assert dataclasses.asdict(engine.options)["movement"] == "speed"


def test_only_dealt_cards_are_secrets_of_the_state() -> None:
    # the cards mode keeps the cards on the table: nothing secret is in the
    # state, so the board may light every hint; the dealt mode hides them
    assert not _engine().has_secrets
    assert _engine(secrets="dealt").has_secrets


def test_with_the_cards_on_the_table_the_computers_seat_is_dealt_its_own_privately() -> None:
    """The person's cards stay on the table, the computer's seat (player 2)
    gets a line and a route card from the game, each dealt face down, then
    its spare line cards (every other line, in order); no public view,
    action or hint tells them before the trip, which shows line and route
    card as a person's start does."""
    plain = _engine()
    assert plain.computer_refused is not None
    engine = plain.seated(frozenset({1}))
    assert engine.options_json()["dealt_to"] == "2" and engine.computer_refused is None
    assert engine.has_secrets and engine.seated(frozenset({1})) is engine
    assert _engine(secrets="dealt").seated(frozenset({1})).options_json()["dealt_to"] == ""
    assert plain.seated(frozenset()) is plain
    state = engine.initial()
    assert engine.task(state) == "deal a line card to player 2"
    assert {engine.public_action(state, a) for a, _ in engine.chance_outcomes(state)} == {"deal:L?"}
    match: Match[State, Any] = Match.from_moves(engine, ["deal:L3", "deal:B4"])
    assert engine.task(match.state) == "deal the spare line cards of player 2"
    spares = {engine.format_action(a) for a, _ in engine.chance_outcomes(match.state)}
    assert spares == {"deal:L1", "deal:L2", "deal:L4", "deal:L5", "deal:L6"}
    state = _spares_dealt(engine, match.state)
    assert engine.actor(state) == 0 and state.lines == (-1, 2) and state.routes == (-1, 3)
    assert engine.private_view(state, 0) == {}
    assert engine.private_view(state, 1)["route_card"] == "B4"
    other = _spares_dealt(engine, Match.from_moves(engine, ["deal:L5", "deal:B1"]).state)
    assert engine.public_view(state) == engine.public_view(other)
    assert engine.public_render(state) == engine.public_render(other)
    assert "spares" not in engine.public_view(state) and "spares" in engine.state_to_json(state)
    assert engine.state_from_json(engine.state_to_json(state)) == state
    # a route card the game dealt is no card of the table's
    assert engine.why_illegal(state, engine.parse_action("start:t1a/B4")) is None
    # the computer's start names the terminal only, and shows its cards
    turn = _laid(engine, _laid(engine, state))
    while engine.actor(turn) is CHANCE:
        turn = engine.apply(turn, engine.chance_outcomes(turn)[0][0])
    assert engine.actor(turn) == 1
    assert {a for a in engine.legal_actions(turn) if isinstance(a, Start)} == {
        Start(4),
        Start(5),
    }
    shown = engine.apply(turn, Start(4))
    assert engine.public_view(shown)["lines"] == [None, 3]
    assert engine.public_view(shown)["route_cards"] == [None, "B4"]


def _spares_dealt(engine: Linie1, state: State) -> State:
    """``state`` after the deal of the spare line cards, lowest line first."""
    while engine.actor(state) is CHANCE:
        state = engine.apply(state, engine.chance_outcomes(state)[0][0])
    return state


def _starts(engine: Linie1, state: State) -> list[str]:
    return [engine.format_action(a) for a in engine.legal_actions(state) if isinstance(a, Start)]


def test_a_person_may_show_the_line_card_the_game_dealt_the_computer() -> None:
    """A person drew from the table the line card the game dealt the
    computer (player 3): their start stands as any other (no refusal tells
    them whose line it was) and the game deals the computer its first spare
    line no trip has shown, privately; a second person showing that one
    moves it on again. Nothing public differs from a game without the
    clash, and the starts a person is offered never depend on the dealt
    line."""
    engine = _engine(players=3).seated(frozenset({2}))
    assert engine.options_json()["dealt_clash"] == "redeal"

    def dealt(line: str) -> State:
        return _spares_dealt(engine, Match.from_moves(engine, [f"deal:{line}", "deal:B4"]).state)

    clash, other = dealt("L3"), dealt("L5")
    assert _starts(engine, clash) == _starts(engine, other)
    assert "start:t3a/B2" in _starts(engine, clash) and engine.hints_public(clash)
    start = engine.parse_action("start:t3a/B2")
    assert engine.why_illegal(clash, start) is None
    clash, other = engine.apply(clash, start), engine.apply(other, start)
    assert engine.public_view(clash) == engine.public_view(other)
    assert engine.public_render(clash) == engine.public_render(other)
    assert engine.private_view(clash, 2)["line"] == 1  # its first spare
    assert engine.private_view(other, 2)["line"] == 5  # no clash: kept
    assert engine.private_view(clash, 2)["route_card"] == "B4"
    # the next person shows line 1: the computer is dealt its next spare, 2
    state = clash
    while engine.actor(state) != 1:
        state = engine.apply(state, next(iter(engine.legal_actions(state))))
    assert engine.why_illegal(state, engine.parse_action("start:t1a/B3")) is None
    state = engine.apply(state, engine.parse_action("start:t1a/B3"))
    assert engine.private_view(state, 2)["line"] == 2
    assert engine.public_view(state)["lines"] == [3, 1, None]
    # a line shown at a trip is the shower's: the computer is never offered it
    while engine.actor(state) != 2:
        state = engine.apply(state, next(iter(engine.legal_actions(state))))
    assert set(_starts(engine, state)) == {"start:t2a", "start:t2b"}


def test_with_dealt_clash_refuse_the_computers_line_is_kept_and_the_person_is_refused() -> None:
    """Option dealt_clash=refuse: the computer keeps the line it was dealt
    (no spare lines are dealt); a person's start with it is refused, which
    tells that person the line is taken, but not by whom; until the
    computer's cards are shown, the hints of a person's first tile stay
    dark (their starts leave its line out)."""
    engine = _engine(dealt_clash="refuse").seated(frozenset({1}))
    assert engine.options_json()["dealt_clash"] == "refuse"
    state = Match.from_moves(engine, ["deal:L3", "deal:B4"]).state
    assert engine.actor(state) == 0 and state.spares == ((), ())
    starts = [a for a in engine.legal_actions(state) if isinstance(a, Start)]
    assert starts and all(engine.geo.terminals[a.terminal].line != 2 for a in starts)
    assert not engine.hints_public(state) and engine.hints_public(_laid(engine, state))
    why = engine.why_illegal(state, engine.parse_action("start:t3a/B2"))
    assert why is not None and "line 3 is taken" in str(why) and "player 2" not in str(why)


def _laid(engine: Linie1, state: State) -> State:
    """``state`` after its player's first lay listed."""
    return engine.apply(state, next(a for a in engine.legal_actions(state) if isinstance(a, Lay)))


def test_the_die_pips_show_the_face_rolled_until_the_drive_is_made() -> None:
    from boardctl.engines.linie1.die import FACES, PIPS

    pips = {name for name, _, _ in PIPS}
    spec = _engine().board()
    assert {s.name for s in spec.sites if s.kind == "display"} == pips
    assert not any(spec.site(p).sensed for p in pips)
    # a die's faces; H all seven; 7, 8 and 9 the faces of 1, 2, 3 with the middle sides added
    assert [len(FACES[n]) for n in range(1, 7)] == [1, 2, 3, 4, 5, 6]
    assert FACES[10] == pips
    assert FACES[7] == {"die-ml", "die-c", "die-mr"}
    assert len(set(FACES.values())) == 10  # every face reads differently
    record = _record("trip_die_number_drives_that_many_cells")
    engine = create("linie1", record["options"])
    moves = record["moves"]
    at = moves.index("roll:4")
    match = Match.from_moves(engine, moves[:at])
    assert engine.shown(match.state) == frozenset()  # the die is not rolled yet
    match.play_text("roll:4")
    assert engine.shown(match.state) == {"die-tl", "die-tr", "die-bl", "die-br"}
    # the face is kept in the state the records store
    assert engine.shown(engine.state_from_json(engine.state_to_json(match.state))) == FACES[4]
    match.play_text(moves[at + 1])
    assert engine.shown(match.state) == frozenset()  # driven: the die goes dark


def test_the_speed_rule_rolls_no_die_and_shows_none() -> None:
    record = _record("speed_rule_one_more_cell_each_move")
    engine = create("linie1", record["options"])
    match = Match(engine)
    for text in record["moves"]:
        assert engine.shown(match.state) == frozenset(), text
        match.play_text(text)


def test_two_streetcars_in_one_place_are_both_drawn() -> None:
    import dataclasses

    from boardctl.engines.linie1.trip import TERMINAL_AT

    engine = _engine()
    state = engine.initial()
    terminal = engine.geo.terminals[0]
    # a position in a terminal is TERMINAL_AT + 2 * its index (+ the way out); on a cell, cell * 4
    both = dataclasses.replace(state, cars=(TERMINAL_AT + 2 * terminal.index,) * 2)
    assert f"streetcars of players 1 and 2 in {terminal.name}" in engine.render(both)
    from boardctl.i18n import language, translate

    with language("de"):
        german = translate(engine.render(both))
    assert f"Straßenbahnen der Spieler 1 und 2 in {terminal.name}" in german
    assert "Spieler 1: Hand 1x3 2x2" in german and "Spieler 1 ist dran: " in german
    with language("fr"):
        french = translate(engine.render(both))
    assert f"tramways des joueurs 1 et 2 au terminus {terminal.name}" in french
    assert "pioche : 101 tuiles · * panneau d'arrêt, [X] bâtiment" in french
    cell = engine.geo.track_cells[0]
    tiles = list(state.tiles)
    tiles[cell] = next(iter(engine.geo.code_names))
    on_a_tile = dataclasses.replace(state, tiles=bytes(tiles), cars=(cell * 4, cell * 4))
    row = next(line for line in engine.render(on_a_tile).splitlines() if "12" in line[5:])
    assert engine.geo.code_name(tiles[cell]) + "12" in row
