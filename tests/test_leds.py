"""LED output: what the LEDs receive after brightness, gamma, order and the current
limit; only changed frames go out; backends that cannot start say why."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from boardctl.board import LedChain
from hardware.errors import HardwareError, HardwareUnavailable
from hardware.leds import SimStrip, create_strip, estimate_milliamps, simulated
from hardware.leds.base import FrameProcessor, wire_order
from hardware.leds.render import render_ansi, render_png
from hardware.leds.spi import encode
from hardware.profiles import load_profile

WHITE = (255, 255, 255)


def _chain(count: int = 4, **kw: object) -> LedChain:
    settings: dict[str, object] = {"brightness": 1.0, "gamma": 1.0, "max_milliamps": 100_000}
    settings.update(kw)
    return LedChain(count=count, **settings)  # type: ignore[arg-type]


def test_gamma_makes_half_input_much_dimmer_and_keeps_the_ends() -> None:
    process = FrameProcessor(_chain(gamma=2.2))
    (black, half, full, _) = process([(0, 0, 0), (128, 128, 128), WHITE])
    assert black == (0, 0, 0) and full == WHITE
    assert 50 <= half[0] <= 60  # 255 * 0.5**2.2 = 55


def test_brightness_scales_every_channel_and_missing_leds_are_off() -> None:
    process = FrameProcessor(_chain(brightness=0.5))
    assert process([WHITE, (200, 100, 0)]) == ((128, 128, 128), (100, 50, 0), (0, 0, 0), (0, 0, 0))
    with pytest.raises(ValueError, match="a frame of 5 LEDs for a chain of 4"):
        process([WHITE] * 5)


def test_colour_order_puts_bytes_where_the_leds_expect_them() -> None:
    assert wire_order([(1, 2, 3)], "GRB") == [(2, 1, 3)]
    assert wire_order([(1, 2, 3)], "BGR") == [(3, 2, 1)]


def test_current_limiter_keeps_a_full_white_board_within_budget() -> None:
    # 77 WS2812 at full white would draw 4.6 A; the supply gives 2 A
    chain = _chain(77, max_milliamps=2000, milliamps_per_led=60)
    assert estimate_milliamps([WHITE] * 77, 60) == pytest.approx(4620)
    pixels = FrameProcessor(chain)([WHITE] * 77)
    draw = estimate_milliamps(pixels, 60)
    assert 1900 < draw <= 2000
    # a frame within budget is left alone
    few = FrameProcessor(chain)([WHITE] * 10)
    assert few[:10] == (WHITE,) * 10


def test_only_changed_frames_are_sent() -> None:
    strip = SimStrip(_chain())
    with strip:
        assert strip.show([WHITE]) is True
        assert strip.show([WHITE, (0, 0, 0)]) is False  # same LEDs after padding
        assert strip.show([(0, 0, 255)]) is True
    # closing turns them off: that is a change, so it is sent too
    assert [f.lit() for f in strip.frames] == [(0,), (0,), ()]
    assert [f.index for f in strip.frames] == [0, 1, 2]
    assert strip.opened == strip.closed == 1
    with pytest.raises(HardwareError, match="not open"):
        strip.show([WHITE])


def test_spi_encoding_sends_three_spi_bits_per_led_bit_in_led_order() -> None:
    data = encode([(0xFF, 0x00, 0x00)], "GRB", speed_hz=2_400_000)
    zero, one = bytes([0x92, 0x49, 0x24]), bytes([0xDB, 0x6D, 0xB6])
    assert data[:9] == zero + one + zero  # G, R, B
    latch = data[9:]
    assert set(latch) == {0} and len(latch) * 8 / 2_400_000 >= 300e-6


class _Link:
    def __init__(self) -> None:
        self.sent: list[bytes] = []

    def set_leds(self, pixels: bytes | Sequence[tuple[int, int, int]]) -> None:
        assert isinstance(pixels, bytes)  # the frame's bytes, never turned into tuples
        self.sent.append(pixels)


def test_serial_backend_hands_final_bytes_to_the_link() -> None:
    link = _Link()
    chain = _chain(2, backend="serial", order="GRB", brightness=0.5)
    with create_strip(chain, link=link) as strip:
        strip.show([(255, 0, 0), (0, 0, 200)])
        strip.show([(255, 0, 0), (0, 0, 200)])
    assert link.sent[0] == bytes([0, 128, 0, 0, 0, 100])  # GRB, at half brightness
    assert len(link.sent) == 2 and link.sent[1] == bytes(6)
    with pytest.raises(HardwareUnavailable, match="no link was given"):
        create_strip(chain).open()


def test_spi_backend_without_spidev_says_what_to_install() -> None:
    strip = create_strip(_chain(backend="spi", settings={"bus": 0, "device": 0}))
    with pytest.raises(HardwareUnavailable, match="pip install spidev"):
        strip.open()
    assert not strip.is_open


WS281X_SCRIPT = """
import sys
from boardctl.board import LedChain
from hardware.errors import HardwareUnavailable
from hardware.leds import create_strip
strip = create_strip(LedChain(count=77, backend="ws281x", settings={"pin": 18, "dma": 10}))
try:
    strip.open()
except HardwareUnavailable as e:
    print("unavailable:", e)
print("open" if strip.is_open else "closed")
strip.close()
"""


def test_ws281x_failure_is_clear_and_the_interpreter_exits_cleanly() -> None:
    pytest.importorskip("rpi_ws281x")
    done = subprocess.run(
        [sys.executable, "-c", WS281X_SCRIPT], capture_output=True, text=True, timeout=30
    )
    # without the fix the process dies at exit with SIGSEGV (-11)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("unavailable: cannot start the ws281x LEDs on GPIO 18:")
    assert "Hardware revision is not supported" in lines[0]
    assert 'backend = "spi"' in lines[0] and "--sim" not in lines[0]
    assert lines[1] == "closed"


def test_importing_the_backends_does_not_load_hardware_libraries() -> None:
    code = (
        "import sys, hardware.leds, hardware.leds.ws281x, hardware.leds.spi;"
        "print(sorted(m for m in ('rpi_ws281x', 'spidev', '_rpi_ws281x') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert done.stdout.strip() == "[]"


def test_sim_renders_the_board_to_the_terminal_and_png(tmp_path: Path) -> None:
    board = load_profile("shiftago-colour")
    frame = [(0, 0, 0)] * 77
    frame[board.site("a1").leds[0]] = (255, 0, 0)
    with create_strip(simulated(board.leds), profile=board) as strip:
        strip.show(frame)
        pixels = strip.last_sent
    assert pixels is not None
    text = render_ansi(board, pixels)
    lines = text.splitlines()
    assert len(lines) == 9  # north tracks, 7 rows of cells, south tracks
    row1 = lines[-2]  # W1, a1 .. g1, E1: a1 is the only one lit
    assert row1.count("○") == 8 and row1.count("●") == 1
    assert row1.index("○") < row1.index("●") < row1.index("○", row1.index("●"))
    assert text.count("\x1b[38;2;") == 1  # only a1 is lit
    path = tmp_path / "board.png"
    data = render_png(board, pixels, path, scale=20)
    assert path.read_bytes() == data and data.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (200, 200)
