"""The Bidirectional Line Game reference boards match what the engine declares."""

from __future__ import annotations

import random

import pytest

from boardctl.board import Reports
from boardctl.engines import create
from hardware.profiles import check_profile, load_profile

PROFILES = ["bidiline", "bidiline-presence"]


@pytest.mark.parametrize("name", PROFILES)
def test_the_board_has_every_site_of_the_engine_with_its_kind_and_place(name: str) -> None:
    board = load_profile(name)
    assert check_profile(name) == []
    engine = create(board.game, dict(board.game_options))
    spec = engine.board()
    assert board.game == "bidiline" and engine.options_json() == {"n": 7}
    assert {s.name: s.kind for s in board.sites} == dict(spec.site_kinds)
    for site in board.sites:
        declared = spec.site(site.name)
        assert (site.x, site.y) == (declared.x, declared.y), site.name
        if declared.sensed:
            assert site.reports in (Reports.CODE, Reports.PRESENCE), site.name
        else:
            assert site.reports is Reports.NONE and site.channel is None, site.name
    assert sorted(s.channel for s in board.sites if s.channel is not None) == list(range(84))


@pytest.mark.parametrize("name", PROFILES)
def test_every_point_and_segment_has_its_own_led(name: str) -> None:
    board = load_profile(name)
    leds = [i for s in board.sites for i in s.leds]
    assert all(len(s.leds) == 1 for s in board.sites)
    assert sorted(leds) == list(range(board.leds.count)) == list(range(133))


def test_the_colour_board_reads_each_stick_the_game_lays_as_the_engines_code() -> None:
    board = load_profile("bidiline")
    engine = create("bidiline")
    assert set(board.codes.values()) == engine.board().codes == {"A", "B"}
    assert board.sensed_piece("c3-c4", 2) == "A" and board.sensed_piece("c3-c4", 3) == "B"
    assert board.sensed_piece("c3-c4", 4) == "?4", "a stick of another colour is a mistake"
    rng = random.Random(7)
    for _ in range(20):
        state = engine.initial()
        while not engine.outcome(state).over:
            state = engine.apply(state, rng.choice(list(engine.legal_actions(state))))
        layout = dict(engine.layout(state))
        assert board.projected_layout(layout) == layout


def test_the_presence_board_sees_a_stick_but_not_its_colour() -> None:
    board = load_profile("bidiline-presence")
    assert not board.codes
    assert {s.reports for s in board.sites if s.kind == "edge"} == {Reports.PRESENCE}
    assert board.sensing == "shift-register" and board.sensing_settings["chips"] == 11
    assert board.projected_layout({"c3-c4": "A", "c4-c5": "B"}) == {
        "c3-c4": "occupied",
        "c4-c5": "occupied",
    }
