"""The daemon's random source for chance's outcomes (dice, draws).

Each game gets a seed when it begins, stored with it. The outcome of action
number ``ply`` is drawn from a generator seeded with the game's seed and that
number, so a resumed game draws exactly what it would have drawn, an outcome
taken back is drawn again the same (an undo is no second throw of the die), and
the same seed gives the same game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence


class RandomChance:
    """Seeds from ``seeds`` (a system-seeded generator by default); draws
    by weight from a generator seeded with the game's seed and the ply."""

    def __init__(self, seeds: random.Random | None = None) -> None:
        self._seeds = seeds or random.Random()

    def new_seed(self) -> int:
        return self._seeds.getrandbits(62)

    def draw(self, seed: int, ply: int, weights: Sequence[int]) -> int:
        if not weights:
            raise ValueError("there is no outcome to draw from")
        rng = random.Random(f"{seed}/{ply}")
        return rng.choices(range(len(weights)), weights=weights)[0]
