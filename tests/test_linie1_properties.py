"""Invariants of Linie 1 over random games (hypothesis picks the seeds and options)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from boardctl.engines import CHANCE, Match, create
from boardctl.engines.linie1 import Lay, Linie1, State
from boardctl.engines.linie1.geometry import BUILDING, EDGE, TRACK, opposite
from boardctl.engines.linie1.values import LAY

RECORDS = Path(__file__).parent / "records" / "linie1"
#: the 4 x 4 test board of the trip records
SMALL = json.loads((RECORDS / "trip_die_number_drives_that_many_cells.json").read_text())[
    "options"
]["board_data"]


def _playout(engine: Linie1, seed: int, limit: int) -> Match[State, Any]:
    """A random game: chance by its weights, players uniformly."""
    rng = random.Random(seed)
    match: Match[State, Any] = Match(engine)
    for _ in range(limit):
        state = match.state
        if engine.outcome(state).over:
            break
        if engine.actor(state) is CHANCE:
            outcomes = engine.chance_outcomes(state)
            action = rng.choices([a for a, _ in outcomes], [w for _, w in outcomes])[0]
        else:
            action = rng.choice(list(engine.legal_actions(state)))
        match.play(action)  # checked: every offered action is legal
    return match


seeds = st.integers(min_value=0, max_value=2**32)
options = st.fixed_dictionaries(
    {
        "players": st.integers(min_value=2, max_value=5),
        "secrets": st.sampled_from(["cards", "dealt"]),
        "movement": st.sampled_from(["die", "speed"]),
    }
)


def _totals(engine: Linie1) -> list[int]:
    data = engine.geo.data
    return [0] + [
        t.stack + engine.start_hand[k] * engine.players for k, t in enumerate(data.tiles, 1)
    ]


@settings(max_examples=8, deadline=None)
@given(seeds, options)
def test_tiles_are_conserved_and_every_rail_is_allowed(seed: int, opts: dict[str, Any]) -> None:
    engine = create("linie1", opts)
    assert isinstance(engine, Linie1)
    geo = engine.geo
    match = _playout(engine, seed, 120)
    totals = _totals(engine)
    for state in match.states:
        counts = [0] * len(totals)
        for cell in geo.track_cells:
            if state.tiles[cell]:
                counts[state.tiles[cell] >> 2] += 1
        for hand in state.hands:
            for k, c in enumerate(hand):
                counts[k] += c
        for k, c in enumerate(state.stacks):
            counts[k] += c
        assert counts == totals
        for cell in geo.track_cells:
            code = state.tiles[cell]
            if not code:
                continue
            for d in range(4):
                j = cell + geo.offsets[d]
                mine = (geo.sides[code] >> d) & 1
                if geo.kind[j] in (EDGE, BUILDING):
                    assert not mine, (geo.names[cell], d)
                elif geo.kind[j] == TRACK and state.tiles[j]:
                    theirs = (geo.sides[state.tiles[j]] >> opposite(d)) & 1
                    assert mine == theirs, (geo.names[cell], geo.names[j])


@settings(max_examples=8, deadline=None)
@given(seeds, options)
def test_exchanges_only_add_connections_and_stop_signs_stay_beside_their_building(
    seed: int, opts: dict[str, Any]
) -> None:
    engine = create("linie1", opts)
    assert isinstance(engine, Linie1)
    geo = engine.geo
    match = _playout(engine, seed, 120)
    for before, after in zip(match.states, match.states[1:], strict=False):
        for cell in geo.track_cells:
            if before.tiles[cell]:
                assert geo.conns[before.tiles[cell]] <= geo.conns[after.tiles[cell]]
                assert not geo.trees[before.tiles[cell]] or before.tiles[cell] == after.tiles[cell]
        for b, cell in enumerate(after.stops):
            if before.stops[b] >= 0:
                assert cell == before.stops[b]
            if cell >= 0:
                assert after.tiles[cell] and (geo.beside[cell] >> b) & 1


@settings(max_examples=8, deadline=None)
@given(seeds, options)
def test_notation_and_json_round_trip_and_offered_actions_are_legal(
    seed: int, opts: dict[str, Any]
) -> None:
    engine = create("linie1", opts)
    match = _playout(engine, seed, 80)
    for state, action in zip(match.states, match.actions, strict=False):
        text = engine.format_action(action)
        assert engine.parse_action(text) == action
        assert engine.state_from_json(json.loads(json.dumps(engine.state_to_json(state)))) == state
    state = match.state
    for action in list(engine.legal_actions(state))[:200]:
        assert engine.why_illegal(state, action) is None


@settings(max_examples=10, deadline=None)
@given(seeds)
def test_trips_on_the_small_board_end_and_the_winner_made_every_stop(seed: int) -> None:
    engine = create("linie1", {"board_data": SMALL})
    assert isinstance(engine, Linie1)
    match = _playout(engine, seed, 400)
    state = match.state
    for p, car in enumerate(state.cars):
        if car >= 0:
            assert state.shown[p]
            assert engine.route_of(state, p) is not None  # a started trip has a route
    outcome = engine.outcome(state)
    if outcome.winner is not None:
        w = outcome.winner
        need = engine.need[state.routes[w]][state.lines[w]]
        assert state.visited[w] & need == need
        assert engine.winning_sites(state)


@settings(max_examples=10, deadline=None)
@given(seeds, st.integers(min_value=2, max_value=5))
def test_secrets_never_show_before_their_owner_starts(seed: int, players: int) -> None:
    engine = create("linie1", {"secrets": "dealt", "players": players})
    assert isinstance(engine, Linie1)
    match = _playout(engine, seed, 2 * players + 30)
    rng = random.Random(seed)
    for state in match.states:
        hidden = [p for p in range(players) if not state.shown[p]]
        lines = list(state.lines)
        routes = list(state.routes)
        for p in hidden:  # give the unshown players other cards
            lines[p] = rng.randrange(6)
            routes[p] = rng.randrange(6)
        other = State(
            **{
                **{f: getattr(state, f) for f in State.__slots__},
                "lines": tuple(lines),
                "routes": tuple(routes),
            }
        )
        assert engine.public_view(other) == engine.public_view(state)
        assert engine.public_render(other) == engine.public_render(state)
        assert engine.layout(other) == engine.layout(state)
    for state, action in zip(match.states, match.actions, strict=False):
        if not isinstance(action, Lay):
            text = engine.public_action(state, action)
            assert "?" in text or not text.startswith("deal:")


@settings(max_examples=8, deadline=None)
@given(seeds)
def test_every_tile_the_rules_allow_is_offered_and_no_other(seed: int) -> None:
    engine = create("linie1", {"players": 3})
    assert isinstance(engine, Linie1)
    geo = engine.geo
    match = _playout(engine, seed, 60 + seed % 60)
    rng = random.Random(seed)
    state = match.state
    while state.phase != LAY and not engine.outcome(state).over:
        state = engine.apply(state, rng.choice(list(engine.legal_actions(state))))
    if state.phase != LAY:
        return
    offered = {a for a in engine.legal_actions(state) if isinstance(a, Lay) and len(a.parts) == 1}
    hand = state.hands[state.player]
    for cell in geo.track_cells:
        for k in range(1, geo.kinds + 1):
            if not hand[k]:
                continue
            for code in geo.codes_of[k]:
                action = Lay(((cell, code),))
                allowed = engine.why_illegal(state, action) is None
                assert allowed == (action in offered), engine.format_action(action)
    # and each exchange of two tiles side by side, as the rules' own checks judge it
    doubles = {a for a in engine.legal_actions(state) if isinstance(a, Lay) and len(a.parts) == 2}
    tiles = state.tiles
    tried = 0
    for a in geo.track_cells:
        for d in (1, 2):
            b = a + geo.offsets[d]
            if not tiles[a] or geo.kind[b] != TRACK or not tiles[b]:
                continue
            for ca in geo.upgrades[tiles[a]]:
                for cb in geo.upgrades[tiles[b]]:
                    action = Lay(((a, ca), (b, cb)))
                    allowed = engine.why_illegal(state, action) is None
                    assert allowed == (action in doubles), engine.format_action(action)
                    tried += 1
    assert len(doubles) <= tried


@settings(max_examples=10, deadline=None)
@given(seeds, st.integers(min_value=2, max_value=5))
def test_a_listing_derived_from_the_position_before_is_the_listing_made_afresh(
    seed: int, players: int
) -> None:
    """Each position's lays come from its parent's where a lay made it (the
    rails within two cells of the tiles laid worked out again); the same
    position read back from its record, with nothing to derive from, lists
    exactly the same actions in the same order."""
    engine = create("linie1", {"players": players})
    rng = random.Random(seed)
    state = engine.initial()
    for _ in range(250):
        if engine.outcome(state).over:
            break
        if engine.actor(state) is CHANCE:
            outcomes = engine.chance_outcomes(state)
            action = rng.choices([a for a, _ in outcomes], [w for _, w in outcomes])[0]
        else:
            legal = list(engine.legal_actions(state))
            afresh = engine.state_from_json(engine.state_to_json(state))
            assert afresh == state
            assert list(engine.legal_actions(afresh)) == legal
            action = rng.choice(legal)
            child = engine.apply_unchecked(state, action)
            if rng.random() < 0.3 and engine.actor(child) is not CHANCE and child.phase == LAY:
                # a position played on before it was listed: its child derives
                # through it
                copy = engine.state_from_json(engine.state_to_json(child))
                action = rng.choice(list(engine.legal_actions(copy)))
                state = child
        state = engine.apply_unchecked(state, action)


@settings(max_examples=6, deadline=None)
@given(seeds, st.integers(min_value=2, max_value=5))
def test_another_engine_with_the_same_options_lists_a_position_alike(
    seed: int, players: int
) -> None:
    """A position played by one engine is listed the same by a fresh engine
    made with the same options (the bench's own engine, a record's reader):
    its listing derives from the parent's lays although that engine never
    listed any."""
    actions = _playout(create("linie1", {"players": players}), seed, 60).actions
    engine = create("linie1", {"players": players})
    rng = random.Random(seed)
    state = engine.initial()
    for action in actions:
        if engine.actor(state) is not CHANCE:
            fresh = None
            if rng.random() < 0.3:  # the fresh engine lists it first
                fresh = list(create("linie1", {"players": players}).legal_actions(state))
            legal = list(engine.legal_actions(state))
            assert fresh is None or fresh == legal
        state = engine.apply_unchecked(state, action)


@settings(max_examples=6, deadline=None)
@given(seeds, st.integers(min_value=2, max_value=5), st.integers(min_value=0, max_value=150))
def test_positions_listed_in_any_order_list_as_they_would_afresh(
    seed: int, players: int, start: int
) -> None:
    """A search looks at a position's children, and at theirs, in any order,
    and may play on from a position it has not listed yet: each listing
    derived from whatever was listed before it equals the same position's read
    back from its record, with nothing to derive from, in the same order."""
    engine = create("linie1", {"players": players})
    rng = random.Random(seed)
    waiting = [_playout(engine, seed, start).state]
    unlisted = []
    for _ in range(40):
        if not waiting:
            break
        state = waiting.pop(rng.randrange(len(waiting)))
        if engine.outcome(state).over:
            continue
        if engine.actor(state) is CHANCE:
            outcomes = [a for a, _ in engine.chance_outcomes(state)]
            picked = rng.sample(outcomes, min(2, len(outcomes)))
        else:
            copy = engine.state_from_json(engine.state_to_json(state))
            afresh = list(engine.legal_actions(copy))
            if rng.random() < 0.3:
                unlisted.append((state, afresh))  # its children list first
            else:
                assert list(engine.legal_actions(state)) == afresh
            picked = rng.sample(afresh, min(3, len(afresh)))
        waiting += [engine.apply_unchecked(state, a) for a in picked]
    for state, afresh in reversed(unlisted):
        assert list(engine.legal_actions(state)) == afresh


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32), limit=st.integers(0, 300))
def test_the_lays_touching_a_cell_are_those_of_the_whole_list_in_its_order(
    seed: int, limit: int
) -> None:
    """Each track cell and terminal alone, and a few sets of sites: the
    actions found from the sites are the legal actions that touch them, in the
    order the engine lists them (the reconciler keeps that order)."""
    engine = Linie1()
    state = _playout(engine, seed, limit).state
    legal = list(engine.legal_actions(state))
    touched = [(a, engine.touches(state, a)) for a in legal]
    sites = engine.sites()
    for site in sites:
        expected = [a for a, t in touched if site in t]
        assert list(engine.actions_touching(state, frozenset({site}))) == expected
    rng = random.Random(seed)
    for _ in range(10):
        some = frozenset(rng.sample(sites, 3))
        assert list(engine.actions_touching(state, some)) == [a for a, t in touched if t & some]


@settings(max_examples=6, deadline=None)
@given(seeds, options, st.data())
def test_a_state_copied_with_changes_is_the_state_built_with_them(
    seed: int, opts: dict[str, Any], data: st.DataObject
) -> None:
    from dataclasses import fields, replace

    from boardctl.engines.linie1.engine import _replace

    engine = create("linie1", opts)
    assert isinstance(engine, Linie1)
    states = _playout(engine, seed, 60).states
    state, other = data.draw(st.sampled_from(states)), data.draw(st.sampled_from(states))
    engine.legal_actions(state)  # its rails and listing worked out
    names = [f.name for f in fields(State) if not f.name.startswith("_")]
    changed = data.draw(st.lists(st.sampled_from(names), unique=True, max_size=4))
    changes = {name: getattr(other, name) for name in changed}
    copy = _replace(state, **changes)
    built = replace(state, **changes, _listing=None)
    assert copy == built and hash(copy) == hash(built)
    for name in names:
        assert getattr(copy, name) == getattr(built, name), name
    assert copy._rails is state._rails and copy._listing is None
    assert _replace(state, _rails=None)._rails is None


@settings(max_examples=10, deadline=None)
@given(seeds, st.integers(min_value=2, max_value=5), st.integers(min_value=1, max_value=2**5 - 1))
def test_beside_the_computer_a_persons_moves_never_depend_on_the_cards_it_was_dealt(
    seed: int, players: int, computers: int
) -> None:
    """Cards on the table, some seats' cards dealt by the game (the
    computer's): in random games, where people start on any line (often the
    one a computer was dealt), no line is ever held twice, and what a person
    may do and what the room sees are the same whatever cards the unshown
    computer seats hold (their lines, route cards and spare lines drawn
    again)."""
    dealt = [q for q in range(1, players) if computers >> q & 1] or [players - 1]  # seat 1 a person
    engine = create("linie1", {"players": players, "dealt_to": ",".join(str(q + 1) for q in dealt)})
    assert isinstance(engine, Linie1)
    match = _playout(engine, seed, 2 * players + 200)
    rng = random.Random(seed)
    for state in match.states[engine.spare_deals * len(dealt) + 2 * len(dealt) :]:
        held = [state.lines[q] for q in range(players) if state.shown[q] or q in dealt]
        assert len(held) == len(set(held)), "one streetcar a line"
        other = state
        for _ in range(3):  # another draw of the unshown computers' cards
            other = engine.determinize(state, 0, rng)
            p = state.player
            if p not in dealt and engine.actor(state) == p:
                assert set(engine.legal_actions(other)) == set(engine.legal_actions(state))
                assert engine.hints_public(other) == engine.hints_public(state)
            assert engine.public_view(other) == engine.public_view(state)
            assert engine.public_render(other) == engine.public_render(state)
