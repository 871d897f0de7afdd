"""The simulator's screen shows the LEDs, the board, the turn and what is wrong."""

from typing import Any

import pytest

from boardctl.engines import Match, create
from boardctl.sim.screen import Layout, compose, controller_says, turn_line, visible_width
from hardware.profiles import load_profile


def _picture(game: str, options: dict[str, Any], moves: list[str]) -> str:
    """The board as the controller's status draws it."""
    engine = create(game, options)
    return engine.public_render(Match.from_moves(engine, moves).state)


STATUS = {
    "game": "shiftago",
    "options": {"players": 2, "variant": "expert"},
    "phase": "awaiting_move",
    "moves": ["W1"],
    "to_move": 1,
    "expects": "insert",
    "task": "insert a marble",
    "scores": [0, 0],
    "status": "playing",
    "winner": None,
    "verdict": "waiting",
    "picture": _picture("shiftago", {"players": 2, "variant": "expert"}, ["W1"]),
}


def test_the_screen_shows_leds_board_turn_and_scores() -> None:
    profile = load_profile("shiftago-colour")
    frame = [(0, 0, 0)] * profile.leds.count
    frame[0] = (230, 159, 0)
    text = compose(STATUS, frame, Layout(profile), note="insert W1: done")
    assert "\x1b[38;2;230;159;0m●" in text  # a1's LED in its colour
    assert "1  B . . . . . .  1" in text  # the engine's board: blue's marble on a1
    # a player is named by the colour of their marbles, counted from 1
    assert "red (player 2) to insert" in text
    assert "scores: blue 0  red 0" in text
    assert "lights:" not in text  # the LEDs show each player in their marbles' colour
    assert "moves (1): W1" in text
    assert "insert W1: done" in text


def test_a_fixed_height_keeps_the_help_just_above_the_prompt() -> None:
    profile = load_profile("duploline")
    status = {**STATUS, "game": "duploline", "options": {}, "moves": [], "scores": None}
    status["picture"] = _picture("duploline", {}, [])
    lines = compose(status, None, Layout(profile, height=40)).splitlines()
    assert len(lines) == 40
    assert lines[-1].startswith("board: new")
    assert all(visible_width(line) <= 120 for line in lines)


def test_a_wrong_board_names_the_sites_to_fix() -> None:
    status = {
        **STATUS,
        "phase": "wrong_board",
        "verdict": "wrong",
        "offending": ["d4"],
        "restore": {"a1": "p0", "b1": "p1"},
    }
    said = "\n".join(controller_says(status))
    assert "WRONG BOARD" in said
    assert "take away or fix: d4" in said
    assert "put back: blue on a1, red on b1" in said  # as the hands name them


def test_after_an_undo_the_screen_says_to_take_the_undone_move_off() -> None:
    for phase, verdict in (
        ("wrong_board", "wrong"),
        ("move_in_progress", "wrong"),
        ("setup", "wrong"),
    ):
        status = {
            **STATUS,
            "phase": phase,
            "verdict": verdict,
            "offending": ["c3"],
            "restore": {},
            "undone_on_board": ["W3"],
        }
        said = controller_says(status)
        assert said[0] == "UNDONE: take W3 back off the board", phase
        assert "no legal move explains it" not in "\n".join(said)


def test_setting_up_names_the_sites_to_clear() -> None:
    status = {
        **STATUS,
        "phase": "setup",
        "moves": [],
        "offending": ["a3", "g3"],
        "restore": {"c1": "p1"},
    }
    assert controller_says(status) == [
        "set up: clear the board for a new game",
        "  take away: a3 g3",
        "  put back: red on c1",
    ]
    assert controller_says({**status, "offending": [], "restore": {}}) == [
        "set up: clear the board for a new game"
    ]


def test_setting_up_a_game_that_starts_with_pieces_asks_for_them() -> None:
    status = {**STATUS, "phase": "setup", "moves": [], "restore": {"c1": "p1"}}
    assert controller_says(status) == [
        "set up: put out the pieces a new game starts with",
        "  put back: red on c1",
    ]


