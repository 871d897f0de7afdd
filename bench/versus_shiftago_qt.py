"""Our Shiftago Express opponent against Shiftago-Qt's alpha-beta.

Shiftago-Qt (github.com/GermanWeisenheimer/Shiftago-Qt) is the strongest public
Shiftago program we know: an alpha-beta search of depth 2 (its "rookie") to 5
("grandmaster") with an evaluation of partial lines. This bench plays our levels
against its skill levels in two-player Express, colours alternated, and prints a
table: games won, drawn and lost, and the seconds each side thought per move.

It needs a checkout of Shiftago-Qt, which is not part of this project and is
never copied into it: clone it anywhere and name the folder.

Run: ``.venv/bin/python bench/versus_shiftago_qt.py --source DIR [--games N]
[--levels 3,5] [--depths 2,3,4]``. Our engine referees every game; each move
is mirrored onto Shiftago-Qt's own board, and the two boards are compared after
every move, so a difference in the rules (or in the mapping of the tracks)
stops the bench instead of skewing it.
"""

from __future__ import annotations

import argparse
import datetime
import multiprocessing
import os
import platform
import random
import statistics
import sys
import time
from dataclasses import dataclass
from typing import Any

from boardctl.computer import level as level_of
from boardctl.computer import think
from boardctl.engines import create
from boardctl.engines.shiftago.geometry import FILES, SIZE

#: Shiftago-Qt's skill levels by their search depth (its depth is 2 + skill)
SKILLS = {2: "ROOKIE", 3: "ADVANCED", 4: "EXPERT", 5: "GRANDMASTER"}


@dataclass(frozen=True)
class Task:
    source: str
    level: int
    depth: int
    number: int


@dataclass(frozen=True)
class Result:
    task: Task
    #: our side's result: 1 won, 0.5 drawn, 0 lost
    score: float
    ours: tuple[float, ...]
    theirs: tuple[float, ...]


def _their_move(qt: Any, track: str) -> Any:
    """Shiftago-Qt's move for our track name: its sides are named by the
    board's edges, its slots (horizontal, vertical) map onto our (file, row)."""
    side = {"W": qt.Side.LEFT, "E": qt.Side.RIGHT, "S": qt.Side.TOP, "N": qt.Side.BOTTOM}
    edge, rest = track[0], track[1:]
    position = int(rest) - 1 if edge in "WE" else FILES.index(rest)
    return qt.Move(side[edge], position)


def _our_track(move: Any) -> str:
    name = move.side.name
    if name in ("LEFT", "RIGHT"):
        return f"{'W' if name == 'LEFT' else 'E'}{move.position + 1}"
    return f"{'S' if name == 'TOP' else 'N'}{FILES[move.position]}"


def _same_board(qt: Any, game: Any, engine: Any, state: Any, colours: tuple[Any, Any]) -> bool:
    layout = engine.layout(state)
    for row in range(SIZE):
        for col in range(SIZE):
            mine = layout.get(f"{FILES[col]}{row + 1}")
            theirs = game.colour_at(qt.Slot(col, row))
            expected = None if mine is None else colours[int(mine[1:])]
            if theirs != expected:
                return False
    return True


def play(task: Task) -> Result:
    sys.path.insert(0, task.source)
    import shiftago.core as qt  # type: ignore[import-not-found]
    from shiftago.core.express import ShiftagoExpress  # type: ignore[import-not-found]
    from shiftago.core.express_ai import AlphaBetaPruning  # type: ignore[import-not-found]

    engine = create("shiftago", {"variant": "express", "players": 2})
    state = engine.initial()
    ours_first = task.number % 2 == 0
    colours = (qt.Colour.BLUE, qt.Colour.ORANGE)
    game = ShiftagoExpress(colours=list(colours))
    ai = AlphaBetaPruning(qt.SkillLevel[SKILLS[task.depth]])
    level = level_of(task.level)
    rng = random.Random(f"versus/{task.number}")
    ours: list[float] = []
    theirs: list[float] = []
    # a few random opening insertions, the same for both colourings of a pair
    opening = random.Random(f"opening/{task.number // 2}")
    for _ in range(2):
        track = opening.choice([engine.format_action(a) for a in engine.legal_actions(state)])
        state = engine.apply(state, engine.parse_action(track))
        game.apply_move(_their_move(qt, track))
    while not engine.outcome(state).over:
        mover = engine.to_move(state)
        start = time.perf_counter()
        if (mover == 0) == ours_first:
            track = engine.format_action(think(engine, state, level, rng).action)
            ours.append(time.perf_counter() - start)
        else:
            track = _our_track(ai.select_move(game))
            theirs.append(time.perf_counter() - start)
        state = engine.apply(state, engine.parse_action(track))
        game.apply_move(_their_move(qt, track))
        if not _same_board(qt, game, engine, state, colours):
            raise SystemExit(f"the boards differ after {track}: the mapping or the rules disagree")
    winner = engine.outcome(state).winner
    us = 0 if ours_first else 1
    score = 0.5 if winner is None else float(winner == us)
    return Result(task, score, tuple(ours), tuple(theirs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", required=True, help="a checkout of Shiftago-Qt")
    parser.add_argument("--games", type=int, default=10, help="games per pair (even)")
    parser.add_argument("--levels", default="3,5", help="our levels, e.g. 3,5")
    parser.add_argument("--depths", default="2,3,4", help="Shiftago-Qt's depths, 2 to 5")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    levels = [int(x) for x in args.levels.split(",")]
    depths = [int(x) for x in args.depths.split(",")]
    if not os.path.isdir(os.path.join(args.source, "shiftago", "core")):
        raise SystemExit(f"{args.source}: not a checkout of Shiftago-Qt (no shiftago/core)")
    tasks = [
        Task(args.source, lv, d, n) for lv in levels for d in depths for n in range(args.games)
    ]
    print(f"command: {' '.join(sys.argv)}")
    print(f"date: {datetime.datetime.now().isoformat(timespec='minutes')}")
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    print(f"load average at start: {', '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    with multiprocessing.Pool(args.workers) as pool:
        results = pool.map(play, tasks)
    print(
        "| ours | Shiftago-Qt | won | drawn | lost | score | ours s/move median, max "
        "| theirs s/move median, max |"
    )
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for lv in levels:
        for d in depths:
            got = [r for r in results if r.task.level == lv and r.task.depth == d]
            won = sum(r.score == 1 for r in got)
            drawn = sum(r.score == 0.5 for r in got)
            ours = [t for r in got for t in r.ours]
            theirs = [t for r in got for t in r.theirs]
            print(
                f"| L{lv} {level_of(lv).name} | depth {d} ({SKILLS[d].lower()}) | {won} | {drawn} "
                f"| {len(got) - won - drawn} | {100 * sum(r.score for r in got) / len(got):.0f} % "
                f"| {statistics.median(ours):.2f}, {max(ours):.2f} "
                f"| {statistics.median(theirs):.2f}, {max(theirs):.2f} |"
            )


if __name__ == "__main__":
    main()
