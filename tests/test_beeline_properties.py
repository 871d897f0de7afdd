"""Invariants of Beeline over random playouts (hypothesis picks the seeds)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardctl.engines import Match
from boardctl.engines.beeline import Beeline, Kind, Mark, Node, Replace, State

ENGINE = Beeline()
NAMES = ENGINE.geo.names
COLOURS = ("black", "red")


def _playout(seed: int, limit: int = 400) -> Match[State, Mark | Node | Replace]:
    rng = random.Random(seed)
    match: Match[State, Mark | Node | Replace] = Match(ENGINE)
    for _ in range(limit):
        actions = list(match.legal_actions())
        if not actions:
            break
        match.play(rng.choice(actions))
    return match


def _marks_on_board(state: State) -> dict[tuple[str, str], int]:
    counts = {(c, k.word): 0 for c in COLOURS for k in Kind}
    for code in ENGINE.layout(state).values():
        colour, _, rest = code.partition("-")
        if colour in COLOURS:
            counts[(colour, rest.rsplit("-", 1)[0])] += 1
    return counts


seeds = st.integers(min_value=0, max_value=2**32)


@settings(max_examples=20, deadline=None)
@given(seeds)
def test_pieces_are_conserved(seed: int) -> None:
    match = _playout(seed)
    for state in match.states:
        on_board = _marks_on_board(state)
        nodes = sum(1 for code in ENGINE.layout(state).values() if code.startswith("node-"))
        held_nodes = 0
        for p, colour in enumerate(COLOURS):
            hand = ENGINE.hand(state, p)
            held_nodes += hand["nodes"]
            for k in Kind:
                held = hand["open"][k.word] + hand["apart"][k.word] + 3 * hand["groups"]
                assert on_board[(colour, k.word)] + held == 12
        assert nodes + held_nodes == 12


@settings(max_examples=20, deadline=None)
@given(seeds)
def test_a_random_game_ends_with_a_result_and_nothing_to_play(seed: int) -> None:
    match = _playout(seed)
    outcome = match.outcome()
    assert outcome.over
    assert outcome.reason
    assert match.to_move() is None
    assert match.expects() == "nothing"
    assert list(match.legal_actions()) == []
    if outcome.winner is not None and "reaches" in outcome.reason:
        assert ENGINE.winning_sites(match.state) >= set(ENGINE.line(match.state, outcome.winner))


@settings(max_examples=20, deadline=None)
@given(seeds)
def test_json_notation_and_undo_round_trip(seed: int) -> None:
    match = _playout(seed)
    for state in match.states:
        again = ENGINE.state_from_json(ENGINE.state_to_json(state))
        assert again == state
        assert hash(again) == hash(state)
    for action in match.actions:
        text = ENGINE.format_action(action)
        assert ENGINE.parse_action(text) == action
        assert ENGINE.format_action(ENGINE.parse_action(text)) == text
    replay = Match.from_moves(ENGINE, match.moves_text())
    assert replay.state == match.state
    before = list(match.states)
    while match.actions:
        match.undo()
        assert match.state == before[len(match.actions)]


def _near_misses(state: State) -> list[Mark | Node | Replace]:
    """Actions close to legal ones: every MARK and NODE on every cell next to
    the lines' ends and RUTs."""
    cells: set[str] = set()
    for p in (0, 1):
        cells |= ENGINE.rut(state, p)
        cells.add(ENGINE.line(state, p)[-1])
    out: list[Mark | Node | Replace] = []
    for cell in sorted(cells):
        for k in Kind:
            out += [Mark(k, cell, side) for side in range(6)]
        out += [Node(0, cell), Node(1, cell)]
    return out


@settings(max_examples=15, deadline=None)
@given(seeds, st.integers(min_value=0, max_value=60))
def test_listed_actions_are_legal_apply_and_differ_on_the_board(seed: int, cut: int) -> None:
    match = _playout(seed, limit=cut)
    state = match.state
    listed = list(ENGINE.legal_actions(state))
    assert len(listed) == len(set(listed))
    layouts = set()
    for action in listed:
        assert ENGINE.why_illegal(state, action) is None, action
        after = ENGINE.apply(state, action)
        assert after != state
        assert ENGINE.touches(state, action)
        layouts.add(tuple(sorted(ENGINE.layout(after).items())))
    # the board alone tells which action was played: no choice left to make
    assert len(layouts) == len(listed)
    legal = set(listed)
    for action in _near_misses(state):
        if action not in legal:
            assert ENGINE.why_illegal(state, action)
        else:
            assert ENGINE.why_illegal(state, action) is None


def _touched_by_layout(engine: Beeline, state: State, action: Mark | Node | Replace) -> set[str]:
    before = engine.layout(state)
    after = engine.layout(engine.apply(state, action))
    return {s for s in before.keys() | after.keys() if before.get(s) != after.get(s)}


