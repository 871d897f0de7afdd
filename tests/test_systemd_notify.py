"""READY and WATCHDOG reach systemd's socket; without systemd nothing is sent."""

import os
import socket
from pathlib import Path

from boardctl.daemon.systemd_notify import Notifier


def test_lines_reach_the_notify_socket(tmp_path: Path) -> None:
    path = str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(path)
        server.settimeout(2)
        env = {"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "10000000", "WATCHDOG_PID": str(os.getpid())}
        with Notifier(env) as notifier:
            assert notifier.enabled
            assert notifier.watchdog_interval == 10.0
            notifier.ready("board read")
            notifier.watchdog()
            assert server.recv(256) == b"READY=1\nSTATUS=board read"
            assert server.recv(256) == b"WATCHDOG=1"


def test_watchdog_meant_for_another_process_is_ignored() -> None:
    assert Notifier({"WATCHDOG_USEC": "5000000", "WATCHDOG_PID": "1"}).watchdog_interval is None


def test_without_systemd_every_call_is_silent() -> None:
    notifier = Notifier({})
    assert not notifier.enabled
    notifier.ready()
    notifier.watchdog()
    notifier.stopping()
