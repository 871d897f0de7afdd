"""The web pages in a café: 200 phones on the live board, the operator, pages.

Starts the web server in a child process beside a real controller loop on the
shiftago-colour board (simulated strip, a game database in a temporary
folder); the loop plays its idle animation, so the LEDs change on every frame
(30 a second), each change published to the pages as in the daemon. This
process then opens the viewers' push streams (each from an address of its own
in 127.0.0.0/8, as phones on a LAN have) and measures:

- every LED change's delay to every viewer: from the loop's turn that drew it
  to the moment the viewer had it, or a later frame (the streams send the
  latest state, at most 25 a second) (target p99 under 250 ms);
- the operator's commands (``status`` through ``/api/command``), every 0.2 s
  (target under 100 ms);
- plain pages (``/score``, ``/``, ``/static/app.js``) in turn, every 0.1 s
  (target under 200 ms);
- the same again while a crowd of other clients asks for today's games and the
  live board's page as fast as it is answered and a stranger guesses
  passwords;
- a viewer beyond the budget: answered 503 with Retry-After, and how fast;
- 50 viewers leaving and 50 others arriving at once: how many are refused
  (a closed stream must free its place at once);
- the server's CPU (one core = 100 %) and resident memory.

    .venv/bin/python bench/web.py [--viewers 200] [--seconds 20] [--profile linie1]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

# bench/daemon.py's readings of a process from /proc (this folder is on the path)
from daemon import cpu_seconds, rss_mb

ROOT = Path(__file__).resolve().parent.parent


# -- the server (a child process) ----------------------------------------------------------


def serve(port_file: str, log_file: str, board: str) -> None:
    """The daemon's loop and web server on the simulated shiftago board; the
    lights' versions and their publish times are written to ``log_file`` at
    the end (stdin closed)."""
    from boardctl.controller.loop import Loop
    from boardctl.controller.machine import Controller, Timing
    from boardctl.controller.store import Store
    from boardctl.sensing import LinkUp, SensorSnapshot
    from boardctl.web.auth import Keys, hash_password
    from boardctl.web.publish import Publisher
    from boardctl.web.server import WebServer
    from hardware.profiles import load_profile

    class Dark:
        def show(self, frame: Any) -> None:
            pass

    profile = load_profile(board)
    tmp = tempfile.mkdtemp(prefix="boardctl-bench-web-")
    store = Store(Path(tmp) / "games.db", records_dir=Path(tmp) / "records")
    controller = Controller(profile, recorder=store, timing=Timing(attract_after=1.0))
    loop = Loop(controller, Dark(), store=store)
    publisher = Publisher(profile)
    published: list[tuple[int, float, str]] = []

    def record(*_: Any) -> None:
        version, data = publisher.encoded("lights")
        if not published or published[-1][0] != version:
            published.append((version, time.monotonic(), hashlib.sha1(data).hexdigest()))

    loop.watchers.extend([publisher, record])
    keys = Keys(hash_password(PASSWORD))
    web = WebServer("127.0.0.1:0", loop.submit, publisher, profile, keys=keys)
    loop.emit(LinkUp("bench"))
    loop.emit(SensorSnapshot((0,) * profile.channel_count))
    thread = threading.Thread(target=loop.run, name="loop", daemon=True)
    thread.start()
    Path(port_file).write_text(web.url.rsplit(":", 1)[1])
    sys.stdin.read()  # until the bench is done
    loop.stop()
    thread.join(5)
    web.close()
    Path(log_file).write_text(json.dumps(published))


# -- the clients ----------------------------------------------------------------------------

PORT = 0
#: the operator's password on the bench's server
PASSWORD = "a bench password"


def _source(n: int) -> str:
    """A loopback address of its own for client ``n`` (127.0.1.1, 127.0.1.2, ...)."""
    return f"127.0.{1 + n // 250}.{1 + n % 250}"


async def _connect(n: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", PORT, local_addr=(_source(n), 0))


async def fetch(
    n: int, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes, float]:
    """One request from client ``n``: status, headers, body and seconds taken."""
    t0 = time.monotonic()
    reader, writer = await _connect(n)
    try:
        head = f"{method} {path} HTTP/1.1\r\nHost: bench\r\n"
        for k, v in (headers or {}).items():
            head += f"{k}: {v}\r\n"
        if body:
            head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        writer.write(head.encode() + b"\r\n" + body)
        data = await reader.read()
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()
    took = time.monotonic() - t0
    top, _, rest = data.partition(b"\r\n\r\n")
    lines = top.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1]) if lines and lines[0].startswith("HTTP/") else 0
    fields = {}
    for line in lines[1:]:
        k, _, v = line.partition(": ")
        fields[k.lower()] = v
    return status, fields, rest, took


class Viewer:
    """One phone on the live board: when each lights frame arrived."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.status = 0
        self.retry_after = ""
        self.arrivals: list[tuple[float, str]] = []
        self.task: asyncio.Task[None] | None = None
        self.opened = asyncio.Event()
        self.ended = False
        self.writer: asyncio.StreamWriter | None = None

    async def run(self) -> None:
        try:
            reader, writer = await _connect(self.n)
        except OSError:
            self.opened.set()
            return
        self.writer = writer
        writer.write(
            b"GET /api/events HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n"
        )
        buf = b""
        try:
            while b"\r\n\r\n" not in buf:
                chunk = await reader.read(65536)
                if not chunk:
                    break
                buf += chunk
            top, _, buf = buf.partition(b"\r\n\r\n")
            first = top.split(b"\r\n")
            self.status = int(first[0].split()[1]) if first and first[0] else 0
            for line in first[1:]:
                if line.lower().startswith(b"retry-after:"):
                    self.retry_after = line.split(b":", 1)[1].strip().decode()
            self.opened.set()
            if self.status != 200:
                return
            while True:
                while b"\n\n" in buf:
                    event, _, buf = buf.partition(b"\n\n")
                    if event.startswith(b"event: lights\ndata: "):
                        data = event[len(b"event: lights\ndata: ") :]
                        self.arrivals.append((time.monotonic(), hashlib.sha1(data).hexdigest()))
                chunk = await reader.read(65536)
                if not chunk:
                    break
                buf += chunk
        except (OSError, asyncio.CancelledError):
            pass
        finally:
            self.ended = True
            self.opened.set()
            writer.close()

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        if self.task is not None:
            self.task.cancel()


