"""The settle time is a trade-off: how long a changed board must stay still
before the controller accepts an action. Too short and a marble still rolling,
a chattering sensor or the two actions of a turn are read before they are
done; too long and the board feels slow, and a quick player's next move runs
into the last one. This runs the hand traces of ``tests/traces/`` (every board,
every trace, the known misreads included) at several settle times and prints
what a player would notice going wrong at each, and the felt latency (from the
hand letting go to the action recorded), in all and per board. Each settle
time runs fixed, and with a shorter one (``--gated``) for actions whose light
gate broke on their way (``Timing.settle_gated``; only a board with gates
differs), and with an amend window (``--amend``, ``Timing.amend``): the
newest action, shown once the board is still for the settle time, is amended
when the board changes again within the window from the reading that
completed it (a disc slid on, a sleeve passing; ``boardctl.controller.amending``).

    .venv/bin/python bench/settle.py [--settle 40 60 80 100 150 200 250] [--gated 60] [--amend 150]

Columns: actions missed (done, not recorded), actions invented (recorded, not
done; a takeback counts as recorded), false flags (the board turned "wrong"
more often than it was wrong), missed flags (a wrong board never flagged),
wrong lights (a checkpoint whose phase, red, amber or legal sites were not what the
trace expects), and the traces with any of these (of them, the known misreads:
a trace's ``xfail``, or its ``xfail_settle`` at that settle time or shorter with
no amend window);
amended: actions shown for a moment and then amended or withdrawn as the hand
went on (the record ends right; the last move's light moved once).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from trace_support import Misreads, known_misread, load, misreads, run, trace_files

SETTLES_MS = (40, 60, 80, 100, 150, 200, 250)


def _percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values``, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


def _felt(values: list[float]) -> str:
    if not values:
        return "-"
    ms = [v * 1000 for v in values]
    return f"{_percentile(ms, 0.5):.0f} / {_percentile(ms, 0.99):.0f} / {max(ms):.0f}"


def _policies(
    settles: list[int], gated: list[int], amends: list[int]
) -> list[tuple[str, int, int, int]]:
    """(label, settle ms, gated settle ms, amend window ms): each settle time
    fixed, then with each shorter settle time for actions whose light gate
    broke, then with each longer amend window."""
    out = []
    for ms in settles:
        out.append((f"{ms} ms", ms, ms, 0))
        out += [(f"{ms} ms, gated {g} ms", ms, g, 0) for g in gated if g < ms]
        out += [(f"{ms} ms, amend {a} ms", ms, ms, a) for a in amends if a > ms]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--settle", type=int, nargs="+", default=list(SETTLES_MS))
    parser.add_argument(
        "--gated",
        type=int,
        nargs="*",
        default=[60],
        help="settle times for actions whose light gate broke (Timing.settle_gated), in ms",
    )
    parser.add_argument(
        "--amend",
        type=int,
        nargs="*",
        default=[150],
        help="amend windows from the reading that completed an action (Timing.amend), in ms",
    )
    args = parser.parse_args()
    traces = [load(p) for p in trace_files()]
    known = sum(1 for t in traces if t.get("xfail"))
    short = sum(1 for t in traces if t.get("xfail_settle"))
    print(
        f"{len(traces)} traces ({known} known misreads, {short} more at short settle times) "
        "from tests/traces/"
    )
    print(
        "| policy | missed | invented | false flags | missed flags | wrong lights "
        "| traces wrong (known) | amended | felt median / p99 / max, ms | s |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    boards = sorted({t["profile"] for t in traces})
    policies = _policies(args.settle, args.gated, args.amend)
    #: (board, policy) -> felt latencies, traces wrong, of them known
    by_board: dict[tuple[str, str], tuple[list[float], int, int]] = {}
    for label, ms, gated, amend in policies:
        start = time.perf_counter()
        total = Misreads()
        bad = bad_known = amended = 0
        felt: list[float] = []
        for data in traces:
            outcome = run(data, settle=ms / 1000, settle_gated=gated / 1000, amend=amend / 1000)
            found = misreads(data, outcome)
            total += found
            wrong = bool(found.total or found.checks)
            was_known = wrong and known_misread(data, ms / 1000, amend / 1000)
            bad += wrong
            bad_known += was_known
            felt += outcome.felt
            amended += len(outcome.amended)
            board_felt, board_bad, board_known = by_board.get((data["profile"], label), ([], 0, 0))
            by_board[data["profile"], label] = (
                board_felt + outcome.felt,
                board_bad + wrong,
                board_known + was_known,
            )
        took = time.perf_counter() - start
        print(
            f"| {label} | {total.missed} | {total.invented} | {total.false_flags} "
            f"| {total.missed_flags} | {total.checks} | {bad} ({bad_known}) | {amended} "
            f"| {_felt(felt)} | {took:.1f} |"
        )
    print()
    print("Felt latency: from the last reading before an action is recorded off the board")
    print("(the hand letting go; on a GPIO board the host's debounce time earlier) to its")
    print("record, on the loop's clock; the loop's own work and a microcontroller's debounce")
    print("are not counted (bench/latency.py measures the loop). Per board:")
    print()
    print("| board | policy | actions read | felt median / p99 / max, ms | traces wrong (known) |")
    print("| --- | --- | --- | --- | --- |")
    for board in boards:
        for label, *_ in policies:
            felt, wrong, was_known = by_board.get((board, label), ([], 0, 0))
            print(f"| {board} | {label} | {len(felt)} | {_felt(felt)} | {wrong} ({was_known}) |")


if __name__ == "__main__":
    main()
