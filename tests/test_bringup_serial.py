"""Bring-up of a board whose LEDs hang off its microcontroller: `boardctl test
leds` reaches them through the real serial link (the virtual microcontroller)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from boardctl.cli.main import main
from firmware_bridge import protocol
from firmware_bridge.virtual import VirtualMicrocontroller
from hardware.profiles import find_profile, load_profile


def test_led_walk_reaches_the_microcontroller(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board = load_profile("shiftago-colour")
    assert board.leds.backend == "serial"
    kinds = [protocol.KIND_CODE] * board.channel_count
    with VirtualMicrocontroller(board.channel_count, board.leds.count, kinds=kinds) as mcu:
        text = find_profile("shiftago-colour").read_text()
        text = re.sub(r'(?m)^port = ".*"', f'port = "{mcu.port}"', text)
        path = tmp_path / "board.toml"
        path.write_text(text)
        assert main(["test", "leds", str(path), "--delay", "0.1", "--site", "d4"]) == 0
        assert "d4: " in capsys.readouterr().out
        d4_led = board.site("d4").leds[0]
        assert mcu.wait_until(
            lambda: any(
                frame[3 * d4_led : 3 * d4_led + 3] != b"\0\0\0" for frame in mcu.led_frames
            ),
            timeout=5,
        ), "the microcontroller never lit d4's LED"
        assert mcu.wait_until(lambda: mcu.led_frames[-1] == bytes(3 * board.leds.count), 5), (
            "the LEDs are left lit after the walk"
        )