async def open_viewers(first: int, count: int) -> list[Viewer]:
    viewers = [Viewer(first + i) for i in range(count)]
    for v in viewers:
        v.task = asyncio.create_task(v.run())
    await asyncio.gather(*(v.opened.wait() for v in viewers))
    return viewers


async def operator_loop(until: float, got: list[float], codes: list[int]) -> None:
    login = json.dumps({"password": PASSWORD}).encode()
    status, fields, body, _ = await fetch(900, "POST", "/api/login", login)
    me = json.loads(body)
    cookie = fields["set-cookie"].split(";")[0]
    headers = {"Cookie": cookie, "X-CSRF-Token": me["csrf"]}
    while time.monotonic() < until:
        status, _, body, took = await fetch(
            900, "POST", "/api/command", b'{"cmd": "status"}', headers
        )
        codes.append(status if json.loads(body).get("ok") else -status)
        got.append(took)
        await asyncio.sleep(0.2)


async def pages_loop(until: float, got: list[float], codes: list[int]) -> None:
    paths = ["/score", "/", "/static/app.js"]
    n = 0
    while time.monotonic() < until:
        status, _, _, took = await fetch(901, "GET", paths[n % len(paths)])
        codes.append(status)
        got.append(took)
        n += 1
        await asyncio.sleep(0.1)


