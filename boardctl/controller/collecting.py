"""Python's garbage collection, done by the loop between its turns.

CPython collects whenever the objects allocated on any thread outnumber those
freed by 700 (its young generation's threshold): on the loop's thread that is
often in the middle of judging a change, before the change's frame is out. On
this machine a young collection takes up to 0.3 ms, one of the two young
generations 1.5-3.7 ms (the p99 of a change's turn), a full one 15-70 ms with
Beeline's and Linie 1's tables (``bench/latency.py`` prints them). The
daemon's loop therefore keeps a :class:`Collector`:

* at start-up it collects once and freezes what is alive (``gc.freeze``: the
  modules, the profile, the engine and its tables, the web pages), so that no
  later collection walks through it;
* between turns, once the frame is out and no event waits, it collects the
  generation CPython would have collected by then (:meth:`Collector.between`);
* CPython's own collection stays on, at a threshold :data:`BACKSTOP` times
  higher, for a loop held up by a burst of events or a thread that allocates
  a lot while the loop waits.

What start-up built and later drops is freed as usual when nothing refers to
it; only a cycle among frozen objects is never collected (the first game's
reconciler, when another game is chosen): a bounded few kilobytes.
"""

from __future__ import annotations

import gc

#: CPython's threshold of the young generation: how many more objects than
#: freed make a collection due (between turns)
YOUNG = 700
#: CPython's own collection, kept as a backstop, waits this many times longer
BACKSTOP = 10


class Collector:
    """The loop's garbage collection (see the module's docstring)."""

    def __init__(self, young: int = YOUNG, backstop: int = BACKSTOP) -> None:
        self.young = young
        self.backstop = backstop
        #: collections made between turns, by generation
        self.collected = [0, 0, 0]
        #: CPython's thresholds before :meth:`start`
        self._thresholds = gc.get_threshold()

    def start(self) -> None:
        """After start-up: collect once, freeze what is alive, and move
        CPython's own collection back to the backstop threshold."""
        gc.collect()
        gc.freeze()
        self._thresholds = gc.get_threshold()
        _, middle, old = self._thresholds
        gc.set_threshold(self.young * self.backstop, middle, old)

    def between(self) -> None:
        """Between two turns (the frame out, no event waiting): collect the
        oldest generation that is due, as CPython counts them (a young
        collection after :attr:`young` more objects, the middle generation
        after as many young collections as its threshold, the old one after
        as many middle ones), or nothing."""
        young, middle, old = gc.get_count()
        if young <= self.young:
            return
        _, middle_threshold, old_threshold = gc.get_threshold()
        if old > old_threshold:
            generation = 2
        elif middle > middle_threshold:
            generation = 1
        else:
            generation = 0
        gc.collect(generation)
        self.collected[generation] += 1

    def stop(self) -> None:
        """The loop stopped: CPython collects by itself again, everything
        included."""
        gc.unfreeze()
        gc.set_threshold(*self._thresholds)
