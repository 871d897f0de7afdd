"""The reconciler searches from the sites that changed: a game with thousands of
legal actions is read as fast as a small one, and it reads the same turns as
the exhaustive search over every legal action (and every two-action chain)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest
from bigboard_support import CELLS, BigBoard, BigState, Place, big_profile
from controller_support import profile_for
from hypothesis import given, settings
from hypothesis import strategies as st

from boardctl.board import BoardProfile
from boardctl.controller.reconcile import (
    Ambiguous,
    InProgress,
    Played,
    Reconciler,
    Verdict,
    Wrong,
    diff_sites,
)
from boardctl.engines import GAMES, Match, create
from boardctl.engines.base import Engine

PROFILE = big_profile()


class Counting(BigBoard):
    """The big game, counting the actions applied to a state."""

    def __init__(self) -> None:
        super().__init__()
        self.applied = 0

    def apply_unchecked(self, state: BigState, action: Place) -> BigState:
        self.applied += 1
        return super().apply_unchecked(state, action)


def _position(engine: BigBoard, seed: int, tiles: int = 60) -> list[BigState]:
    """The states of a game that has ``tiles`` placements, at a turn's start."""
    rng = random.Random(seed)
    states = [engine.initial()]
    for _ in range(tiles):
        states.append(
            engine.apply_unchecked(states[-1], Place(rng.choice(CODES), rng.choice(CELLS)))
        )
    return states


CODES = tuple(f"t{i:02d}" for i in range(24))


def _sensed(
    engine: Engine[Any, Any], state: Any, profile: BoardProfile = PROFILE
) -> dict[str, str]:
    return profile.projected_layout(engine.layout(state))


def _empty_cells(state: BigState, n: int, seed: int) -> list[str]:
    empty = [c for c, held in zip(CELLS, state.cells, strict=True) if not held]
    return random.Random(seed).sample(empty, n)


@pytest.mark.parametrize("seed", range(4))
def test_a_two_tile_turn_is_read_in_either_order_of_hands(seed: int) -> None:
    engine = BigBoard()
    rec = Reconciler(engine, PROFILE)
    states = _position(engine, seed)
    start = states[-1]
    x, y = _empty_cells(start, 2, seed)
    a, b = Place("t03", x), Place("t17", y)
    done = engine.apply_unchecked(engine.apply_unchecked(start, a), b)
    for first, second in ((a, b), (b, a)):
        # the first tile down: that placement, at once
        half = _sensed(engine, engine.apply_unchecked(start, first))
        quick = rec.reconcile(states, half)
        assert isinstance(quick, Played) and quick.texts == (str(first),)
        # both down before the board settled: the whole turn, in order
        verdict = rec.reconcile(states, _sensed(engine, done), deep=True)
        assert isinstance(verdict, Played)
        assert set(verdict.texts) == {str(a), str(b)}
        assert verdict.path[-1].state == done
        # the first already played: the second alone
        after_first = [*states, engine.apply_unchecked(start, first)]
        rest = rec.reconcile(after_first, _sensed(engine, done), deep=True)
        assert isinstance(rest, Played) and rest.texts == (str(second),)


def test_a_two_tile_turn_applies_a_few_actions_not_every_legal_one() -> None:
    engine = Counting()
    rec = Reconciler(engine, PROFILE)
    states = _position(engine, 7)
    start = states[-1]
    assert sum(1 for _ in engine.legal_actions(start)) > 3000
    x, y = _empty_cells(start, 2, 7)
    done = engine.apply_unchecked(engine.apply_unchecked(start, Place("t01", x)), Place("t02", y))
    engine.applied = 0
    verdict = rec.reconcile(states, _sensed(engine, done), deep=True)
    assert isinstance(verdict, Played)
    assert engine.applied <= 200


