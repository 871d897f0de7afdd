"""Linie 1 on its reference board, as hands play it: two tiles a turn, a stop
sign put on the tile that earned it, an exchange (a tile lifted and another
set in its place), a wrong tile shown and taken off, chance's draws told by
an operator, and no route shown on the LEDs before its owner reveals it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from controller_support import Table, profile_for

from boardctl.controller.machine import Controller, ControllerError
from boardctl.controller.scenes import Palette, render, scale
from boardctl.controller.view import Phase
from boardctl.engines import CHANCE, create
from boardctl.engines.linie1.demo import MOVES
from boardctl.engines.linie1.die import PIPS as PIP_PLACES
from boardctl.sim.screen import controller_says
from hardware.profiles import load_profile

PROFILE = load_profile("linie1")
PALETTE = Palette.choose((), PROFILE.palette)
RECORDS = Path(__file__).parent / "records" / "linie1"
PIPS = tuple(name for name, _, _ in PIP_PLACES)


def _table() -> Table:
    table = Table(Controller(PROFILE, options={}))
    table.settle()
    return table


def _draw(table: Table, *kinds: int) -> None:
    for kind in kinds:
        table.controller.roll(f"draw:{kind}", table.now)
    table.settle()


def _frame(table: Table) -> Any:
    c = table.controller
    return render(c.view(), PROFILE, PALETTE, c.since + 0.1)


def _lit(frame: Any, site: str) -> bool:
    return any(frame[i] != (0, 0, 0) for i in PROFILE.site(site).leds)


def test_every_code_reads_the_tile_its_turn_its_stop_sign_and_its_streetcars() -> None:
    turns = "NESW"
    for value, piece in PROFILE.codes.items():
        cars = stop = tile = 0
        for part in piece.split("+"):
            if part == "stop":
                stop = 1
            elif part.startswith("car"):
                cars |= 1 << (int(part[3:]) - 1)
            else:
                tile = 10 * int(part[:-1]) + turns.index(part[-1])
        assert value == 1000 * cars + 500 * stop + tile, piece
    assert PROFILE.codes[11] == "1E" and PROFILE.codes[2522] == "2S+stop+car2"
    assert len(PROFILE.sites) == 144 + 12 + 7 and PROFILE.leds.count == 156 + 7
    # the die's pips came after the cells and terminals: their LEDs kept their numbers
    assert PROFILE.site("l12").leds == (143,) and PROFILE.site("t6b").leds == (155,)
    assert [PROFILE.site(p).leds for p in PIPS] == [(i,) for i in range(156, 163)]
    assert all(PROFILE.site(p).channel is None for p in PIPS)


def test_two_tiles_a_turn_a_stop_sign_an_exchange_and_a_wrong_tile() -> None:
    table = _table()
    c = table.controller
    assert c.state is Phase.AWAITING_MOVE
    # a6 is beside building E: the tile earns E's stop sign, to be put on it
    table.hands("place a6 1E")
    assert c.state is Phase.MOVE_IN_PROGRESS and not c.match.actions
    assert c.view().destinations == {"a6"}
    assert _lit(_frame(table), "a6")
    table.hands("place a6 stop")
    assert c.match.moves_text() == ["a6:1E"]
    assert c.status()["task"] == "lay a second tile"
    table.hands("place b6 1E")
    assert c.match.moves_text() == ["a6:1E", "b6:1E"]
    assert c.status()["task"] == "draw a tile from the stacks (2 to draw)"
    _draw(table, 3, 2)
    # player 2 lays two tiles at once, then the draws
    table.hands("place c5 1N")
    table.hands("place c4 1N")
    assert c.match.moves_text()[-2:] == ["c5:1N", "c4:1N"]
    _draw(table, 1, 1)
    # a wrong tile: a straight whose rail leads off the board
    table.hands("place l12 1E")
    table.wait(c.timing.grace)
    assert c.state is Phase.WRONG_BOARD
    assert c.status()["offending"] == ["l12"]
    assert _frame(table)[PROFILE.site("l12").leds[0]] == PALETTE.error
    table.hands("lift l12")
    assert c.state is Phase.AWAITING_MOVE and len(c.match.actions) == 8
    # an exchange: the straight on b6 lifted, the branch set in its place
    table.hands("lift b6")
    assert c.state is Phase.MOVE_IN_PROGRESS
    table.hands("place b6 3E")
    assert c.match.moves_text()[-1] == "b6:3E"
    # the straight it replaced is in the hand and may be laid at once
    table.hands("place h8 1N")
    assert c.match.moves_text()[-1] == "h8:1N"
    assert c.status()["task"] == "draw a tile from the stacks (1 to draw)"


class _Deals:
    """Chance that draws the outcomes of ``moves`` where they are chance's (the
    daemon's source draws the cards dealt face down)."""

    def __init__(self, engine: Any, moves: tuple[str, ...]) -> None:
        state, self.draws = engine.initial(), dict[int, int]()
        for ply, text in enumerate(moves):
            action = engine.parse_action(text)
            if engine.actor(state) == CHANCE:
                outcomes = [a for a, _ in engine.chance_outcomes(state)]
                self.draws[ply] = outcomes.index(action)
            state = engine.apply(state, action)

    def new_seed(self) -> int:
        return 1

    def draw(self, seed: int, ply: int, weights: Any) -> int:
        return self.draws[ply]


