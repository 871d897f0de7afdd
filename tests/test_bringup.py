"""The bring-up tools, driven through the simulated twins: a recording strip,
MockFactory pins moved by a simulated hand, and scripted sensors."""

from __future__ import annotations

import queue
import random
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from mini_game import mini_game  # noqa: F401  (the fixture)

from boardctl.board import BoardProfile
from boardctl.cli.main import main
from boardctl.sensing import SensorChange, SensorEvent, SensorSnapshot
from hardware.bringup import (
    Calibration,
    SensorTable,
    SimHand,
    led_walk,
    run_calibration,
    write_channels,
)
from hardware.errors import HardwareError
from hardware.gpio_sensing import PinSource
from hardware.leds import SimStrip, simulated
from hardware.profiles import load_profile, parse_profile
from hardware.sim_sensing import ScriptedSource

pytestmark = pytest.mark.usefixtures("mini_game")

PINS = [17, 27, 22, 23]
GPIO_BOARD = """\
[board]
name = "four-cells"
game = "mini"
options = { cells = "a1 a2 b1 b2" }

[sensing]
kind = "gpio"
pins = [17, 27, 22, 23]
debounce_ms = 5

[leds]
count = 4

[sites]
# calibrate fills in the channels
a1 = { kind = "cell", reports = "presence", leds = [0], x = 1, y = 1 }
a2 = { kind = "cell", reports = "presence", leds = [1], x = 2, y = 1 }
b1 = { kind = "cell", reports = "presence", leds = [2], x = 1, y = 2 }
b2 = { kind = "cell", reports = "presence", leds = [3], x = 2, y = 2 }
"""


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory()
    yield f
    f.close()


def test_led_walk_lights_each_site_alone_in_each_colour() -> None:
    board = load_profile("shiftago-colour")
    steps = list(led_walk(board))
    assert len(steps) == 77 * 4
    for step in steps:
        lit = [i for i, p in enumerate(step.frame) if any(p)]
        assert lit == list(board.site(step.site).leds)
    assert [s.colour for s in steps[:4]] == ["red", "green", "blue", "white"]


