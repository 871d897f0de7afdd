"""The board model turns raw readings into pieces and pieces into what a sensor sees."""

from types import MappingProxyType

from boardctl.board import OCCUPIED, BoardProfile, LedChain, Reports, Site


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
