"""How long the statistics take to read (the latest 2,000 finished games
read from SQLite through a read-only connection of their own, counted, and,
for the CSV, written out), and to draw every plot. They run on the web
server's helper thread and the broker's, never the loop's.

    python bench/stats.py [--games 2000] [--moves 40]

The games are written into a fresh database first (synchronous writes off
for the setup only); the figures are the best and median of 20 runs.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from boardctl import plots
from boardctl.controller.store import Store
from boardctl.daemon.statistics import Statistics


def _timed(what: str, run: object, times: int = 20) -> None:
    spent = []
    for _ in range(times):
        t0 = time.perf_counter()
        run()  # type: ignore[operator]
        spent.append((time.perf_counter() - t0) * 1000)
    print(f"{what}: best {min(spent):.1f} ms, median {statistics.median(spent):.1f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--moves", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-stats-") as folder:
        store = Store(Path(folder) / "games.db", clock=iter(range(10**9)).__next__)
        store._db.execute("PRAGMA synchronous=OFF")
        for n in range(args.games):
            store.begin("shiftago", {"players": 2, "variant": "express"})
            for m in range(args.moves):
                store.record(f"W{m % 7 + 1}")
            store.finish({"winner": n % 3 if n % 3 < 2 else None, "scores": None})
        reader = Statistics(Path(folder) / "games.db")
        print(f"{args.games} finished games of {args.moves} moves each")
        _timed("read and counted", reader.summary)
        _timed("every game as CSV", reader.csv)
        summary = reader.summary()
        palettes = plots.palettes(sorted(summary["by_game"]))
        _timed(
            "every plot drawn",
            lambda: [plots.plot(name, summary, palettes) for name in plots.names(summary)],
        )
        store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
