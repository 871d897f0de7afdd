"""``boardctl run`` as systemd runs it, against the virtual microcontroller: a
game under way survives SIGKILL, a board changed meanwhile shows restore hints,
play goes on, and SIGTERM ends it with exit status 0 and the LEDs dark."""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from twin_support import Hands, canonical, plan_game, wait_for

from boardctl.controller.control import ControlError, request
from boardctl.controller.scenes import Palette
from boardctl.engines import Match, create
from firmware_bridge.virtual import VirtualMicrocontroller, kinds_for
from hardware.leds.base import FrameProcessor, wire_order
from hardware.profiles import load_profile

PROFILE = load_profile("shiftago-colour")
OPTIONS = {"players": 2, "variant": "express"}


class Board:
    """Hands on the virtual microcontroller's board, waiting for its scans only
    (the daemon in the other process reads them)."""

    def __init__(self, vmcu: VirtualMicrocontroller) -> None:
        self.vmcu = vmcu

    def put(self, channel: int, value: int) -> None:
        if value:
            self.vmcu.place(channel, value)
        else:
            self.vmcu.lift(channel)
        assert self.vmcu.wait_scanned(5)

    def pulse(self, channel: int) -> None:
        raise AssertionError("the colour board has no light gates")


@contextmanager
def daemon(tmp_path: Path, vmcu: VirtualMicrocontroller) -> Iterator[subprocess.Popen[bytes]]:
    sets = {
        "storage.state_dir": f'"{tmp_path / "state"}"',
        "control.socket": f'"{tmp_path / "control.sock"}"',
        "serial.port": f'"{vmcu.port}"',
        "controller.settle_ms": "60",
        "controller.grace_ms": "300",
    }
    args = [sys.executable, "-m", "boardctl.cli.main", "run", "--profile", PROFILE.name]
    for key, value in sets.items():
        args += ["--set", f"{key}={value}"]
    with open(tmp_path / "daemon.log", "ab") as log:
        proc = subprocess.Popen(args, stderr=log, stdout=log)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


def status(tmp_path: Path) -> dict[str, Any]:
    try:
        return request(tmp_path / "control.sock", {"cmd": "status"}, timeout=2)
    except ControlError:
        return {}


def wait_status(tmp_path: Path, what: str, **want: Any) -> dict[str, Any]:
    got: dict[str, Any] = {}

    def check() -> bool:
        got.clear()
        got.update(status(tmp_path))
        return all(got.get(k) == v for k, v in want.items())

    try:
        wait_for(check, 15, what)
    except AssertionError as exc:
        log = (tmp_path / "daemon.log").read_text()[-2000:]
        raise AssertionError(f"{exc}; last status {got}\n{log}") from None
    return got


def test_killed_mid_game_it_resumes_shows_what_to_restore_and_plays_on(tmp_path: Path) -> None:
    moves = plan_game("shiftago", OPTIONS, seed=3)
    match = Match(create("shiftago", OPTIONS))
    made: list[str] = []
    with VirtualMicrocontroller(
        PROFILE.channel_count, leds=PROFILE.leds.count, kinds=kinds_for(PROFILE)
    ) as vmcu:
        hands = Hands(Board(vmcu), PROFILE)

        def play(count: int) -> None:
            for _ in range(count):
                text = moves[len(made)]
                made.append(canonical(match.engine, match.state, text))
                hands.insert(text, f"p{match.to_move()}")
                match.play_text(text)
                wait_status(tmp_path, f"move {text}", moves=made, phase="awaiting_move")

        with daemon(tmp_path, vmcu) as proc:
            wait_status(tmp_path, "the board read", phase="awaiting_move", moves=[])
            play(3)
            proc.send_signal(signal.SIGKILL)
            assert proc.wait(10) == -signal.SIGKILL

        # while it is down, a marble is carried from its cell to the centre
        source = sorted(hands.layout)[0]
        piece = hands.lift(source)
        hands.place("d4", piece)

        with daemon(tmp_path, vmcu) as proc:
            got = wait_status(tmp_path, "restore hints", moves=made, phase="wrong_board")
            assert got["offending"] == ["d4"] and got["restore"] == {source: piece}
            amber = FrameProcessor(PROFILE.leds)([Palette().restore])[0]
            (g, r, b) = wire_order([amber], PROFILE.leds.order)[0]
            led = PROFILE.site(source).leds[0]
            assert vmcu.wait_until(
                lambda: (
                    bool(vmcu.led_frames)
                    and vmcu.led_frames[-1][3 * led : 3 * led + 3] == bytes((g, r, b))
                ),
                5,
            ), "no amber where the marble belongs"
            hands.lift("d4")
            hands.place(source, piece)
            wait_status(tmp_path, "the board right again", moves=made, phase="awaiting_move")
            play(2)
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(10) == 0
        assert vmcu.wait_until(lambda: not any(vmcu.led_frames[-1]), 5), "LEDs left on"
    assert len(made) == 5