def _dealt(*cards: str) -> Table:
    """The reference board with dealt cards, these dealt by the board."""
    engine = create("linie1", {"secrets": "dealt"})
    deals = _Deals(engine, tuple(f"deal:{card}" for card in cards))
    table = Table(
        Controller(PROFILE, options={"secrets": "dealt"}, chance=deals, chance_by_operator=True)
    )
    table.settle()
    return table


def test_dealt_cards_light_no_hint_and_show_no_route() -> None:
    table = _dealt("L1", "L2", "B1", "B2")
    c = table.controller
    assert c.match.moves_text()[-1] == "deal:B2"
    assert c.status()["moves"][-1] == "deal:B?"
    table.hands("place a6 1E")
    view = c.view()
    assert not view.legal and not view.destinations and not view.player_sites
    frame = _frame(table)
    # the players' terminals glow like every other site: nothing tells their lines
    idle = frame[PROFILE.site("t6b").leds[0]]
    assert all(frame[PROFILE.site(t).leds[0]] == idle for t in ("t1a", "t1b", "t2a", "t2b"))


def _play_by_hands(table: Table, moves: tuple[str, ...]) -> None:
    """Each action as hands make it: a tile set down (and its stop sign put
    on), an exchange lifted and set, the streetcar put in its terminal and
    moved cell by cell; draws and rolls told by an operator (the cards dealt
    face down are drawn by the board)."""
    c = table.controller
    engine = c.engine
    for text in moves:
        if text.startswith("deal:") and text in c.match.moves_text():
            continue  # a card the board dealt face down (each is dealt once)
        state = c.match.state
        action = engine.parse_action(text)
        after = engine.layout(engine.apply(state, action))
        before = engine.layout(state)
        if engine.actor(state) == CHANCE:
            c.roll(text, table.now)
            table.settle()
        elif text.startswith("start:") and engine.told(state, action):
            # the streetcar set in, the cards shown and told; a caught start
            # leaves the board as it was, so the streetcar comes off again
            terminal = text[6:].split("/")[0]
            car = f"car{engine.geo.terminals[engine.geo.terminal_index[terminal]].line + 1}"
            table.hands(f"place {terminal} {car}")
            assert c.match.moves_text()[-1] != text
            assert c.play(text, table.now) == text
            table.settle()
            if terminal not in after:
                assert c.status()["offending"] == [terminal]
                table.hands(f"lift {terminal} {car}")
            assert c.state is not Phase.WRONG_BOARD
        elif engine.told(state, action):  # a pass, a tile taken from a driver's hand
            c.play(text, table.now)
            table.settle()
        elif text.startswith("start:"):
            terminal = text[6:].split("/")[0]
            table.hands(f"place {terminal} {after[terminal]}")
        elif text.startswith(">"):
            # the die's result lights the cells the streetcar may drive to
            view = c.view()
            lit = view.legal | {s for offer in view.offers for s in offer}
            assert text.split("-")[-1].lstrip(">") in lit, (text, sorted(lit))
            car = f"car{state.lines[state.player] + 1}"
            here = next(s for s, piece in before.items() if car in piece.split("+"))
            for site in text[1:].split("-"):
                table.hands(f"lift {here} {car}")
                table.hands(f"place {site} {car}")
                here = site
        else:
            cell, code = text.split(":")
            if cell in before:
                table.hands(f"lift {cell}")
            table.hands(f"place {cell} {code}")
            if after[cell].endswith("+stop"):
                table.hands(f"place {cell} stop")
        assert c.match.moves_text()[-1] == text, (text, c.board.verdict)


