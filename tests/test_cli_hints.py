"""When a board's hardware cannot start, each command names the cause and its own
way to go on without the board: ``--sim`` for the bring-up tools, ``boardctl sim``
for the daemon."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import gpiozero
import pytest

from boardctl.cli.main import main


@pytest.fixture
def no_pin_library(monkeypatch: pytest.MonkeyPatch) -> None:
    """gpiozero as on a machine without lgpio, RPi.GPIO or pigpio, and no Pi."""
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(gpiozero.Device, "pin_factory", None)
    for module in ("lgpio", "rpigpio", "pigpio", "native"):
        monkeypatch.setitem(sys.modules, f"gpiozero.pins.{module}", None)


def test_no_pin_library_is_one_line_naming_lgpio(
    no_pin_library: None, capsys: pytest.CaptureFixture[str]
) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert main(["test", "sensors", "shiftago-presence"]) == 2
    assert [w for w in caught if issubclass(w.category, gpiozero.PinFactoryFallback)] == []
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert "cannot use GPIO 17: gpiozero found no pin library" in err
    assert "Falling back from lgpio" in err  # why each library failed, for the journal
    assert "`pip install lgpio`, or `sudo apt install python3-lgpio`" in err
    assert "gpio group" not in err
    assert err.rstrip().endswith("to try it without the board, add --sim")


def test_run_points_to_the_simulator_not_to_a_flag_it_lacks(tmp_path: Path) -> None:
    pytest.importorskip("rpi_ws281x")
    conf = tmp_path / "boardctl.toml"
    conf.write_text(
        f'[storage]\nstate_dir = "{tmp_path / "state"}"\n'
        f'[control]\nsocket = "{tmp_path / "control.sock"}"\n'
    )
    command = ["run", "--config", str(conf), "--profile", "duploline"]
    done = subprocess.run(
        [sys.executable, "-m", "boardctl.cli.main", *command],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert "cannot start the ws281x LEDs" in done.stderr
    assert "--sim" not in done.stderr
    assert done.stderr.rstrip().endswith("run `boardctl sim`")


def test_a_pi_gets_gpiozeros_pin_library_and_other_machines_do_not() -> None:
    import tomllib

    from packaging.requirements import Requirement

    root = Path(__file__).resolve().parent.parent
    deps = tomllib.loads((root / "pyproject.toml").read_text())["project"]["dependencies"]
    lgpio = next(Requirement(d) for d in deps if d.startswith("lgpio"))
    assert lgpio.marker is not None
    for machine, wanted in (("aarch64", True), ("armv7l", True), ("x86_64", False)):
        env = {"sys_platform": "linux", "platform_machine": machine}
        assert lgpio.marker.evaluate(env) is wanted, machine
