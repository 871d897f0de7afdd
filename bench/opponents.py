"""The computer opponent's strength ladder: each level against the one below,
against a random player and against a greedy one-ply player, per game.

Run: ``.venv/bin/python bench/opponents.py [--games N] [--game NAME ...]
[--levels] [--workers 2] [--progress]`` (``make ladder`` runs the full ladder). Not a test:
it prints its figures.

Games are played in pairs from the same opening (``--opening`` random actions,
drawn from a fixed seed; by default two, none in bidiline: see
:data:`OPENINGS`), the two sides swapping colours, so neither side keeps the
first move; every player's random source is seeded from the game's
number, so a run repeats exactly (the times aside). With three or four
players the level under test takes one seat in turn and the opponent all the
others; its fair share is then 1/n. Score: a win 1, a draw 1/n, a loss 0.
The score is also split by the player's seat (seat 1 moves first after the
opening), which shows a game whose result the first move decides.

Times are processor seconds of the process that thinks (``time.process_time``),
which other work on a shared machine disturbs less than the wall clock.
``--levels`` also measures seconds per move of every level from typical
midgame positions (``--positions`` of them, reached by random play), and each
game runs in a process of its own, so the peak resident memory of the
processes that played level 5 is that of one game (``resource.getrusage``).
Two worker processes by default: this machine has two cores.
"""

from __future__ import annotations

import argparse
import datetime
import multiprocessing
import os
import platform
import random
import resource
import statistics
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from boardctl.computer import LEVELS, greedy_action, random_action, think
from boardctl.engines import CHANCE, Engine, create
from boardctl.engines.playing import terminal_values

#: the games of the ladder: name -> (game, options)
CONFIGS: dict[str, tuple[str, dict[str, Any]]] = {
    "shiftago": ("shiftago", {}),
    "duploline": ("duploline", {}),
    "bidiline": ("bidiline", {}),
    "beeline": ("beeline", {}),
    "linie1": ("linie1", {"secrets": "dealt"}),
    "shiftago-expert": ("shiftago", {"variant": "expert"}),
    "shiftago-3p": ("shiftago", {"players": 3}),
    "shiftago-4p-expert": ("shiftago", {"players": 4, "variant": "expert"}),
}
DEFAULT_GAMES = ("shiftago", "duploline", "bidiline")
#: random actions that open each game, per game (``--opening`` overrides):
#: two by default, so the pairs start from varied positions; none in
#: bidiline, whose first two sticks mostly decide the race (from two random
#: sticks, about 40 % of games are drawn however well amber plays, and
#: every level that reads the race plays alike from there): its games start
#: from the empty board, as people play them, and differ by the seeds
OPENINGS: dict[str, int] = {"bidiline": 0}
DEFAULT_OPENING = 2


def pairs(
    levels: list[int], steps_only: bool = False, baselines_only: bool = False
) -> list[tuple[str, str]]:
    """(player, opponent): each level against the one below (unless
    ``baselines_only``), then (unless ``steps_only``) against the random and
    the greedy player."""
    out = [] if baselines_only else [(f"L{n}", f"L{n - 1}") for n in levels if n > 1]
    if not steps_only:
        out += [(f"L{n}", "random") for n in levels]
        out += [(f"L{n}", "greedy") for n in levels]
    return out


@dataclass
class Task:
    config: str
    player: str
    opponent: str
    number: int
    opening: int
    seed: int


@dataclass
class Result:
    task: Task
    #: the player's share of the result: 1 win, 1/n draw, 0 loss
    score: float
    won: bool
    drawn: bool
    actions: int
    #: the player's seat (0 moves first)
    seat: int = 0
    #: seconds per action, by who acted ("L3", ...)
    times: dict[str, list[float]] = field(default_factory=dict)
    #: peak resident memory of the process, kB
    rss_kb: int = 0
    #: the game's actions in order, as text (to count distinct games)
    line: str = ""


def _act(who: str, engine: Engine[Any, Any], state: Any, rng: random.Random) -> Any:
    if who == "random":
        return random_action(engine, state, rng)
    if who == "greedy":
        return greedy_action(engine, state, rng)
    return think(engine, state, LEVELS[int(who[1:]) - 1], rng).action


