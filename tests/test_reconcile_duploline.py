"""Reconciling a DuploLine board: every legal action is recognised from the
board alone, pieces in hand light their destinations, wrong boards say where."""

from __future__ import annotations

import random
from typing import Any

from controller_support import profile_for
from hypothesis import given, settings
from hypothesis import strategies as st

from boardctl.controller.reconcile import (
    Ambiguous,
    InProgress,
    Played,
    Reconciler,
    Takeback,
    Waiting,
    Wrong,
)
from boardctl.engines import Match, create

ENGINE = create("duploline")
PROFILE = profile_for(ENGINE)


def _random_match(seed: int, length: int) -> Match[Any, Any]:
    rng = random.Random(seed)
    match: Match[Any, Any] = Match(ENGINE)
    for _ in range(length):
        actions = list(match.legal_actions())
        if not actions:
            break
        match.play(rng.choice(actions))
    return match


def _sensed(state: Any) -> dict[str, str]:
    return PROFILE.projected_layout(ENGINE.layout(state))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), length=st.integers(0, 30))
def test_every_legal_action_is_read_from_the_board(seed: int, length: int) -> None:
    match = _random_match(seed, length)
    rec = Reconciler(ENGINE, PROFILE)
    for action in match.legal_actions():
        after = _sensed(ENGINE.apply(match.state, action))
        verdict = rec.reconcile(match.states, after)
        text = ENGINE.format_action(action)
        if isinstance(verdict, Played):
            assert verdict.texts == (text,)
        else:
            assert isinstance(verdict, Ambiguous)
            assert (text,) in [tuple(o.text for o in p) for p in verdict.candidates]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), length=st.integers(1, 30), data=st.data())
def test_a_scrambled_board_is_wrong_and_names_its_sites(
    seed: int, length: int, data: st.DataObject
) -> None:
    match = _random_match(seed, length)
    before = list(match.states)
    rec = Reconciler(ENGINE, PROFILE)
    sensed = _sensed(match.state)
    site = data.draw(st.sampled_from(ENGINE.sites()))
    piece = data.draw(st.sampled_from([None, *PROFILE.codes.values()]))
    if piece is None:
        sensed.pop(site, None)
    else:
        sensed[site] = piece
    verdict = rec.reconcile(match.states, sensed, deep=True)
    assert match.states == before
    if isinstance(verdict, Wrong):
        assert site in verdict.offending | set(verdict.restore)
        if site in verdict.restore:
            assert verdict.restore[site] == _sensed(match.state)[site]
    else:
        assert isinstance(verdict, Waiting | Played | Ambiguous | InProgress | Takeback)


def test_a_lifted_disc_lights_where_it_may_go() -> None:
    match = Match.from_moves(ENGINE, ["D+d4", "R+d5", "D+e5"])
    rec = Reconciler(ENGINE, PROFILE)
    sensed = _sensed(match.state)
    moves = [
        ENGINE.format_action(a)
        for a in match.legal_actions()
        if ENGINE.format_action(a).startswith("Dd4-")
    ]
    del sensed["d4"]
    verdict = rec.reconcile(match.states, sensed)
    assert isinstance(verdict, InProgress)
    assert "d4" in verdict.lifted
    texts = {p[0].text for p in verdict.candidates}
    assert moves and set(moves) <= texts
    for text in moves:
        assert text.split("-")[1] in verdict.destinations


def test_both_actions_of_a_turn_at_once_are_played_in_order() -> None:
    match = Match.from_moves(ENGINE, ["D+d4"])
    rec = Reconciler(ENGINE, PROFILE)
    two = Match.from_moves(ENGINE, ["D+d4", "D+d5", "R+d3"])
    verdict = rec.reconcile(match.states, _sensed(two.state), deep=True)
    assert isinstance(verdict, Played | Ambiguous)
    if isinstance(verdict, Played):
        assert verdict.texts == ("D+d5", "R+d3")
    else:
        assert ("D+d5", "R+d3") in [tuple(o.text for o in p) for p in verdict.candidates]
    assert rec.reconcile(match.states, _sensed(two.state)) != verdict


def test_taking_the_last_piece_back_offers_a_takeback() -> None:
    match = Match.from_moves(ENGINE, ["D+d4", "D+d5", "R+d3"])
    rec = Reconciler(ENGINE, PROFILE)
    earlier = _sensed(match.states[-3])
    assert rec.reconcile(match.states, earlier, deep=True) == Takeback(2)
