"""Linie 1's route count for one streetcar (the computer's evaluation) against
a plain search that walks the car state by state.

The count the computer uses runs every set of stops at once in wide masks
(``evaluate._one_car``); here a 0-1 breadth-first search over (cell, side the
car came in by, stops made), one state at a time, written from the rules the
count stands for: rails laid are followed at no cost, an empty cell costs a
tile and is left by any side but the one the car came in by, a stop is made
in its sign's cell or, with no sign yet, in an empty cell beside its
building, and the car leaves by a mouth of its last terminal. Both must
agree on every count and on the cells reached per number of tiles (which
give where the computer lays, ``corridor``), over random positions.
"""

from __future__ import annotations

import json
import random
from collections import deque
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from boardctl.engines import CHANCE, create
from boardctl.engines.linie1 import Linie1, State
from boardctl.engines.linie1.evaluate import FAR, Flood, Network, _one_car

#: the 4 x 4 test board of the trip records (routes of one and two stops)
SMALL = json.loads(
    (
        Path(__file__).parent / "records" / "linie1" / "trip_die_number_drives_that_many_cells.json"
    ).read_text()
)["options"]["board_data"]

Car = tuple[int, int, int]  # (cell, side it came in by, stops made as bits)


def _walk(
    engine: Linie1, state: State, need: int, begin: int, end: int
) -> tuple[dict[Car, int], set[Car]] | None:
    """The fewest tiles to each state of the car from terminal ``begin``,
    and the states it may leave by into terminal ``end`` (with every stop
    made); None when a stop has no cell to be made in, or a terminal no
    mouth to use."""
    geo = engine.geo
    tiles = state.tiles
    track = set(geo.track_cells)
    goals: list[set[int]] = []
    for b in range(len(geo.building_letters)):
        if need >> b & 1:
            sign = state.stops[b]
            if sign >= 0:
                goals.append({sign})
            else:
                goals.append(
                    {c for c in geo.track_cells if geo.beside[c] >> b & 1 and not tiles[c]}
                )
    full = (1 << len(goals)) - 1
    leave: set[Car] = set()
    for cell, side in geo.terminals[end].mouths:
        code = tiles[cell]
        for d in range(4):
            if (not code and d != side) or (code and side in geo.exits[code][d]):
                leave.add((cell, d, full))
    starts: list[tuple[int, Car]] = []
    for cell, side in geo.terminals[begin].mouths:
        code = tiles[cell]
        if not code:
            starts.append((1, (cell, side, 0)))
        elif geo.sides[code] >> side & 1:
            starts.append((0, (cell, side, 0)))
    if not leave or not starts or not all(goals):
        return None

    def stopping(cell: int, side: int, made: int) -> set[Car]:
        """The car in ``cell`` and every set of stops it may make there."""
        out = {made}
        for i, goal in enumerate(goals):
            if cell in goal:
                out |= {m | 1 << i for m in out}
        return {(cell, side, m) for m in out}

    tiles_to: dict[Car, int] = {}
    queue: deque[tuple[int, Car]] = deque()

    def reach(car: Car, cost: int, cheap: bool) -> None:
        if cost < tiles_to.get(car, FAR + 99):
            tiles_to[car] = cost
            if cheap:
                queue.appendleft((cost, car))
            else:
                queue.append((cost, car))

    for cost, (cell, side, _) in starts:
        for car in stopping(cell, side, 0):
            reach(car, cost, cost == 0)
    done: set[Car] = set()
    while queue:
        cost, car = queue.popleft()
        if car in done or tiles_to[car] < cost:
            continue
        done.add(car)
        cell, came, made = car
        code = tiles[cell]
        for out in geo.exits[code][came] if code else [d for d in range(4) if d != came]:
            there = cell + geo.offsets[out]
            if there not in track:
                continue
            side = (out + 2) & 3
            if not tiles[there]:
                for nxt in stopping(there, side, made):
                    reach(nxt, cost + 1, False)
            elif geo.sides[tiles[there]] >> side & 1:
                for nxt in stopping(there, side, made):
                    reach(nxt, cost, True)
    return tiles_to, leave


