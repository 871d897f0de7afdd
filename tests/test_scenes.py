"""LED scenes: what the players see for each moment of a game."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from controller_support import Table, profile_for
from hypothesis import given
from hypothesis import strategies as st
from tiny_games import CELLS, DiceState, TinyDice, dice_profile

from boardctl.controller.machine import Controller
from boardctl.controller.scenes import (
    BLACK,
    CYAN,
    MAGENTA,
    ORANGE,
    SKY_BLUE,
    Canvas,
    Colours,
    Palette,
    confusable,
    painter,
    parse_colour,
    render,
    scale,
)
from boardctl.controller.view import Phase, View
from boardctl.engines import Engine, create
from boardctl.engines.describe import PlayerSites

PROFILE = profile_for(create("shiftago"))
PALETTE = Palette()


def _led(site: str) -> int:
    return PROFILE.site(site).leds[0]


def test_a_frame_has_one_colour_per_led_and_is_a_pure_function_of_view_and_time() -> None:
    view = View(Phase.AWAITING_MOVE, to_move=0, legal=frozenset({"W1"}))
    frame = render(view, PROFILE, PALETTE, 1.0)
    assert len(frame) == PROFILE.leds.count
    assert frame == render(view, PROFILE, PALETTE, 1.0)


def test_legal_tracks_show_in_the_colour_of_the_player_to_move() -> None:
    for player, colour in ((0, ORANGE), (1, SKY_BLUE)):
        view = View(Phase.AWAITING_MOVE, to_move=player, legal=frozenset({"W1"}))
        lit = render(view, PROFILE, PALETTE, 0.0)[_led("W1")]
        assert lit != BLACK
        assert lit == tuple(round(c * 0.6) for c in colour)


def test_a_wrong_marble_blinks_magenta_and_a_missing_one_is_cyan() -> None:
    view = View(
        Phase.WRONG_BOARD,
        to_move=0,
        offending=frozenset({"d4"}),
        restore=frozenset({"a1"}),
        since=10.0,
    )
    on = render(view, PROFILE, PALETTE, 10.1)
    off = render(view, PROFILE, PALETTE, 10.35)
    assert on[_led("d4")] == MAGENTA and off[_led("d4")] == BLACK
    assert on[_led("a1")] == CYAN == off[_led("a1")]


def test_the_winning_line_shines_in_the_winners_colour() -> None:
    line = frozenset({"a1", "b1", "c1", "d1", "e1"})
    view = View(Phase.GAME_OVER, winner=1, winning=line)
    frame = render(view, PROFILE, PALETTE, 3.0)
    assert {frame[_led(s)] for s in line} == {SKY_BLUE}


def test_fault_and_attract_light_the_board_differently() -> None:
    fault = render(View(Phase.FAULT), PROFILE, PALETTE, 0.5)
    attract = render(View(Phase.ATTRACT), PROFILE, PALETTE, 0.5)
    assert fault != attract
    assert all(led[1] == 0 and led[0] == led[2] for led in fault)  # a magenta pulse


def test_each_game_lights_its_players_in_the_colour_of_their_pieces() -> None:
    shiftago = Colours().palette(create("shiftago", {"players": 4}).board().players)
    assert shiftago.players[:4] == ((32, 96, 224), (224, 32, 32), (240, 200, 0), (32, 160, 64))
    assert shiftago.note == ""
    # black cannot glow: it is lit blue, and the palette says so
    duplo = Colours().palette(create("duploline").board().players)
    assert duplo.players[:2] == ((240, 240, 240), (48, 80, 255))
    assert duplo.note == "black is lit blue: an LED cannot glow black"
    # a board's palette maps the pieces' colours and says why
    beeline = Colours((), ("#8ca0ff", "#ff2a1a"), "black is lit a cold white").palette(
        create("beeline").board().players
    )
    assert beeline.players[:2] == ((140, 160, 255), (255, 42, 26))
    assert beeline.note == "black is lit a cold white"


def test_no_player_of_any_game_is_lit_like_a_mistake_or_a_piece_to_put_back() -> None:
    from boardctl.engines import GAMES
    from hardware.profiles import builtin_profiles, load_profile

    games = [create(g).board() for g in GAMES]
    games += [create("shiftago", {"players": 4}).board(), create("linie1", {"players": 5}).board()]
    lit = [(Colours().palette(spec.players), len(spec.players)) for spec in games]
    for name in builtin_profiles():
        profile = load_profile(name)
        spec = create(profile.game, profile.game_options).board()
        colours = Colours((), profile.palette, profile.palette_note)
        lit.append((colours.palette(spec.players), len(spec.players)))
    for palette, seats in lit:
        for colour in palette.players[:seats]:
            assert not confusable(colour, palette.error), colour
            assert not confusable(colour, palette.restore), colour
    assert not confusable(MAGENTA, CYAN)


def test_a_palette_too_like_the_mistakes_is_refused() -> None:
    from boardctl.errors import ConfigError

    with pytest.raises(ConfigError, match="magenta that mistakes blink in"):
        _config_with_palette('["#2060e0", "#ff20e0"]')


def _config_with_palette(colours: str) -> object:
    from boardctl import config

    return config.load(overrides=[f"leds.palette={colours}"])


def test_player_colours_are_configurable() -> None:
    palette = Palette.from_hex(["#ff0000", "#00ff00"])
    assert parse_colour("#e69f00") == ORANGE
    view = View(Phase.AWAITING_MOVE, to_move=1, legal=frozenset({"W1"}))
    assert render(view, PROFILE, palette, 0.0)[_led("W1")] == (0, 153, 0)


def test_each_players_sites_show_in_their_colour_ahead_bright_and_built_dim() -> None:
    sites = (
        PlayerSites(ahead=frozenset({"a1"}), built=frozenset({"b1", "c1"})),
        PlayerSites(ahead=frozenset({"a7"}), built=frozenset({"b7"})),
    )
    view = View(Phase.AWAITING_MOVE, to_move=0, player_sites=sites)
    frame = render(view, PROFILE, PALETTE, 0.0)
    assert frame[_led("a1")] == ORANGE
    assert frame[_led("b1")] == frame[_led("c1")] == tuple(round(c * 0.25) for c in ORANGE)
    assert frame[_led("a7")] == SKY_BLUE
    assert frame[_led("b7")] == tuple(round(c * 0.25) for c in SKY_BLUE)
    # a move under way still shows where the piece may go over them
    busy = View(
        Phase.MOVE_IN_PROGRESS, to_move=0, player_sites=sites, destinations=frozenset({"a1"})
    )
    assert render(busy, PROFILE, PALETTE, 0.3)[_led("a1")] == tuple(round(c * 0.25) for c in ORANGE)


def test_the_controller_view_carries_what_the_engine_says_each_player_owns() -> None:
    class Owned(TinyDice):
        def player_sites(self, state: DiceState) -> tuple[PlayerSites, ...]:
            return tuple(
                PlayerSites(
                    built=frozenset(c for c, o in zip(CELLS, state.cells, strict=True) if o == p)
                )
                for p in (0, 1)
            )

    def owned(game: str, options: Mapping[str, Any]) -> Engine[Any, Any]:
        return Owned.from_options(options)

    controller = Controller(dice_profile(), engines=owned)
    table = Table(controller)
    table.settle()
    controller.roll("d1", table.now)
    table.hands("place c2 s0")
    assert controller.view().player_sites == (
        PlayerSites(built=frozenset({"c2"})),
        PlayerSites(),
    )


def test_the_ends_of_a_line_show_in_their_own_colours_whoever_is_to_move() -> None:
    """A Bidirectional Line Game board through the controller: the A end glows
    amber (player 0's colour) and the B end blue, also on the other player's
    turn; the sticks that may extend either end glow in the mover's colour."""
    from controller_support import Table

    from boardctl.controller.machine import Controller
    from boardctl.controller.phases import Timing

    engine = create("bidiline")
    profile = profile_for(engine)
    table = Table(Controller(profile, timing=Timing(attract_after=0)))
    table.settle()
    for stick, colour in (("d4-d5", "A"), ("d3-d4", "B"), ("d5-e5", "A")):
        table.hands(f"place {stick} {colour}")
        table.settle()
    c = table.controller
    assert c.match.moves_text() == ["A:d4-d5", "B:d4-d3", "A:d5-e5"]
    assert c.match.to_move() == 1
    frame = render(c.view(), profile, PALETTE, 0.0)

    def at(site: str) -> tuple[int, int, int]:
        return frame[profile.site(site).leds[0]]

    assert at("e5") == ORANGE and at("d3") == SKY_BLUE  # the A end, the B end
    blue = tuple(round(x * 0.6) for x in SKY_BLUE)
    assert at("e5-f5") == blue and at("c3-d3") == blue  # sticks either end may take
    assert at("d5-e5") == tuple(round(x * 0.5) for x in PALETTE.highlight)  # the last stick


def test_a_display_shows_what_the_engine_shows_in_the_movers_colour_and_is_dark_otherwise() -> None:
    from types import MappingProxyType

    from boardctl.board import BoardProfile, LedChain, Reports, Site

    sites = (
        Site("a1", "cell", 0, Reports.PRESENCE, (0,)),
        Site("pip1", "display", None, Reports.NONE, (1,), x=2.0),
        Site("pip2", "display", None, Reports.NONE, (2,), x=2.5),
    )
    board = BoardProfile("pips", "", MappingProxyType({}), sites, MappingProxyType({}), LedChain(3))
    shown = frozenset({"pip1"})
    frame = render(View(Phase.AWAITING_MOVE, to_move=1, shown=shown), board, PALETTE, 0.0)
    assert frame == (PALETTE.base, SKY_BLUE, BLACK)  # the board glows, the unshown pip is dark
    frame = render(View(Phase.CHOOSING, to_move=0, shown=shown), board, PALETTE, 0.0)
    assert frame[1:] == (ORANGE, BLACK)
    assert render(View(Phase.AWAITING_MOVE, to_move=1), board, PALETTE, 0.0)[1:] == (BLACK, BLACK)
    # not while setting up: only a game under way shows its die
    assert render(View(Phase.SETUP, to_move=1, shown=shown), board, PALETTE, 0.0)[1:] == (
        BLACK,
        BLACK,
    )


def test_a_button_asking_before_it_ends_the_game_counts_down_in_white() -> None:
    from boardctl.controller.confirming import CONFIRM_SECONDS, ask, confirms
    from boardctl.controller.loop import animated

    asking = ask("new", 10.0)
    view = View(Phase.AWAITING_MOVE, to_move=0, asking=asking)
    white = scale(PALETTE.highlight, 0.6)
    lit = [
        sum(frame[_led(s.name)] == white for s in PROFILE.sites if s.leds)
        for frame in (render(view, PROFILE, PALETTE, 10.0 + t) for t in (0.0, 2.5, 4.9, 5.0))
    ]
    # every site at the press, fewer and fewer, none once the time is up
    sites = sum(1 for s in PROFILE.sites if s.leds)
    assert lit[0] == sites and sites > lit[1] > lit[2] > 0 and lit[3] == 0
    assert animated(view) and not animated(View(Phase.AWAITING_MOVE, to_move=0))
    assert confirms(asking, "new", 10.0 + CONFIRM_SECONDS - 0.1)
    assert not confirms(asking, "new", 10.0 + CONFIRM_SECONDS)
    assert not confirms(asking, "mode", 11.0)
    assert "end this game" in asking.words
    assert "Shiftago expert" in ask("mode", 0.0, "Shiftago expert").words


_SITES = [s.name for s in PROFILE.sites]
_COLOURS = st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255))
_STROKES = st.lists(
    st.one_of(
        st.tuples(
            st.just("sites"),
            st.frozensets(st.sampled_from([*_SITES, "nowhere"]), max_size=12),
            _COLOURS,
        ),
        st.tuples(st.just("names"), st.lists(st.sampled_from(_SITES), max_size=6), _COLOURS),
        st.tuples(
            st.just("leds"),
            st.lists(st.integers(0, PROFILE.leds.count - 1), max_size=8),
            _COLOURS,
        ),
        st.tuples(st.just("backdrop"), st.just(()), _COLOURS),
    ),
    max_size=12,
)


@given(strokes=_STROKES)
def test_a_canvas_lights_each_led_in_the_colour_of_the_last_stroke_over_it(
    strokes: list[tuple[str, Any, tuple[int, int, int]]],
) -> None:
    """However sets of sites, single sites and single LEDs are painted over
    each other, each LED shows what a plain LED-by-LED painting shows."""
    p = painter(PROFILE)
    canvas = Canvas(p)
    want = [BLACK] * PROFILE.leds.count
    for kind, what, colour in strokes:
        if kind == "sites" or kind == "names":
            canvas.paint(what, colour)
            for name in what:
                for i in PROFILE.site(name).leds if name in _SITES else ():
                    want[i] = colour
        elif kind == "leds":
            canvas.light(what, colour)
            for i in what:
                want[i] = colour
        else:
            canvas.start(p.backdrop(colour, None))
            want = [BLACK] * PROFILE.leds.count
            for i in p.undisplayed:
                want[i] = colour
    assert canvas.frame() == tuple(want)