def test_a_tile_being_exchanged_is_in_progress() -> None:
    engine = BigBoard()
    rec = Reconciler(engine, PROFILE)
    states = _position(engine, 3)
    start = states[-1]
    held = next(c for c, code in zip(CELLS, start.cells, strict=True) if code)
    sensed = _sensed(engine, start)
    del sensed[held]
    verdict = rec.reconcile(states, sensed, deep=True)
    assert isinstance(verdict, InProgress)
    assert verdict.lifted == {held} and verdict.destinations == {held}
    assert len(verdict.candidates) == 23
    # a tile placed and another being exchanged: the placement is played
    (x,) = _empty_cells(start, 1, 3)
    sensed[x] = "t09"
    verdict = rec.reconcile(states, sensed, deep=True)
    assert isinstance(verdict, Played) and verdict.texts == (f"t09@{x}",)
    assert isinstance(rec.reconcile(states, sensed), Wrong)


def test_three_tiles_in_one_turn_are_wrong() -> None:
    engine = BigBoard()
    rec = Reconciler(engine, PROFILE)
    states = _position(engine, 5)
    start = states[-1]
    cells = _empty_cells(start, 3, 5)
    sensed = _sensed(engine, start)
    for cell in cells:
        sensed[cell] = "t00"
    verdict = rec.reconcile(states, sensed, deep=True)
    assert verdict == Wrong(frozenset(cells), {})


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), budget=st.integers(0, 150))
def test_a_search_out_of_budget_never_plays(seed: int, budget: int) -> None:
    engine = BigBoard()
    states = _position(engine, seed, tiles=random.Random(seed).randrange(0, 100, 2))
    start = states[-1]
    x, y = _empty_cells(start, 2, seed)
    done = engine.apply_unchecked(engine.apply_unchecked(start, Place("t05", x)), Place("t06", y))
    sensed = _sensed(engine, done)
    full = Reconciler(engine, PROFILE).reconcile(states, sensed, deep=True)
    assert isinstance(full, Played)
    tight = Reconciler(engine, PROFILE, budget=budget).reconcile(states, sensed, deep=True)
    assert tight == full or isinstance(tight, InProgress | Wrong)
    if budget < 48:
        # not even the first steps could all be looked at
        assert isinstance(tight, InProgress | Wrong)


# -- the same answers as the exhaustive search -------------------------------------


def _reference(
    engine: Engine[Any, Any], profile: BoardProfile, state: Any, sensed: Mapping[str, str]
) -> list[tuple[Any, ...]]:
    """Every legal action, then every chain of two by the player to act whose
    actions each change a site where ``sensed`` differs from ``state``, that
    leaves exactly ``sensed``."""

    def board(s: Any) -> dict[str, str]:
        return profile.projected_layout(engine.layout(s))

    singles = [(a,) for a in engine.legal_actions(state) if board(engine.apply(state, a)) == sensed]
    if singles:
        return singles
    before = board(state)
    diff = diff_sites(sensed, before)
    mover = engine.to_move(state)
    chains = []
    for a in engine.legal_actions(state):
        s1 = engine.apply(state, a)
        if mover is None or engine.to_move(s1) != mover:
            continue
        if not diff_sites(board(s1), before) & diff:
            continue
        for b in engine.legal_actions(s1):
            s2 = engine.apply(s1, b)
            if board(s2) == sensed and diff_sites(board(s2), board(s1)) & diff:
                chains.append((a, b))
    return chains


def _same_answer(
    engine: Engine[Any, Any], profile: BoardProfile, match: Match[Any, Any], actions: list[Any]
) -> None:
    state = match.state
    for action in actions:
        state = engine.apply(state, action)
    sensed = _sensed(engine, state, profile)
    expected = _reference(engine, profile, match.state, sensed)
    verdict: Verdict = Reconciler(engine, profile).reconcile(match.states, sensed, deep=True)
    if not expected:
        assert not isinstance(verdict, Played | Ambiguous), verdict
        return
    texts = [tuple(engine.format_action(a) for a in path) for path in expected]
    assert tuple(engine.format_action(a) for a in actions) in texts

    def end(path: tuple[Any, ...]) -> Any:
        s = match.state
        for a in path:
            s = engine.apply(s, a)
        return s

    if len({end(p) for p in expected}) == 1:
        assert isinstance(verdict, Played) and verdict.texts == texts[0]
    else:
        assert isinstance(verdict, Ambiguous)
        assert [tuple(o.text for o in p) for p in verdict.candidates] == texts


