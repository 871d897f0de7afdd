"""What an action leaves on a few sites, read without playing it.

The reconciler asks ``layout_after`` of every action it tries on a changed
board, for the sites the action touches. Beeline reads it off the cells a
piece is put on, without building the state the action leaves; the answer
must be what applying the action leaves there (the interface's default).
Checked for every legal action of positions reached by random play, for
several option sets.
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
CASES = [
    *(pytest.param("beeline", o, id=f"beeline-{i}") for i, o in enumerate(BEELINE)),
]
#: positions of each random game whose actions are checked
PLIES = 60


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
    """The actions to check in ``state``: every legal one."""
    if engine.actor(state) is CHANCE:
        return [a for a, _ in engine.chance_outcomes(state)]
    return list(engine.legal_actions(state))


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
