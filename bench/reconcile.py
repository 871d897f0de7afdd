"""How long reconciling one turn's settled board takes, per game.

Each trial starts a fresh ``Reconciler`` (nothing cached, as after every move
the controller plays) on a random position, makes a random turn on the board
and times ``reconcile(states, sensed, deep=True)``: the settled board's
thorough answer, the slowest the controller asks for. Every answer is checked:
the turn must be read (``Played``, or ``Ambiguous`` naming it).

* ``bigboard``: a synthetic game the size of Linie 1 (``tests/bigboard_support.py``:
  12 x 12 cells, 24 tile codes, two placements a turn, about 3,500 legal
  actions in every position), one tile and a whole two-tile turn; also with
  the interface's default ``actions_touching`` (``listed``);
* Shiftago 2 players Express on a colour board (one insertion), and Expert
  with an insertion that scores and its score read together;
* DuploLine: one action, and a whole turn (a disc and a ring action);
* every other game: one action, with its default options; Linie 1 also a
  whole turn of two tiles laid on two cells (the full 12 x 12 board, a
  position up to 150 actions in), and Beeline a turn of two pieces.

    .venv/bin/python bench/reconcile.py [--trials N] [--big-trials N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from bigboard_support import BigBoard, BigBoardListed, big_profile
from controller_support import profile_for

from boardctl.board import BoardProfile
from boardctl.controller.reconcile import Ambiguous, Played, Reconciler
from boardctl.engines import GAMES, create
from boardctl.engines.base import Engine

#: a turn: the states before it and the actions it is made of
Turn = tuple[list[Any], list[Any]]

#: the turns of the last case that were not read (Played or Ambiguous)
unread: list[list[str]] = []
#: the last case's times on the process's CPU clock (what the machine's other
#: work does not add to)
cpu_times: list[float] = []


def random_states(engine: Engine[Any, Any], rng: random.Random, length: int) -> list[Any]:
    states = [engine.initial()]
    for _ in range(length):
        actions = list(engine.legal_actions(states[-1]))
        if not actions:
            break
        states.append(engine.apply_unchecked(states[-1], rng.choice(actions)))
    # back to the start of a turn: the player to act has made no action yet
    while len(states) > 1 and engine.to_move(states[-1]) == engine.to_move(states[-2]):
        states.pop()
    return states


def one_action(engine: Engine[Any, Any], rng: random.Random, longest: int) -> Turn:
    while True:
        states = random_states(engine, rng, rng.randrange(longest))
        actions = list(engine.legal_actions(states[-1]))
        if actions:
            return states, [rng.choice(actions)]


def two_actions(engine: Engine[Any, Any], rng: random.Random, longest: int) -> Turn:
    """Two actions of one player: the first leaves that player to act."""
    while True:
        states = random_states(engine, rng, rng.randrange(longest))
        state = states[-1]
        mover = engine.to_move(state)
        firsts = list(engine.legal_actions(state))
        rng.shuffle(firsts)
        for first in firsts[:50]:
            nxt = engine.apply_unchecked(state, first)
            if engine.to_move(nxt) != mover:
                continue
            seconds = list(engine.legal_actions(nxt))
            if seconds:
                return states, [first, rng.choice(seconds)]


def big_two(engine: Engine[Any, Any], rng: random.Random, longest: int) -> Turn:
    """Two tiles on two different cells."""
    while True:
        states, actions = two_actions(engine, rng, longest)
        if actions[0].cell != actions[1].cell:
            return states, actions


def time_turns(
    engine: Engine[Any, Any],
    profile: BoardProfile,
    make: Callable[[Engine[Any, Any], random.Random, int], Turn],
    trials: int,
    longest: int,
    seed: int,
) -> list[float]:
    rng = random.Random(seed)
    times: list[float] = []
    del unread[:]
    del cpu_times[:]
    for _ in range(trials):
        states, actions = make(engine, rng, longest)
        state = states[-1]
        for action in actions:
            state = engine.apply_unchecked(state, action)
        sensed = profile.projected_layout(engine.layout(state))
        rec = Reconciler(engine, profile)
        start, cpu = time.perf_counter(), time.process_time()
        verdict = rec.reconcile(states, sensed, deep=True)
        times.append(time.perf_counter() - start)
        cpu_times.append(time.process_time() - cpu)
        if isinstance(verdict, Played):
            reached = verdict.path[-1].state
            ok = profile.projected_layout(engine.layout(reached)) == sensed
        else:
            ok = isinstance(verdict, Ambiguous)
        if not ok:
            unread.append([engine.format_action(a) for a in actions])
    return times


def report(name: str, times: list[float]) -> None:
    if not times:
        return
    ms = [t * 1000 for t in times]
    cpu = [t * 1000 for t in cpu_times]
    print(
        f"{name:<38} {len(ms):>5} {statistics.median(ms):>8.2f} {max(ms):>8.2f} "
        f"{statistics.mean(ms):>8.2f} {statistics.median(cpu):>8.2f} {max(cpu):>8.2f} "
        f"{len(unread):>6}"
    )
    for texts in unread[:3]:
        print(f"    not read: {' '.join(texts)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=300, help="turns per Shiftago/DuploLine case")
    parser.add_argument("--big-trials", type=int, default=100, help="turns per bigboard case")
    parser.add_argument("--listed-trials", type=int, default=20, help="turns, bigboard listed")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    title = "settled board, deep reconcile, cold"
    print(f"{title:<38} {'':>5} {'wall clock, ms':^26} {'CPU, ms':^17}")
    print(
        f"{'':<38} {'turns':>5} {'median':>8} {'worst':>8} {'mean':>8} "
        f"{'median':>8} {'worst':>8} {'unread':>6}"
    )
    big = BigBoard()
    listed = BigBoardListed()
    prof = big_profile()
    n, s = args.big_trials, args.seed
    report("bigboard, one tile", time_turns(big, prof, one_action, n, 120, s))
    report("bigboard, two tiles", time_turns(big, prof, big_two, n, 120, s))
    m = args.listed_trials
    report("bigboard listed, one tile", time_turns(listed, prof, one_action, m, 120, s))
    report("bigboard listed, two tiles", time_turns(listed, prof, big_two, m, 120, s))
    t = args.trials
    express = create("shiftago")
    report(
        "shiftago 2p express, colour",
        time_turns(express, profile_for(express), one_action, t, 40, s),
    )
    report(
        "shiftago 2p express, presence",
        time_turns(express, profile_for(express, presence=True), one_action, t, 40, s),
    )
    expert = create("shiftago", variant="expert")
    report(
        "shiftago 2p expert, insert and score",
        time_turns(expert, profile_for(expert), _scoring_turn, max(t // 10, 1), 0, s),
    )
    duplo = create("duploline")
    report("duploline, one action", time_turns(duplo, profile_for(duplo), one_action, t, 40, s))
    report("duploline, whole turn", time_turns(duplo, profile_for(duplo), two_actions, t, 40, s))
    for game in GAMES:
        if game not in ("shiftago", "duploline"):
            engine = create(game)
            report(
                f"{game}, one action", time_turns(engine, profile_for(engine), one_action, t, 60, s)
            )
    linie1 = create("linie1")
    report(
        "linie1, two tiles",
        time_turns(linie1, profile_for(linie1), two_tiles, t // 3, 150, s),
    )
    beeline = create("beeline")
    report(
        "beeline, two pieces",
        time_turns(beeline, profile_for(beeline), two_actions, t, 60, s),
    )


def two_tiles(engine: Engine[Any, Any], rng: random.Random, longest: int) -> Turn:
    """A Linie 1 turn of two tiles, each laid on its own cell, on a board
    with up to ``longest`` actions played."""
    while True:
        states, actions = two_actions(engine, rng, longest)
        cells = [getattr(a, "parts", ()) for a in actions]
        if all(len(p) == 1 for p in cells) and cells[0][0][0] != cells[1][0][0]:
            return states, actions


def _scoring_turn(engine: Engine[Any, Any], rng: random.Random, _longest: int) -> Turn:
    """A random game up to an insertion that makes a line to score."""
    while True:
        states = [engine.initial()]
        for _ in range(200):
            state = states[-1]
            actions = list(engine.legal_actions(state))
            if not actions:
                break
            rng.shuffle(actions)
            for action in actions:
                nxt = engine.apply_unchecked(state, action)
                if engine.expects(nxt) == "score":
                    score = next(iter(engine.legal_actions(nxt)))
                    return states, [action, score]
            states.append(engine.apply_unchecked(state, actions[0]))


if __name__ == "__main__":
    main()
