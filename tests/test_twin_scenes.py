"""Frames the twin games depend on, checked on their own."""

from __future__ import annotations

from boardctl.controller.scenes import Palette, render
from boardctl.controller.view import Phase, View
from hardware.profiles import load_profile


def test_a_line_to_score_blinks_even_where_the_last_move_ended() -> None:
    # the marble just pushed in is often part of the line it made: the line
    # must show the mover's colour there too, not the last move's soft white
    profile = load_profile("shiftago-colour")
    palette = Palette()
    line = frozenset({"a1", "b1", "c1", "d1", "e1"})
    view = View(
        phase=Phase.CHOOSING,
        to_move=1,
        legal=line,
        last_move=frozenset({"W1", "a1", "b1"}),
        since=0.0,
    )
    frame = render(view, profile, palette, now=0.1)  # the first half of a blink: on
    for site in sorted(line):
        assert frame[profile.site(site).leds[0]] == palette.player(1), site
    assert frame[profile.site("W1").leds[0]] != palette.player(1)
