"""The hand traces of tests/traces/: every real action recognised, nothing
recognised that was not done, and the LEDs flag what is wrong, on every board
that ships. Each trace runs through the controller's loop on a fake clock, as
the daemon runs it; the known misreads are expected failures naming their cause."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from trace_support import TRACES, known_misread, load, misreads, run, trace_files, verdict

from boardctl.controller.machine import Timing
from hardware.profiles import builtin_profiles


def _param(path: Path) -> object:
    data = load(path)
    marks = []
    if data.get("xfail"):
        marks.append(pytest.mark.xfail(strict=True, reason=data["xfail"]))
    return pytest.param(path, id=f"{path.parent.name}/{path.stem}", marks=marks)


@pytest.mark.parametrize("path", [_param(p) for p in trace_files()])
def test_the_board_reads_what_the_hands_did(path: Path) -> None:
    data = load(path)
    problems = verdict(data, run(data))
    assert not problems, f"{data['name']}: {data.get('description', '')}\n" + "\n".join(problems)


def _short(path: Path) -> object:
    cause = load(path)["xfail_settle"]["cause"]
    marks = [pytest.mark.xfail(strict=True, reason=cause)]
    return pytest.param(path, id=f"{path.parent.name}/{path.stem}", marks=marks)


@pytest.mark.parametrize("path", [_short(p) for p in trace_files() if load(p).get("xfail_settle")])
def test_known_misreads_at_a_short_settle_time(path: Path) -> None:
    """A trace read right with the daemon's settle time and amend window, and
    known to be misread at a settle time no longer than ``up_to`` with no amend
    window: once a settle policy reads it right there, the mark goes."""
    data = load(path)
    settle = float(data["xfail_settle"]["up_to"])
    assert known_misread(data, settle) and not known_misread(data)
    problems = verdict(data, run(data, settle=settle, amend=0.0))
    assert not problems, f"{data['name']} at {settle * 1000:.0f} ms:\n" + "\n".join(problems)


@pytest.mark.parametrize("profile", builtin_profiles())
def test_every_shipped_board_has_traces(profile: str) -> None:
    mine = [p for p in trace_files() if load(p)["profile"] == profile]
    if not mine:
        pytest.skip(f"no hand traces for {profile} yet: add some under {TRACES}")
    assert any(not load(p).get("xfail") for p in mine)


def test_a_missed_or_invented_move_is_told() -> None:
    data = load(TRACES / "shiftago-colour" / "clean-normal-pace.json")
    fewer = copy.deepcopy(data)
    fewer["steps"] = [s for s in fewer["steps"] if s.get("site") != "f1"]  # Sf never made
    outcome = run(fewer)
    found = misreads(fewer, outcome)
    assert found.missed >= 1 and verdict(fewer, outcome)
    extra = copy.deepcopy(data)
    extra["steps"].append({"t": extra["end"] - 0.5, "site": "d4", "value": 2})
    found = misreads(extra, run(extra))
    assert found.false_flags == 0 and found.invented == 0
    assert found.checks == 0 and verdict(extra, run(extra)) == []
    extra["end"] += 3.0
    assert misreads(extra, run(extra)).false_flags == 1


def test_a_wrong_light_is_told() -> None:
    data = load(TRACES / "shiftago-colour" / "marble-on-a-middle-cell.json")
    wrong = copy.deepcopy(data)
    for check in wrong["expect"]["checks"]:
        if check.get("red"):
            check["red"] = ["e4"]
    problems = verdict(wrong, run(wrong))
    assert any("red is ['d4'], expected ['e4']" in p for p in problems)


def test_a_told_action_is_played_and_one_the_rules_refuse_is_told() -> None:
    data = load(TRACES / "linie1" / "start-told.json")
    assert verdict(data, run(data)) == []
    untold = copy.deepcopy(data)
    untold["steps"] = [s for s in untold["steps"] if "play" not in s]
    problems = verdict(untold, run(untold))
    assert any("recorded []" in p for p in problems)  # no start guessed, so no drive either
    refused = copy.deepcopy(data)
    for step in refused["steps"]:
        if "play" in step:
            step["play"] = "pass"  # player 1 can still lay a tile
    outcome = run(refused)
    assert any("play refused" in p for p in outcome.problems), outcome.problems


def test_a_wrong_way_lit_is_told() -> None:
    data = load(TRACES / "linie1" / "drive-cell-by-cell.json")
    wrong = copy.deepcopy(data)
    for check in wrong["expect"]["checks"]:
        if check.get("legal") == ["a10", "b10", "t2a"]:
            check["legal"] = ["a10", "b10", "c10", "t2a"]
    problems = verdict(wrong, run(wrong))
    assert any(
        "legal is ['a10', 'b10', 't2a'], expected ['a10', 'b10', 'c10', 't2a']" in p
        for p in problems
    ), problems


def test_an_action_is_recorded_once_the_board_is_still_for_its_settle_time() -> None:
    """Not a frame or a deadline later: the felt latency of every action read
    off the board is its settle time (the loop's own work aside), the shorter
    one where a light gate broke for it."""
    timing = Timing()
    duplo = load(TRACES / "duploline" / "clean-normal-pace.json")
    felt = run(duplo).felt
    assert len(felt) == len(duplo["expect"]["history"]) == 9
    assert all(abs(f - timing.settle) < 0.001 for f in felt), felt
    # the board with light gates: each push broke its gate
    presence = load(TRACES / "shiftago-presence" / "clean-normal-pace.json")
    debounce = 0.02  # the host's debounce time on a GPIO board: the hand let go that earlier
    felt = run(presence).felt
    assert len(felt) == 12, felt
    assert all(abs(f - timing.settle_gated - debounce) < 0.001 for f in felt), felt
    felt = run(presence, settle=0.15, settle_gated=0.1).felt
    assert all(abs(f - 0.1 - debounce) < 0.001 for f in felt), felt
    # the same pushes on the board without gates
    felt = run(load(TRACES / "shiftago-colour" / "clean-normal-pace.json")).felt
    assert len(felt) == 12 and all(abs(f - timing.settle) < 0.001 for f in felt), felt
