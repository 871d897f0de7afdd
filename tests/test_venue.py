"""The venue's page: every board on the broker on one screen, today's results
with the winner named, a leaderboard. What the boards say is read safely and
bounded; the page is shown in Chromium with two simulated boards on Mosquitto."""

from __future__ import annotations

import csv
import io
import json
import urllib.request
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from broker_support import Mosquitto, brokers, needs_mosquitto
from hypothesis import given, settings
from hypothesis import strategies as st

from boardctl.engines import create
from boardctl.fleet import venue
from boardctl.fleet.venue import Venue
from boardctl.sim.session import Simulation

FAST = ["controller.settle_ms=60", "controller.grace_ms=300"]
WAIT = 30.0
PAGE_WAIT = 15000  # ms
#: a short game of Shiftago Express: the first player's five in row 1
GAME = ["W1", "E7", "W1", "E7", "W1", "E7", "W1", "E7", "W1"]
#: the day the results below are today's (noon UTC is that day in any zone from -11 to +11)
TODAY = date(2026, 11, 26)


def _results(board: str, *games: tuple[str, str, int | None]) -> bytes:
    said = [
        venue.result_of(game, ended, winner, ["blue", "red"], None, 9)
        for game, ended, winner in games
    ]
    return json.dumps(venue.results_payload(board, date(2026, 11, 26), said)).encode()


def test_the_venue_shows_every_board_and_ranks_todays_winners() -> None:
    v = Venue()
    v.received("boardctl/t1/availability", b"online")
    v.received("boardctl/t1/state", json.dumps({"game": "shiftago", "turn": "red"}).encode())
    v.received("boardctl/t2/availability", b"offline")
    v.received(
        "boardctl/t1/results",
        _results(
            "t1", ("shiftago", "2026-11-26T10:00:00Z", 0), ("shiftago", "2026-11-26T11:00:00Z", 1)
        ),
    )
    v.received("boardctl/t2/results", _results("t2", ("shiftago", "2026-11-26T12:00:00Z", 0)))
    shown = v.snapshot(TODAY)
    assert [(b["board"], b["online"], b["turn"]) for b in shown["boards"]] == [
        ("t1", True, "red"),
        ("t2", False, None),
    ]
    assert [(r["board"], r["winner_name"]) for r in shown["results"]] == [
        ("t2", "blue"),
        ("t1", "red"),
        ("t1", "blue"),
    ]
    assert shown["leaderboard"] == [
        {"game": "shiftago", "player": "blue", "wins": 2, "games": 3},
        {"game": "shiftago", "player": "red", "wins": 1, "games": 3},
    ]


def test_a_board_off_since_yesterday_adds_none_of_its_games_to_today() -> None:
    """A board's retained results stay on the broker while it is off: the
    games it finished yesterday are neither today's results nor ranked."""
    v = Venue()
    v.received("boardctl/t1/results", _results("t1", ("shiftago", "2026-11-25T12:00:00Z", 0)))
    v.received("boardctl/t2/results", _results("t2", ("shiftago", "2026-11-26T12:00:00Z", 1)))
    shown = v.snapshot(TODAY)
    assert [(r["board"], r["winner_name"]) for r in shown["results"]] == [("t2", "red")]
    assert shown["leaderboard"] == [{"game": "shiftago", "player": "red", "wins": 1, "games": 1}]


def test_what_the_venue_keeps_is_bounded() -> None:
    v = Venue()
    for n in range(venue.MAX_BOARDS + 10):
        v.received(f"boardctl/t{n}/availability", b"online")
    assert len(v.snapshot()["boards"]) == venue.MAX_BOARDS and v.ignored == 10
    # not a board's topic: not taken (a remote-play message, a wildcard, a deeper topic)
    assert not v.received("boardctl/t1/remote/t2", b"{}")
    assert not v.received("boardctl/+/state", b"{}")
    assert not v.received("boardctl/t1/state/x", b"{}")


