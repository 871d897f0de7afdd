"""The operator's commands for the venue: brightness, schedule, and the
version the running board reports."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from boardctl.cli.main import main
from boardctl.controller.control import ControlServer


class Daemon:
    """A control socket's other end that keeps the venue's settings."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.settings: dict[str, Any] = {
            "brightness": 0.5,
            "hours": "",
            "open": True,
            "clock_synchronised": False,
        }

    def __call__(self, body: Mapping[str, Any]) -> dict[str, Any]:
        self.sent.append(dict(body))
        if body["cmd"] == "status":
            return {"ok": True, "board": "b", "phase": "attract", "moves": [], "version": "9.8.7"}
        configured = {"brightness": 0.5, "hours": ""}
        for key in ("brightness", "hours"):
            if key in body:
                self.settings[key] = body[key] if body[key] is not None else configured[key]
        return {"ok": True, "settings": self.settings}


def test_status_says_which_version_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with ControlServer(tmp_path / "c.sock", Daemon()) as server:
        assert main(["status", "--socket", str(server.path)]) == 0
    assert "running boardctl 9.8.7" in capsys.readouterr().out


def test_brightness_and_schedule_are_sent_and_shown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    daemon = Daemon()
    with ControlServer(tmp_path / "c.sock", daemon) as server:
        sock = ["--socket", str(server.path)]
        assert main(["brightness", "0.3", *sock]) == 0
        assert main(["schedule", "mon-fri 10:00-18:00", *sock]) == 0
        assert main(["schedule", "always", *sock]) == 0
        assert main(["brightness", "default", *sock]) == 0
        assert main(["schedule", *sock]) == 0
        assert main(["brightness", "bright", *sock]) == 2
    assert [{k: v for k, v in b.items() if k != "cmd"} for b in daemon.sent] == [
        {"brightness": 0.3},
        {"hours": "mon-fri 10:00-18:00"},
        {"hours": ""},
        {"brightness": None},
        {},
    ]
    out, err = capsys.readouterr()
    assert "brightness 0.3\n" in out and "mon-fri 10:00-18:00 (open)" in out
    assert "the clock is not synchronised yet" in out
    assert "give a number from 0 to 1" in err