async def crowd_loop(n: int, until: float, counts: dict[int, int]) -> None:
    paths = ["/api/today", "/"]
    i = 0
    while time.monotonic() < until:
        status, _, _, _ = await fetch(n, "GET", paths[i % 2])
        counts[status] = counts.get(status, 0) + 1
        i += 1


async def guesser_loop(until: float, counts: dict[int, int]) -> None:
    while time.monotonic() < until:
        status, _, _, _ = await fetch(950, "POST", "/api/login", b'{"password": "guess"}')
        counts[status] = counts.get(status, 0) + 1


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def delays(
    viewers: list[Viewer], published: list[tuple[int, float, str]], start: float, end: float
) -> tuple[list[float], int]:
    """Each change published in [start, end) to each viewer: seconds until the
    viewer had it or a later one; and how many it never had."""
    by_hash: dict[str, list[tuple[float, int]]] = {}
    for version, t, digest in published:
        by_hash.setdefault(digest, []).append((t, version))
    out: list[float] = []
    missed = 0
    wanted = [(v, t) for v, t, _ in published if start <= t < end]
    for viewer in viewers:
        seen: list[tuple[float, int]] = []  # (arrival, version)
        for arrival, digest in viewer.arrivals:
            candidates = [v for t, v in by_hash.get(digest, []) if t <= arrival]
            if candidates:
                seen.append((arrival, max(candidates)))
        i = 0
        for version, t in wanted:
            while i < len(seen) and seen[i][1] < version:
                i += 1
            if i < len(seen):
                out.append(seen[i][0] - t)
            else:
                missed += 1
    return out, missed


async def phase(
    name: str,
    viewers: list[Viewer],
    seconds: float,
    child: int,
    crowd: bool,
    published_file: Path,
) -> dict[str, Any]:
    start = time.monotonic()
    until = start + seconds
    op: list[float] = []
    op_codes: list[int] = []
    pages: list[float] = []
    page_codes: list[int] = []
    crowd_counts: dict[int, int] = {}
    guess_counts: dict[int, int] = {}
    cpu0 = cpu_seconds(child)
    jobs = [operator_loop(until, op, op_codes), pages_loop(until, pages, page_codes)]
    if crowd:
        jobs += [crowd_loop(920 + n, until, crowd_counts) for n in range(6)]
        jobs.append(guesser_loop(until, guess_counts))
    await asyncio.gather(*jobs)
    end = time.monotonic()
    cpu = (cpu_seconds(child) - cpu0) / (end - start) * 100
    live = sum(1 for v in viewers if v.status == 200 and not v.ended)
    return {
        "name": name,
        "start": start,
        "end": end,
        "operator": op,
        "operator_codes": op_codes,
        "pages": pages,
        "page_codes": page_codes,
        "crowd": crowd_counts,
        "guesses": guess_counts,
        "cpu": cpu,
        "rss": rss_mb(child),
        "viewers": viewers,
        "live": live,
    }


def report(result: dict[str, Any], published: list[tuple[int, float, str]]) -> None:
    # the changes of the last second may still be on their way: not counted
    got, missed = delays(result["viewers"], published, result["start"], result["end"] - 1.0)
    changes = sum(1 for _, t, _ in published if result["start"] <= t < result["end"] - 1.0)
    live = result["live"]
    ms = 1000
    print(f"\n== {result['name']} ({result['end'] - result['start']:.0f} s)")
    print(f"viewers streaming: {live}; LED changes published: {changes}")
    print(
        f"LED change to viewer: p50 {pct(got, 50) * ms:.0f} ms, p99 {pct(got, 99) * ms:.0f} ms, "
        f"max {max(got, default=float('nan')) * ms:.0f} ms ({len(got)} deliveries, "
        f"{missed} never had; target p99 < 250 ms)"
    )
    op = result["operator"]
    print(
        f"operator status: p50 {pct(op, 50) * ms:.1f} ms, p99 {pct(op, 99) * ms:.1f} ms, "
        f"max {max(op) * ms:.1f} ms over {len(op)}; answers {sorted(set(result['operator_codes']))}"
        " (target < 100 ms)"
    )
    pg = result["pages"]
    print(
        f"pages: p50 {pct(pg, 50) * ms:.1f} ms, p99 {pct(pg, 99) * ms:.1f} ms, "
        f"max {max(pg) * ms:.1f} ms over {len(pg)}; answers {sorted(set(result['page_codes']))}"
        " (target < 200 ms)"
    )
    if result["crowd"]:
        crowd = dict(sorted(result["crowd"].items()))
        print(f"crowd's answers (6 clients, /api/today and /): {crowd}")
        print(f"password guesses' answers: {dict(sorted(result['guesses'].items()))}")
    print(f"server CPU {result['cpu']:.0f} % of one core, resident {result['rss']:.1f} MB")


