"""The opening hours and the brightness: dark outside the hours while the
board is left alone, lit by anyone who plays, set by an operator and kept
across restarts. The loop runs on clocks the tests move."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from controller_support import profile_for, readings
from hypothesis import given
from hypothesis import strategies as st

from boardctl.config import load
from boardctl.controller.hours import DAYS, HoursError, OpeningHours
from boardctl.controller.kept import KeptSettings
from boardctl.controller.lighting import Configured, Lighting
from boardctl.controller.loop import Loop
from boardctl.controller.machine import Controller, Timing
from boardctl.controller.view import Phase
from boardctl.engines import create
from boardctl.errors import ConfigError
from boardctl.sensing import LinkUp, SensorChange, SensorSnapshot
from hardware.leds import SimStrip

#: a Monday evening, after closing time
MONDAY_EVENING = datetime(2026, 11, 23, 20, 0)
HOURS = "mon-sat 10:00-18:00"


class Times:
    """The loop's monotonic clock and the board's local time, moved together."""

    def __init__(self, local: datetime) -> None:
        self.now = 1000.0
        self.start = local

    def __call__(self) -> float:
        return self.now

    def local(self) -> datetime:
        return self.start + timedelta(seconds=self.now - 1000.0)


class Board:
    """A shiftago board's controller, loop and LED strip, with its lighting."""

    def __init__(
        self,
        hours: str = HOURS,
        *,
        synchronised: bool = True,
        keeper: KeptSettings | None = None,
        local: datetime = MONDAY_EVENING,
    ) -> None:
        engine = create("shiftago")
        self.profile = profile_for(engine)
        self.times = Times(local)
        self.controller = Controller(self.profile, timing=Timing())
        self.strip = SimStrip(self.profile.leds)
        self.strip.open()
        self.lighting = Lighting(
            Configured(self.profile.leds.brightness, OpeningHours.parse(hours)),
            local=self.times.local,
            synchronised=lambda: synchronised,
            dim=self.strip.set_brightness,
            keeper=keeper,
        )
        self.loop = Loop(self.controller, self.strip, clock=self.times, lighting=self.lighting)
        self.loop.start()
        self.loop.emit(LinkUp("test"))
        self.loop.emit(SensorSnapshot(readings(self.profile, {})))
        self.turn(1.0)

    def turn(self, seconds: float = 0.0) -> None:
        """Let ``seconds`` pass, the loop turning as often as it would sleep."""
        end = self.times.now + seconds
        while True:
            self.loop.turn(block=False)
            step = self.loop._timeout()
            if self.times.now + step > end:
                break
            self.times.now += max(step, 0.001)
        self.times.now = end
        self.loop.turn(block=False)

    def dark(self) -> bool:
        return not any(any(p) for p in self.strip.frames[-1].pixels)

    def place(self, site: str, piece: str | None) -> None:
        channel = self.profile.site(site).channel
        assert channel is not None
        value = 0 if piece is None else {p: v for v, p in self.profile.codes.items()}[piece]
        self.loop.emit(SensorChange(channel, value))
        self.turn(1.0)

    def command(self, body: dict[str, Any]) -> dict[str, Any]:
        import threading

        from boardctl.controller.loop import _Request

        request = _Request(body, threading.Event())
        self.loop.handle(request, self.times.now)
        assert request.reply is not None
        self.loop.turn(block=False)
        return request.reply


def test_after_closing_time_an_idle_board_goes_dark_and_a_player_lights_it() -> None:
    board = Board()
    assert board.controller.state is Phase.AWAITING_MOVE and not board.dark()
    board.turn(57.0)
    assert not board.dark()  # a minute since it started: still lit
    board.turn(3.0)
    assert board.controller.state is Phase.ATTRACT and board.dark()
    shown = len(board.strip.frames)
    board.turn(10 * 60.0)
    assert len(board.strip.frames) == shown, "no attract animation while closed"
    assert board.loop._timeout() >= 1.0, "a dark board does not redraw 30 times a second"
    board.place("d4", "p0")  # someone plays: the board wakes and shows the game
    assert board.controller.state is not Phase.ATTRACT and not board.dark()
    board.place("d4", None)
    board.turn(61.0)
    assert board.dark()