def play(task: Task) -> Result:
    """One game of the task's pair, in this process."""
    game, options = CONFIGS[task.config]
    engine = create(game, options)
    n = engine.players
    pair_number, swap = divmod(task.number, 2)
    opening_rng = random.Random(f"{task.config}/{task.seed}/opening/{pair_number}")
    seat_of_player = (pair_number + swap) % n if n > 2 else swap
    seats = [task.opponent] * n
    seats[seat_of_player] = task.player
    rngs = [random.Random(f"{task.config}/{task.seed}/{task.number}/{s}") for s in range(n)]
    state = engine.initial()
    for _ in range(task.opening):
        if engine.actor(state) is None:
            break
        state = engine.apply_unchecked(state, random_action(engine, state, opening_rng))
    times: dict[str, list[float]] = defaultdict(list)
    actions = 0
    line = []
    chance_rng = random.Random(f"{task.config}/{task.seed}/{task.number}/chance")
    while (actor := engine.actor(state)) is not None:
        if actor is CHANCE:
            action = random_action(engine, state, chance_rng)
        else:
            who = seats[actor]
            start = time.process_time()
            action = _act(who, engine, state, rngs[actor])
            times[who].append(time.process_time() - start)
        state = engine.apply(state, action)
        line.append(repr(action))
        actions += 1
    outcome = engine.outcome(state)
    shares = terminal_values(n, outcome.winner)
    score = shares[seat_of_player]
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return Result(
        task,
        score,
        outcome.winner == seat_of_player,
        outcome.winner is None,
        actions,
        seat_of_player,
        dict(times),
        rss,
        " ".join(line),
    )


def midgame(engine: Engine[Any, Any], rng: random.Random, plies: int) -> Any:
    """A position after ``plies`` random actions with a player to act (retried)."""
    while True:
        state = engine.initial()
        for _ in range(plies):
            if engine.actor(state) is None:
                break
            state = engine.apply_unchecked(state, random_action(engine, state, rng))
        if isinstance(engine.actor(state), int):
            return state


#: random actions to a typical midgame position, per game
MIDGAME = {"shiftago": 16, "duploline": 16, "bidiline": 10, "beeline": 16, "linie1": 60}


def time_levels(config: str, positions: int, seed: int) -> dict[int, list[float]]:
    """Seconds per move of each level from ``positions`` midgame positions."""
    game, options = CONFIGS[config]
    engine = create(game, options)
    rng = random.Random(f"{config}/{seed}/midgame")
    states = [midgame(engine, rng, MIDGAME[game] + rng.randrange(6)) for _ in range(positions)]
    out: dict[int, list[float]] = {}
    for lv in LEVELS:
        took = []
        for i, state in enumerate(states):
            start = time.process_time()
            think(engine, state, lv, random.Random(i))
            took.append(time.process_time() - start)
        out[lv.number] = took
    return out


def _time_levels_task(args: tuple[str, int, int]) -> tuple[str, dict[int, list[float]], int]:
    config, positions, seed = args
    took = time_levels(config, positions, seed)
    return config, took, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def opening(config: str, asked: int | None) -> int:
    """Random actions that open each game of ``config``: ``asked``, else
    the game's default."""
    if asked is not None:
        return asked
    return OPENINGS.get(CONFIGS[config][0], DEFAULT_OPENING)


def _levels(text: str) -> list[int]:
    if "-" in text:
        lo, hi = text.split("-")
        return list(range(int(lo), int(hi) + 1))
    return [int(x) for x in text.split(",")]


def _games_for(pair: tuple[str, str], games: int, slow: int | None) -> int:
    if slow is not None and pair[0] in ("L5",) and pair[1].startswith("L"):
        return slow
    return games


def _percent(scores: list[float]) -> str:
    return f"{100 * sum(scores) / len(scores):.0f} %" if scores else "-"


