"""DuploLine: complete random playouts per second on one core.

Each playout starts from the empty board and picks uniformly among the legal
actions (``legal_actions`` then ``apply_unchecked``) until the game ends.

    .venv/bin/python bench/engines_duploline.py [--games N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import time

from boardctl.engines import create


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    engine = create("duploline")
    rng = random.Random(args.seed)
    actions_played = 0
    start = time.perf_counter()
    for _ in range(args.games):
        state = engine.initial()
        while True:
            actions = list(engine.legal_actions(state))
            if not actions:
                break
            state = engine.apply_unchecked(state, rng.choice(actions))
            actions_played += 1
    elapsed = time.perf_counter() - start
    print(
        f"duploline: {args.games / elapsed:.0f} random playouts/s "
        f"({args.games} games, {actions_played / args.games:.1f} actions each, {elapsed:.2f} s)"
    )


if __name__ == "__main__":
    main()
