"""The service's sandbox lets every hardware backend identify the machine.

Run for real, not read: under ``unshare`` with /proc mounted as the unit's
``ProtectProc=`` and ``ProcSubset=`` mount it, each backend's library is
imported and asked what it asks at start (gpiozero identifies the Pi whenever
it makes a pin). Not being a Pi is fine here; a /proc file that is not there
is what the service would die of."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from boardctl.daemon import units

ROOT = Path(__file__).resolve().parent.parent

PROBE = r"""
import importlib, json, sys

def missing_proc(exc):
    name = getattr(exc, "filename", None) or ""
    return isinstance(exc, FileNotFoundError) and str(name).startswith("/proc")

def probe(name, call):
    try:
        call()
    except ModuleNotFoundError as exc:
        return f"skipped: {exc.name} is not installed"
    except BaseException as exc:
        if missing_proc(exc):
            return f"missing {exc.filename}"
        return f"ran: {type(exc).__name__}"  # e.g. not a Pi: fine here
    return "ran"

def gpiozero_identify():
    from gpiozero.pins.local import get_pi_revision
    get_pi_revision()

def gpiozero_native():
    from gpiozero.pins.native import NativeFactory
    NativeFactory().close()

def ws281x():
    importlib.import_module("rpi_ws281x")

def pyserial():
    import serial
    from serial.tools import list_ports
    list_ports.comports()

def spidev():
    importlib.import_module("spidev")

results = {
    "gpiozero identification": probe("gpiozero", gpiozero_identify),
    "gpiozero native factory": probe("gpiozero", gpiozero_native),
    "rpi_ws281x": probe("rpi_ws281x", ws281x),
    "pyserial": probe("pyserial", pyserial),
    "spidev": probe("spidev", spidev),
}
print(json.dumps(results))
"""


def _proc_options(unit: str) -> str:
    """The mount options of /proc that the unit's settings give the service."""
    settings = dict(
        line.split("=", 1) for line in unit.splitlines() if "=" in line and line[0].isalpha()
    )
    options = []
    if settings.get("ProtectProc", "default") != "default":
        options.append(f"hidepid={settings['ProtectProc']}")
    if settings.get("ProcSubset", "all") == "pid":
        options.append("subset=pid")
    return ",".join(options) or "defaults"


def test_proc_options_follow_the_unit() -> None:
    assert (
        _proc_options("ProtectProc=invisible\nProcSubset=pid\n") == "hidepid=invisible,subset=pid"
    )
    assert _proc_options(units.service_unit()).startswith("hidepid=invisible")


def test_every_backend_finds_the_proc_files_it_reads_inside_the_sandbox() -> None:
    if shutil.which("unshare") is None:
        pytest.skip("unshare is not installed: the sandbox's /proc cannot be made here")
    if os.geteuid() != 0:
        pytest.skip("needs root to mount /proc as the unit does (run the suite as root)")
    options = _proc_options(units.service_unit())
    script = (
        f'mount -t proc -o {options} proc /proc || exit 97; exec "{sys.executable}" -c "$PROBE"'
    )
    result = subprocess.run(
        ["unshare", "--mount", "--pid", "--fork", "--propagation", "private", "sh", "-c", script],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PROBE": PROBE, "PYTHONPATH": str(ROOT)},
        check=False,
    )
    if result.returncode == 97 or "unshare failed" in result.stderr:
        pytest.skip(f"cannot make a mount namespace here: {result.stderr.strip()[:200]}")
    assert result.returncode == 0, result.stderr
    results = json.loads(result.stdout.splitlines()[-1])
    for name, outcome in results.items():
        if outcome.startswith("skipped"):
            warnings.warn(f"{name} not probed: {outcome}", stacklevel=1)  # in the summary
    missing = {name: outcome for name, outcome in results.items() if outcome.startswith("missing")}
    assert not missing, f"under /proc mounted {options}: {missing}"
    assert results["gpiozero identification"].startswith("ran"), results
