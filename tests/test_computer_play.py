"""The computer opponent as a player notices it: it always makes a legal move,
the same one again for the same seed, another when asked, its whole turn,
and it sees wins and threats one move away."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from computer_support import (
    DUPLOLINE_THREAT,
    DUPLOLINE_WIN,
    QUICK,
    SHIFTAGO_THREAT,
    SHIFTAGO_WIN,
    bidiline_position_with_a_win,
    play_randomly,
    to_a_player,
    winning_actions,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from tiny_games import TinyDice

from boardctl.computer import LEVELS, Level, level, plan_turn, think
from boardctl.engines import CHANCE, create
from boardctl.errors import NotThinking, UnknownLevel

#: the games searched in depth here: (game, options)
SEARCHED = [
    ("shiftago", {}),
    ("shiftago", {"variant": "expert"}),
    ("shiftago", {"players": 3}),
    ("shiftago", {"players": 4, "variant": "expert"}),
    ("duploline", {}),
    ("bidiline", {}),
    ("beeline", {}),
]


@pytest.mark.parametrize(("game", "options"), SEARCHED, ids=lambda v: str(v))
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32), length=st.integers(0, 60))
def test_the_computer_always_plays_a_legal_whole_turn(
    game: str, options: dict[str, Any], seed: int, length: int
) -> None:
    engine = create(game, options)
    rng = random.Random(seed)
    state = play_randomly(engine, rng, length)
    if engine.actor(state) is None:
        return
    seat = engine.actor(state)
    turn = plan_turn(engine, state, QUICK, rng)
    assert turn, "a turn has at least one action"
    for action in turn:
        assert engine.actor(state) == seat, "the turn ends when another player acts"
        assert engine.why_illegal(state, action) is None
        state = engine.apply(state, action)
    assert engine.actor(state) != seat, "the turn goes on while the same player acts"


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), length=st.integers(0, 10))
def test_the_computer_plays_through_a_die(seed: int, length: int) -> None:
    engine = TinyDice()
    rng = random.Random(seed)
    state = to_a_player(engine, play_randomly(engine, rng, length), rng)
    if engine.actor(state) is None:
        return
    for lv in (LEVELS[0], QUICK, LEVELS[2]):
        action = think(engine, state, lv, rng).action
        assert engine.why_illegal(state, action) is None


def test_a_game_with_a_die_is_played_to_its_end() -> None:
    engine = TinyDice()
    rng = random.Random(4)
    state = engine.initial()
    while (actor := engine.actor(state)) is not None:
        if actor is CHANCE:
            with pytest.raises(NotThinking, match="chance acts"):
                think(engine, state, QUICK, rng)
            outcomes = engine.chance_outcomes(state)
            state = engine.apply(state, outcomes[rng.randrange(len(outcomes))][0])
        else:
            state = engine.apply(state, think(engine, state, LEVELS[2], rng).action)
    with pytest.raises(NotThinking, match="over"):
        think(engine, state, QUICK, rng)
    with pytest.raises(ValueError):
        plan_turn(engine, state, QUICK, rng)


@pytest.mark.parametrize("number", [1, 3, 5])
def test_the_same_seed_gives_the_same_choice(number: int) -> None:
    engine = create("shiftago")
    state = play_randomly(engine, random.Random(7), 12)
    first = think(engine, state, level(number), random.Random(11))
    again = think(engine, state, level(number), random.Random(11))
    assert first == again


def test_the_same_seed_plays_the_same_game() -> None:
    engine = create("duploline")

    def game(seed: int) -> list[Any]:
        rngs = [random.Random(seed), random.Random(seed + 1)]
        state = engine.initial()
        moves = []
        for _ in range(12):
            if engine.actor(state) is None:
                break
            action = think(engine, state, level(2), rngs[engine.actor(state)]).action
            moves.append(action)
            state = engine.apply(state, action)
        return moves

    assert game(3) == game(3)


def test_another_seed_may_choose_another_of_equal_moves() -> None:
    """On the empty board every insertion is as good as its mirror images:
    the seed picks among them."""
    engine = create("shiftago")
    chosen = {think(engine, engine.initial(), level(2), random.Random(s)).action for s in range(12)}
    assert len(chosen) > 1


@pytest.mark.parametrize("number", [1, 2, 3, 4, 5])
@pytest.mark.parametrize(
    ("game", "state"),
    [("shiftago", SHIFTAGO_WIN), ("duploline", DUPLOLINE_WIN), ("bidiline", None)],
)
def test_every_level_takes_a_win_in_one(game: str, state: Any, number: int) -> None:
    engine = create(game)
    if state is None:
        state = bidiline_position_with_a_win()
    thought = think(engine, state, level(number), random.Random(number))
    assert thought.action in winning_actions(engine, state)
    assert thought.value == 1.0, "a win in one is certain"


@pytest.mark.parametrize("number", [3, 4, 5])
def test_from_level_3_a_line_one_marble_short_is_blocked(number: int) -> None:
    engine = create("shiftago")
    threat = dataclasses.replace(SHIFTAGO_THREAT, mover=1)
    assert winning_actions(engine, threat), "red could win next move"
    after = engine.apply(
        SHIFTAGO_THREAT, think(engine, SHIFTAGO_THREAT, level(number), random.Random(1)).action
    )
    assert not winning_actions(engine, after), engine.render(after)


@pytest.mark.parametrize("number", [3, 4, 5])
def test_from_level_3_a_three_of_discs_is_closed(number: int) -> None:
    engine = create("duploline")
    threat = dataclasses.replace(DUPLOLINE_THREAT, player=1)
    assert winning_actions(engine, threat), "black could win next turn"
    state = DUPLOLINE_THREAT
    for action in plan_turn(engine, state, level(number), random.Random(1)):
        state = engine.apply(state, action)
    assert engine.actor(state) == 1
    assert not winning_actions(engine, state), engine.render(state)


def test_plan_turn_gives_both_actions_of_a_duploline_turn() -> None:
    engine = create("duploline")
    state = play_randomly(engine, random.Random(2), 9)
    assert engine.expects(state) == "disc-or-ring"
    turn = plan_turn(engine, state, level(3), random.Random(5))
    assert len(turn) == 2
    assert {a.kind for a in turn} == {
        engine.parse_action("D+a1").kind,
        engine.parse_action("R+a1").kind,
    }
    after = state
    for action in turn:
        after = engine.apply(after, action)
    assert engine.actor(after) == 1 - engine.actor(state)


def test_plan_turn_scores_the_line_it_makes_and_inserts_again() -> None:
    engine = create("shiftago", variant="expert")
    state = dataclasses.replace(SHIFTAGO_WIN)
    turn = plan_turn(engine, state, level(3), random.Random(2))
    texts = [engine.format_action(a) for a in turn]
    assert texts[0] in ("W1", "Se") and texts[1].startswith("x:"), texts
    assert len(turn) == 3, "after scoring, the same player inserts again"
    for action in turn:
        state = engine.apply(state, action)
    assert state.scores == (2, 0) and engine.actor(state) == 1


def test_exclude_gives_another_legal_action_and_all_excluded_starts_again() -> None:
    engine = create("shiftago")
    state = play_randomly(engine, random.Random(3), 10)
    first = think(engine, state, level(3), random.Random(1)).action
    second = think(engine, state, level(3), random.Random(1), exclude=[first]).action
    assert second != first
    assert engine.why_illegal(state, second) is None
    third = think(engine, state, level(3), random.Random(1), exclude=[first, second]).action
    assert third not in (first, second)
    every = list(engine.legal_actions(state))
    assert think(engine, state, level(3), random.Random(1), exclude=every).action == first


def test_exclude_applies_to_the_first_action_of_a_turn_only() -> None:
    engine = create("duploline")
    state = play_randomly(engine, random.Random(2), 9)
    turn = plan_turn(engine, state, level(2), random.Random(5))
    other = plan_turn(engine, state, level(2), random.Random(5), exclude=[turn[0]])
    assert other[0] != turn[0]
    assert len(other) == 2


def test_stop_cuts_the_thinking_short_with_a_legal_action() -> None:
    engine = create("shiftago")
    state = play_randomly(engine, random.Random(3), 10)
    asked = []

    def stop() -> bool:
        asked.append(True)
        return True

    thought = think(engine, state, level(5), random.Random(1), stop=stop)
    assert asked and thought.iterations <= 8
    assert engine.why_illegal(state, thought.action) is None


def test_the_budget_bounds_the_positions_looked_at() -> None:
    """The tree, and so the memory, grows no further than the budget plus
    one position's actions."""
    engine = create("shiftago")
    counted = []

    class Counting(type(engine)):  # type: ignore[misc]
        def evaluate(self, state: Any) -> tuple[float, ...]:
            counted.append(state)
            return super().evaluate(state)

    spy = Counting(engine.options)
    state = play_randomly(spy, random.Random(3), 10)
    small = Level(0, "small", 700, 0.5, "")
    think(spy, state, small, random.Random(1))
    assert 700 <= len(counted) <= 700 + 28


