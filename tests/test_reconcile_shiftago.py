"""Reconciling a Shiftago board, colour-reading and presence-only with light
gates: every insertion and every scoring choice is read from the board."""

from __future__ import annotations

import random
from typing import Any

import pytest
from controller_support import is_track, profile_for
from hypothesis import given, settings
from hypothesis import strategies as st

from boardctl.controller.reconcile import (
    Ambiguous,
    InProgress,
    Played,
    Reconciler,
    Waiting,
    Wrong,
)
from boardctl.engines import Match, create

VARIANTS = [
    {"players": 2, "variant": "express"},
    {"players": 2, "variant": "expert"},
    {"players": 4, "variant": "expert"},
    {"players": 3, "variant": "express"},
]


def _random_match(engine: Any, seed: int, length: int) -> Match[Any, Any]:
    rng = random.Random(seed)
    match: Match[Any, Any] = Match(engine)
    for _ in range(length):
        actions = list(match.legal_actions())
        if not actions:
            break
        match.play(rng.choice(actions))
    return match


@pytest.mark.parametrize("presence", [False, True], ids=["colour", "presence"])
@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: f"{o['variant']}-{o['players']}p")
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), length=st.integers(0, 45))
def test_every_legal_action_is_read_from_the_board(
    presence: bool, options: dict[str, Any], seed: int, length: int
) -> None:
    engine = create("shiftago", options)
    profile = profile_for(engine, presence=presence)
    rec = Reconciler(engine, profile)
    match = _random_match(engine, seed, length)
    for action in match.legal_actions():
        text = engine.format_action(action)
        after = profile.projected_layout(engine.layout(engine.apply(match.state, action)))
        pulses = [text] if is_track(engine.board(), text) else []
        verdict = rec.reconcile(match.states, after, pulses)
        if isinstance(verdict, Played):
            assert verdict.texts == (text,)
        else:
            assert isinstance(verdict, Ambiguous), verdict
            assert (text,) in [tuple(o.text for o in p) for p in verdict.candidates]
        if not presence:
            # a colour board needs no light gate: it reads the same game
            alone = rec.reconcile(match.states, after)
            assert isinstance(alone, Played)
            result = engine.apply(match.state, action)
            assert alone.path[-1].state == result
            # of the actions with that result, the first the engine lists
            same = [a for a in match.legal_actions() if engine.apply(match.state, a) == result]
            assert alone.texts == (engine.format_action(same[0]),)


def test_without_a_gate_pulse_equal_insertions_are_recorded_in_the_engines_order() -> None:
    engine = create("shiftago")
    rec = Reconciler(engine, profile_for(engine))
    match = Match(engine)
    order = [engine.format_action(a) for a in match.legal_actions()]
    assert order[:8] == ["W1", "W2", "W3", "W4", "W5", "W6", "W7", "E1"]
    assert order[14:16] == ["Sa", "Sb"] and order[21:23] == ["Na", "Nb"]
    for track, recorded in (("W1", "W1"), ("Sa", "W1"), ("E1", "E1"), ("Ng", "E7")):
        after = engine.layout(engine.apply(match.state, engine.parse_action(track)))
        verdict = rec.reconcile(match.states, after)
        assert isinstance(verdict, Played) and verdict.texts == (recorded,)


def test_presence_board_without_a_gate_pulse_is_ambiguous_never_a_guess() -> None:
    engine = create("shiftago")
    profile = profile_for(engine, presence=True)
    rec = Reconciler(engine, profile)
    match = Match.from_moves(engine, ["W1", "E1"])
    # E2 adds a marble on g2; Sg pushes g1's marble there: a presence board
    # sees the same cells occupied, the colours differ
    after = profile.projected_layout(
        engine.layout(engine.apply(match.state, engine.parse_action("E2")))
    )
    verdict = rec.reconcile(match.states, after)
    assert isinstance(verdict, Ambiguous)
    assert {p[0].text for p in verdict.candidates} == {"E2", "Sg"}
    played = rec.reconcile(match.states, after, ["Sg"])
    assert isinstance(played, Played) and played.texts == ("Sg",)


