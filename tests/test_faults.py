"""Each kind of fault says what it is, in words and on the LEDs, and goes
away by itself when its cause does: a full disk is not a lost cable."""

from __future__ import annotations

from controller_support import profile_for

from boardctl.controller.scenes import Palette, render
from boardctl.controller.view import Fault, Phase, View, fault_words
from boardctl.engines import create
from boardctl.sim.screen import controller_says

PROFILE = profile_for(create("shiftago"))
PALETTE = Palette()


def _frames(fault: Fault) -> list[tuple[tuple[int, int, int], ...]]:
    view = View(Phase.FAULT, fault=fault)
    return [render(view, PROFILE, PALETTE, t / 10) for t in range(40)]


def test_a_storage_fault_and_a_sensor_fault_light_the_board_differently() -> None:
    sensors, storage = _frames(Fault.SENSORS), _frames(Fault.STORAGE)
    assert sensors != storage
    # the lost sensors: every LED alike, a slow vermilion pulse
    assert all(len(set(frame)) == 1 for frame in sensors)
    # the full disk: yellow, the LEDs in two halves blinking in turn
    assert any(len(set(frame)) == 2 for frame in storage)
    lit = {led for frame in storage for led in frame if led != (0, 0, 0)}
    assert lit == {PALETTE.restore}


def test_each_fault_has_its_own_words_and_says_it_recovers_by_itself() -> None:
    cable = fault_words(Fault.SENSORS)
    disk = fault_words(Fault.STORAGE)
    assert "cable" in cable and "cable" not in disk
    assert "saved" in disk and "free space" in disk
    assert all("by itself" in words for words in (cable, disk))


def test_the_simulators_screen_names_the_fault_the_controller_reports() -> None:
    full = {
        "game": "shiftago",
        "phase": "fault",
        "fault_kind": "storage",
        "fault": "cannot write to games.db: database or disk is full",
    }
    said = " ".join(controller_says(full))
    assert "cannot be saved" in said and "disk is full" in said and "cable" not in said
    lost = {"game": "shiftago", "phase": "fault", "fault_kind": "sensors"}
    assert "cable" in " ".join(controller_says(lost))
