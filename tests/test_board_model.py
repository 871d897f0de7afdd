"""The board model turns raw readings into pieces and pieces into what a sensor sees."""

from types import MappingProxyType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardctl.board import OCCUPIED, BoardProfile, LedChain, Reports, Site
from hardware.profiles import builtin_profiles, load_profile


def _profile(reports: Reports) -> BoardProfile:
    return BoardProfile(
        name="test",
        game="shiftago",
        game_options=MappingProxyType({}),
        sites=(
            Site("a1", "cell", 0, reports, (0,)),
            Site("b1", "cell", 1, reports, (1,)),
            Site("W1", "track", 2, Reports.PULSE, (2,)),
        ),
        codes=MappingProxyType({1: "p0", 2: "p1"}),
        leds=LedChain(count=3),
    )


def test_colour_board_reads_pieces_and_sees_them_as_the_engine_does() -> None:
    board = _profile(Reports.CODE)
    assert board.sensed_layout((1, 2, 1)) == {"a1": "p0", "b1": "p1"}
    assert board.projected_layout({"a1": "p1"}) == {"a1": "p1"}
    assert board.sensed_piece("a1", 9) == "?9"


def test_presence_board_sees_any_piece_as_occupied() -> None:
    board = _profile(Reports.PRESENCE)
    assert board.sensed_layout((1, 0, 0)) == {"a1": OCCUPIED}
    assert board.projected_layout({"a1": "p1", "b1": "p0"}) == {"a1": OCCUPIED, "b1": OCCUPIED}


def test_channels_and_sites_are_found_both_ways() -> None:
    board = _profile(Reports.CODE)
    assert board.channel_count == 3
    site = board.site_of_channel(2)
    assert site is not None and site.name == "W1"
    assert board.site_of_channel(7) is None
    assert board == _profile(Reports.CODE)


@pytest.mark.parametrize("name", builtin_profiles())
@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_a_whole_layout_is_seen_as_each_of_its_sites_is(name: str, data: st.DataObject) -> None:
    """What a shipped board's sensors see of a whole layout is what they see
    of each piece on its site (a site without a sensor, or unknown, sees nothing)."""
    board = load_profile(name, require_channels=False)
    names = [s.name for s in board.sites] + ["nowhere"]
    layout = data.draw(
        st.dictionaries(st.sampled_from(names), st.sampled_from(["p0", "x+stop", OCCUPIED]))
    )
    sensed = {s.name for s in board.sites if s.channel is not None}
    each = {site: board.project(site, piece) for site, piece in layout.items() if site in sensed}
    expected = {site: seen for site, seen in each.items() if seen is not None}
    assert board.projected_layout(layout) == expected
