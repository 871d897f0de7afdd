"""The board picture shows the pieces and the LEDs' glow of a real moment of play."""

from boardctl.sim.picture import board_picture, shiftago_scoring_moment


def test_the_scoring_moment_lights_the_line_to_choose() -> None:
    profile, layout, frame = shiftago_scoring_moment()
    assert [layout[c] for c in ("a1", "b1", "c1", "d1", "e1")] == ["p0"] * 5
    line_leds = [profile.site(c).leds[0] for c in ("a1", "b1", "c1", "d1")]
    far_cell = profile.site("d4").leds[0]
    assert all(sum(frame[i]) > 3 * sum(frame[far_cell]) for i in line_leds)


def test_picture_is_a_png_of_the_board() -> None:
    profile, layout, frame = shiftago_scoring_moment()
    png = board_picture(profile, layout, frame, scale=16)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert png != board_picture(profile, {}, frame, scale=16)
