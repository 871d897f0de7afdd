"""Where the loop's thread spends a turn answering a change, part by part.

Runs ``bench/latency.py`` (the same options; its figures are printed as usual)
with each part of the loop's turn timed in place by the thread's CPU clock
(``time.thread_time``), then prints the median of each part over the turns that
answered a change and played no move:

* ``wait``: from the turn's start to its first event (``Loop._timeout``, the
  queue's wait and wake);
* ``handle``: the events taken in (judging: ``judge``);
* ``tick``: the board followed (its phases: ``fire``, a ``transitions`` trigger);
* ``view``, ``render``, ``show``: the view built, the scene drawn, the frame
  handed to the LEDs (the serial link's ``set_leds``);
* ``whole``: the turn, as ``bench/latency.py`` counts it.

With ``--again``, three pure parts (the view, the scene drawn, the next
deadline) are each called a second time at once with the same arguments (the
answer thrown away): the first call against the second shows how much of a
part's time is the turn starting cold (caches emptied by the other threads and
processes while the loop waited), not its own work. The second calls then
count in the parts and the whole: read the parts of a run without it.

    .venv/bin/python bench/turn_parts.py --changes 300 --no-in-process --games beeline [--again]

The probes add a few microseconds to the whole; compare parts, not the whole
with ``bench/latency.py``'s figure.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import latency  # bench/latency.py: this script's own folder is on the path

from boardctl.controller import loop as loop_module
from boardctl.controller.machine import Controller

clock = time.thread_time
#: the marks of the turn under way, and the parts timed within it
marks: dict[str, float] = {}
spent: dict[str, float] = defaultdict(float)
#: the turns that answered a change and played no move
turns: list[dict[str, float]] = []
#: pure parts: (first call, the same again at once), per call
twice: dict[str, list[tuple[float, float]]] = defaultdict(list)


def _timed(owner: Any, name: str, key: str) -> None:
    """Add the CPU time of ``owner.name``'s calls within a turn to ``key``."""
    inner = getattr(owner, name)

    def timed(*args: Any, **kwargs: Any) -> Any:
        t = clock()
        try:
            return inner(*args, **kwargs)
        finally:
            spent[key] += clock() - t

    setattr(owner, name, timed)


def _again(call: Callable[..., Any], key: str) -> Callable[..., Any]:
    """``call``, timed, and called a second time at once (warm), timed too."""

    def both(*args: Any, **kwargs: Any) -> Any:
        t0 = clock()
        answer = call(*args, **kwargs)
        t1 = clock()
        call(*args, **kwargs)
        twice[key].append((t1 - t0, clock() - t1))
        return answer

    return both


def _probe(again: bool) -> None:
    timed_loop = latency.TimedLoop
    turn, handle, draw = timed_loop.turn, timed_loop.handle, timed_loop.draw

    def probed_turn(self: Any, block: bool = True) -> bool:
        marks.clear()
        spent.clear()
        c = self.controller
        marks["match"], marks["actions"] = id(c.match), len(c.match.actions)
        marks["start"] = clock()
        return turn(self, block)

    def probed_handle(self: Any, item: Any, now: float, **kwargs: Any) -> None:
        marks.setdefault("got", clock())
        handle(self, item, now, **kwargs)
        marks["handled"] = clock()

    def probed_draw(self: Any, view: Any, now: float) -> None:
        marks["drawing"] = clock()
        draw(self, view, now)
        if "start" not in marks:
            return  # the loop's start, not a turn
        c = self.controller
        moved = id(c.match) != marks["match"] or len(c.match.actions) != marks["actions"]
        if "got" in marks and "shown" in marks and spent.get("judge") and not moved:
            turns.append({**marks, **spent})

    timed_loop.turn, timed_loop.handle, timed_loop.draw = probed_turn, probed_handle, probed_draw
    tick, view = Controller.tick, Controller.view

    def probed_tick(self: Controller, now: float) -> None:
        marks["tick"] = clock()
        tick(self, now)
        marks["ticked"] = clock()

    def probed_view(self: Controller) -> Any:
        marks["view"] = clock()
        return view(self)

    Controller.tick, Controller.view = probed_tick, probed_view
    base_draw = loop_module.Loop.draw

    def probed_base_draw(self: Any, view: Any, now: float) -> None:
        base_draw(self, view, now)
        marks["drawn"] = clock()  # where bench/latency.py reads the turn's CPU

    loop_module.Loop.draw = probed_base_draw
    show = latency.Output.show

    def probed_show(self: Any, frame: Any) -> None:
        marks["show"] = clock()
        show(self, frame)
        marks["shown"] = clock()

    latency.Output.show = probed_show
    for owner, name in ((Controller, "judge"), (Controller, "fire")):
        _timed(owner, name, name)
    if again:
        loop_module.render = _again(loop_module.render, "render")
        Controller.view = _again(Controller.view, "view")
        Controller.next_deadline = _again(Controller.next_deadline, "next_deadline")


#: (name, from mark, to mark): the parts of a turn
PARTS = (
    ("wait", "start", "got"),
    ("handle", "got", "handled"),
    ("tick", "tick", "ticked"),
    ("view", "view", "drawing"),
    ("render", "drawing", "show"),
    ("show", "show", "shown"),
    ("whole", "start", "drawn"),
)


def report() -> None:
    print(
        "the loop's turns answering a change, part by part "
        f"({len(turns)} turns of the games run, medians):"
    )
    for name, a, b in PARTS:
        us = [(t[b] - t[a]) * 1e6 for t in turns if a in t and b in t]
        if us:
            print(f"  {name:<8} {statistics.median(us):7.1f} us")
    for name in ("judge", "fire"):
        print(f"  {name:<8} {statistics.median(t.get(name, 0.0) * 1e6 for t in turns):7.1f} us")
    if twice:
        print("  called again at once (warm), medians over every call:")
    for name, times in twice.items():
        first = statistics.median(t[0] for t in times) * 1e6
        again = statistics.median(t[1] for t in times) * 1e6
        print(f"  {name:<14} first {first:6.1f} us, again {again:6.1f} us ({first / again:.1f}x)")


if __name__ == "__main__":
    _probe("--again" in sys.argv)
    sys.argv = ["bench/latency.py", *(a for a in sys.argv[1:] if a != "--again")]
    try:
        latency.main()
    finally:
        if turns:
            report()
