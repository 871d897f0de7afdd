"""The modules the firmware shares with the host run under real MicroPython and
speak byte for byte what CPython speaks.

MicroPython comes from its WebAssembly port, which ``make test`` installs with
npm into tests/micropython/node_modules.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RUNNER = ROOT / "tests/micropython/run.mjs"
PACKAGE = ROOT / "tests/micropython/node_modules/@micropython/micropython-webassembly-pyscript"
SHARED = ("protocol.py",)
FIRMWARE = ("core.py", "scanner.py", "hardware.py")

# The same script runs under both interpreters: it encodes one of every message,
# then decodes the stream (with garbage and a corrupted frame in it) and prints
# what it read.
SCRIPT = r"""
import protocol as p

def show(m):
    fields = []
    for name in sorted(k for k in dir(m) if not k.startswith('_')):
        v = getattr(m, name)
        if not callable(v):
            fields.append(name + '=' + repr(bytes(v) if isinstance(v, bytearray) else v))
    return type(m).__name__ + '(' + ', '.join(fields) + ')'

messages = [
    p.Hello((1, 2, 3), 0xDEADBEEF, bytes([1, 2, 3, 0]), 28, 65535, 'shiftago-7'),
    p.Snapshot(p.SNAP_AUDIT, 513, [0, 1, 65535, 7]),
    p.Changes(65534, [(3, 1), (76, 0), (0, 300)]),
    p.Heartbeat(5, 6, 7, p.HB_HOST_SILENT),
    p.Notice(1, 'LED frame too long'),
    p.Connect(42),
    p.Ack(9, p.ACK_GAP),
    p.Leds(3, bytes([255, 0, 0, 0, 0, 0])),
]
stream = bytearray(b'garbage\x00')
for seq, m in enumerate(messages):
    frame = p.encode_message(m, seq)
    print('frame', seq, frame.hex())
    stream += frame
bad = bytearray(p.encode_message(p.Connect(7), 99))
bad[3] ^= 0x10
stream += bad
decoder = p.Decoder()
for i in range(0, len(stream), 5):
    for seq, m in decoder.feed(bytes(stream[i:i + 5])):
        print('read', seq, show(m))
print('frames', decoder.frames, 'errors', decoder.errors)
print('crc', hex(p.crc16(b'123456789')), hex(p.crc16_pure(b'123456789')))
import core, scanner, hardware
print('firmware modules load')
"""


def _node() -> str:
    node = shutil.which("node")
    if node is None or not PACKAGE.exists():
        pytest.skip("MicroPython's WebAssembly port is not installed (make test installs it)")
    return node


def _run_both(script: str, tmp_path: Path) -> tuple[str, str]:
    """What ``script`` prints under MicroPython and under CPython, with the
    shared and firmware modules on the path of both."""
    node = _node()
    files = {name: (ROOT / "firmware_bridge" / name).read_text() for name in SHARED}
    files.update(
        {name: (ROOT / "firmware_bridge/firmware" / name).read_text() for name in FIRMWARE}
    )
    micro = subprocess.run(
        [node, str(RUNNER)],
        input=json.dumps({"files": files, "code": script}),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert micro.returncode == 0, micro.stderr + micro.stdout
    lib = tmp_path / "lib"
    lib.mkdir()
    for name, text in files.items():
        (lib / name).write_text(text)
    cpython = subprocess.run(
        [sys.executable, "-c", f"import sys; sys.path.insert(0, {str(lib)!r})\n{script}"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert cpython.returncode == 0, cpython.stderr
    return micro.stdout, cpython.stdout


def test_protocol_runs_under_micropython_as_under_cpython(tmp_path: Path) -> None:
    micro, cpython = _run_both(SCRIPT, tmp_path)
    assert micro.split("\n") == cpython.split("\n")
    assert "frames 8 errors 2" in micro


# The firmware's own loop, scripted: a board whose readings change (with bounce),
# the scanner debouncing them, the link talking to a host that connects, acks
# and sends LEDs, on a fake clock. Every byte the firmware writes is printed.
FIRMWARE_SCRIPT = r"""
import protocol as p
import core, scanner

board = [0] * 6
scan = scanner.Scanner(lambda: list(board), 6, 3)
scan.prime()
out = []
shown = []
link = core.McuLink(out.append, scan.values, bytes([p.KIND_CODE] * 6), 4, 'mp-test', 0x1234ABCD,
                    show_leds=shown.append)
script = {
    3: [(0, 1)], 4: [(0, 0)], 5: [(0, 1)],  # bounce, then it stays
    20: [(2, 7), (5, 1)], 40: [(2, 0)], 60: [(4, 3)],
}
now = 0
for step in range(120):
    for channel, value in script.get(step, []):
        board[channel] = value
    changes = scan.scan()
    if changes:
        link.changes(changes)
    if step == 10:
        link.receive(p.encode_message(p.Connect(99), 0), now)
    if step == 70:
        link.receive(p.encode_message(p.Ack(link.next_event, 0), 1), now)
    if step == 80:
        link.receive(p.encode_message(p.Leds(1, bytes(range(12))), 2), now)
    link.poll(now)
    now += 10
for frame in out:
    print('wrote', bytes(frame).hex())
print('values', scan.values, 'next', link.next_event)
print('leds', [bytes(f).hex() for f in shown])
"""


def test_firmware_core_and_scanner_run_under_micropython_as_under_cpython(tmp_path: Path) -> None:
    micro, cpython = _run_both(FIRMWARE_SCRIPT, tmp_path)
    assert micro == cpython
    assert micro.count("wrote") > 5
    assert "values [1, 0, 0, 0, 3, 1]" in micro
    assert "leds ['000102030405060708090a0b']" in micro