def test_a_marble_in_the_gate_lights_its_track_cells() -> None:
    engine = create("shiftago")
    profile = profile_for(engine, presence=True)
    rec = Reconciler(engine, profile)
    match = Match.from_moves(engine, ["W3", "W3"])
    sensed = profile.projected_layout(engine.layout(match.state))
    verdict = rec.reconcile(match.states, sensed, ["W3"])
    assert isinstance(verdict, InProgress)
    assert verdict.destinations == {"c3"}
    assert rec.reconcile(match.states, sensed) == Waiting()


def _expert_scoring_match(players: int) -> Match[Any, Any]:
    engine = create("shiftago", players=players, variant="expert")
    need = 5 if players == 2 else 4
    moves: list[str] = []
    # player 0 fills row 1 from the west; the others fill rows 7, 6, 5
    others = ["W7", "W6", "W5"][: players - 1]
    for _ in range(need - 1):
        moves.append("W1")
        moves.extend(others)
    moves.append("W1")
    return Match.from_moves(engine, moves)


@pytest.mark.parametrize("players", [2, 4])
def test_removing_a_line_scores_it_marble_by_marble(players: int) -> None:
    match = _expert_scoring_match(players)
    engine = match.engine
    assert match.expects() == "score"
    profile = profile_for(engine, presence=True)
    rec = Reconciler(engine, profile)
    sensed = profile.projected_layout(engine.layout(match.state))
    score = next(iter(match.legal_actions()))
    goal = profile.projected_layout(engine.layout(engine.apply(match.state, score)))
    removed = sorted(set(sensed) - set(goal))
    assert removed
    for cell in removed[:-1]:
        del sensed[cell]
        verdict = rec.reconcile(match.states, sensed)
        assert isinstance(verdict, InProgress)
        assert cell not in verdict.destinations
    del sensed[removed[-1]]
    verdict = rec.reconcile(match.states, sensed)
    assert isinstance(verdict, Played | Ambiguous)


def test_a_marble_on_a_wrong_cell_is_wrong_and_nothing_changes() -> None:
    engine = create("shiftago")
    profile = profile_for(engine)
    rec = Reconciler(engine, profile)
    match = Match.from_moves(engine, ["W1", "E7"])
    states = list(match.states)
    sensed = profile.projected_layout(engine.layout(match.state))
    sensed["d4"] = "p1"
    verdict = rec.reconcile(match.states, sensed, deep=True)
    why = "that is a red marble, and blue is to insert"
    assert verdict == Wrong(frozenset({"d4"}), {}, why=why)
    sensed["a1"] = "p1"
    verdict = rec.reconcile(match.states, sensed, deep=True)
    assert isinstance(verdict, Wrong) and verdict.restore == {"a1": "p0"}
    assert match.states == states


@pytest.mark.parametrize("lifted", [("b1", "c1"), ("c1", "d1"), ("d1", "b1"), ("b1", "d1")])
@pytest.mark.parametrize("presence", [False, True], ids=["colour", "presence"])
def test_a_line_on_the_edge_lifted_marble_by_marble_is_a_removal_under_way(
    lifted: tuple[str, str], presence: bool
) -> None:
    # a1-e1 is player 0's line; each inner marble left standing is the entry
    # cell of a column's track (Sb, Sc, Sd), and a1 and e1 of a row's: the
    # board with two of three lifted also reads as the score followed by an
    # insertion into that cell, which no hand made
    match = _expert_scoring_match(2)
    engine = match.engine
    profile = profile_for(engine, presence=presence)
    rec = Reconciler(engine, profile)
    sensed = profile.projected_layout(engine.layout(match.state))
    for cell in lifted:
        del sensed[cell]
    verdict = rec.reconcile(match.states, sensed, deep=True)
    assert isinstance(verdict, InProgress), verdict
    assert [p[0].text for p in verdict.candidates] == ["x:a1-e1"]
    (standing,) = {"b1", "c1", "d1"} - set(lifted)
    assert verdict.destinations == {standing}
    assert verdict.lifted == set(lifted)
    del sensed[standing]
    played = rec.reconcile(match.states, sensed, deep=True)
    assert isinstance(played, Played) and played.texts == ("x:a1-e1",)