def report(config: str, results: list[Result], games: int) -> None:
    game, options = CONFIGS[config]
    label = ", ".join(f"{k}={v}" for k, v in options.items()) or "defaults"
    n = create(game, options).players
    openings = sorted({r.task.opening for r in results})
    print(f"\n### {config} ({game}, {label})\n")
    print(f"random actions opening each game: {', '.join(map(str, openings)) or '-'}\n")
    print(
        "| player | opponent | won | drawn | lost | score | games | fair share "
        "| score in seat 1 | in the other seats |"
    )
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    by_pair: dict[tuple[str, str], list[Result]] = defaultdict(list)
    for r in results:
        by_pair[(r.task.player, r.task.opponent)].append(r)
    order = sorted(by_pair, key=lambda p: ({"random": 1, "greedy": 2}.get(p[1], 0), p[0]))
    for pair in order:
        rs = by_pair[pair]
        won = sum(r.won for r in rs)
        drawn = sum(r.drawn for r in rs)
        lost = len(rs) - won - drawn
        score = 100 * sum(r.score for r in rs) / len(rs)
        first = _percent([r.score for r in rs if r.seat == 0])
        other = _percent([r.score for r in rs if r.seat != 0])
        print(
            f"| {pair[0]} | {pair[1]} | {won} | {drawn} | {lost} | {score:.0f} % | {len(rs)} "
            f"| {100 / n:.0f} % | {first} | {other} |"
        )
    distinct = [
        f"{p[0]}/{p[1]} {len({r.line for r in by_pair[p]})} of {len(by_pair[p])}" for p in order
    ]
    print(f"\ndistinct games (after the opening, as actions): {', '.join(distinct)}")
    times: dict[str, list[float]] = defaultdict(list)
    for r in results:
        for who, ts in r.times.items():
            times[who].extend(ts)
    print("\n| level | processor seconds per move in games, median | max | moves |")
    print("| --- | ---: | ---: | ---: |")
    for who in sorted(t for t in times if t.startswith("L")):
        ts = times[who]
        print(f"| {who} | {statistics.median(ts):.3f} | {max(ts):.3f} | {len(ts)} |")
    rss = [r.rss_kb for r in results if "L5" in (r.task.player, r.task.opponent)]
    if rss:
        print(f"\npeak resident memory of a process that played level 5: {max(rss) / 1024:.1f} MB")
    sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games per pair (even)")
    parser.add_argument(
        "--slow-games",
        type=int,
        default=None,
        help="games for level 5 against level 4 (the slowest pair); --games if unset",
    )
    parser.add_argument(
        "--game",
        action="append",
        choices=sorted(CONFIGS),
        help=f"a game of the ladder (repeat for more; default {', '.join(DEFAULT_GAMES)})",
    )
    parser.add_argument("--ladder", default="1-5", help="levels to play, e.g. 1-5 or 2,3")
    parser.add_argument(
        "--levels", action="store_true", help="also time every level from midgame positions"
    )
    parser.add_argument("--positions", type=int, default=20, help="positions per game timed")
    parser.add_argument(
        "--steps", action="store_true", help="only each level against the one below"
    )
    parser.add_argument(
        "--baselines",
        action="store_true",
        help="only each level against the random and the greedy player",
    )
    parser.add_argument(
        "--opening",
        type=int,
        default=None,
        help=f"random actions to open a game (default {DEFAULT_OPENING}; bidiline 0)",
    )
    parser.add_argument(
        "--progress", action="store_true", help="print each game's result as it ends (stderr)"
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    configs = args.game or list(DEFAULT_GAMES)
    levels = _levels(args.ladder)
    started = time.time()
    print(f"command: {' '.join(['bench/opponents.py', *sys.argv[1:]])}")
    print(f"date: {datetime.datetime.now().isoformat(timespec='minutes')}")
    python = platform.python_version()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {python}")
    print(f"load average at start: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    tasks = [
        Task(config, player, opponent, number, opening(config, args.opening), args.seed)
        for config in configs
        for player, opponent in pairs(levels, args.steps, args.baselines)
        for number in range(_games_for((player, opponent), args.games, args.slow_games))
    ]
    # the slowest games first, so the two workers finish together
    weight = {"random": 0, "greedy": 0}
    tasks.sort(key=lambda t: -(int(t.player[1:]) * 2 + weight.get(t.opponent, 1)))
    results: dict[str, list[Result]] = defaultdict(list)
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(args.workers, maxtasksperchild=1) as pool:
        if args.levels:
            timed = pool.map(_time_levels_task, [(c, args.positions, args.seed) for c in configs])
        for done, result in enumerate(pool.imap_unordered(play, tasks), 1):
            results[result.task.config].append(result)
            if args.progress:
                t = result.task
                outcome = "won" if result.won else "drawn" if result.drawn else "lost"
                print(
                    f"{done}/{len(tasks)} {t.config} {t.player}/{t.opponent} game {t.number}: "
                    f"{outcome} in {result.actions} actions from seat {result.seat + 1}",
                    file=sys.stderr,
                    flush=True,
                )
    for config in configs:
        report(config, results[config], args.games)
    if args.levels:
        print("\n### processor seconds per move from midgame positions\n")
        print("| game | level | median | max | positions |")
        print("| --- | --- | ---: | ---: | ---: |")
        for config, took, rss in timed:
            for number, ts in took.items():
                print(
                    f"| {config} | L{number} | {statistics.median(ts):.3f} | {max(ts):.3f} "
                    f"| {len(ts)} |"
                )
            print(f"| {config} | peak memory of the timing process | {rss / 1024:.1f} MB | | |")
    print(f"\nload average at the end: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"wall time: {(time.time() - started) / 60:.1f} minutes")


if __name__ == "__main__":
    main()