def _random_match(engine: Engine[Any, Any], rng: random.Random, length: int) -> Match[Any, Any]:
    match: Match[Any, Any] = Match(engine)
    for _ in range(length):
        actions = list(match.legal_actions())
        if not actions:
            break
        match.play(rng.choice(actions))
    # back to the start of a turn
    while len(match.states) > 1 and engine.to_move(match.states[-1]) == engine.to_move(
        match.states[-2]
    ):
        match.undo()
    return match


def _turn(engine: Engine[Any, Any], match: Match[Any, Any], rng: random.Random) -> list[Any]:
    """One random action, or two when the first leaves the same player to act."""
    first = rng.choice(list(match.legal_actions()))
    after = engine.apply(match.state, first)
    if engine.to_move(after) == match.to_move():
        seconds = list(engine.legal_actions(after))
        if seconds:
            return [first, rng.choice(seconds)]
    return [first]


SHIFTAGO = [
    ({"variant": "express"}, False),
    ({"variant": "expert"}, False),
    ({"variant": "expert"}, True),
    ({"players": 3, "variant": "expert"}, False),
]


@pytest.mark.parametrize(("options", "presence"), SHIFTAGO)
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), length=st.integers(0, 60))
def test_shiftago_reads_what_the_exhaustive_search_reads(
    options: dict[str, Any], presence: bool, seed: int, length: int
) -> None:
    engine = create("shiftago", options)
    profile = profile_for(engine, presence=presence)
    rng = random.Random(seed)
    match = _random_match(engine, rng, length)
    if match.outcome().over:
        return
    _same_answer(engine, profile, match, _turn(engine, match, rng))


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), length=st.integers(0, 40), whole=st.booleans())
def test_duploline_reads_what_the_exhaustive_search_reads(
    seed: int, length: int, whole: bool
) -> None:
    engine = create("duploline")
    profile = profile_for(engine)
    rng = random.Random(seed)
    match = _random_match(engine, rng, length)
    if match.outcome().over:
        return
    turn = _turn(engine, match, rng)
    _same_answer(engine, profile, match, turn if whole else turn[:1])


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), length=st.integers(0, 40))
def test_actions_touching_is_legal_actions_filtered_by_touches(
    game: str, seed: int, length: int
) -> None:
    engine = create(game, {"variant": "expert"} if game == "shiftago" else {})
    rng = random.Random(seed)
    match = _random_match(engine, rng, length)
    state = match.state
    legal = list(engine.legal_actions(state))
    for action in legal:
        # an action touches every site whose piece it changes
        before = engine.layout(state)
        after = engine.layout(engine.apply(state, action))
        assert diff_sites(before, after) <= engine.touches(state, action)
    for site in rng.sample(engine.sites(), 6):
        sites = frozenset({site, rng.choice(engine.sites())})
        expected = [a for a in legal if engine.touches(state, a) & sites]
        assert list(engine.actions_touching(state, sites)) == expected


def test_a_board_changed_many_ways_keeps_a_bounded_cache_and_the_same_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from boardctl.controller import reconcile

    monkeypatch.setattr(reconcile, "KEEP", 100)
    engine = BigBoard()
    rec = Reconciler(engine, PROFILE, budget=50)
    states = _position(engine, 11)
    start = states[-1]
    boards = []
    for i, cell in enumerate(_empty_cells(start, 30, 11)):
        boards.append(_sensed(engine, engine.apply_unchecked(start, Place(CODES[i % 24], cell))))
    first = [rec.reconcile(states, b, deep=True) for b in boards]
    assert all(isinstance(v, Played) for v in first)
    assert rec.held() <= 100 + rec.budget
    again = [rec.reconcile(states, b, deep=True) for b in boards]
    assert again == first
