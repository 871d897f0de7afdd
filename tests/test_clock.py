"""A Pi has no clock of its own: until the system clock is synchronised the
dates of games are unsure (left out, never 1970 or the last boot's), and
durations never depend on the wall clock."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from boardctl.controller.store import Store
from boardctl.daemon.timesync import ClockWatch, kernel_synchronised
from boardctl.records import GameRecord
from boardctl.web.auth import Keys

#: what a Pi's clock says at boot without a network: the time it last saved
BOOT = 1_700_000_000.0
#: and once synchronised
SET = 1_795_000_000.0


def test_dates_written_before_the_clock_is_set_are_left_out(tmp_path: Path) -> None:
    now, synchronised = [BOOT], [False]
    with Store(
        tmp_path / "g.db", clock=lambda: now[0], synchronised=lambda: synchronised[0]
    ) as store:
        store.begin("shiftago", {})
        store.record("W1")
        synchronised[0], now[0] = True, SET
        store.record("E7")
        store.finish({"winner": 0})
        listed = store.games()[0]
        assert listed["started"] is None  # not shown as a date it was not
        assert listed["ended"] == "2026-11-18T11:06:40Z"
        record = store.record_of()
        assert "started" not in record and record["ended"] == listed["ended"]
        GameRecord.from_json(record, where="test")  # still a valid game record
        store.begin("shiftago", {})
        assert store.games()[0]["started"] == "2026-11-18T11:06:40Z"


def test_an_abandoned_game_ended_before_the_clock_is_set_has_no_end_date(tmp_path: Path) -> None:
    synchronised = [True]
    with Store(tmp_path / "g.db", clock=lambda: SET, synchronised=lambda: synchronised[0]) as store:
        store.begin("shiftago", {})
        synchronised[0] = False  # a restart, still without a network
        store.begin("shiftago", {})
        old = store.games()[1]
        assert (old["status"], old["started"], old["ended"]) == (
            "abandoned",
            "2026-11-18T11:06:40Z",
            None,
        )


def test_the_clock_counts_as_set_once_timesyncd_or_the_kernel_says_so(tmp_path: Path) -> None:
    flag = tmp_path / "synchronized"
    kernel: list[bool | None] = [None]
    watch = ClockWatch(flag, lambda: kernel[0])
    assert not watch()
    kernel[0] = False
    assert not watch()
    flag.touch()
    assert watch()
    flag.unlink()
    assert watch(), "once set, it stays set"
    other = ClockWatch(tmp_path / "absent", lambda: True)
    assert other()


def test_the_kernel_is_asked_and_its_library_looked_up_once(monkeypatch: Any) -> None:
    """On Linux the kernel answers (true or false, never "cannot ask"); the C
    library is found once, not on every question (finding it runs ldconfig,
    milliseconds on a Pi, and the loop asks every 20 s until the clock is set)."""
    import ctypes.util

    found = ctypes.util.find_library
    looked: list[str] = []

    def counted(name: str) -> str | None:
        looked.append(name)
        return found(name)

    monkeypatch.setattr(ctypes.util, "find_library", counted)
    answers = {kernel_synchronised() for _ in range(5)}
    assert len(looked) <= 1
    if sys.platform == "linux":
        assert answers in ({True}, {False}), "the kernel's clock discipline answers on Linux"


def test_an_operator_stays_signed_in_when_the_clock_is_set() -> None:
    # sessions last a number of seconds on the monotonic clock: setting the
    # wall clock from the last boot's time to today must not end them
    assert Keys().clock is time.monotonic
    keys = Keys(clock=time.monotonic)
    cookie, _ = keys.begin("operator")
    assert keys.session(cookie) is not None
