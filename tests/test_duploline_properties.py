"""Invariants of DuploLine over random playouts (hypothesis picks the seeds)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from boardctl.engines import Match
from boardctl.engines.duploline import Add, DuploLine, Kind, Move, State
from boardctl.engines.duploline.board import NAMES, POSITION, connected

ENGINE = DuploLine()
ALL_ACTIONS = [Add(kind, cell) for kind in Kind for cell in NAMES] + [
    Move(kind, src, dst) for kind in Kind for src in NAMES for dst in NAMES if src != dst
]


def _playout(seed: int, limit: int = 200) -> Match[State, Add | Move]:
    rng = random.Random(seed)
    match: Match[State, Add | Move] = Match(ENGINE)
    for _ in range(limit):
        actions = list(match.legal_actions())
        if not actions:
            break
        match.play(rng.choice(actions))
    return match


def _pieces(state: State) -> dict[str, int]:
    layout = ENGINE.layout(state)
    counts = {f"{c}-{k}": 0 for c in ("white", "black") for k in ("disc", "ring")}
    for code in layout.values():
        for part in code.split("+"):
            counts[part] += 1
    return counts


seeds = st.integers(min_value=0, max_value=2**32)


@settings(max_examples=25, deadline=None)
@given(seeds)
def test_pieces_are_conserved_and_the_board_stays_one_group(seed: int) -> None:
    match = _playout(seed)
    for state in match.states:
        data = ENGINE.state_to_json(state)
        on_board = _pieces(state)
        for colour in ("white", "black"):
            for kind in ("disc", "ring"):
                held = data["in_hand"][colour][kind + "s"]
                assert on_board[f"{colour}-{kind}"] + held == 18
        occupied = 0
        for cell in ENGINE.layout(state):
            occupied |= 1 << POSITION[cell]
        assert connected(occupied)


@settings(max_examples=25, deadline=None)
@given(seeds)
def test_undo_restores_the_exact_state(seed: int) -> None:
    match = _playout(seed)
    before = list(match.states)
    while match.actions:
        match.undo()
        assert match.state == before[len(match.actions)]
        assert hash(match.state) == hash(before[len(match.actions)])
    assert match.state == ENGINE.initial()


@settings(max_examples=25, deadline=None)
@given(seeds)
def test_json_and_notation_round_trip(seed: int) -> None:
    match = _playout(seed)
    for state in match.states:
        assert ENGINE.state_from_json(ENGINE.state_to_json(state)) == state
    for action in match.actions:
        text = ENGINE.format_action(action)
        assert ENGINE.parse_action(text) == action
        assert ENGINE.format_action(ENGINE.parse_action(text)) == text
    replay = Match.from_moves(ENGINE, match.moves_text())
    assert replay.state == match.state


@settings(max_examples=15, deadline=None)
@given(seeds, st.integers(min_value=0, max_value=90))
def test_listed_actions_are_exactly_the_legal_ones(seed: int, cut: int) -> None:
    match = _playout(seed, limit=cut)
    state = match.state
    listed = list(ENGINE.legal_actions(state))
    assert len(listed) == len(set(listed))
    legal = {a for a in ALL_ACTIONS if ENGINE.is_legal(state, a)}
    assert set(listed) == legal
    for action in listed:
        after = ENGINE.apply(state, action)
        assert after != state
    for action in ALL_ACTIONS[:: max(1, len(ALL_ACTIONS) // 300)]:
        if action not in legal:
            assert ENGINE.why_illegal(state, action)


@settings(max_examples=25, deadline=None)
@given(seeds)
def test_a_game_ends_with_a_result_and_nothing_to_play(seed: int) -> None:
    match = _playout(seed)
    outcome = match.outcome()
    assert outcome.over
    assert match.to_move() is None
    assert match.expects() == "nothing"
    assert outcome.reason
    assert list(match.legal_actions()) == []
