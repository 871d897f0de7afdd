"""The computer player's process: thinks where the loop cannot be held up.

Run as ``python -m boardctl.daemon.think_worker`` by
:class:`~boardctl.daemon.thinker.ProcessThinker`. It reads one request per line
on stdin (JSON: the game, its options, the position as the computer's seat may
know it, the level, seed, ply, attempt and the actions not to suggest again,
and the seconds it may take at most) and writes one answer per line on stdout
(``{"id": N, "actions": [...], "seconds": S, "cut": false}``,
or ``{"id": N, "error": "..."}``). ``{"cancel": N}`` stops the thinking of
request N at once (its answer is still written, and dropped by the daemon).
Requests are handled in turn; a line too long or not JSON is answered with an
error and skipped. The process ends when stdin closes.

:func:`~boardctl.daemon.thinking.decide` is the thinking itself.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import sys
import threading
import time
from typing import IO, Any

from boardctl.daemon.thinking import decide
from boardctl.engines import create

#: the longest request line taken (a position of the largest game is a few kB)
MAX_LINE = 1 << 20


def _answer(request: dict[str, Any], cancelled: threading.Event) -> dict[str, Any]:
    engine = create(str(request["game"]), request.get("options") or {})
    state = engine.state_from_json(request["state"])
    limit = float(request.get("max_seconds", 10.0))
    start = time.monotonic()
    deadline = start + limit
    cut = False

    def stop() -> bool:
        nonlocal cut
        if cancelled.is_set() or time.monotonic() >= deadline:
            cut = True
        return cut

    actions = decide(
        engine,
        state,
        level=int(request["level"]),
        seed=int(request["seed"]),
        ply=int(request["ply"]),
        attempt=int(request.get("attempt", 0)),
        exclude=[str(t) for t in request.get("exclude", [])],
        stop=stop,
    )
    return {
        "id": request["id"],
        "actions": [engine.format_action(a) for a in actions],
        "seconds": round(time.monotonic() - start, 4),
        "cut": cut,
    }


def _number(value: object) -> int | None:
    """A request's number, or None when it is not a whole number."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def serve(stdin: IO[str], stdout: IO[str]) -> None:
    """Answer requests from ``stdin`` on ``stdout`` until ``stdin`` closes."""
    requests: queue.SimpleQueue[dict[str, Any] | None] = queue.SimpleQueue()
    #: the numbers of the requests cancelled (a cancel may come before, while
    #: or after its request is thought about) and of the last one answered
    cancelled: set[int] = set()
    answered = [0]
    current: dict[str, Any] = {}
    lock = threading.Lock()

    def read() -> None:
        while True:
            line = stdin.readline(MAX_LINE + 1)
            if not line:
                requests.put(None)
                return
            if len(line) > MAX_LINE:
                while line and not line.endswith("\n"):
                    line = stdin.readline(MAX_LINE)
                requests.put({"error": f"a request longer than {MAX_LINE} bytes"})
                continue
            try:
                body = json.loads(line)
            except ValueError as exc:
                requests.put({"error": f"a request that is not JSON ({exc})"})
                continue
            if isinstance(body, dict) and "cancel" in body:
                number = _number(body["cancel"])
                with lock:
                    if number is not None and number > answered[0]:
                        cancelled.add(number)
                        flag = current.get("flag")
                        if current.get("id") == number and flag is not None:
                            flag.set()
                continue
            requests.put(body if isinstance(body, dict) else {"error": "a request not an object"})

    threading.Thread(target=read, name="requests", daemon=True).start()
    while True:
        request = requests.get()
        if request is None:
            return
        number = _number(request.get("id"))
        if "error" in request or number is None:
            answer: dict[str, Any] = {"id": number, "error": request.get("error", "no id")}
        else:
            flag = threading.Event()
            with lock:
                current.update(id=number, flag=flag)
                if number in cancelled:
                    flag.set()
            try:
                answer = _answer(request, flag)
            except Exception as exc:  # an answer, never a dead process
                answer = {"id": number, "error": f"{type(exc).__name__}: {exc}"[:300]}
            with lock:
                current.clear()
                answered[0] = max(answered[0], number)
                # a cancel for a request answered already is forgotten
                cancelled.difference_update({n for n in cancelled if n <= answered[0]})
        stdout.write(json.dumps(answer) + "\n")
        stdout.flush()


def main() -> None:
    # below the loop that shows the moves: on a Pi the LEDs and sensors come first
    with contextlib.suppress(OSError, ValueError):
        os.nice(int(os.environ.get("BOARDCTL_THINK_NICE", "10")))
    serve(sys.stdin, sys.stdout)


if __name__ == "__main__":
    main()
