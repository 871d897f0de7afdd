"""The operator page of a running daemon: the brightness and the opening hours
set there hold after the daemon restarts; the board's address for phones, as
a QR code a camera reads."""

from __future__ import annotations

import shutil
import subprocess
import warnings
from pathlib import Path
from typing import Any

import pytest
from test_web_browser import WAIT

from boardctl.cli.main import main
from boardctl.sim.session import Simulation
from boardctl.web.address import lan_address

HOURS = "mon-fri 10:00-18:00; sat,sun 09:00-20:00"


def _settings(sim: Simulation) -> dict[str, Any]:
    reply = sim.request({"cmd": "settings"})
    assert reply["ok"], reply
    return dict(reply["settings"])


def _operator(sim: Simulation, page: Any) -> None:
    page.goto(str(sim.daemon.web.url) + "/operator")
    page.wait_for_selector("#panel:not([hidden])", timeout=WAIT)
    page.wait_for_function(
        "document.getElementById('lighting-note').textContent.length > 0", timeout=WAIT
    )


def test_brightness_and_hours_set_on_the_operator_page_are_kept(
    tmp_path: Path,
    page: Any,
) -> None:
    overrides = ['web.listen="127.0.0.1:0"', "leds.brightness=0.5"]
    with Simulation("shiftago", overrides=overrides, state_dir=tmp_path) as sim:
        _operator(sim, page)
        assert page.input_value("#lighting-brightness") == "50"
        assert "always open" in page.locator("#lighting-note").inner_text()
        page.eval_on_selector(
            "#lighting-brightness", "e => { e.value = 30; e.dispatchEvent(new Event('input')); }"
        )
        assert page.locator("#brightness").inner_text() == "30 %"
        page.fill("#lighting-hours", HOURS)
        page.click("#lighting-save")
        page.wait_for_function(
            "document.getElementById('said').textContent.includes('settings saved')",
            timeout=WAIT,
        )
        settings = _settings(sim)
        assert (settings["brightness"], settings["hours"]) == (0.3, HOURS)
        page.fill("#lighting-hours", "mon-fri 10:00")
        page.click("#lighting-save")
        page.wait_for_function(
            "document.getElementById('said').textContent.includes('opening-closing')",
            timeout=WAIT,
        )
        assert _settings(sim)["hours"] == HOURS
    with Simulation("shiftago", overrides=overrides, state_dir=tmp_path) as sim:
        assert (_settings(sim)["brightness"], _settings(sim)["hours"]) == (0.3, HOURS)
        _operator(sim, page)
        assert page.input_value("#lighting-brightness") == "30"
        assert page.input_value("#lighting-hours") == HOURS


ZBAR = shutil.which("zbarimg")


def _read_qr(page: Any, selector: str, tmp_path: Path) -> str:
    """What a phone's camera reads from the QR code ``selector`` shows (zbarimg)."""
    if ZBAR is None:
        warnings.warn("the QR codes are not read: zbarimg is missing (zbar-tools)", stacklevel=1)
        pytest.skip("zbarimg (zbar-tools) is not installed")
    picture = tmp_path / "qr.png"
    page.locator(selector).screenshot(path=str(picture))
    done = subprocess.run(
        [ZBAR, "--raw", "-q", str(picture)], capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_phone_reads_the_boards_address_from_the_operator_page(
    tmp_path: Path,
    page: Any,
) -> None:
    with Simulation("shiftago", overrides=['web.listen="127.0.0.1:0"']) as sim:
        _operator(sim, page)
        page.wait_for_function(
            "document.getElementById('address').textContent.startsWith('http')", timeout=WAIT
        )
        shown = page.locator("#address").inner_text()
        # the address the operator's browser used (a phone on the LAN would use the LAN's)
        assert shown == str(sim.daemon.web.url) + "/"
        assert _read_qr(page, "#qr", tmp_path) == shown


def test_boardctl_web_address_prints_the_pages_and_a_qr_code_to_print(
    tmp_path: Path,
    page: Any,
    capsys: pytest.CaptureFixture[str],
) -> None:
    svg = tmp_path / "board.svg"
    assert main(["web", "address", "--listen", "0.0.0.0:8080", "--svg", str(svg)]) == 0
    out = capsys.readouterr().out
    lan = lan_address() or "0.0.0.0"
    assert f"live board  http://{lan}:8080/\n" in out
    assert f"scoreboard  http://{lan}:8080/score\n" in out
    assert "█" in out  # the code drawn in the terminal
    page.goto(svg.as_uri())
    assert _read_qr(page, "svg", tmp_path) == f"http://{lan}:8080/"
    assert main(["web", "address", "--listen", ""]) == 2
    assert "the web pages are off" in capsys.readouterr().err
