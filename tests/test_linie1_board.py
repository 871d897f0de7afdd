"""Linie 1 on its reference board, as hands play it: two tiles a turn, a stop
sign put on the tile that earned it, an exchange (a tile lifted and another
set in its place), a wrong tile shown and taken off, chance's draws told by
an operator, and no route shown on the LEDs before its owner reveals it."""

from __future__ import annotations

from typing import Any

from controller_support import Table

from boardctl.controller.machine import Controller
from boardctl.controller.scenes import Palette, render
from boardctl.controller.view import Phase
from boardctl.engines.linie1.demo import MOVES
from hardware.profiles import load_profile

PROFILE = load_profile("linie1")
PALETTE = Palette.choose((), PROFILE.palette)


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
    assert len(PROFILE.sites) == 144 + 12 and PROFILE.leds.count == 156


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


def test_dealt_cards_light_no_hint_and_show_no_route() -> None:
    table = Table(Controller(PROFILE, options={"secrets": "dealt"}))
    table.settle()
    c = table.controller
    for card in ("L1", "L2", "B1", "B2"):
        c.roll(f"deal:{card}", table.now)
    table.settle()
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
    moved cell by cell; draws and rolls told by an operator."""
    c = table.controller
    engine = c.engine
    for text in moves:
        state = c.match.state
        action = engine.parse_action(text)
        after = engine.layout(engine.apply(state, action))
        before = engine.layout(state)
        if text.startswith(("draw:", "roll:")):
            c.roll(text, table.now)
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