def test_scoring_lists_the_lines_and_game_over_names_the_winner() -> None:
    profile = load_profile("shiftago-colour")
    moves = "W2 E4 W3 E6 W4 Sg W5 E6 Sb E2 Sc E1 Sd E4 Se E5 W7 Sf W7 E2 W7 Sf E7 E4 E7 E2 E7 E4 Sa"
    status = {**STATUS, "moves": moves.split(), "to_move": 0, "expects": "score"}
    status["task"] = "choose a line to score"
    status["phase"] = "choosing"
    status["choices"] = ["x:a1-e1", "x:a1-a5"]
    text = compose(status, None, Layout(profile))
    # the engine's words for the task, then the choices as they are typed
    assert "blue (player 1) to choose a line to score: x:a1-e1 or x:a1-a5" in text
    over = {**STATUS, "phase": "game_over", "winner": 0, "reason": "blue reached 12 points"}
    said = controller_says(over)[0]
    assert "GAME OVER: blue (player 1) wins (blue reached 12 points)" in said
    ambiguous = {**STATUS, "phase": "move_in_progress", "verdict": "ambiguous"}
    ambiguous["candidates"] = [["W1"], ["Sa"]]
    assert "  could be: Sa" in controller_says(ambiguous)


def test_the_help_line_shows_what_hands_do_in_this_game() -> None:
    from boardctl.engines import create
    from boardctl.sim.screen import command_help

    shiftago = command_help(create("shiftago").board())[0]
    assert "insert W1 [blue]" in shiftago and "place d4 blue" in shiftago
    duplo = command_help(create("duploline").board())[0]
    assert "white-disc" in duplo and "insert" not in duplo
    assert "lift d4 [disc|ring]" in duplo and "move d4 " in duplo
    # the example is the piece of the player to move, not always the first player's
    red = command_help(create("shiftago").board(), mover=1)[0]
    assert "insert W1 [red]" in red and "blue" not in red


def test_a_hand_that_cannot_be_done_names_this_games_sites() -> None:
    from boardctl.engines import create
    from boardctl.errors import BadNotation
    from boardctl.sim.board import plan
    from boardctl.sim.hands import HandCommand

    spec = create("duploline").board()
    with pytest.raises(BadNotation, match="has no tracks") as caught:
        plan(load_profile("duploline"), spec, HandCommand.parse("insert"), {}, 0)
    assert "W3" not in str(caught.value)


def test_at_80_by_24_no_line_is_wider_and_the_title_and_help_stay() -> None:
    profile = load_profile("duploline")
    status = {**STATUS, "game": "duploline", "options": {}, "moves": [], "scores": None}
    status["picture"] = _picture("duploline", {}, [])
    status.update(phase="wrong_board", offending=["d4", "e5"], restore={"c3": "white-disc"})
    note = "place d4 purple-disc: " + "a long message that goes on " * 5
    lines = compose(status, None, Layout(profile, height=23, width=80), note).splitlines()
    assert len(lines) == 23
    assert all(visible_width(line) <= 80 for line in lines)
    assert lines[0] == "boardctl sim · duploline on duploline"
    assert "  WRONG BOARD: no legal move explains it" in lines
    assert lines[-1].startswith("board: new")
    assert any(line.startswith("place d4 purple-disc") for line in lines)


def test_lights_not_in_the_colour_of_the_pieces_are_said_under_the_turn() -> None:
    profile = load_profile("duploline")
    status = {**STATUS, "game": "duploline", "options": {}, "moves": [], "scores": None}
    status["picture"] = _picture("duploline", {}, [])
    note = "black is lit blue: an LED cannot glow black"
    lines = compose(status, None, Layout(profile, note=note)).splitlines()
    turn = next(n for n, line in enumerate(lines) if "to " in line and "(player" in line)
    assert lines[turn + 1] == f"lights: {note}"