def _walked(
    engine: Linie1, state: State, need: int, begin: int, end: int
) -> tuple[int, list[list[int]]]:
    """The plain search's answer in the count's terms: the fewest tiles
    (:data:`FAR` at most) and, per number of tiles up to it (or up to the
    last that reached anything new), per set of stops, the cells reached."""
    walked = _walk(engine, state, need, begin, end)
    if walked is None:
        return FAR, []
    tiles_to, leave = walked
    fewest = min((tiles_to[car] for car in leave if car in tiles_to), default=FAR + 1)
    if fewest <= FAR:
        last = fewest
    else:
        fewest, last = FAR, min(FAR, max(tiles_to.values()))
    sets = 1 << bin(need).count("1")
    reached = [[0] * sets for _ in range(last + 1)]
    for (cell, _, made), cost in tiles_to.items():
        for level in range(cost, last + 1):
            reached[level][made] |= 1 << cell
    return fewest, reached


def _positions(engine: Linie1, seed: int, every: int) -> list[State]:
    """Every ``every``-th position of a random game (chance by its weights)."""
    rng = random.Random(seed)
    state = engine.initial()
    out = []
    for ply in range(400):
        actor = engine.actor(state)
        if actor is None:
            break
        if actor is CHANCE:
            outcomes = engine.chance_outcomes(state)
            action = rng.choices([a for a, _ in outcomes], [w for _, w in outcomes])[0]
        else:
            action = rng.choice(list(engine.legal_actions(state)))
        state = engine.apply_unchecked(state, action)
        if ply % every == 0:
            out.append(state)
    return out


def _agree(engine: Linie1, state: State, rng: random.Random, routes: int) -> int:
    """Count ``routes`` random (line, route card) pairs both ways and with
    and without the cells reached; assert the two searches agree. How many
    counts were short of :data:`FAR`."""
    net = Network(engine)
    flood = Flood(net, state.tiles)
    lines = len(engine.geo.data.lines)
    found = 0
    for _ in range(routes):
        line, card = rng.randrange(lines), rng.randrange(len(engine.cards))
        need = engine.need[card][line]
        for begin, end in ((line * 2, line * 2 + 1), (line * 2 + 1, line * 2)):
            want = _walked(engine, state, need, begin, end)
            got = _one_car(net, flood, state, need, begin, end, True)
            assert got == want, (state.tiles.hex(), state.stops, line, card, begin)
            assert _one_car(net, flood, state, need, begin, end, False) == (want[0], [])
            found += want[0] < FAR
    return found


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    players=st.integers(min_value=2, max_value=5),
    small=st.booleans(),
)
def test_the_route_count_is_that_of_a_car_walked_state_by_state(
    seed: int, players: int, small: bool
) -> None:
    options: dict[str, object] = {"secrets": "dealt", "players": 2 if small else players}
    if small:
        options["board_data"] = SMALL
    engine = create("linie1", options)
    assert isinstance(engine, Linie1)
    rng = random.Random(seed)
    for state in _positions(engine, seed, 9 if small else 37):
        _agree(engine, state, rng, 3)


def test_the_route_counts_compared_are_mostly_buildable_and_reach_stop_signs() -> None:
    """The comparison above is no vacuous one: on the reference board, over
    a random game, most counts find a route, and some positions have stop
    signs on the board."""
    engine = create("linie1", {"secrets": "dealt"})
    assert isinstance(engine, Linie1)
    rng = random.Random(5)
    positions = _positions(engine, 5, 25)
    found = sum(_agree(engine, state, rng, 3) for state in positions)
    assert found > 3 * len(positions)  # of 6 counts a position
    assert any(cell >= 0 for state in positions for cell in state.stops)
