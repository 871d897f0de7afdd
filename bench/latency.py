"""Time from a sensor change to the LED frame handed to the strip.

Plays random Shiftago games (2 players, Express, colour board) and DuploLine
games as hands would, one sensor change at a time, through the controller's
loop. Each figure is the software time from the change entering the loop to
the frame being handed to the strip's ``show`` (or to the loop being done, for
a change that leaves the frame as it was). The settle time (the board must stay
still before an action is accepted) is excluded: the clock is the loop's own
and jumps over it between changes.

    .venv/bin/python bench/latency.py [--moves N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from types import MappingProxyType
from typing import Any

from boardctl.board import BoardProfile, LedChain, Reports, Site
from boardctl.controller.loop import Loop
from boardctl.controller.machine import Controller, Timing
from boardctl.controller.scenes import Frame
from boardctl.engines import create
from boardctl.sensing import LinkUp, SensorChange, SensorSnapshot
from boardctl.sim import hands


class Strip:
    def __init__(self) -> None:
        self.at = 0.0

    def show(self, frame: Frame) -> None:
        self.at = time.perf_counter()


def board(engine: Any, codes: dict[int, str]) -> BoardProfile:
    sites = []
    for i, name in enumerate(engine.sites()):
        track = engine.name == "shiftago" and name[0] in "WESN" and name[0].isupper()
        sites.append(
            Site(
                name,
                "track" if track else "cell",
                i,
                Reports.PULSE if track else Reports.CODE,
                (i,),
                x=float(i % 9),
                y=i // 9,
            )
        )
    return BoardProfile(
        engine.name,
        engine.name,
        MappingProxyType({}),
        tuple(sites),
        MappingProxyType(codes),
        LedChain(len(sites)),
    )


def run(game: str, moves: int, seed: int) -> list[float]:
    engine = create(game)
    codes = (
        {1: "p0", 2: "p1"}
        if game == "shiftago"
        else {
            1: "white-disc",
            2: "black-disc",
            3: "white-ring",
            4: "black-ring",
            5: "white-disc+white-ring",
            6: "white-disc+black-ring",
            7: "black-disc+white-ring",
            8: "black-disc+black-ring",
        }
    )
    value = {p: v for v, p in codes.items()}
    profile = board(engine, codes)
    clock = [0.0]
    timing = Timing()
    strip = Strip()
    rng = random.Random(seed)
    times: list[float] = []
    loop = Loop(Controller(profile, timing=timing), strip, clock=lambda: clock[0])
    c = loop.controller
    layout: dict[str, str] = {}

    def restart() -> None:
        nonlocal loop, c, layout
        loop = Loop(Controller(profile, timing=timing), strip, clock=lambda: clock[0])
        c = loop.controller
        layout = {}
        loop.start()
        loop.handle(LinkUp("bench"), clock[0])
        loop.handle(SensorSnapshot((0,) * profile.channel_count), clock[0])
        clock[0] += 1.0
        loop.turn(block=False)

    restart()
    played = 0
    while played < moves:
        if c.match.outcome().over:
            restart()
            continue
        state = c.match.state
        action = rng.choice(list(engine.legal_actions(state)))
        text = engine.format_action(action)
        if game == "shiftago":
            changes = hands.insert(layout, text, f"p{engine.to_move(state)}")
        else:
            after = engine.layout(engine.apply(state, action))
            changes = [hands.Change(s, None) for s in layout if s not in after]
            changes += [hands.Change(s, p) for s, p in after.items() if layout.get(s) != p]
        for ch in changes:
            channel = profile.site(ch.site).channel
            assert channel is not None
            v = 1 if ch.piece == hands.PULSE else value[ch.piece] if ch.piece else 0
            clock[0] += 0.02
            strip.at = 0.0
            t0 = time.perf_counter()
            loop.handle(SensorChange(channel, v), clock[0])
            t1 = strip.at or time.perf_counter()
            times.append(t1 - t0)
        layout = hands.apply_changes(layout, changes)
        clock[0] += timing.settle + 0.01  # settle time: excluded
        loop.turn(block=False)
        played += 1
        assert c.match.moves_text()[-1] == text
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--moves", type=int, default=3000)
    args = parser.parse_args()
    print(f"settle time excluded (the controller's default is {Timing().settle * 1000:.0f} ms)")
    for game in ("shiftago", "duploline"):
        times = sorted(run(game, args.moves, seed=1))
        p99 = times[int(len(times) * 0.99)]
        print(
            f"{game:<10} {args.moves} moves, {len(times)} sensor changes: "
            f"median {statistics.median(times) * 1000:.3f} ms, p99 {p99 * 1000:.3f} ms, "
            f"max {times[-1] * 1000:.3f} ms"
        )


if __name__ == "__main__":
    main()