def test_the_actions_touching_a_cell_and_the_cells_lit_are_found_as_applying_finds_them() -> None:
    """Every position of two games with dead ends allowed (each holds a move
    that sends a line back, so a MARK other than the piece's own is lifted):
    the actions touching each cell are those of the whole list whose board
    changes there, in the list's order."""
    engine = Beeline(Beeline.Options(dead_ends=True))
    cells = engine.sites()
    sent_back = 0
    for seed in (3, 89):
        rng = random.Random(seed)
        pick = random.Random(-seed)
        state = engine.initial()
        while not engine.outcome(state).over:
            legal = list(engine.legal_actions(state))
            touched = {a: _touched_by_layout(engine, state, a) for a in legal}
            for action in legal:
                assert engine.touches(state, action) == touched[action]
                assert engine.highlight(state, action) == touched[action]
                sent_back += len(touched[action]) > (2 if isinstance(action, Replace) else 1)
            for cell in cells:
                expected = [a for a in legal if cell in touched[a]]
                assert list(engine.actions_touching(state, frozenset({cell}))) == expected
            pair = frozenset(pick.sample(cells, 2))
            expected = [a for a in legal if touched[a] & pair]
            assert list(engine.actions_touching(state, pair)) == expected
            state = engine.apply(state, rng.choice(legal))
    assert sent_back  # the games reach the case the shortcut must not miss


def _lines_game(seed: int, engine: Beeline) -> list[State]:
    """The positions of a game where MARKS and replacements are played more
    often than by chance, so that the lines grow long and cross."""
    rng = random.Random(seed)
    state = engine.initial()
    states = [state]
    while not engine.outcome(state).over and len(states) < 90:
        actions = list(engine.legal_actions(state))
        marks = [a for a in actions if isinstance(a, Mark)]
        replacements = [a for a in actions if isinstance(a, Replace)]
        r = rng.random()
        if replacements and r < 0.3:
            action = rng.choice(replacements)
        elif marks and r < 0.9:
            action = rng.choice(marks)
        else:
            action = rng.choice(actions)
        state = engine.apply(state, action)
        states.append(state)
    return states


def _replacement_candidates(engine: Beeline, state: State) -> list[Replace]:
    """Every NODE replacing a MARK of either line whose MARK goes on an empty
    cell of a RUT, next to a NODE or next to the replaced cell (a line goes on
    from one of these), leaving in any direction."""
    names = engine.geo.names
    index = engine.geo.index
    near: set[str] = set()
    for p in (0, 1):
        near |= engine.rut(state, p)
    for cell, code in engine.layout(state).items():
        if code.startswith("node-"):
            near |= {names[n] for n in engine.geo.nbr[index[cell]] if n >= 0}
    layout = engine.layout(state)
    out = []
    for p in (0, 1):
        for cell in set(engine.line(state, p)):
            colour, _, rest = layout[cell].partition("-")
            if colour == "node":
                continue
            kind = next(k for k in Kind if rest.startswith(k.word))
            around = {names[n] for n in engine.geo.nbr[index[cell]] if n >= 0}
            for to in sorted(near | around):
                if to not in layout:
                    out += [Replace(p, cell, kind, to, side) for side in range(6)]
    return out


@pytest.mark.parametrize("options", [{}, {"dead_ends": True}, {"rut_checked": "as_placed"}])
def test_the_replacements_listed_are_exactly_those_the_rules_allow(options: dict[str, Any]) -> None:
    """The listing looks once at each place a replaced MARK may go, for every
    MARK of its kind: checked against the rules asked of each replacement
    alone (``why_illegal``) in positions of games with long lines."""
    engine = Beeline.from_options(options)
    checked = 0
    for seed in (2, 7, 11, 13):
        for state in _lines_game(seed, engine)[4::3]:
            listed = {a for a in engine.legal_actions(state) if isinstance(a, Replace)}
            for action in _replacement_candidates(engine, state):
                legal = engine.why_illegal(state, action) is None
                assert legal == (action in listed), (engine.format_action(action), legal)
                checked += legal
            assert listed <= set(_replacement_candidates(engine, state))
    assert checked > 20


@settings(max_examples=10, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_each_players_sites_are_those_of_the_position_shown(seed: int) -> None:
    """What the LEDs show in each player's colour (worked out once per
    position) after every piece: each line where it lies, and what the
    position itself gives, asked again or of a fresh copy of it."""
    from dataclasses import replace

    rng = random.Random(seed)
    names = ENGINE.geo.names
    state = ENGINE.initial()
    while not ENGINE.outcome(state).over:
        shown = ENGINE.player_sites(state)
        assert [p.built for p in shown] == [{names[c] for c in line} for line in state.lines]
        assert shown == ENGINE._player_sites(state)
        assert ENGINE.player_sites(replace(state, _ix=None)) == shown == ENGINE.player_sites(state)
        state = ENGINE.apply(state, rng.choice(list(ENGINE.legal_actions(state))))
