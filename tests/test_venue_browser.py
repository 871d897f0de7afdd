"""The operator sets the brightness and the opening hours on the operator page
of a running daemon; they hold after the daemon restarts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from test_web_browser import WAIT

from boardctl.sim.session import Simulation

HOURS = "mon-fri 10:00-18:00; sat,sun 09:00-20:00"


def _settings(sim: Simulation) -> dict[str, Any]:
    reply = sim.request({"cmd": "settings"})
    assert reply["ok"], reply
    return dict(reply["settings"])


def _operator(sim: Simulation, page: Any) -> None:
    page.goto(str(sim.daemon.web.url) + "/operator")
    page.wait_for_selector("#panel:not([hidden])", timeout=WAIT)
    page.wait_for_function(
        "document.getElementById('venue-note').textContent.length > 0", timeout=WAIT
    )


def test_brightness_and_hours_set_on_the_operator_page_are_kept(
    tmp_path: Path,
    page: Any,
) -> None:
    overrides = ['web.listen="127.0.0.1:0"', "leds.brightness=0.5"]
    with Simulation("shiftago", overrides=overrides, state_dir=tmp_path) as sim:
        _operator(sim, page)
        assert page.input_value("#venue-brightness") == "50"
        assert "always open" in page.locator("#venue-note").inner_text()
        page.eval_on_selector(
            "#venue-brightness", "e => { e.value = 30; e.dispatchEvent(new Event('input')); }"
        )
        assert page.locator("#brightness").inner_text() == "30 %"
        page.fill("#venue-hours", HOURS)
        page.click("#venue-save")
        page.wait_for_function(
            "document.getElementById('said').textContent.includes('settings saved')",
            timeout=WAIT,
        )
        settings = _settings(sim)
        assert (settings["brightness"], settings["hours"]) == (0.3, HOURS)
        page.fill("#venue-hours", "mon-fri 10:00")
        page.click("#venue-save")
        page.wait_for_function(
            "document.getElementById('said').textContent.includes('opening-closing')",
            timeout=WAIT,
        )
        assert _settings(sim)["hours"] == HOURS
    with Simulation("shiftago", overrides=overrides, state_dir=tmp_path) as sim:
        assert (_settings(sim)["brightness"], _settings(sim)["hours"]) == (0.3, HOURS)
        _operator(sim, page)
        assert page.input_value("#venue-brightness") == "30"
        assert page.input_value("#venue-hours") == HOURS
