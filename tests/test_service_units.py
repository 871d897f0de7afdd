"""The systemd unit is hardened, valid, and the same one the installer writes."""

import shutil
import subprocess
from pathlib import Path

import pytest

from boardctl.cli.main import main
from boardctl.daemon import units

ROOT = Path(__file__).resolve().parent.parent
needs_systemd = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed"
)


def test_shipped_files_are_the_rendered_defaults() -> None:
    assert (ROOT / "systemd/boardctl.service").read_text() == units.service_unit()
    assert (ROOT / "systemd/boardctl.sysusers").read_text() == units.sysusers()
    assert (ROOT / "systemd/70-boardctl.rules").read_text() == units.udev_rule()


def test_unit_is_a_watched_notify_service_that_restarts() -> None:
    text = units.service_unit("/x/bin/boardctl")
    for line in (
        "Type=notify",
        "WatchdogSec=10",
        "Restart=on-failure",
        "StartLimitBurst=5",
        # /etc/boardctl/boardctl.toml if it is there: `run --config FILE` needs FILE
        "ExecStart=/x/bin/boardctl run",
        "SupplementaryGroups=gpio spi dialout audio",
        "StateDirectory=boardctl",
        "RuntimeDirectory=boardctl",
        # lgpio keeps files in the working directory; / is read-only to the service
        "WorkingDirectory=/run/boardctl",
    ):
        assert line in text.splitlines()


@needs_systemd
def test_security_rating_is_two_or_lower() -> None:
    out = subprocess.run(
        ["systemd-analyze", "security", "--offline=yes", str(ROOT / "systemd/boardctl.service")],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    line = next(x for x in out.splitlines() if "Overall exposure level" in x)
    assert float(line.split(":")[1].split()[0]) <= 2.0, line


@needs_systemd
def test_verify_reports_only_the_missing_executable(tmp_path: Path) -> None:
    unit = tmp_path / "boardctl.service"
    unit.write_text(units.service_unit("/nonexistent/bin/boardctl"))
    result = subprocess.run(
        ["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, check=False
    )
    problems = [line for line in result.stderr.splitlines() if line.strip()]
    assert problems == [
        "boardctl.service: Command /nonexistent/bin/boardctl is not executable: "
        "No such file or directory"
    ]


def test_install_writes_the_files_for_this_installation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    exe = tmp_path / "venv/bin/boardctl"
    assert main(["service", "install", "--root", str(tmp_path), "--boardctl", str(exe)]) == 0
    unit = (tmp_path / "etc/systemd/system/boardctl.service").read_text()
    assert f"ExecStart={exe} run" in unit
    assert (tmp_path / "etc/sysusers.d/boardctl.conf").read_text() == units.sysusers()
    assert "boardctl-mcu" in (tmp_path / "etc/udev/rules.d/70-boardctl.rules").read_text()
    assert "systemctl enable --now boardctl" in capsys.readouterr().out


def test_install_without_permission_says_what_to_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocked = tmp_path / "ro"
    blocked.write_text("a file where a directory must go")
    assert main(["service", "install", "--root", str(blocked)]) == 2
    assert "or pass --root DIR" in capsys.readouterr().err


def test_devices_are_allowed_by_their_kernel_driver_names() -> None:
    # DeviceAllow=char-NAME matches a driver as /proc/devices lists it: spidev
    # registers as "spi", the GPIO chips as "gpiochip", USB serial as ttyACM/ttyUSB
    allowed = [
        line.removeprefix("DeviceAllow=")
        for line in units.service_unit().splitlines()
        if line.startswith("DeviceAllow=")
    ]
    assert allowed == [
        "char-gpiochip rw",
        "/dev/gpiomem rw",
        "char-spi rw",
        "char-ttyACM rw",
        "char-ttyUSB rw",
        "char-alsa rw",
    ]


def test_the_unit_waits_for_nothing_it_does_not_pull_in() -> None:
    # After= a unit nobody Wants= orders nothing; the daemon starts without the
    # microcontroller (ready, showing the fault) instead
    lines = units.service_unit().splitlines()
    after = {u for line in lines if line.startswith("After=") for u in line[6:].split()}
    wants = {
        u
        for line in lines
        if line.startswith(("Wants=", "Requires="))
        for u in line.split("=")[1].split()
    }
    assert after <= wants, f"ordered after {sorted(after - wants)} without pulling it in"


def test_the_network_opens_only_for_configured_web_pages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dropin = tmp_path / units.WEB_DROPIN.lstrip("/")
    config = tmp_path / "boardctl.toml"
    args = ["service", "install", "--root", str(tmp_path), "--boardctl", "/x/boardctl"]
    config.write_text('[web]\nlisten = "127.0.0.1:8080"\n')
    assert main([*args, "--config", str(config)]) == 0
    text = dropin.read_text()
    assert "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6" in text
    assert "IPAddressAllow=localhost\n" in text
    config.write_text('[web]\nlisten = "0.0.0.0:8080"\ntoken = "a-long-enough-token"\n')
    assert main([*args, "--config", str(config)]) == 0
    assert "192.168.0.0/16" in dropin.read_text()
    config.write_text("")
    assert main([*args, "--config", str(config)]) == 0
    assert not dropin.exists()
    assert "[web] listen is not set" in capsys.readouterr().out


def test_the_network_opens_for_a_configured_broker_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dropin = tmp_path / units.MQTT_DROPIN.lstrip("/")
    config = tmp_path / "boardctl.toml"
    args = ["service", "install", "--root", str(tmp_path), "--boardctl", "/x/boardctl"]
    config.write_text("")
    assert main([*args, "--config", str(config)]) == 0
    assert not dropin.exists()  # no broker: no network
    config.write_text('[mqtt]\nbroker = "mqtt://192.168.1.10:1883"\n')
    assert main([*args, "--config", str(config)]) == 0
    text = dropin.read_text()
    assert "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6" in text
    assert "IPAddressAllow=192.168.1.10\n" in text
    assert not (tmp_path / units.WEB_DROPIN.lstrip("/")).exists()
    config.write_text('[mqtt]\nbroker = "mqtts://broker.example.org"\n')
    assert main([*args, "--config", str(config)]) == 0
    assert "IPAddressAllow=any\n" in dropin.read_text()  # a name may resolve anywhere
    config.write_text("")
    assert main([*args, "--config", str(config)]) == 0
    assert not dropin.exists()
    assert "[mqtt] broker is not set" in capsys.readouterr().out
