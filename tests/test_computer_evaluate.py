"""The games' evaluations: values a player would agree with, for every game."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from computer_support import (
    DUPLOLINE_THREAT,
    DUPLOLINE_WIN,
    SHIFTAGO_THREAT,
    SHIFTAGO_WIN,
    play_randomly,
    shiftago_position,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from tiny_games import TinyDice

from boardctl.computer import level, think
from boardctl.engines import CHANCE, GAMES, create
from boardctl.engines.playing import score_shares, shares, terminal_values
from boardctl.engines.shiftago import ShiftagoState

#: the games with an evaluation of their own
EVALUATED = [
    ("shiftago", {}),
    ("shiftago", {"variant": "expert"}),
    ("shiftago", {"players": 3}),
    ("shiftago", {"players": 4, "variant": "expert"}),
    ("duploline", {}),
    ("duploline", {"locked_pieces_count": False}),
    ("bidiline", {}),
    ("bidiline", {"n": 4}),
]


@pytest.mark.parametrize(("game", "options"), EVALUATED, ids=str)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), length=st.integers(0, 80))
def test_values_are_shares_and_a_finished_game_is_its_outcome(
    game: str, options: dict[str, Any], seed: int, length: int
) -> None:
    engine = create(game, options)
    state = play_randomly(engine, random.Random(seed), length)
    values = engine.evaluate(state)
    assert len(values) == engine.players
    outcome = engine.outcome(state)
    if outcome.over:
        assert values == terminal_values(engine.players, outcome.winner)
    else:
        assert all(0.0 < v < 1.0 for v in values), "only a finished game is certain"
        assert sum(values) == pytest.approx(1.0)


@pytest.mark.parametrize("game", GAMES)
def test_every_game_gets_an_opponent_from_its_evaluation_or_the_default(game: str) -> None:
    engine = create(game)
    rng = random.Random(1)
    for length in (0, 7, 30):
        state = play_randomly(engine, rng, length)
        while engine.actor(state) is CHANCE:
            state = engine.apply(state, engine.chance_outcomes(state)[0][0])
        if engine.actor(state) is None:
            continue
        values = engine.evaluate(state)
        assert len(values) == engine.players and all(0.0 <= v <= 1.0 for v in values)
        action = think(engine, state, level(1), rng).action
        assert engine.why_illegal(state, action) is None


def test_the_default_knows_the_outcome_the_points_and_nothing_else() -> None:
    engine = TinyDice()
    state = engine.initial()
    assert engine.evaluate(state) == (0.5, 0.5)
    assert terminal_values(3, 1) == (0.0, 1.0, 0.0)
    assert terminal_values(4, None) == (0.25,) * 4
    assert score_shares((3, 3)) == (0.5, 0.5)
    ahead = score_shares((5, 2, 2))
    assert ahead[0] > ahead[1] == ahead[2] and sum(ahead) == pytest.approx(1.0)
    assert shares((1.0, 1.0), 2.0) == (0.5, 0.5)
    assert shares((10.0, 0.0), 10.0)[0] == pytest.approx(2.718281828 / 3.718281828)
    assert 0.0 < shares((1e9, 0.0), 1.0)[1] < shares((1e9, 0.0), 1.0)[0] < 1.0


def _swap_shiftago(state: ShiftagoState) -> ShiftagoState:
    return dataclasses.replace(
        state,
        boards=state.boards[::-1],
        supply=state.supply[::-1],
        scores=state.scores[::-1],
        mover=1 - state.mover,
    )


@pytest.mark.parametrize("variant", ["express", "expert"])
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), length=st.integers(1, 40))
def test_shiftago_values_do_not_depend_on_the_colour(variant: str, seed: int, length: int) -> None:
    engine = create("shiftago", variant=variant)
    state = play_randomly(engine, random.Random(seed), length)
    if engine.actor(state) is None:
        return
    assert engine.evaluate(_swap_shiftago(state)) == pytest.approx(engine.evaluate(state)[::-1])


def test_shiftago_four_in_a_row_with_room_is_worth_more_than_scattered_marbles() -> None:
    engine = create("shiftago")
    scattered = shiftago_position(("a1", "c3", "e5", "g1"), ("g7", "f6", "c5", "g3"), 0)
    assert engine.evaluate(SHIFTAGO_WIN)[0] > 0.8 > engine.evaluate(scattered)[0]
    assert engine.evaluate(SHIFTAGO_THREAT)[1] > 0.5, "red's four in a row counts for red"
    assert (
        engine.evaluate(dataclasses.replace(SHIFTAGO_WIN, mover=1))[0]
        < engine.evaluate(SHIFTAGO_WIN)[0]
    ), "a line in reach counts most for the player who acts next"


def test_shiftago_expert_points_count() -> None:
    engine = create("shiftago", variant="expert")
    state = shiftago_position(("a1", "c3"), ("g7", "f6"), 0)
    level_scores = engine.evaluate(state)
    ahead = engine.evaluate(dataclasses.replace(state, scores=(5, 0)))
    assert ahead[0] > level_scores[0] + 0.3


def _swap_duploline(state: Any) -> Any:
    h = state.hand
    return dataclasses.replace(
        state,
        discs=state.discs[::-1],
        rings=state.rings[::-1],
        hand=(h[2], h[3], h[0], h[1]),
        player=1 - state.player,
    )


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), length=st.integers(1, 60))
def test_duploline_values_do_not_depend_on_the_colour(seed: int, length: int) -> None:
    engine = create("duploline")
    state = play_randomly(engine, random.Random(seed), length)
    if engine.actor(state) is None:
        return
    assert engine.evaluate(_swap_duploline(state)) == pytest.approx(engine.evaluate(state)[::-1])


def test_duploline_a_three_with_room_counts() -> None:
    engine = create("duploline")
    assert engine.evaluate(DUPLOLINE_WIN)[0] > 0.8
    assert engine.evaluate(DUPLOLINE_THREAT)[1] > 0.5
    assert (
        engine.evaluate(dataclasses.replace(DUPLOLINE_WIN, player=1))[0]
        < engine.evaluate(DUPLOLINE_WIN)[0]
    ), "a three counts most for the player who may close it now"


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), length=st.integers(2, 40))
def test_bidiline_a_lead_of_two_segments_is_ahead(seed: int, length: int) -> None:
    engine = create("bidiline")
    state = play_randomly(engine, random.Random(seed), length)
    if engine.actor(state) is None:
        return
    amber, blue = engine.scores(state) or (0, 0)
    values = engine.evaluate(state)
    if amber >= blue + 2:
        assert values[0] > 0.5
    elif blue >= amber + 2:
        assert values[1] > 0.5
