"""Invariants of Shiftago over random games, in every variant and player count."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from boardctl.engines import Match, create
from boardctl.engines.shiftago import (
    CELLS,
    MARBLES,
    TRACK_NAMES,
    Action,
    Insert,
    Score,
    Shiftago,
    ShiftagoState,
)

CONFIGS: list[dict[str, Any]] = [
    {},
    {"variant": "expert"},
    {"players": 3},
    {"players": 3, "variant": "expert"},
    {"players": 4},
    {"players": 4, "variant": "expert", "handicap_turns": 3, "handicap_player": 2},
    {"variant": "expert", "handicap_turns": 6, "handicap_player": 1},
]

#: every action the notation can write: the 28 tracks, and each pair of cells
#: with no kept end or either end kept
NOTATION_SPACE: list[Action] = [Insert(t) for t in range(len(TRACK_NAMES))] + [
    Score(a, b, keep) for a in range(CELLS) for b in range(a + 1, CELLS) for keep in (None, a, b)
]


def _engine(options: dict[str, Any]) -> Shiftago:
    engine = create("shiftago", options)
    assert isinstance(engine, Shiftago)
    return engine


def _playout(engine: Shiftago, seed: int) -> Match[ShiftagoState, Action]:
    rng = random.Random(seed)
    match: Match[ShiftagoState, Action] = Match(engine)
    while not match.outcome().over:
        match.play(rng.choice(list(match.legal_actions())))
    return match


games = st.tuples(st.sampled_from(CONFIGS), st.integers(0, 2**32))


@settings(max_examples=60, deadline=None)
@given(games)
def test_marbles_are_conserved_and_never_share_a_cell(game: tuple[dict[str, Any], int]) -> None:
    engine = _engine(game[0])
    for state in _playout(engine, game[1]).states:
        occupied = 0
        for p, board in enumerate(state.boards):
            assert board.bit_count() + state.supply[p] == MARBLES
            assert occupied & board == 0
            occupied |= board
        assert len(engine.layout(state)) == occupied.bit_count()


@settings(max_examples=60, deadline=None)
@given(games)
def test_each_step_follows_the_turn_rules(game: tuple[dict[str, Any], int]) -> None:
    engine = _engine(game[0])
    match = _playout(engine, game[1])
    for before, action, after in zip(
        match.states[:-1], match.actions, match.states[1:], strict=True
    ):
        mover = engine.to_move(before)
        assert mover is not None
        if isinstance(action, Insert):
            assert engine.expects(before) == "insert"
            assert after.supply[mover] == before.supply[mover] - 1
            assert after.scores == before.scores
        else:
            assert engine.expects(before) == "score"
            # the scorer gains points, gets marbles back and inserts again
            assert after.scores[mover] > before.scores[mover]
            assert after.supply[mover] > before.supply[mover]
            assert engine.to_move(after) in (mover, None)
        # scores only grow
        assert all(a >= b for a, b in zip(after.scores, before.scores, strict=True))
    final = match.state
    assert engine.outcome(final).over
    assert engine.to_move(final) is None and engine.expects(final) == "nothing"
    assert list(engine.legal_actions(final)) == []


@settings(max_examples=40, deadline=None)
@given(games)
def test_listed_actions_apply_and_round_trip(game: tuple[dict[str, Any], int]) -> None:
    engine = _engine(game[0])
    for state in _playout(engine, game[1]).states:
        for action in engine.legal_actions(state):
            assert engine.why_illegal(state, action) is None
            assert engine.apply(state, action) == engine.apply_unchecked(state, action)
            text = engine.format_action(action)
            assert engine.parse_action(text) == action
            assert engine.format_action(engine.parse_action(text)) == text
        data = engine.state_to_json(state)
        restored = engine.state_from_json(json.loads(json.dumps(data)))
        assert restored == state and hash(restored) == hash(state)


@settings(max_examples=12, deadline=None)
@given(games)
def test_listed_actions_are_exactly_the_legal_ones(game: tuple[dict[str, Any], int]) -> None:
    engine = _engine(game[0])
    states = _playout(engine, game[1]).states
    # every scoring state, and a few others along the game
    sample = [s for i, s in enumerate(states) if engine.expects(s) == "score" or i % 9 == 0]
    for state in [*sample, states[-1]]:
        listed = set(engine.legal_actions(state))
        legal = {a for a in NOTATION_SPACE if engine.is_legal(state, a)}
        assert listed == legal


@settings(max_examples=30, deadline=None)
@given(games)
def test_undo_restores_the_exact_state(game: tuple[dict[str, Any], int]) -> None:
    engine = _engine(game[0])
    match = _playout(engine, game[1])
    seen = [engine.state_to_json(s) for s in match.states]
    actions = list(match.actions)
    while match.actions:
        n = len(match.actions)
        undone = match.undo()
        assert undone == actions[n - 1]
        assert engine.state_to_json(match.state) == seen[n - 1]
        # replaying the undone action lands on the same state again
        assert engine.state_to_json(engine.apply(match.state, undone)) == seen[n]
    assert match.state == engine.initial()
    replayed = Match.from_moves(engine, [engine.format_action(a) for a in actions])
    assert replayed.states == _playout(engine, game[1]).states
