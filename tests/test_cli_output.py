"""The command line's output read by another program: a reader that stops
early (`boardctl status | head`) ends the command quietly, with no traceback."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from boardctl.controller.control import ControlServer

BOARDCTL = str(Path(sys.executable).with_name("boardctl"))


def _status(body: Mapping[str, Any]) -> dict[str, Any]:
    return {"ok": True, "board": "b", "phase": "awaiting_move", "moves": ["W1"] * 500}


def _closed_early(*args: str) -> tuple[int, str]:
    """Run boardctl with its output read by nobody (the pipe closed at once)."""
    proc = subprocess.Popen(
        [BOARDCTL, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read()
    return proc.wait(10), err


@pytest.mark.parametrize("command", [("config", "show", "--config", "/dev/null"), ("status",)])
def test_a_reader_that_stops_early_ends_the_command_quietly(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    with ControlServer(tmp_path / "c.sock", _status) as server:
        args = [*command, "--socket", str(server.path)] if command == ("status",) else command
        status, err = _closed_early(*args)
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
    assert err == "" and status == 141
