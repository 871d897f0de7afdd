"""The daemon on a simulated board: start-up, idle CPU, memory, and the CLI's start.

Runs ``boardctl run`` as a subprocess against a virtual microcontroller (the
shiftago-colour board: sensors and LEDs on the serial link, over a real pty),
with ``NOTIFY_SOCKET`` pointing at a datagram socket this script listens on,
as systemd's would. Prints:

- the time from starting the process to ``READY=1`` (target under 1.5 s);
- the daemon's CPU while the board stands idle (target under 1% of one core);
- its resident memory (target under 60 MB), and with its web pages served and
  one browser (Debian's chromium, headless) on the live board (target under
  45 MB);
- the wall time of ``boardctl --help`` (target under 0.3 s).

With ``--boards``, instead, per shipped reference board: the time to load and
check its profile in a fresh process (imports done first; median of five
processes; target under 30 ms), and the daemon's start to ``READY=1`` on it.

    .venv/bin/python bench/daemon.py [--idle SECONDS] [--boards]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from firmware_bridge.virtual import VirtualMicrocontroller, kinds_for
from hardware.profiles import builtin_profiles, load_profile

BOARDCTL = str(Path(sys.executable).with_name("boardctl"))


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def connections(port: int) -> int:
    """Established TCP connections to ``port`` on this machine (the browser's)."""
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(table).read_text().splitlines()[1:]:
                fields = line.split()
                if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "01":
                    count += 1
    return count


def attach_browser(url: str, tmp: str) -> subprocess.Popen[bytes] | None:
    """One headless chromium on ``url`` (None where chromium is not installed)."""
    chromium = shutil.which("chromium")
    if chromium is None:
        return None
    args = [
        chromium,
        "--headless=new",
        f"--user-data-dir={tmp}/chromium",
        "--remote-debugging-port=0",
    ]
    if os.geteuid() == 0:
        args.append("--no-sandbox")
    return subprocess.Popen([*args, url], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def help_time(runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run([BOARDCTL, "--help"], check=True, capture_output=True)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


#: what one fresh process runs to time a profile's load (imports first)
LOAD_ONE = """
import sys, time
import boardctl.controller.scenes
from boardctl.engines import GAMES, engine_class
from hardware.profiles import load_profile
for game in GAMES:
    engine_class(game)
t0 = time.perf_counter()
load_profile(sys.argv[1])
print(time.perf_counter() - t0)
"""


def profile_load_time(name: str, runs: int = 5) -> float:
    """Median seconds to load and check profile ``name`` in a fresh process."""
    times = []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", LOAD_ONE, name], check=True, capture_output=True, text=True
        )
        times.append(float(out.stdout))
    return statistics.median(times)


@contextlib.contextmanager
def running(name: str, listen: str = "") -> Iterator[tuple[subprocess.Popen[bytes], float, str]]:
    """``boardctl run`` on board ``name`` (on the virtual microcontroller, the
    web pages on ``listen``), once it said ``READY=1``: the process, the
    seconds it took, and its folder; stopped as systemd stops it."""
    profile = load_profile(name)
    with (
        tempfile.TemporaryDirectory(prefix="boardctl-bench-") as tmp,
        VirtualMicrocontroller(
            channels=profile.channel_count, leds=profile.leds.count, kinds=kinds_for(profile)
        ) as mcu,
        socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as notify,
    ):
        # an empty configuration: the defaults and --set alone, not /etc/boardctl's
        Path(tmp, "none.toml").write_text("")
        notify_path = os.path.join(tmp, "notify.sock")
        notify.bind(notify_path)
        env = dict(os.environ, NOTIFY_SOCKET=notify_path)
        env.pop("WATCHDOG_USEC", None)
        env["GPIOZERO_PIN_FACTORY"] = "mock"  # the buttons beside the serial link
        command = [
            BOARDCTL, "run", "--profile", name, "--config", os.path.join(tmp, "none.toml"),
            "--set", f'serial.port="{mcu.port}"', "--set", f'storage.state_dir="{tmp}"',
            "--set", f'control.socket="{tmp}/control.sock"', "--set", "logging.level=warning",
            "--set", f'web.listen="{listen}"',
        ]  # fmt: skip
        t0 = time.perf_counter()
        daemon = subprocess.Popen(command, env=env)
        try:
            # as long as systemd waits (TimeoutStartSec=30): slow under qemu and load
            notify.settimeout(30.0)
            while "READY=1" not in notify.recv(4096).decode().split("\n"):
                pass
            yield daemon, time.perf_counter() - t0, tmp
        finally:
            daemon.send_signal(signal.SIGTERM)
            daemon.wait(timeout=10)


def ready_time(name: str) -> float | None:
    """Seconds from starting ``boardctl run`` on board ``name`` to ``READY=1``;
    None for a board whose sensors or LEDs are not on the serial link (this
    machine has no GPIO or SPI to start it on)."""
    profile = load_profile(name)
    if profile.sensing != "serial" or profile.leds.backend != "serial":
        return None
    with running(name) as (_daemon, ready, _tmp):
        return ready


def boards() -> int:
    """Start-up per reference board."""
    print("board                 profile load (ms)   start to READY=1 (ms)")
    for name in builtin_profiles():
        load = profile_load_time(name)
        ready = ready_time(name)
        shown = "(GPIO or SPI here)" if ready is None else f"{ready * 1000:.0f}"
        print(f"{name:20s}  {load * 1000:17.1f}   {shown:>21s}")
    print("targets: profile load < 30 ms, READY=1 < 1500 ms")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of idle to measure")
    parser.add_argument(
        "--browse", type=float, default=8.0, help="seconds a browser watches the live board"
    )
    parser.add_argument(
        "--boards", action="store_true", help="start-up per reference board, and nothing else"
    )
    args = parser.parse_args()
    if args.boards:
        return boards()

    port = free_port()
    with running("shiftago-colour", f"127.0.0.1:{port}") as (daemon, ready, tmp):
        # idle: the board stands still, the loop waits on its queue
        c0, w0 = cpu_seconds(daemon.pid), time.perf_counter()
        time.sleep(args.idle)
        cpu = (cpu_seconds(daemon.pid) - c0) / (time.perf_counter() - w0)
        rss = rss_mb(daemon.pid)
        browser = attach_browser(f"http://127.0.0.1:{port}/", tmp)
        try:
            time.sleep(args.browse)
            rss_browsed = rss_mb(daemon.pid) if browser is not None else float("nan")
            attached = connections(port)
        finally:
            if browser is not None:
                browser.terminate()
                browser.wait(timeout=10)
    help_s = help_time()

    print(f"start to READY=1:      {ready * 1000:7.0f} ms   (target < 1500 ms)")
    print(f"idle CPU over {args.idle:.0f} s:     {cpu * 100:7.2f} %    (target < 1% of one core)")
    print(f"resident memory:       {rss:7.1f} MB   (target < 60 MB; web pages served)")
    print(
        f"  one browser attached: {rss_browsed:6.1f} MB   (target < 45 MB; nan: no chromium;"
        f" {attached} connections open)"
    )
    print(f"boardctl --help:       {help_s * 1000:7.0f} ms   (target < 300 ms, median of 5)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