def test_at_opening_time_the_attract_mode_plays_again() -> None:
    board = Board()
    board.turn(61.0)
    assert board.dark()
    board.turn(14 * 3600.0)  # Tuesday 10:00 and a minute
    assert board.controller.state is Phase.ATTRACT and not board.dark()
    shown = len(board.strip.frames)
    board.turn(5.0)
    assert len(board.strip.frames) > shown + 10, "the attract animation plays"


def test_an_unset_clock_keeps_the_board_lit() -> None:
    board = Board(synchronised=False)
    board.turn(20 * 60.0)
    assert board.controller.state is Phase.ATTRACT and not board.dark()
    assert board.lighting.settings()["clock_synchronised"] is False


def test_opening_hours_and_brightness_set_by_an_operator_are_kept(tmp_path: Path) -> None:
    with KeptSettings(tmp_path / "games.db") as kept:
        board = Board("", keeper=kept)
        board.turn(15 * 60.0)
        before = board.strip.frames[-1].pixels
        reply = board.command({"cmd": "settings", "brightness": 0.1})
        assert reply["ok"] and reply["settings"]["brightness"] == 0.1
        after = board.strip.frames[-1].pixels
        assert max(map(max, after)) < max(map(max, before))  # dimmer at once
        reply = board.command({"cmd": "settings", "hours": HOURS})
        assert reply["settings"]["open"] is False and board.dark()
        bad = board.command({"cmd": "settings", "hours": "mon 25:00-26:00"})
        assert not bad["ok"] and "25:00" in bad["error"]
        bad = board.command({"cmd": "settings", "brightness": 3})
        assert not bad["ok"] and "0 to 1" in bad["error"]
        assert board.controller.state is not Phase.FAULT
    with KeptSettings(tmp_path / "games.db") as kept:  # the daemon restarted
        again = Board("", keeper=kept)
        assert again.lighting.settings()["hours"] == HOURS
        assert again.strip.chain.brightness == 0.1
        reply = again.command({"cmd": "settings", "hours": None, "brightness": None})
        assert reply["settings"]["hours"] == "" and reply["settings"]["open"]
        assert reply["settings"]["brightness"] == again.profile.leds.brightness
    with KeptSettings(tmp_path / "games.db") as kept:
        assert kept.load() == {}


def test_bad_opening_hours_in_the_file_are_refused_with_the_line(tmp_path: Path) -> None:
    path = tmp_path / "boardctl.toml"
    path.write_text('[schedule]\nhours = "mon-fri 10:00-1800"\n')
    with pytest.raises(ConfigError, match=r"boardctl.toml:2: \[schedule\] hours: .*1800"):
        load(path)


periods = st.tuples(
    st.sets(st.integers(0, 6), min_size=1),
    st.integers(0, 23 * 60 + 59),
    st.integers(1, 24 * 60),
).filter(lambda p: p[1] != p[2] % 1440)


def _text(days: set[int], start: int, end: int) -> str:
    return f"{','.join(DAYS[d] for d in sorted(days))} {start // 60}:{start % 60:02d}-" + (
        f"{end // 60:02d}:{end % 60:02d}"
    )


@given(st.lists(periods, min_size=1, max_size=4), st.integers(0, 6), st.integers(0, 1439))
def test_opening_hours_read_back_as_printed_and_open_when_a_period_is(
    given_periods: list[tuple[set[int], int, int]], day: int, minute: int
) -> None:
    hours = OpeningHours.parse("; ".join(_text(*p) for p in given_periods))
    assert OpeningHours.parse(str(hours)) == hours

    def inside(days: set[int], start: int, end: int) -> bool:
        if start < end:
            return day in days and start <= minute < end
        return (day in days and minute >= start) or ((day - 1) % 7 in days and minute < end)

    assert hours.open_at(day, minute) == any(inside(*p) for p in given_periods)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("mon-fri", "give the hours"),
        ("mon-fry 10:00-12:00", "'fry' is not a day"),
        ("10:00-10:00", "same time"),
        ("10:00", "opening-closing"),
        ("x" * 201, "at most 200"),
    ],
)
def test_hours_that_cannot_be_read_say_what_to_write(text: str, says: str) -> None:
    with pytest.raises(HoursError, match=says):
        OpeningHours.parse(text)
