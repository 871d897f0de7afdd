"""Invariants of the Bidirectional Line Game over random games on every grid size
(hypothesis picks the size and the seed)."""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardctl.engines import Match, create
from boardctl.engines.base import Engine
from boardctl.engines.bidiline import BidiLine, Colour, Extend, State
from boardctl.errors import BadNotation


@cache
def _engine(n: int) -> BidiLine:
    engine = create("bidiline", n=n)
    assert isinstance(engine, BidiLine)
    return engine


def _playout(n: int, seed: int, limit: int | None = None) -> Match[State, Extend]:
    engine = _engine(n)
    rng = random.Random(seed)
    match: Match[State, Extend] = Match(engine)
    while not match.outcome().over and (limit is None or len(match.actions) < limit):
        match.play(rng.choice(list(match.legal_actions())))
    return match


@cache
def _notation_space(n: int) -> tuple[Extend, ...]:
    """Every move the notation can write on the n x n grid: each colour, each
    point and each neighbour of it (other pairs of points do not parse)."""
    engine = _engine(n)
    grid = engine.grid
    found = []
    for colour in "AB":
        for p, src in enumerate(grid.points):
            for q, dst in enumerate(grid.points):
                text = f"{colour}:{src}-{dst}"
                if grid.between(p, q) is None:
                    with pytest.raises(BadNotation):
                        engine.parse_action(text)
                else:
                    found.append(engine.parse_action(text))
    return tuple(found)


sizes = st.integers(min_value=2, max_value=8)
seeds = st.integers(min_value=0, max_value=2**32)


@settings(max_examples=60, deadline=None)
@given(sizes, seeds)
def test_listed_moves_are_legal_and_apply(n: int, seed: int) -> None:
    engine = _engine(n)
    match = _playout(n, seed)
    for state in match.states[:-1]:
        listed = list(engine.legal_actions(state))
        assert listed and len(listed) == len(set(listed))
        for action in listed:
            assert engine.why_illegal(state, action) is None
            assert engine.apply(state, action) == engine.apply_unchecked(state, action)


@settings(max_examples=60, deadline=None)
@given(sizes, seeds)
def test_each_move_draws_one_new_segment_in_the_colour_of_its_end(n: int, seed: int) -> None:
    engine = _engine(n)
    match = _playout(n, seed)
    for before, action, after in zip(match.states, match.actions, match.states[1:], strict=False):
        old, new = engine.layout(before), engine.layout(after)
        assert old.items() <= new.items(), "a drawn segment never changes or goes"
        added = set(new) - set(old)
        assert added == engine.touches(before, action)
        assert len(added) == 1
        site = added.pop()
        assert new[site] == action.colour.value
        assert set(engine.board().site(site).ends) == {action.src, action.dst}
        assert after.moves == before.moves + 1 == len(new)
        end = after.end_a if action.colour is Colour.A else after.end_b
        assert engine.grid.points[end] == action.dst


@settings(max_examples=60, deadline=None)
@given(sizes, seeds)
def test_the_game_ends_when_an_end_is_stuck_and_scores_decide(n: int, seed: int) -> None:
    engine = _engine(n)
    match = _playout(n, seed)
    assert len(match.actions) <= 2 * n * (n - 1)
    state = match.state
    outcome = engine.outcome(state)
    assert outcome.over and outcome.reason
    assert engine.to_move(state) is None and engine.expects(state) == "nothing"
    assert list(engine.legal_actions(state)) == []
    free = ~state.drawn
    stuck = [not engine.grid.incident[p] & free for p in (state.end_a, state.end_b)]
    assert any(stuck)
    for earlier in match.states[1:-1]:
        assert all(engine.grid.incident[p] & ~earlier.drawn for p in (earlier.end_a, earlier.end_b))
    a, b = engine.scores(state) or (0, 0)
    assert a + b == len(match.actions)
    assert outcome.winner == (0 if a > b else 1 if b > a else None)
    winning = engine.winning_sites(state)
    if outcome.winner is None:
        assert winning == frozenset()
    else:
        colour = "AB"[outcome.winner]
        assert winning == {s for s, c in engine.layout(state).items() if c == colour}


@settings(max_examples=60, deadline=None)
@given(sizes, seeds)
def test_json_notation_and_undo_round_trip(n: int, seed: int) -> None:
    engine = _engine(n)
    match = _playout(n, seed)
    for state in match.states:
        assert engine.state_from_json(engine.state_to_json(state)) == state
    for action in match.actions:
        text = engine.format_action(action)
        assert engine.parse_action(text) == action
        assert engine.format_action(engine.parse_action(text)) == text
    assert Match.from_moves(engine, match.moves_text()).state == match.state
    before = list(match.states)
    while match.actions:
        match.undo()
        assert match.state == before[len(match.actions)]
        assert hash(match.state) == hash(before[len(match.actions)])


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=2, max_value=4), seeds, st.integers(min_value=0, max_value=30))
def test_legal_moves_are_exactly_those_the_rules_accept(n: int, seed: int, cut: int) -> None:
    engine = _engine(n)
    state = _playout(n, seed, limit=cut).state
    listed = set(engine.legal_actions(state))
    accepted = {a for a in _notation_space(n) if engine.why_illegal(state, a) is None}
    assert listed == accepted
    for action in _notation_space(n):
        if action not in accepted:
            assert engine.why_illegal(state, action)


@pytest.mark.parametrize("n", [2, 3, 7])
def test_the_notation_space_is_every_segment_both_ways_in_both_colours(n: int) -> None:
    engine: Engine[State, Extend] = _engine(n)
    space = _notation_space(n)
    assert len(space) == len(set(space)) == 2 * 2 * 2 * n * (n - 1)
    assert len(list(engine.legal_actions(engine.initial()))) == 2 * 2 * n * (n - 1)
