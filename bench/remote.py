"""Time for an action to go from one board to another through a local broker.

Two boards' remote-play links (``boardctl.fleet.remote.RemoteLink``), each
with its own broker client (``BrokerClient``: its thread, its asyncio loop,
aiomqtt), play games of Shiftago Express through Mosquitto on loopback. For
every action the time is taken from the moment the board whose player acted
hands its record to its link (what the daemon's loop does on the turn that
recorded the action: the link only queues the message) to the moment the other
board's link hands the action to its controller (``emit``, which puts it on the
loop's queue). In between: the JSON record, the client's outbox and thread,
MQTT QoS 1 to the broker and from it to the other board's client, and the
other link's checks of the record. The settle time and the hands are not in it.

    python bench/remote.py [--actions 500]

Needs ``mosquitto`` (Debian's package); without it, says so and stops.
"""

from __future__ import annotations

import argparse
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from boardctl.controller.opponent import RemoteFailed, RemoteMoved, Think
from boardctl.engines import Match, create
from boardctl.fleet.client import BrokerClient
from boardctl.fleet.remote import RemoteLink
from boardctl.fleet.settings import Broker, Connection
from boardctl.seats import REMOTE, Seat, Seats


class Board:
    """One board: its link, its broker client, what its controller shows."""

    def __init__(self, me: str, other: str, port: int, seats: Seats) -> None:
        self.seats = seats
        self.engine = create("shiftago", {})
        self.match: Match[Any, Any] = Match(self.engine)
        self.got = threading.Event()
        self.answer: RemoteMoved | RemoteFailed | None = None
        self.link = RemoteLink(me)
        self.client = BrokerClient(
            Connection(Broker("127.0.0.1", port), me, discovery=False),
            subscriptions=(self.link.subscription,),
            on_message=self.link.received,
            on_connect=self.link.on_connect,
        )
        self.link.attach(
            self.emit,
            lambda t, p: self.client.publish(t, p, qos=1, retain=True, key=t),
        )
        self.asked = 0

    def emit(self, answer: RemoteMoved | RemoteFailed) -> None:
        self.answer = answer
        self.got.set()

    def turn(self) -> None:
        """The loop's turn: the link reads the game (and says it when it changed)."""
        self.link(self, None, ())

    def ask(self) -> None:
        self.asked += 1
        self.got.clear()
        state = self.match.state
        seat = self.engine.actor(state)
        self.link.ask(Think(self.asked, self.engine, state, seat, 0, 1, len(self.match.actions)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--actions", type=int, default=500)
    args = parser.parse_args()
    mosquitto = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    if not Path(mosquitto).exists():
        print("mosquitto is not installed (apt-get install mosquitto): nothing measured")
        return 0
    for said, extra in (
        ("Mosquitto as installed", ""),
        ("Mosquitto with set_tcp_nodelay true (docs/fleet.md)", "set_tcp_nodelay true\n"),
    ):
        if measure(mosquitto, args.actions, said, extra):
            return 1
    return 0


def measure(mosquitto: str, actions: int, said: str, extra: str) -> int:
    """Play ``actions`` actions through a broker configured with ``extra``; print the figures."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    folder = Path(tempfile.mkdtemp(prefix="bench-remote-"))
    conf = folder / "mosquitto.conf"
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\n{extra}")
    broker = subprocess.Popen(
        [mosquitto, "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    rng = random.Random(1)
    times: list[float] = []
    try:
        deadline = time.monotonic() + 10
        while True:  # listening: the boards' first try reaches it
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    print("mosquitto did not start")
                    return 1
                threading.Event().wait(0.02)
        a = Board("bench-a", "bench-b", port, Seats((Seat(), Seat(REMOTE, 0, 1, "bench-b"))))
        b = Board("bench-b", "bench-a", port, Seats((Seat(REMOTE, 0, 1, "bench-a"), Seat())))
        for board in (a, b):
            board.client.start()
        for board in (a, b):
            if not board.client.up.wait(10):
                print("the broker was not reached")
                return 1
            board.turn()
        games = 0
        while len(times) < actions:
            mover, other = (a, b) if a.engine.actor(a.match.state) == 0 else (b, a)
            if a.match.actions and a.match.outcome().over:
                games += 1
                number = games + 1
                a.seats = Seats((Seat(), Seat(REMOTE, 0, number, "bench-b")))
                b.seats = Seats((Seat(REMOTE, 0, number, "bench-a"), Seat()))
                a.match, b.match = Match(a.engine), Match(b.engine)
                a.turn()
                b.turn()
                continue
            other.ask()
            action = rng.choice(list(mover.match.legal_actions()))
            mover.match = Match.from_moves(
                mover.engine, [*mover.match.moves_text(), mover.engine.format_action(action)]
            )
            t0 = time.perf_counter()
            mover.turn()
            if not other.got.wait(10):
                print(f"no answer after {len(times)} actions")
                return 1
            times.append(time.perf_counter() - t0)
            assert isinstance(other.answer, RemoteMoved), other.answer
            other.match = Match.from_moves(
                other.engine, [*other.match.moves_text(), *other.answer.actions]
            )
            other.turn()  # the hands there made it: its record says so
        for board in (a, b):
            board.client.close()
    finally:
        broker.kill()
        broker.wait(10)
        shutil.rmtree(folder, ignore_errors=True)
    ms = sorted(t * 1000 for t in times)
    p = lambda q: ms[min(len(ms) - 1, int(q * len(ms)))]  # noqa: E731
    print(f"{said}: {len(ms)} actions board to board in {games + 1} games")
    print(
        f"latency: median {statistics.median(ms):.2f} ms, p95 {p(0.95):.2f} ms, "
        f"p99 {p(0.99):.2f} ms, max {ms[-1]:.2f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
