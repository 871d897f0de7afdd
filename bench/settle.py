"""The settle time is a trade-off: how long a changed board must stay still
before the controller accepts an action. Too short and a marble still rolling,
a chattering sensor or the two actions of a turn are read before they are
done; too long and the board feels slow, and a quick player's next move runs
into the last one. This runs the hand traces of ``tests/traces/`` (every board,
every trace, the known misreads included) at several settle times and prints
what a player would notice going wrong at each.

    .venv/bin/python bench/settle.py [--settle 40 60 80 100 150 200 250]

Columns: actions missed (done, not recorded), actions invented (recorded, not
done; a takeback counts as recorded), false flags (the board turned "wrong"
more often than it was wrong), missed flags (a wrong board never flagged),
wrong lights (a checkpoint whose phase, red, amber or legal sites were not what the
trace expects), and the traces with any of these (of them, the known misreads:
a trace's ``xfail``, or its ``xfail_settle`` at that settle time or shorter).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from trace_support import Misreads, known_misread, load, misreads, run, trace_files

SETTLES_MS = (40, 60, 80, 100, 150, 200, 250)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--settle", type=int, nargs="+", default=list(SETTLES_MS))
    args = parser.parse_args()
    traces = [load(p) for p in trace_files()]
    known = sum(1 for t in traces if t.get("xfail"))
    short = sum(1 for t in traces if t.get("xfail_settle"))
    print(
        f"{len(traces)} traces ({known} known misreads, {short} more at short settle times) "
        "from tests/traces/"
    )
    print(
        "| settle | missed | invented | false flags | missed flags | wrong lights "
        "| traces wrong (known) | s |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for ms in args.settle:
        start = time.perf_counter()
        total = Misreads()
        bad = bad_known = 0
        for data in traces:
            found = misreads(data, run(data, settle=ms / 1000))
            total += found
            if found.total or found.checks:
                bad += 1
                bad_known += known_misread(data, ms / 1000)
        took = time.perf_counter() - start
        print(
            f"| {ms} ms | {total.missed} | {total.invented} | {total.false_flags} "
            f"| {total.missed_flags} | {total.checks} | {bad} ({bad_known}) | {took:.1f} |"
        )


if __name__ == "__main__":
    main()