def test_test_leds_command_walks_the_simulated_board(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    png = tmp_path / "all.png"
    assert main(["test", "leds", "duploline", "--sim", "--delay", "0", "--png", str(png)]) == 0
    out = capsys.readouterr().out
    assert "a1: red" in out and "g7: white" in out
    assert "148 steps over 37 sites" in out
    assert out.count("frame ") == 149  # every step, then all off
    assert png.read_bytes().startswith(b"\x89PNG")


def test_sensor_table_follows_pieces_placed_on_pins(factory: MockFactory, tmp_path: Path) -> None:
    path = tmp_path / "board.toml"
    path.write_text(GPIO_BOARD)
    write_channels(path, {"a1": 0, "a2": 1, "b1": 2, "b2": 3})
    board = load_profile(path)
    table = SensorTable(board)
    events: queue.Queue[SensorEvent] = queue.Queue()
    with PinSource(PINS, debounce=0.005, pin_factory=factory) as source:
        source.start(events.put)
        for _ in range(2):
            table.apply(events.get(timeout=2))
        factory.pin(22).drive_low()  # a piece on b1
        table.apply(events.get(timeout=2))
    lines = table.render().splitlines()
    assert lines[0] == "sensors: up (gpio pins)"
    assert "b1           2     1  occupied" in lines
    assert "a1           0     0  -" in lines


def test_sensor_table_shows_pieces_and_stray_channels() -> None:
    board = load_profile("shiftago-colour")
    table = SensorTable(board)
    table.apply(SensorSnapshot((3,) + (0,) * 48 + (9, 1)))
    table.apply(SensorChange(48, 7))
    text = table.render()
    assert "a1           0     3  p1" in text
    assert "g7          48     7  ?7" in text
    assert text.endswith("channels with a reading but no site: 49, 50")


def test_test_sensors_command_shows_pieces_typed_at_the_keyboard(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("d4 36\nzz 1\na1 8\nq\nb1 4\n"))
    assert main(["test", "sensors", "duploline", "--sim"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("simulated sensors: type 'SITE VALUE' (a1 2), 'SITE' to toggle")
    assert "? no site 'zz' on duploline: type a site and a value, e.g. a1 1, or q" in err
    last = out.split("site   channel   raw  reading\n")[-1]
    rows = {line.split()[0]: line.split()[1:] for line in last.splitlines() if line.strip()}
    assert len(rows) == 37  # every cell of the board, each once
    assert rows["d4"] == ["18", "36", "white-disc+black-ring"]
    assert rows["a1"] == ["0", "8", "black-disc"]
    assert rows["b1"] == ["4", "0", "-"]  # typed after q: not read
    assert rows["g7"] == ["36", "0", "-"]


def test_calibration_learns_the_wiring_from_a_hand_on_the_pins(
    factory: MockFactory, tmp_path: Path
) -> None:
    path = tmp_path / "four.toml"
    path.write_text(GPIO_BOARD)
    board = load_profile(path, require_channels=False)
    # the sensors were soldered in another order than the sites are listed
    wiring = {"a1": 2, "a2": 0, "b1": 3, "b2": 1}
    strip = SimStrip(simulated(board.leds))

    def act(channel: int, present: bool) -> None:
        pin = factory.pin(PINS[channel])
        if present:  # the marble lands with a bounce
            pin.drive_low()
            pin.drive_high()
            pin.drive_low()
        else:
            pin.drive_high()

    hand = SimHand(board, strip, wiring, act)
    source = PinSource(PINS, debounce=0.005, pin_factory=factory)
    said: list[str] = []
    with strip:
        mapping = run_calibration(Calibration(board), strip, source, timeout=5, say=said.append)
    assert mapping == wiring
    assert hand.placed == ["a1", "a2", "b1", "b2"]
    assert said[0] == "[1/4] put a piece on a1 (lit)" and said[-1] == "done: 4 sites calibrated"

    backup = write_channels(path, mapping)
    assert backup.read_text() == GPIO_BOARD
    learned = load_profile(path)
    assert {s.name: s.channel for s in learned.sites} == wiring
    assert "# calibrate fills in the channels" in path.read_text()


def test_calibration_ignores_a_channel_that_belongs_to_a_done_site() -> None:
    board = parse_profile(GPIO_BOARD, require_channels=False)
    calibration = Calibration(board)
    for event in (SensorChange(2, 1), SensorChange(2, 0), SensorChange(2, 1)):
        calibration.feed(event)
    assert calibration.mapping == {"a1": 2}
    assert calibration.messages == ["channel 2 answered, but it is a1's: ignored"]
    assert calibration.prompt() == "[2/4] put a piece on a2 (lit)"


def test_calibration_gives_up_when_nothing_answers() -> None:
    board = parse_profile(GPIO_BOARD, require_channels=False)
    with SimStrip(simulated(board.leds)) as strip, pytest.raises(HardwareError, match="at a1"):
        run_calibration(Calibration(board), strip, ScriptedSource(4), timeout=0.01, say=str)


def test_calibrate_command_writes_the_shuffled_wiring_and_keeps_a_backup(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    original = load_profile("shiftago-presence")
    path = tmp_path / "cheap.toml"
    shutil.copy(original.source, path)
    assert main(["calibrate", str(path), "--sim", "--shuffle", "7", "--timeout", "5"]) == 0
    assert "wrote 77 channels" in capsys.readouterr().out
    channels = list(range(77))
    random.Random(7).shuffle(channels)
    learned: BoardProfile = load_profile(path)
    assert [s.channel for s in learned.sites] == channels
    assert (tmp_path / "cheap.toml.bak").read_text() == Path(original.source).read_text()


def test_calibrate_refuses_a_shipped_profile_before_asking_for_a_piece(
    capsys: pytest.CaptureFixture[str],
) -> None:
    shipped = Path(load_profile("shiftago-presence").source)
    before = shipped.read_text()
    assert main(["calibrate", "shiftago-presence", "--sim", "--timeout", "5"]) == 2
    out, err = capsys.readouterr()
    assert "put a piece" not in out and "channel" not in out
    assert f"{shipped} is a profile shipped with boardctl; calibrate a copy of it" in err
    assert f"sudo cp {shipped} /etc/boardctl/boards/shiftago-presence.toml" in err
    assert shipped.read_text() == before and not shipped.with_name(shipped.name + ".bak").exists()


def test_calibrate_output_writes_a_copy_and_leaves_the_shipped_profile(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shipped = Path(load_profile("shiftago-presence").source)
    before = shipped.read_text()
    out_file = tmp_path / "cheap.toml"
    args = ["calibrate", "shiftago-presence", "--sim", "--shuffle", "3", "--timeout", "5"]
    assert main([*args, "--output", str(out_file)]) == 0
    assert f"wrote 77 channels to {out_file}\n" in capsys.readouterr().out
    channels = list(range(77))
    random.Random(3).shuffle(channels)
    assert [s.channel for s in load_profile(out_file).sites] == channels
    assert shipped.read_text() == before


def test_calibrate_prints_the_mapping_and_names_the_file_when_it_cannot_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "cheap.toml"
    shutil.copy(load_profile("shiftago-presence").source, path)
    before = path.read_text()

    def refuse(src: object, dst: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("hardware.bringup.os.replace", refuse)
    assert main(["calibrate", str(path), "--sim", "--shuffle", "7", "--timeout", "5"]) == 2
    out, err = capsys.readouterr()
    channels = list(range(77))
    random.Random(7).shuffle(channels)
    assert f"a1 = channel {channels[0]}\n" in out and f"W1 = channel {channels[76]}\n" in out
    assert f"cannot write the channels to {path}: Permission denied" in err
    assert "Traceback" not in err and path.read_text() == before


def test_write_channels_names_a_file_it_cannot_write(tmp_path: Path) -> None:
    path = tmp_path / "board.toml"
    path.write_text(GPIO_BOARD)
    missing = tmp_path / "no-such-folder" / "board.toml"
    with pytest.raises(HardwareError, match=f"cannot write the channels to {missing}"):
        write_channels(path, {"a1": 0, "a2": 1, "b1": 2, "b2": 3}, output=missing)


def test_calibrate_writes_sites_written_as_tables_of_their_own(tmp_path: Path) -> None:
    from boardctl.board import BoardProfile as Board

    text = GPIO_BOARD.replace(
        'a2 = { kind = "cell", reports = "presence", leds = [1], x = 2, y = 1 }\n', ""
    ).replace(
        'b2 = { kind = "cell", reports = "presence", leds = [3], x = 2, y = 2 }\n',
        '\n[sites.a2]\nkind = "cell"\nleds = [1]\nx = 2\ny = 1\n\n'
        '[sites."b2"]\nkind = "cell"\nchannel = 0 # wrong\nleds = [3]\nx = 2\ny = 2\n',
    )
    path = tmp_path / "tables.toml"
    path.write_text(text)
    write_channels(path, {"a1": 3, "a2": 2, "b1": 1, "b2": 0}, output=path)
    written = path.read_text()
    board: Board = load_profile(path)
    assert {s.name: s.channel for s in board.sites} == {"a1": 3, "a2": 2, "b1": 1, "b2": 0}
    assert '[sites."b2"]\nkind = "cell"\nchannel = 0 # wrong\n' in written
    assert "[sites.a2]\nchannel = 2\nkind" in written
    write_channels(path, {"b2": 1, "b1": 0})
    assert "channel = 1 # wrong" in path.read_text()


def test_test_sensors_takes_piece_names_and_explains_a_bad_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    typed = "d4 p0\nd4 x9\nzz9 2\ne5 white-disc\ne5 2 3\nq\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    assert main(["test", "sensors", "shiftago-colour", "--sim"]) == 0
    out, err = capsys.readouterr()
    assert err.splitlines() == [
        "? value x9? give a piece name (p0, p1, p2, p3) or the raw sensor number",
        "? no site 'zz9' on shiftago-colour: type a site and a value, e.g. a1 1, or q",
        "? value white-disc? give a piece name (p0, p1, p2, p3) or the raw sensor number",
        "? e5 2 3? type a site and a value, e.g. a1 1, or q",
    ]
    last = out.split("site   channel   raw  reading\n")[-1]
    rows = {line.split()[0]: line.split()[1:] for line in last.splitlines() if line.strip()}
    assert rows["d4"][-1] == "p0"


def _png_pixels(path: Path) -> list[tuple[int, int, int]]:
    """The pixels of a PNG as render_png writes it (8-bit RGB, filter 0)."""
    import struct
    import zlib

    data = path.read_bytes()
    width, height = struct.unpack(">II", data[16:24])
    idat, pos = b"", 8
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        if data[pos + 4 : pos + 8] == b"IDAT":
            idat += data[pos + 8 : pos + 8 + length]
        pos += 12 + length
    raw = zlib.decompress(idat)
    row = 1 + 3 * width
    return [
        (raw[y * row + 1 + 3 * x], raw[y * row + 2 + 3 * x], raw[y * row + 3 + 3 * x])
        for y in range(height)
        for x in range(width)
    ]


def test_the_png_shows_the_walked_sites_in_white_at_full_scale(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from hardware.leds.render import OFF_COLOUR

    every, one = tmp_path / "every.png", tmp_path / "d4.png"
    assert main(["test", "leds", "duploline", "--sim", "--delay", "0", "--png", str(every)]) == 0
    assert f"wrote {every}: 37 LEDs of 37 sites in white at full scale" in capsys.readouterr().out
    args = ["test", "leds", "duploline", "--sim", "--delay", "0", "--site", "d4", "--png", str(one)]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert f"wrote {one}: 1 LED of 1 site in white at full scale" in out
    assert "(the board dims them to brightness 0.5)" in out
    white = (255, 255, 255)
    all_lit = _png_pixels(every)
    assert white in all_lit and OFF_COLOUR not in all_lit
    d4 = _png_pixels(one)
    assert 0 < d4.count(white) < all_lit.count(white) / 30
    assert OFF_COLOUR in d4