async def bench(count: int, seconds: float, child: int, published_file: Path) -> list[Any]:
    results = []
    await asyncio.sleep(1.0)
    print(f"server resident before any viewer: {rss_mb(child):.1f} MB")
    t0 = time.monotonic()
    viewers = await open_viewers(0, count)
    opened = time.monotonic() - t0
    ok = sum(1 for v in viewers if v.status == 200)
    print(f"{ok} of {count} viewers' streams open in {opened:.2f} s")
    await asyncio.sleep(2.0)  # the attract animation begins after 1 s idle
    results.append(await phase(f"{count} viewers", viewers, seconds, child, False, published_file))
    results.append(
        await phase(
            f"{count} viewers, a crowd and a guesser", viewers, seconds, child, True, published_file
        )
    )
    # one more viewer than the budget
    t1 = time.monotonic()
    extra = (await open_viewers(700, 1))[0]
    extra.close()
    print(
        f"\nviewer {count + 1}: {extra.status} with Retry-After {extra.retry_after or '-'} "
        f"in {(time.monotonic() - t1) * 1000:.1f} ms"
    )
    # 50 leave, 50 others arrive at once
    leaving = viewers[:50]
    for v in leaving:
        v.close()
    t2 = time.monotonic()
    arriving = await open_viewers(500, 50)
    took = time.monotonic() - t2
    refused = sum(1 for v in arriving if v.status != 200)
    print(
        f"50 viewers left and 50 arrived at once: {refused} refused, "
        f"all answered in {took * 1000:.0f} ms"
    )
    for v in viewers + arriving:
        v.close()
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--viewers", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--profile", default="shiftago-colour", help="the board (a profile name)")
    parser.add_argument(
        "--serve", nargs=2, metavar=("PORT_FILE", "LOG_FILE"), help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    if args.serve:
        serve(*args.serve, args.profile)
        return 0
    global PORT
    print(f"board {args.profile}, {args.viewers} viewers, phases of {args.seconds:g} s")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as tmp:
        port_file, log_file = Path(tmp) / "port", Path(tmp) / "published.json"
        proc = subprocess.Popen(
            [
                sys.executable,
                __file__,
                "--serve",
                str(port_file),
                str(log_file),
                "--profile",
                args.profile,
            ],
            stdin=subprocess.PIPE,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        try:
            deadline = time.monotonic() + 20
            while not port_file.exists() or not port_file.read_text():
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise SystemExit("the server did not start")
                time.sleep(0.05)
            PORT = int(port_file.read_text())
            mine0 = time.process_time()
            w0 = time.monotonic()
            results = asyncio.run(bench(args.viewers, args.seconds, proc.pid, log_file))
            mine = (time.process_time() - mine0) / (time.monotonic() - w0) * 100
        finally:
            assert proc.stdin is not None
            proc.stdin.close()
            proc.wait(20)
        published = [tuple(x) for x in json.loads(log_file.read_text())]
    for result in results:
        report(result, published)  # type: ignore[arg-type]
    print(f"\nthis bench's own CPU (the viewers' side): {mine:.0f} % of one core")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
