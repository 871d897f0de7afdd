"""The simulated board turns what hands do into the readings real sensors give."""

import pytest

from boardctl.engines import create
from boardctl.errors import BadNotation
from boardctl.sim.board import (
    Write,
    parse_piece,
    plan,
    undo_changes,
    values_of,
    writes_for,
)
from boardctl.sim.hands import PULSE, Change, HandCommand, apply_changes
from hardware.profiles import load_profile


def _plan(profile_name: str, text: str, layout: dict[str, str], mover: int | None = 0):
    profile = load_profile(profile_name)
    spec = create(profile.game, profile.game_options).board()
    return profile, plan(profile, spec, HandCommand.parse(text), layout, mover)


def test_insert_uses_the_movers_marble_and_the_colour_sensors_codes() -> None:
    profile, changes = _plan("shiftago-colour", "insert W1", {}, mover=1)
    assert changes == [Change("W1", PULSE), Change("a1", "p1")]
    # the colour board has no light gates: the pulse reaches no sensor
    assert writes_for(profile, changes[0]) == []
    assert writes_for(profile, changes[1]) == [Write(0, 3)]  # a red marble reads 3


def test_a_named_colour_overrides_the_mover() -> None:
    _, changes = _plan("shiftago-colour", "insert Sb red", {}, mover=0)
    assert changes[-1] == Change("b1", "p1")
    spec = create("shiftago").board()
    assert parse_piece(spec, "Blue", None) == "p0"
    assert parse_piece(spec, "red marble", None) == "p1"
    with pytest.raises(BadNotation, match="not a piece of this game: write blue, red"):
        parse_piece(spec, "purple", 0)


def test_light_gates_pulse_and_presence_cells_read_one() -> None:
    profile, changes = _plan("shiftago-presence", "insert W1", {"a1": "p0"}, mover=1)
    assert writes_for(profile, changes[0]) == [Write(76, 1), Write(76, 0)]
    assert [w for c in changes[1:] for w in writes_for(profile, c)] == [Write(1, 1), Write(0, 1)]


def test_remove_takes_each_marble_off() -> None:
    layout = {"a1": "p0", "b1": "p0", "c1": "p0"}
    _, changes = _plan("shiftago-colour", "remove b1 c1", layout)
    assert apply_changes(layout, changes) == {"a1": "p0"}
    with pytest.raises(BadNotation, match="nothing on d1"):
        _plan("shiftago-colour", "remove d1", layout)


def test_every_duploline_piece_can_be_placed_and_read_on_the_reference_board() -> None:
    profile = load_profile("duploline")
    for piece in ("white-ring", "black-disc", "black-disc+white-ring"):
        spec = create("duploline").board()
        changes = plan(profile, spec, HandCommand.parse(f"place d4 {piece}"), {}, 0)
        layout = apply_changes({}, changes)
        value = values_of(profile, layout)[profile.site("d4").channel or 0]
        assert profile.sensed_piece("d4", value) == piece


def test_moving_a_ring_onto_a_disc_makes_a_locked_pair() -> None:
    layout = {"a2": "black-ring", "a3": "white-disc"}
    _, changes = _plan("duploline", "move a2 a3", layout)
    assert apply_changes(layout, changes) == {"a3": "white-disc+black-ring"}


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("insert d4", "not a track"),
        ("place z9 p0", "no cell 'z9'"),
        ("place W1 p0", "no cell 'W1'"),
        ("place d4", "write place CELL PIECE"),
        ("lift d4 lid", "nothing on d4"),
        ("dance d4", "unknown hand 'dance'"),
    ],
)
def test_bad_hand_commands_say_what_to_write(text: str, words: str) -> None:
    with pytest.raises(BadNotation, match=words):
        _plan("shiftago-colour", text, {})


def test_a_hand_can_take_its_action_back() -> None:
    layout = {"a1": "p0", "b1": "p1"}
    _, changes = _plan("shiftago-colour", "insert W1", layout, mover=1)
    after = apply_changes(layout, changes)
    assert apply_changes(after, undo_changes(layout, changes)) == layout


def test_nothing_is_put_on_a_display() -> None:
    with pytest.raises(BadNotation, match="die-c is a display"):
        _plan("linie1", "place die-c 1E", {})
