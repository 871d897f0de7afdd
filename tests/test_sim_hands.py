"""Hands on the simulated board change it the way they would change a real one."""

import pytest

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
    track_cells,
)


def test_tracks_run_from_their_edge() -> None:
    assert track_cells("W3") == ("a3", "b3", "c3", "d3", "e3", "f3", "g3")
    assert track_cells("E3")[0] == "g3"
    assert track_cells("Sb") == ("b1", "b2", "b3", "b4", "b5", "b6", "b7")
    assert track_cells("nb")[0] == "b7"
    with pytest.raises(BadNotation, match="not a track"):
        track_cells("X1")


def test_a_marble_pushed_in_slides_the_run_into_the_first_gap() -> None:
    layout = {"a1": "p0", "b1": "p1", "d1": "p0"}
    changes = insert(layout, "W1", "p1")
    assert changes[0] == Change("W1", PULSE)
    assert apply_changes(layout, changes) == {"a1": "p1", "b1": "p0", "c1": "p1", "d1": "p0"}
    # the front marble moves first: the gap fills before the edge cell changes
    assert changes[1] == Change("c1", "p1")


def test_a_full_track_takes_no_marble() -> None:
    full = {f"{c}4": "p0" for c in "abcdefg"}
    with pytest.raises(BadNotation, match="track E4 is full"):
        insert(full, "E4", "p1")


def test_duploline_pieces_share_a_cell_disc_first() -> None:
    layout = {"d4": "white-disc", "e4": "black-ring"}
    after = apply_changes(layout, move(layout, "d4", "e4"))
    assert after == {"e4": "white-disc+black-ring"}
    assert apply_changes(after, lift(after, "e4", "disc")) == {"e4": "black-ring"}
    assert place({}, "a1", "white-ring") == [Change("a1", "white-ring")]
    with pytest.raises(BadNotation, match="locked together"):
        move(after, "e4", "d4")
    with pytest.raises(BadNotation, match="nothing on c3"):
        lift(layout, "c3")


def test_commands_are_read_like_a_shell_line() -> None:
    assert HandCommand.parse("place d4 white-disc") == HandCommand("place", ("d4", "white-disc"))
    with pytest.raises(BadNotation, match="type a command"):
        HandCommand.parse("   ")