def test_a_whole_game_by_hands_to_the_end_of_a_trip_lights_the_winners_route() -> None:
    table = _table()
    c = table.controller
    _play_by_hands(table, MOVES)
    assert c.state is Phase.GAME_OVER
    assert c.status()["winner"] == 0
    frame = _frame(table)
    for site in ("t2a", "b10", "g4", "i10", "t2b"):  # the route through D, M and B
        assert frame[PROFILE.site(site).leds[0]] == PALETTE.player(0)


#: the demo's game up to its winning start, without the early start that showed
#: the cards: player 1's route is complete and the cards are still on the table
BUILT = tuple(m for m in MOVES[: MOVES.index("start:t2a")] if not m.startswith("start:"))


def _built() -> Table:
    table = _table()
    _play_by_hands(table, BUILT)
    assert table.controller.status()["task"] == "lay two tiles or start the trip"
    return table


def test_a_streetcar_set_in_with_the_card_unseen_is_never_taken_for_a_start() -> None:
    table = _built()
    c = table.controller
    # B4 is the only card whose route is complete, yet the card is player 1's
    # secret: the board shows a streetcar, not which card is held
    assert [
        c.engine.format_action(a)
        for a in c.engine.legal_actions(c.match.state)
        if str(a).startswith("Start") and not c.engine.apply(c.match.state, a).caught
    ] == ["start:t2a/B4", "start:t2b/B4"]
    table.hands("place t2a car2")
    table.wait(c.timing.in_progress + 1.0)
    assert c.match.moves_text() == list(BUILT)
    assert c.state is Phase.WRONG_BOARD and c.status()["offending"] == ["t2a"]
    # the players are told what the board may show, with no card singled out
    # every route card it may start with, to tell by a click
    assert c.status()["to_tell"] == [f"start:t2a/B{n}" for n in range(1, 7)]
    says = controller_says(c.status())
    assert "if this is start:t2a/B1 (or the like), tell it: play ACTION" in says
    # told, the start is played: the streetcar already stands where it goes
    assert c.play("start:t2a/B4", table.now) == "start:t2a/B4"
    assert c.state is Phase.AWAITING_MOVE
    assert c.status()["actor"] == "chance" and c.status()["task"] == "roll the die"


def test_a_start_told_before_the_streetcar_is_set_in_lights_where_it_goes() -> None:
    table = _built()
    c = table.controller
    c.play("start:t2a/B4", table.now)
    table.wait(c.timing.grace)
    assert c.status()["restore"] == {"t2a": "car2"}
    assert _frame(table)[PROFILE.site("t2a").leds[0]] == PALETTE.restore
    table.hands("place t2a car2")
    assert c.state is Phase.AWAITING_MOVE and c.match.moves_text()[-1] == "start:t2a/B4"


def test_play_refuses_what_the_rules_refuse_and_chance_s_outcomes() -> None:
    table = _table()
    c = table.controller
    refused = "'a1:1E' cannot be played now: a1: a rail would lead off the board"
    with pytest.raises(ControllerError, match=refused):
        c.play("a1:1E", table.now)
    c.play("a10:1E", table.now)  # any legal action: the board must follow
    assert c.status()["restore"] == {"a10": "1E"}
    table.hands("place a10 1E")
    c.play("b10:1E", table.now)
    table.hands("place b10 1E")
    with pytest.raises(ControllerError, match="chance acts now"):
        c.play("draw:1", table.now)
    assert c.match.moves_text() == ["a10:1E", "b10:1E"]


@pytest.mark.parametrize(
    "record",
    [
        "pass_when_nothing_fits_then_trip_wins_without_exact_count",
        "take_from_a_trip_players_hand_when_the_stacks_are_empty",
        "start_incomplete_route_is_caught",
    ],
)
def test_a_pass_a_take_and_a_caught_start_are_told_on_a_board(record: str) -> None:
    table = _record_table(record)
    moves = _record(record)["moves"]
    _play_by_hands(table, tuple(moves))
    assert table.controller.match.moves_text() == moves


class _Strip:
    def show(self, frame: Any) -> None:
        pass


def test_boardctl_play_tells_an_action_and_names_why_one_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from boardctl.cli.main import main
    from boardctl.controller.control import ControlServer
    from boardctl.controller.loop import Loop

    table = _table()
    loop = Loop(table.controller, _Strip(), clock=lambda: table.now)

    def answer(body: Any) -> dict[str, Any]:
        try:
            return {"ok": True, **loop.command(body, table.now)}
        except ControllerError as exc:
            return {"ok": False, "error": str(exc)}

    with ControlServer(tmp_path / "control.sock", answer) as server:
        socket = ["--socket", str(server.path)]
        assert main(["status", *socket]) == 0
        assert "the board cannot show (a pass, a card): boardctl play ACTION" in (
            capsys.readouterr().out
        )
        assert main(["play", "pass", *socket]) == 2
        assert "'pass' cannot be played now: player 1 can still lay a tile" in (
            capsys.readouterr().err
        )
        assert main(["play", "a10:1E", *socket]) == 0
        assert capsys.readouterr().out.strip() == "played a10:1E"
    assert table.controller.match.moves_text() == ["a10:1E"]