def test_levels_are_numbered_1_to_5_and_others_are_refused() -> None:
    assert [lv.number for lv in LEVELS] == [1, 2, 3, 4, 5]
    assert all(level(n) is LEVELS[n - 1] for n in range(1, 6))
    budgets = [lv.positions for lv in LEVELS]
    assert budgets == sorted(budgets) and len(set(budgets)) == 5
    for bad in (0, 6, -1, "3", True, 2.0):
        with pytest.raises(UnknownLevel, match="1 to 5") as caught:
            level(bad)  # type: ignore[arg-type]
        assert isinstance(caught.value, ValueError)


def _beeline_position(forced: bool) -> Any:
    """A Beeline position from random play with one legal action
    (``forced``), or with many."""
    engine = create("beeline")
    rng = random.Random(4)
    while True:
        state = play_randomly(engine, rng, rng.randrange(1, 30))
        if engine.actor(state) is None:
            continue
        count = len(list(engine.legal_actions(state)))
        if (count == 1) == forced and (forced or count > 100):
            return engine, state


def test_an_obvious_move_is_played_without_thinking() -> None:
    engine, state = _beeline_position(forced=True)
    thought = think(engine, state, level(5), random.Random(1))
    assert thought.iterations == 0
    assert [thought.action] == list(engine.legal_actions(state))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), length=st.integers(0, 60))
def test_beeline_weighs_every_piece_that_wins_at_once_and_every_mark(
    seed: int, length: int
) -> None:
    from boardctl.engines.beeline.values import Node

    engine = create("beeline")
    state = play_randomly(engine, random.Random(seed), length)
    if engine.actor(state) is None:
        return
    legal = list(engine.legal_actions(state))
    weighed = engine.considered(state)
    if weighed is None:
        return
    assert weighed and set(weighed) < set(legal)
    for action in legal:
        wins = engine.outcome(engine.apply(state, action)).winner == engine.actor(state)
        if wins or not isinstance(action, Node):
            assert action in weighed, engine.format_action(action)


def test_beeline_another_move_beyond_the_pieces_weighed_is_still_legal() -> None:
    engine, state = _beeline_position(forced=False)
    weighed = engine.considered(state)
    assert weighed is not None
    other = think(engine, state, level(2), random.Random(1), exclude=weighed).action
    assert other not in weighed and engine.why_illegal(state, other) is None
