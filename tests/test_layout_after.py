"""What an action leaves on a few sites, read without playing it.

The reconciler asks ``layout_after`` of every action it tries on a changed
board, for the sites the action touches. Beeline reads it off the cells a
piece is put on, Linie 1 off the tiles a lay puts down and the stop signs
they earn, neither building the state the action leaves; the answer must be
what applying the action leaves there (the interface's default). Checked
for every legal action (Linie 1: those on a sample of cells, a stop sign's
cells among them) of positions reached by random play, for several option
sets and player counts.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardctl.engines import CHANCE, Engine, create
from boardctl.engines.beeline.values import Node
from boardctl.engines.physical import PhysicalBoard

BEELINE = [
    {},
    {"returned_pieces": "apart"},
    {"dead_ends": True, "blocked": "loses"},
    {"rut_checked": "as_placed", "replaced_at_own_start": False},
]
LINIE1 = [{}, {"players": 3}, {"players": 5, "movement": "speed"}]
CASES = [
    *(pytest.param("beeline", o, id=f"beeline-{i}") for i, o in enumerate(BEELINE)),
    *(pytest.param("linie1", o, id=f"linie1-{i}") for i, o in enumerate(LINIE1)),
]
#: positions of each random game whose actions are checked
PLIES = 60
#: Linie 1: cells whose actions are checked in each position (of some 3,500 actions)
CELLS = 3


def _pick(engine: Engine[Any, Any], state: Any, rng: random.Random) -> Any:
    """A random action; in Beeline a piece that goes on a line (a MARK, a
    replacement) four times in five, as players build their lines (most
    actions are NODES put down anywhere: played at random, a game ends in
    a tie before a line is sent back or a MARK replaced)."""
    if engine.actor(state) is CHANCE:
        outcomes = engine.chance_outcomes(state)
        return rng.choices([a for a, _ in outcomes], [w for _, w in outcomes])[0]
    actions = list(engine.legal_actions(state))
    if engine.name == "beeline":
        on_lines = [a for a in actions if not isinstance(a, Node)]
        if on_lines and rng.random() < 0.8:
            return rng.choice(on_lines)
    return rng.choice(actions)


def _asked(engine: Engine[Any, Any], state: Any, rng: random.Random) -> list[Any]:
    """The actions to check in ``state``: every legal one, or for a game with
    thousands those touching a few cells, one beside a stop sign's building
    among them while a sign is still to place."""
    if engine.actor(state) is CHANCE:
        return [a for a, _ in engine.chance_outcomes(state)]
    if engine.name != "linie1":
        return list(engine.legal_actions(state))
    geo = engine.geo  # type: ignore[attr-defined]
    sites = engine.sites()
    cells = rng.sample(sites, CELLS)
    open_stops = {b for b, at in enumerate(state.stops) if at < 0}
    beside = [n for n, c in geo.cell_of.items() if any(geo.beside[c] >> b & 1 for b in open_stops)]
    if beside:
        cells.append(rng.choice(beside))
    return list(engine.actions_touching(state, frozenset(cells)))


@pytest.mark.parametrize(("game", "options"), CASES)
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_what_an_action_leaves_is_read_without_playing_it(
    game: str, options: dict[str, Any], seed: int
) -> None:
    engine = create(game, options)
    assert type(engine).layout_after is not PhysicalBoard.layout_after, "the game reads it itself"
    rng = random.Random(seed)
    sites = engine.sites()
    state = engine.initial()
    read = 0
    for _ in range(PLIES):
        if engine.outcome(state).over:
            break
        for action in _asked(engine, state, rng):
            after = engine.apply_unchecked(state, action)
            touched = engine.touches(state, action)
            text = engine.format_action(action)
            expected = dict(engine.layout_on(after, touched))
            assert dict(engine.layout_after(state, action, touched)) == expected, text
            some = {*rng.sample(sites, 6), *touched}
            expected = dict(engine.layout_on(after, some))
            assert dict(engine.layout_after(state, action, some)) == expected, text
            read += 1
        state = engine.apply_unchecked(state, _pick(engine, state, rng))
    assert read > 0