def test_at_80_columns_the_notes_under_the_board_wrap_and_give_way_whole() -> None:
    profile = load_profile("duploline")
    status = {**STATUS, "game": "duploline", "options": {}, "moves": [], "scores": None}
    status["picture"] = _picture("duploline", {}, [])
    status.update(to_move=0, expects="opening")
    wide = compose(status, None, Layout(profile)).splitlines()
    notes = [line.strip() for line in wide if line.strip().startswith(("in hand:", "key:"))]
    assert len(notes) == 2 and notes[0].endswith("black: discs 18, rings 18"), notes
    narrow = compose(status, None, Layout(profile, width=80))
    # nothing is cut: the same words in the same order, only the rows differ
    assert narrow.split() == compose(status, None, Layout(profile)).split()
    for height in range(16, 32):
        lines = compose(status, None, Layout(profile, height=height, width=80)).splitlines()
        assert len(lines) == height
        assert all(visible_width(line) <= 80 for line in lines)
        rows = " ".join(line.strip() for line in lines)
        for note in notes:
            # a note is shown whole or not at all
            assert note in rows or note.split(",")[0] not in rows, (height, lines)


def test_a_turn_says_the_engines_task_in_words() -> None:
    status = {**STATUS, "game": "duploline", "options": {}, "moves": ["D+d4"], "expects": "ring"}
    # the status's task is what the screen says ...
    line = turn_line({**status, "task": "play a ring action"})
    assert line == "black (player 2) to play a ring action", line


def _linie1_status() -> dict[str, Any]:
    engine = create("linie1")
    match = Match(engine)
    return {
        "game": "linie1",
        "options": {},
        "phase": "awaiting_move",
        "moves": [],
        "to_move": 0,
        "status": "playing",
        "task": "lay two tiles or start the trip",
        "picture": engine.render(match.state),
    }


@pytest.mark.parametrize(("width", "height"), [(120, 50), (80, 24)])
def test_linie1_fits_a_terminal_with_every_column_of_its_board(width: int, height: int) -> None:
    text = compose(
        _linie1_status(), None, Layout(load_profile("linie1"), width=width, height=height)
    )
    lines = text.splitlines()
    assert len(lines) <= height
    assert max(visible_width(line) for line in lines) <= width
    header = next(line for line in lines if line.split()[:3] == ["a", "b", "c"])
    assert header.split()[-2:] == ["k", "l"]  # the east columns are not cut off
    # every row of the board, 1 to 12
    rows = [line for line in lines[: lines.index(header) + 13] if line[:3].strip().isdigit()]
    assert [int(line[:3]) for line in rows] == list(range(1, 13))
    # whose turn it is stays; the engine's notes and the LEDs give way first
    assert any(line.startswith("player 1 to lay two tiles") for line in lines)


def test_the_screen_says_what_the_player_apart_does() -> None:
    status = {
        "game": "shiftago",
        "options": {},
        "phase": "awaiting_move",
        "moves": [],
        "to_move": 0,
        "remote": {"seat": 0, "board": "table-a", "doing": "waiting", "moves": []},
    }
    assert "blue (player 1) at table-a is to play, there" in controller_says(status)
    status["remote"] = {"seat": 1, "board": "", "doing": "ready", "moves": ["E1"], "phone": True}
    said = controller_says(status)
    assert any(
        line.startswith("red (player 2) on their phone played E1: make it here") for line in said
    )


def test_at_80_by_24_a_wrong_board_says_why_before_the_moves_and_the_lights() -> None:
    engine = create("beeline")
    state = engine.initial()
    status = {
        "game": "beeline",
        "options": {},
        "phase": "wrong_board",
        "moves": [],
        "to_move": 0,
        "status": "playing",
        "task": "play a piece",
        "picture": engine.render(state),
        "why": "that is a red MARK, and black is to play",
        "offending": ["c5"],
    }
    note = "black is lit a cold blue-white: an LED cannot glow black"
    lines = compose(status, None, Layout(load_profile("beeline"), width=80, height=24, note=note))
    rows = lines.splitlines()
    assert len(rows) == 24
    assert "  WRONG BOARD: that is a red MARK, and black is to play" in rows
    assert any(row.strip().startswith("take away or fix: c5") for row in rows)
    assert "black (player 1) to play a piece" in rows
