"""The statistics of finished games: counted by day (local dates), length, and
wins by seat and colour; added up across boards from whatever they say; drawn
as SVG with the numbers written on; and every game as CSV."""

from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ET
from datetime import UTC, date, datetime, timedelta, timezone
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from boardctl import plots, stats
from boardctl.stats import Finished

TODAY = date(2026, 11, 26)
#: the board's time zone: 11:00 there is 22:00 UTC the day before
ZONE = timezone(timedelta(hours=13))


def _at(days_ago: int, hour: int = 12) -> str:
    when = datetime.combine(TODAY - timedelta(days=days_ago), datetime.min.time())
    local = when.replace(hour=hour, tzinfo=ZONE)  # in the board's time zone
    return local.astimezone(UTC).isoformat().replace("+00:00", "Z")


GAMES = [
    Finished(1, "shiftago", _at(0, 11), _at(0), 9, 0, ("blue", "red")),
    Finished(2, "shiftago", _at(0, 10), _at(0, 11), 31, 1, ("blue", "red")),
    Finished(3, "shiftago", _at(2, 9), _at(2, 10), 95, None, ("blue", "red")),
    Finished(4, "shiftago", _at(30), _at(30), 12, 0, ("blue", "red")),  # before the plot's days
]


def test_games_are_counted_by_day_length_seat_and_colour() -> None:
    s = stats.summary(GAMES, TODAY, ZONE)
    assert s["games"] == 4
    assert s["per_day"][TODAY.isoformat()] == 2
    assert s["per_day"][(TODAY - timedelta(days=2)).isoformat()] == 1
    assert len(s["per_day"]) == stats.DAYS and sum(s["per_day"].values()) == 3
    assert s["lengths"] == [1, 1, 0, 1, 0, 0, 0, 1]  # 9, 12, 31 moves; 95 in the last bucket
    game = s["by_game"]["shiftago"]
    assert game == {
        "games": 4,
        "draws": 1,
        "seats": {"1": 2, "2": 1},
        "colours": {"blue": 2, "red": 1},
    }


def test_boards_add_up_and_what_does_not_read_is_left_out() -> None:
    one = stats.summary(GAMES[:2], TODAY, ZONE)
    two = stats.summary(GAMES[2:], TODAY, ZONE)
    both = stats.merge([one, two, {"games": "x"}, {}, {"per_day": 3}], TODAY)
    assert both == stats.summary(GAMES, TODAY, ZONE)


def test_one_boards_numbers_out_of_range_spoil_no_others() -> None:
    """A board that says 1e400 games (infinity, as JSON reads it), a negative
    or a fractional count, or true, is left out; the others are added up."""
    one = stats.summary(GAMES[:2], TODAY, ZONE)
    two = stats.summary(GAMES[2:], TODAY, ZONE)
    said = [json.loads(json.dumps({**one, "games": n}).replace("999", "1e400")) for n in (999,)]
    bad = [*said, {**one, "games": -3}, {**one, "games": 2.5}, {**one, "games": True}]
    bad.append({**one, "games": float("nan")})
    assert stats.merge([one, *bad, two], TODAY) == stats.summary(GAMES, TODAY, ZONE)


@settings(deadline=None)  # timed by the machine's load, not by the code
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=4),
        lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8), c, max_size=6),
        max_leaves=30,
    )
)
def test_any_summary_a_board_says_is_merged_safely(said: Any) -> None:
    merged = stats.merge([said] if isinstance(said, dict) else [], TODAY)
    assert all(n >= 0 for n in merged["per_day"].values())
    for name in plots.names(merged):
        ET.fromstring(plots.plot(name, merged, {}) or "<svg/>")


def test_the_plots_write_their_numbers_in_the_players_colours() -> None:
    s = stats.summary(GAMES, TODAY, ZONE)
    assert plots.names(s) == ["per-day", "lengths", "wins-shiftago", "seats-shiftago"]
    svg = ET.fromstring(plots.plot("wins-shiftago", s, {"shiftago": {"blue": "#2060e0"}}) or "")
    bars = {
        b.get("data-label"): (b.get("data-value"), b.get("fill"))
        for b in svg.iter("{http://www.w3.org/2000/svg}rect")
        if b.get("class") == "bar"
    }
    assert bars == {"blue": ("2", "#2060e0"), "red": ("1", plots.NEUTRAL), "draw": ("1", "#bbbbbb")}
    texts = [t.text for t in svg.iter("{http://www.w3.org/2000/svg}text")]
    assert "Wins by colour: shiftago (4 games)" in texts
    assert plots.plot("wins-chess", s, {}) is None and plots.plot("nothing", s, {}) is None
    tricky = stats.summary([Finished(1, "<x&y>", _at(0), _at(0), 3, 0, ("<b>",))], TODAY)
    ET.fromstring(plots.plot("wins-<x&y>", tricky, {}) or "")  # escaped: still SVG


def test_every_game_as_csv_in_local_time_with_the_winner_named() -> None:
    rows = list(csv.DictReader(io.StringIO(stats.csv_text(GAMES[:3], ZONE))))
    assert [r["winner"] for r in rows] == ["blue", "red", "draw"]
    assert rows[0]["ended"] == f"{TODAY.isoformat()} 12:00" and rows[0]["minutes"] == "60.0"
    assert rows[2]["winner_seat"] == "" and rows[1]["winner_seat"] == "2"