@settings(deadline=None)  # timed by the machine's load, not by the code
@given(
    st.sampled_from(["boardctl/t1/state", "boardctl/t1/results", "boardctl/t1/availability"]),
    st.binary(max_size=200) | st.text(max_size=200).map(str.encode),
)
def test_any_message_is_read_safely(topic: str, payload: bytes) -> None:
    v = Venue()
    v.received(topic, payload)
    json.dumps(v.snapshot())  # always something the page can read


@pytest.fixture
def mosquitto(tmp_path: Path) -> Iterator[Any]:
    yield from brokers(tmp_path)


@pytest.fixture(scope="module")
def chromium(browser: Any) -> Any:
    """The session's one Chromium (tests/conftest.py): Playwright's sync API
    drives one browser per process."""
    return browser


def _get(sim: Simulation, path: str) -> str:
    with urllib.request.urlopen(str(sim.daemon.web.url) + path, timeout=10) as r:
        return str(r.read().decode())


@needs_mosquitto
def test_the_venue_page_shows_two_boards_and_a_game_won(
    mosquitto: Any, chromium: Any, tmp_path: Path
) -> None:
    broker: Mosquitto = mosquitto()
    made: list[Simulation] = []

    def start(board_id: str, *more: str) -> Simulation:
        sim = Simulation(
            "shiftago",
            overrides=[
                *FAST,
                f'mqtt.broker="{broker.url}"',
                f'mqtt.board_id="{board_id}"',
                *more,
            ],
            state_dir=tmp_path / board_id,
        )
        made.append(sim)
        sim.start()
        return sim

    context = chromium.new_context(bypass_csp=True)
    try:
        a = start("table-a", 'web.listen="127.0.0.1:0"')
        b = start("table-b")
        page = context.new_page()
        page.goto(str(a.daemon.web.url) + "/venue")
        page.wait_for_selector('#boards tr[data-board="table-b"]', timeout=PAGE_WAIT)
        assert page.locator("#boards tbody tr").count() == 2
        for ply, text in enumerate(GAME):
            a.hands(f"insert {text}")
            a.wait_status(lambda s, n=ply: len(s["moves"]) == n + 1, WAIT)
        a.wait_status(lambda s: s["phase"] == "game_over", WAIT)
        result = page.wait_for_selector('#results li[data-board="table-a"]', timeout=PAGE_WAIT)
        text = result.inner_text()
        assert "table-a: shiftago won by blue (9 moves)" in text
        assert text[:2].isdigit() and text[2] == ":"  # the time, local
        leader = page.locator("#leaderboard tbody tr").first.inner_text()
        assert "blue" in leader and "1 of 1" in leader
        # the venue's statistics: the win drawn in blue's colour
        page.reload()
        plot = page.wait_for_selector('img[data-plot="wins-shiftago"]', timeout=PAGE_WAIT)
        page.wait_for_function(
            "document.querySelector('img[data-plot=\"wins-shiftago\"]').naturalWidth > 0",
            timeout=PAGE_WAIT,
        )
        svg = _get(a, str(plot.get_attribute("src")))
        blue = next(p.colour for p in create("shiftago").board().players if p.name == "blue")
        assert 'data-label="blue" data-value="1"' in svg and blue in svg
        # the board's own, on its operator page, and its games as CSV
        page.goto(str(a.daemon.web.url) + "/operator")
        page.wait_for_selector('#stats img[data-plot="per-day"]', timeout=PAGE_WAIT)
        href = page.get_attribute("#stats-csv", "href", timeout=PAGE_WAIT)
        (row,) = list(csv.DictReader(io.StringIO(_get(a, str(href)))))
        assert (row["game"], row["moves"], row["winner"]) == ("shiftago", "9", "blue")
        page.goto(str(a.daemon.web.url) + "/venue")
        # a board gone is shown offline
        made.remove(b)
        b.close()
        page.wait_for_function(
            "[...document.querySelectorAll('#boards tr[data-board=\"table-b\"] td')]"
            ".some((td) => td.textContent === 'offline')",
            timeout=PAGE_WAIT,
        )
    finally:
        context.close()
        for sim in made:
            sim.close()