def _pips(frame: Any) -> dict[str, tuple[int, int, int]]:
    return {p: frame[PROFILE.site(p).leds[0]] for p in PIPS}


def test_the_die_shows_its_face_in_the_drivers_colour_from_the_roll_until_the_drive() -> None:
    table = _table()
    c = table.controller
    dark = dict.fromkeys(PIPS, (0, 0, 0))
    assert _pips(_frame(table)) == dark  # nothing rolled yet
    first = MOVES.index("roll:H")
    _play_by_hands(table, MOVES[:first])
    assert c.status()["task"] == "roll the die" and _pips(_frame(table)) == dark
    driver = PALETTE.player(0)
    # H: all seven pips, and the cell the streetcar stops on (the stop sign at b10)
    _play_by_hands(table, ("roll:H",))
    frame = _frame(table)
    assert _pips(frame) == dict.fromkeys(PIPS, driver)
    assert frame[PROFILE.site("b10").leds[0]] == scale(driver, 0.6)
    _play_by_hands(table, (MOVES[first + 1],))  # >a10-b10
    assert c.match.to_move() == 1 and _pips(_frame(table)) == dark
    # player 2 lays and draws; then player 1 rolls a 3 instead of the script's H
    second = MOVES.index("roll:H", first + 1)
    _play_by_hands(table, MOVES[first + 2 : second])
    assert _pips(_frame(table)) == dark
    _play_by_hands(table, ("roll:3",))
    frame = _frame(table)
    three = {"die-tl", "die-c", "die-br"}
    assert _pips(frame) == {p: driver if p in three else (0, 0, 0) for p in PIPS}
    # the way three cells on from b10 lights, and no further
    ahead = {s: frame[PROFILE.site(s).leds[0]] for s in ("c10", "d10", "e10", "f10")}
    hint = scale(driver, 0.6)
    assert ahead == {"c10": hint, "d10": hint, "e10": hint, "f10": PALETTE.base}
    _play_by_hands(table, (">c10-d10-e10",))
    assert c.match.to_move() == 1 and _pips(_frame(table)) == dark


def test_with_dealt_cards_a_wrong_board_names_no_action_to_tell() -> None:
    table = _dealt("L2", "L1", "B4", "B2")
    c = table.controller
    # player 1 (line 2) sets a streetcar in t2a on an empty board: caught if told,
    # and the room must not learn from the board's words that t2a is theirs
    table.hands("place t2a car2")
    table.wait(c.timing.grace + 0.5)
    assert c.state is Phase.WRONG_BOARD
    assert "to_tell" not in c.status()


