"""Hands on the simulated board change it the way they would change a real one."""

import pytest

from boardctl.engines import create
from boardctl.errors import BadNotation
from boardctl.sim.hands import (
    PULSE,
    Change,
    HandCommand,
    apply_changes,
    insert,
    lift,
    move,
    place,
    track,
)

SHIFTAGO = create("shiftago").board()
DUPLOLINE = create("duploline").board()


def test_tracks_run_from_their_edge_as_the_game_declares() -> None:
    assert track(SHIFTAGO, "W3").path == ("a3", "b3", "c3", "d3", "e3", "f3", "g3")
    assert track(SHIFTAGO, "E3").path[0] == "g3"
    assert track(SHIFTAGO, "Sb").path == ("b1", "b2", "b3", "b4", "b5", "b6", "b7")
    assert track(SHIFTAGO, "nb").name == "Nb" and track(SHIFTAGO, "nb").path[0] == "b7"
    with pytest.raises(BadNotation, match="not a track: the tracks are"):
        track(SHIFTAGO, "X1")
    with pytest.raises(BadNotation, match="this board has none"):
        track(DUPLOLINE, "W3")


def test_a_marble_pushed_in_slides_the_run_into_the_first_gap() -> None:
    layout = {"a1": "p0", "b1": "p1", "d1": "p0"}
    changes = insert(SHIFTAGO, layout, "W1", "p1")
    assert changes[0] == Change("W1", PULSE)
    assert apply_changes(layout, changes) == {"a1": "p1", "b1": "p0", "c1": "p1", "d1": "p0"}
    # the front marble moves first: the gap fills before the edge cell changes
    assert changes[1] == Change("c1", "p1")


def test_a_full_track_takes_no_marble() -> None:
    full = {f"{c}4": "p0" for c in "abcdefg"}
    with pytest.raises(BadNotation, match="track E4 is full: the piece will not go in"):
        insert(SHIFTAGO, full, "E4", "p1")


def test_duploline_pieces_share_a_cell_disc_first() -> None:
    layout = {"d4": "white-disc", "e4": "black-ring"}
    after = apply_changes(layout, move(DUPLOLINE, layout, "d4", "e4"))
    assert after == {"e4": "white-disc+black-ring"}
    assert apply_changes(after, lift(DUPLOLINE, after, "e4", "disc")) == {"e4": "black-ring"}
    assert place(DUPLOLINE, {}, "a1", "white-ring") == [Change("a1", "white-ring")]
    with pytest.raises(BadNotation, match="locked together"):
        move(DUPLOLINE, after, "e4", "d4")
    with pytest.raises(BadNotation, match="nothing on c3"):
        lift(DUPLOLINE, layout, "c3")


def test_a_part_is_named_by_its_code_its_name_or_a_word_of_it() -> None:
    pair = {"d4": "black-disc+white-ring"}
    for word in ("white-ring", "ring", "White"):
        assert lift(DUPLOLINE, pair, "d4", word) == [Change("d4", "black-disc")]
    assert place(DUPLOLINE, {"d4": "white-ring"}, "d4", "black-disc") == [
        Change("d4", "black-disc+white-ring")
    ]
    with pytest.raises(BadNotation, match="no lid on d4 to lift: the parts on d4 are"):
        lift(DUPLOLINE, pair, "d4", "lid")
    with pytest.raises(BadNotation, match="cannot share a site"):
        place(SHIFTAGO, {"d4": "p0"}, "d4", "p1")


def test_commands_are_read_like_a_shell_line() -> None:
    assert HandCommand.parse("place d4 white-disc") == HandCommand("place", ("d4", "white-disc"))
    with pytest.raises(BadNotation, match="type a command"):
        HandCommand.parse("   ")
