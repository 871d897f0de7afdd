"""The computer never reads a secret that is not its own.

The tiny dice game with secret cards gets a ``determinize`` here: the other
player's card drawn again, uniformly (all the computer knows of it). The
search must think about such draws only, never about the real card."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from computer_support import QUICK
from tiny_games import CARDS, Deal, DiceOptions, DiceState, TinyDice

from boardctl.computer import level, think
from boardctl.engines import CHANCE
from boardctl.engines.playing import Rng
from boardctl.errors import NotThinking


class SecretDice(TinyDice):
    """TinyDice with secret cards, and the draw of what a player cannot see."""

    def __init__(self) -> None:
        super().__init__(DiceOptions(secret=True))

    def determinize(self, state: DiceState, player: int, rng: Rng) -> DiceState:
        cards = list(state.cards)
        other = 1 - player
        if cards[other] >= 0:
            cards[other] = CARDS[rng.randrange(len(CARDS))]
        return dataclasses.replace(state, cards=(cards[0], cards[1]))


class Spy(SecretDice):
    """Records every state the search looks into, and which of them it drew
    itself (or reached from one it drew)."""

    def __init__(self) -> None:
        super().__init__()
        self.drawn: list[DiceState] = []
        self.known: dict[int, DiceState] = {}
        self.read: list[DiceState] = []

    def determinize(self, state: DiceState, player: int, rng: Rng) -> DiceState:
        out = super().determinize(state, player, rng)
        self.drawn.append(out)
        self.known[id(out)] = out
        return out

    def apply_unchecked(self, state: DiceState, action: Any) -> DiceState:
        self.read.append(state)
        out = super().apply_unchecked(state, action)
        self.known[id(out)] = out
        return out

    def evaluate(self, state: DiceState) -> tuple[float, ...]:
        self.read.append(state)
        return super().evaluate(state)

    def outcome(self, state: DiceState) -> Any:
        self.read.append(state)
        return super().outcome(state)

    def chance_outcomes(self, state: DiceState) -> tuple[tuple[Any, int], ...]:
        self.read.append(state)
        return super().chance_outcomes(state)


def _dealt(engine: TinyDice, mine: int, theirs: int) -> DiceState:
    state = engine.initial()
    state = engine.apply(state, Deal(mine))
    return engine.apply(state, Deal(theirs))


def _game(engine: TinyDice, their_card: int, seed: int) -> list[Any]:
    """The computer (seat 0, level 3) against a random player; the die and
    the random player draw from fixed seeds. The computer's choices."""
    state = _dealt(engine, 1, their_card)
    computer, opponent, die = random.Random(seed), random.Random(seed + 1), random.Random(seed + 2)
    chosen = []
    while (actor := engine.actor(state)) is not None:
        if actor is CHANCE:
            outcomes = engine.chance_outcomes(state)
            action = outcomes[die.randrange(len(outcomes))][0]
        elif actor == 0:
            action = think(engine, state, level(3), computer).action
            chosen.append(action)
        else:
            legal = list(engine.legal_actions(state))
            action = legal[opponent.randrange(len(legal))]
        state = engine.apply(state, action)
    return chosen


@pytest.mark.parametrize("seed", [1, 2])
def test_the_other_players_card_does_not_change_the_computers_game(seed: int) -> None:
    engine = SecretDice()
    games = [_game(engine, card, seed) for card in CARDS]
    assert games[0] and games[0] == games[1] == games[2]


def test_the_search_thinks_only_about_states_it_drew() -> None:
    spy = Spy()
    real = _dealt(spy, 2, 0)
    real = spy.apply(real, spy.chance_outcomes(real)[0][0])
    spy.read.clear()
    thought = think(spy, real, QUICK, random.Random(3))
    assert spy.drawn, "the search draws the secrets it cannot see"
    assert len(spy.drawn) == thought.iterations, "a fresh draw each iteration"
    assert {s.cards[1] for s in spy.drawn} == set(CARDS), "the other card is really drawn"
    assert all(s.cards[0] == 2 for s in spy.drawn), "its own card is kept"
    assert spy.read, "the search looked at positions"
    strangers = [s for s in spy.read if spy.known.get(id(s)) is not s]
    assert not strangers, f"the search read a state it did not draw: {strangers[0]}"


def test_a_game_with_secrets_but_no_determinize_is_refused() -> None:
    engine = TinyDice(DiceOptions(secret=True))
    state = _dealt(engine, 0, 1)
    state = engine.apply(state, engine.chance_outcomes(state)[0][0])
    with pytest.raises(NotThinking, match="determinize"):
        think(engine, state, QUICK, random.Random(1))


def _linie1_position(seed: int) -> Any:
    """A Linie 1 game with the cards dealt by the game, a few turns in, the
    player to lay a tile."""
    from boardctl.engines import create

    engine = create("linie1", {"secrets": "dealt"})
    rng = random.Random(seed)
    state = engine.initial()
    while True:
        actor = engine.actor(state)
        if actor is CHANCE:
            outcomes = engine.chance_outcomes(state)
            state = engine.apply(state, outcomes[rng.randrange(len(outcomes))][0])
        elif state.phase == 1 and sum(1 for c in state.tiles if c) >= 8:
            return engine, state
        else:
            legal = list(engine.legal_actions(state))
            state = engine.apply(state, legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("seed", [1, 2])
def test_linie1_the_others_cards_are_drawn_from_those_the_player_has_not_seen(seed: int) -> None:
    engine, state = _linie1_position(seed)
    me = state.player
    other = 1 - me
    seen_lines, seen_routes = set(), set()
    for k in range(40):
        drawn = engine.determinize(state, me, random.Random(k))
        assert drawn.lines[me] == state.lines[me] and drawn.routes[me] == state.routes[me]
        assert drawn.lines[other] != drawn.lines[me] and drawn.routes[other] != drawn.routes[me]
        assert drawn.tiles == state.tiles and drawn.hands == state.hands
        seen_lines.add(drawn.lines[other])
        seen_routes.add(drawn.routes[other])
    assert len(seen_lines) > 2 and len(seen_routes) > 2, "really drawn"
    # the same draw whatever the other player really holds
    moved = dataclasses.replace(
        state,
        lines=tuple(drawn.lines[q] if q == other else state.lines[q] for q in range(2)),
        routes=tuple(drawn.routes[q] if q == other else state.routes[q] for q in range(2)),
    )
    assert engine.determinize(moved, me, random.Random(7)) == engine.determinize(
        state, me, random.Random(7)
    )
    # shown at a trip, they are known
    shown = dataclasses.replace(state, shown=(True, True))
    assert engine.determinize(shown, me, random.Random(3)) == shown


@pytest.mark.parametrize("lv", [2, 3])
def test_linie1_the_computers_choice_does_not_depend_on_the_others_secret_cards(lv: int) -> None:
    engine, state = _linie1_position(3)
    me, other = state.player, 1 - state.player
    choices = set()
    for line in range(6):
        if line == state.lines[me]:
            continue
        changed = dataclasses.replace(
            state, lines=tuple(line if q == other else state.lines[q] for q in range(2))
        )
        choices.add(think(engine, changed, level(lv), random.Random(5)).action)
    assert len(choices) == 1


def test_linie1_with_the_cards_on_the_table_the_computer_declines_saying_why() -> None:
    from boardctl.engines import create

    engine = create("linie1")
    with pytest.raises(NotThinking, match="secrets=dealt"):
        think(engine, engine.initial(), QUICK, random.Random(1))
