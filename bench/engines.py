"""Per game: random complete playouts per second, and what a search does at
every position it looks at: list the legal actions, apply one, evaluate.

Run: ``.venv/bin/python bench/engines.py [--seconds S] [--game NAME ...]
[--set KEY=VALUE ...]`` (``--set secrets=dealt``: an option for every
configuration measured).
One core, one process, through the engine interface only.

* **playouts/s**: uniformly random games from the start until the game is
  over (``legal_actions``, ``apply_unchecked``, ``outcome``; where chance
  acts, ``chance_outcomes`` drawn by their weights), for a fixed wall-clock
  time.
* **listings/s**: the legal actions of one position listed whole (every
  action made and put in a list), over the positions of random games, each
  as play reaches it: the games are played again from their start for each
  round of measuring, every position listed before its action is applied, so
  nothing an engine keeps with a position (or with its parent's) was made by
  an earlier round. Each listing is timed by the wall clock, scaled by the
  share of processor time the process had over the round.
* **applies/s**: ``apply_unchecked`` of a legal action (the states are
  immutable: undoing is dropping the new state, so apply is apply and undo).
* **evaluations/s**: ``evaluate`` of those positions (the computer's hot path).

Each game is measured with its defaults, each other variant it declares, and
the same with the most players it allows, so a newly added engine is measured
without changes here. Rates are per second of this process's processor time
(``time.process_time``), which other work on a shared machine disturbs less
than the wall clock; the load average is printed with the figures all the
same: they are only comparable from one run, or on a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from typing import Any

from boardctl.engines import CHANCE, GAMES, Engine, create, engine_class
from boardctl.errors import BoardctlError


def configs(game: str) -> list[dict[str, Any]]:
    """The option sets measured for ``game``, read from its engine: the
    defaults, each other variant, and the same with the most players it allows."""
    default = create(game)
    variants = [
        v for v in engine_class(game).variants if v != default.options_json().get("variant")
    ]
    seats = [n for n in range(2, 9) if _accepts(game, {"players": n})]
    most = [{"players": max(seats)}] if seats and max(seats) != default.players else []
    return [
        {**size, **variant}
        for size in [{}, *most]
        for variant in [{}, *({"variant": v} for v in variants)]
    ]


def _accepts(game: str, options: dict[str, Any]) -> bool:
    try:
        create(game, options)
    except BoardctlError:
        return False
    return True


def _step(engine: Engine[Any, Any], state: Any, rng: random.Random) -> Any:
    """A random legal action (chance: drawn by its weight)."""
    if engine.actor(state) is CHANCE:
        outcomes = engine.chance_outcomes(state)
        return rng.choices([a for a, _ in outcomes], [w for _, w in outcomes])[0]
    return rng.choice(list(engine.legal_actions(state)))


def playouts_per_second(game: str, options: dict[str, Any], seconds: float, seed: int) -> float:
    engine = create(game, options)
    rng = random.Random(seed)
    choice = rng.choice
    legal, apply, outcome, initial, actor = (
        engine.legal_actions,
        engine.apply_unchecked,
        engine.outcome,
        engine.initial,
        engine.actor,
    )
    games = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        state = initial()
        while not outcome(state).over:
            if actor(state) is CHANCE:
                outcomes = engine.chance_outcomes(state)
                drawn = rng.choices([a for a, _ in outcomes], [w for _, w in outcomes])[0]
                state = apply(state, drawn)
                continue
            state = apply(state, choice(list(legal(state))))
        games += 1
        now = time.process_time()
        if now >= deadline:
            return games / (now - start)


def samples(engine: Engine[Any, Any], count: int, seed: int) -> list[tuple[Any, Any]]:
    """(position, a legal action of the player to act there) from random
    games, ``count`` of them, spread over whole games."""
    rng = random.Random(seed)
    out: list[tuple[Any, Any]] = []
    while len(out) < count:
        state = engine.initial()
        while not engine.outcome(state).over and len(out) < count:
            action = _step(engine, state, rng)
            if isinstance(engine.actor(state), int):
                out.append((state, action))
            state = engine.apply_unchecked(state, action)
    return out


def games(engine: Engine[Any, Any], count: int, seed: int) -> list[list[Any]]:
    """The actions of random games, chance's included, from their start: as
    many games as hold ``count`` positions where a player acts."""
    rng = random.Random(seed)
    out: list[list[Any]] = []
    players = 0
    while players < count:
        state = engine.initial()
        played: list[Any] = []
        while not engine.outcome(state).over and players < count:
            action = _step(engine, state, rng)
            players += isinstance(engine.actor(state), int)
            played.append(action)
            state = engine.apply_unchecked(state, action)
        out.append(played)
    return out


def listings_per_second(engine: Engine[Any, Any], played: list[list[Any]], seconds: float) -> float:
    """Listings per processor second over the positions of ``played``, each
    listed whole as play reaches it (see the module's words)."""
    legal, apply, actor, initial = (
        engine.legal_actions,
        engine.apply_unchecked,
        engine.actor,
        engine.initial,
    )
    clock = time.perf_counter
    done = 0
    spent = 0.0
    while spent < seconds:
        wall = 0.0
        count = 0
        cpu0, wall0 = time.process_time(), clock()
        for actions in played:
            state = initial()
            for action in actions:
                if isinstance(actor(state), int):
                    start = clock()
                    list(legal(state))
                    wall += clock() - start
                    count += 1
                state = apply(state, action)
        share = (time.process_time() - cpu0) / (clock() - wall0)
        spent += wall * min(share, 1.0)
        done += count
    return done / spent


def _rate(work: Any, seconds: float) -> float:
    """Calls per processor second of the calls ``work()`` makes ready, a
    fresh batch at a time, for about ``seconds`` (making the batch is not timed)."""
    done = 0
    spent = 0.0
    while spent < seconds:
        batch = work()
        start = time.process_time()
        for item in batch:
            item()
        spent += time.process_time() - start
        done += len(batch)
    return done / spent


def hot_path(
    game: str, options: dict[str, Any], seconds: float, seed: int
) -> tuple[float, float, float]:
    """Listings, applies and evaluations per second, over positions of random games."""
    engine = create(game, options)
    pairs = samples(engine, 300, seed)
    played = games(engine, 300, seed)
    apply, evaluate = engine.apply_unchecked, engine.evaluate

    def applies() -> list[Any]:
        return [lambda s=s, a=a: apply(s, a) for s, a in pairs]

    def evaluations() -> list[Any]:
        return [lambda s=s: evaluate(s) for s, _ in pairs]

    third = seconds / 3
    listing = listings_per_second(engine, played, third)
    return listing, _rate(applies, third), _rate(evaluations, third)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per configuration")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--game", action="append", choices=sorted(GAMES), help="a game (repeat; default all)"
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="an option for every configuration measured (repeat), e.g. secrets=dealt",
    )
    args = parser.parse_args()
    extra: dict[str, Any] = {}
    for item in args.set:
        key, _, value = item.partition("=")
        try:
            extra[key] = json.loads(value)
        except json.JSONDecodeError:
            extra[key] = value
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average at start: {load}")
    print(
        f"{'game':10} {'options':26} {'playouts/s':>11} {'listings/s':>11} {'applies/s':>11} "
        f"{'evaluations/s':>13}"
    )
    for game in args.game or sorted(GAMES):
        for options in [{**o, **extra} for o in configs(game)]:
            rate = playouts_per_second(game, options, args.seconds, args.seed)
            listing, applying, evaluating = hot_path(game, options, args.seconds, args.seed)
            label = ", ".join(f"{k}={v}" for k, v in options.items()) or "defaults"
            print(
                f"{game:10} {label:26} {rate:11,.0f} {listing:11,.0f} {applying:11,.0f} "
                f"{evaluating:13,.0f}"
            )
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average at the end: {load}")


if __name__ == "__main__":
    main()
