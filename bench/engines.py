"""Random complete playouts per second for every game in the engine registry.

Run: ``.venv/bin/python bench/engines.py [--seconds S]``. One core, one process:
each configuration plays uniformly random games from the start until the game
is over, through the engine interface only (``legal_actions``,
``apply_unchecked``, ``outcome``; where chance acts, ``chance_outcomes`` drawn
by their weights), for a fixed wall-clock time.
Each game is measured with its defaults, each other variant it declares, and
the same with the most players it allows, so a newly added engine is measured
without changes here.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from boardctl.engines import CHANCE, GAMES, create, engine_class
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
    start = time.perf_counter()
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
        now = time.perf_counter()
        if now >= deadline:
            return games / (now - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per configuration")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for game in sorted(GAMES):
        for options in configs(game):
            rate = playouts_per_second(game, options, args.seconds, args.seed)
            label = ", ".join(f"{k}={v}" for k, v in options.items()) or "defaults"
            print(f"{game:10} {label:32} {rate:9,.0f} playouts/s")


if __name__ == "__main__":
    main()
