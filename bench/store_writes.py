"""Bytes the game store writes per game: what an SD card has to take.

Each game with an engine is played to its end by random legal actions
(seeded), through :class:`~boardctl.controller.store.Store` exactly as the
daemon uses it: ``begin``, one ``record`` per action (synchronous=FULL: each
one is on the card when it returns), ``finish`` with the game record file.
The bytes handed to the kernel are counted from ``/proc/self/io``
(``wchar``: every write and pwrite of this process, the WAL, its checkpoints
into the database and the record file); the commits that reach the card one
by one are counted as the actions recorded plus ``begin`` and ``finish``.
Run in a fresh folder on the disk (not a tmpfs) so the figures include
nothing cached. Usage::

    python bench/store_writes.py [--games N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
from pathlib import Path

from boardctl.controller.store import Store
from boardctl.engines import GAMES, Match, create

#: a game that runs longer than this is cut (the figures are per action too)
MAX_ACTIONS = 400


def written() -> int:
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("wchar:"):
            return int(line.split()[1])
    raise RuntimeError("/proc/self/io has no wchar line")


def play(game: str, seed: int) -> Match:
    engine = create(game, {})
    match: Match = Match(engine)
    rng = random.Random(seed)
    while not match.outcome().over and len(match.actions) < MAX_ACTIONS:
        actions = list(engine.legal_actions(match.state))
        match.play(rng.choice(actions))
    return match


def store_game(store: Store, match: Match) -> tuple[int, int]:
    """Bytes written and commits made storing ``match``."""
    engine = match.engine
    before = written()
    store.begin(engine.name, engine.options_json(), seed=1)
    for state, action in zip(match.states, match.actions, strict=False):
        store.record(engine.format_action(action), engine.public_action(state, action))
    store.finish(match.summary())
    return written() - before, len(match.actions) + 3


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games per engine")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print("| game | actions per game | bytes written per game | per action | commits per game |")
    print("| --- | --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory(prefix="boardctl-bench-", dir=Path.cwd()) as tmp:
        for n, game in enumerate(sorted(GAMES)):
            folder = Path(tmp) / game
            folder.mkdir()
            sizes, actions, commits = [], [], []
            with Store(folder / "games.db", records_dir=folder / "records") as store:
                for g in range(args.games):
                    match = play(game, args.seed * 1000 + n * 100 + g)
                    size, count = store_game(store, match)
                    sizes.append(size)
                    actions.append(len(match.actions))
                    commits.append(count)
            per_action = sum(sizes) / max(1, sum(actions))
            print(
                f"| {game} | {statistics.median(actions):.0f} "
                f"| {statistics.median(sizes) / 1024:.0f} KiB "
                f"| {per_action / 1024:.1f} KiB "
                f"| {statistics.median(commits):.0f} |"
            )
            db = folder / "games.db"
            wal = folder / "games.db-wal"
            print(
                f"|   (after {args.games} games: database {db.stat().st_size / 1024:.0f} KiB, "
                f"WAL {wal.stat().st_size / 1024 if wal.exists() else 0:.0f} KiB) | | | | |",
                file=sys.stderr,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