def _record(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((RECORDS / f"{name}.json").read_text())
    return data


def _record_table(record: str) -> Table:
    """The record's own board (a small one given by its options), empty."""
    data = _record(record)
    engine = create("linie1", data["options"])
    # the board deals the cards face down; an operator tells each die
    deals = _Deals(engine, tuple(data["moves"]))
    profile = profile_for(engine, options=data["options"])
    table = Table(Controller(profile, chance=deals, chance_by_operator=True))
    table.settle()
    return table


def test_a_pass_told_late_lets_the_next_tile_already_on_the_board_count() -> None:
    table = _record_table("stuck_game_is_a_draw")
    c = table.controller
    _play_by_hands(table, ("a1:1E",))
    table.hands("place a3 1E")  # player 2 lays before player 1's pass is told
    c.play("pass", table.now)
    table.wait(c.timing.grace + 0.5)
    assert c.match.moves_text() == ["a1:1E", "pass", "a3:1E"]
    assert c.state is Phase.AWAITING_MOVE


def test_telling_an_action_wakes_a_dozing_board() -> None:
    table = _record_table("stuck_game_is_a_draw")
    c = table.controller
    _play_by_hands(table, ("a1:1E",))
    table.wait(c.timing.attract_after + 1.0)
    assert c.state is Phase.ATTRACT
    assert c.play("pass", table.now) == "pass"
    assert c.state is Phase.AWAITING_MOVE


def test_with_dealt_cards_and_an_operators_chance_the_board_deals_and_names_no_secret() -> None:
    import random

    from boardctl.daemon.chance import RandomChance

    table = Table(
        Controller(
            PROFILE,
            options={"secrets": "dealt"},
            chance=RandomChance(random.Random(3)),
            chance_by_operator=True,
        )
    )
    table.settle()
    c = table.controller
    # no person may name a card dealt face down: the board deals them itself
    assert c.public_moves == ["deal:L?", "deal:L?", "deal:B?", "deal:B?"]
    status = c.status()
    assert status["actor"] == 0 and "outcomes" not in status
    lines = [c.engine.private_view(c.match.state, p)["line"] for p in (0, 1)]
    other = next(n for n in range(1, 7) if n not in lines)
    for text in (f"start:t{other}a", f"start:t{lines[0]}a/B9"):  # another line, another card
        with pytest.raises(ControllerError) as refused:
            c.play(text, table.now)
        assert str(refused.value) == f"{text!r} is not a legal action now"
    # an undo takes back no card dealt: it would only be dealt the same again
    with pytest.raises(ControllerError, match="only chance has acted"):
        c.undo(table.now)


def test_with_dealt_cards_and_no_chance_source_no_outcome_is_offered_to_name() -> None:
    table = Table(Controller(PROFILE, options={"secrets": "dealt"}))
    table.settle()
    c = table.controller
    status = c.status()
    # the pages offer a button per outcome only when "chance" is "operator"
    assert status["actor"] == "chance" and status["chance"] == "none"
    with pytest.raises(ControllerError, match=r"secret .* no person can give it"):
        c.roll("deal:L2", table.now)
    assert c.match.moves_text() == []


def test_with_chance_on_the_button_one_press_draws_the_turn_s_tiles_even_made_early() -> None:
    import random

    from boardctl.daemon.chance import RandomChance
    from boardctl.sim import hands

    c = Controller(
        PROFILE, options={}, chance=RandomChance(random.Random(3)), chance_on_button=True
    )
    table = Table(c)
    table.settle()
    table.hands("place a10 1E")
    # the second tile earns D's stop sign: the player presses before it is on
    table.apply(hands.place(c.match.engine.board(), table.layout, "b10", "1E"))
    table.settle()
    c.button("choose", table.now)
    table.hands("place b10 stop")
    table.wait(1.0)
    moves = c.match.moves_text()
    assert moves[:2] == ["a10:1E", "b10:1E"]
    assert [m[:5] for m in moves[2:]] == ["draw:", "draw:"], "both tiles drawn at one press"
    assert c.status()["task"] == "lay two tiles or start the trip"


def test_a_tell_sent_twice_is_refused_the_second_time() -> None:
    table = _record_table("stuck_game_is_a_draw")
    c = table.controller
    _play_by_hands(table, ("a1:1E",))
    assert c.play("pass", table.now, ply=1) == "pass"
    with pytest.raises(ControllerError, match="'pass' was told after 1 actions, and 2 are"):
        c.play("pass", table.now, ply=1)
    assert c.match.moves_text() == ["a1:1E", "pass"]


def test_with_dealt_cards_a_trip_s_ways_are_lit_once_the_cards_are_shown() -> None:
    table = _record_table("dealt_cards_are_chance_and_stay_secret")
    c = table.controller
    moves = _record("dealt_cards_are_chance_and_stay_secret")["moves"]
    start = moves.index("start:t1a")
    _play_by_hands(table, tuple(moves[:start]))
    # a start is legal and the cards are unshown: no hint, it would tell the line
    assert not c.view().legal
    _play_by_hands(table, (moves[start], moves[start + 1]))  # the start, then roll:H
    assert c.match.moves_text()[-1] == "roll:H"
    assert c.view().legal >= {"c1"}, "the way the streetcar may drive is lit"


def test_a_takeback_by_the_board_says_which_told_actions_to_tell_again() -> None:
    table = _record_table("stuck_game_is_a_draw")
    c = table.controller
    _play_by_hands(table, ("a1:1E", "pass", "a3:1E", "pass"))
    table.hands("lift a3")  # player 1 takes the tile back: the pass after it goes too
    table.wait(c.timing.takeback_hold + 1.0)
    assert c.match.moves_text() == ["a1:1E", "pass"]
    assert c.status()["told_undone"] == ["pass"]
    table.hands("place a3 1E")
    says = controller_says(c.status())
    assert "taken back with the move: pass (told): tell it again if it still holds" in says
    c.play("pass", table.now)
    assert c.match.moves_text() == ["a1:1E", "pass", "a3:1E", "pass"]
    assert "told_undone" not in c.status()
